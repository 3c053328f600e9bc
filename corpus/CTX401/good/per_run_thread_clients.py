# expect: none
"""`pump()` starts every run with an empty table of per-thread clients; the table
holds the threads of one run, and the next run replaces it."""


class TracedClient:
    def __init__(self, base, thread_id: str):
        self.base = base
        self.thread_id = thread_id

    async def send(self, payload: dict) -> None:
        await self.base.post(payload, headers={"x-thread": self.thread_id})


class ToolEventWorker:
    def __init__(self, base_client, source):
        self.base_client = base_client
        self.source = source

    async def pump(self) -> None:
        self._client_by_thread: dict[str, TracedClient] = {}
        async for event in self.source:
            await self._client_for(event.thread_id).send(event.payload)

    def _client_for(self, thread_id: str) -> TracedClient:
        if thread_id not in self._client_by_thread:
            self._client_by_thread[thread_id] = TracedClient(self.base_client, thread_id)
        return self._client_by_thread[thread_id]
