# expect: none
class StreamManager:
    def __init__(self):
        self.runs = {}

    async def start_stream(self, run_id, task):
        async for message in task.run_stream():
            await self.runs[run_id].send(message)
