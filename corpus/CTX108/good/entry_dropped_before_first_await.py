# expect: none
"""The request's own entry is popped (by the same key, unconditionally) before the
first `await`: nothing is left in the table while the call can be cancelled."""


class StreamRouter:
    def __init__(self, engine) -> None:
        self.engine = engine
        self.staging: dict[str, object] = {}

    async def handle(self, stream_id: str, request) -> None:
        self.staging[stream_id] = request
        batch = self.engine.prepare(self.staging)
        self.staging.pop(stream_id, None)
        await self.engine.submit(stream_id, batch)
