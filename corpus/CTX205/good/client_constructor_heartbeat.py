# expect: none
# An SDK client's constructor takes a project id as configuration and starts its
# heartbeat loop; a constructor does not serve a request, so the task is not
# reported for the ids it is configured with.
import asyncio


class TrainingClient:
    def __init__(self, api, project_id: str, interval: float = 30.0):
        self.api = api
        self.project_id = project_id
        self.interval = interval
        self._heartbeat_task = asyncio.get_running_loop().create_task(self._heartbeat())

    async def _heartbeat(self):
        while True:
            await self.api.ping(self.project_id)
            await asyncio.sleep(self.interval)
