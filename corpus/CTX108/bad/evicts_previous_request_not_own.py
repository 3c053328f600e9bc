# expect: 13 CTX108 per-request entry put in long-lived `self.in_flight`
"""Registering a request evicts the previous request's entry (`self._last_id`), not
this one's: a cancellation during `submit` still leaves this request's entry behind."""


class StreamRouter:
    def __init__(self, engine) -> None:
        self.engine = engine
        self.in_flight: dict[str, object] = {}
        self._last_id = None

    async def handle(self, request_id: str, request) -> None:
        self.in_flight[request_id] = request
        self.in_flight.pop(self._last_id, None)
        self._last_id = request_id
        await self.engine.submit(request_id, request)
        del self.in_flight[request_id]

    def abort(self, request_id: str) -> None:
        self.in_flight.pop(request_id, None)
