# expect: none
import logging

log = logging.getLogger(__name__)


class StreamManager:
    def __init__(self):
        self.runs = {}

    async def start_stream(self, run_id, task):
        try:
            async for message in task.run_stream():
                await self.runs[run_id].send(message)
        except Exception as e:
            log.error("stream %s failed: %s", run_id, e)
