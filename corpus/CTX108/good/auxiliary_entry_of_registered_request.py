# expect: none
"""Destinations registered for a request that already exists: the request's own
release path removes them, so a cancellation here leaves nothing behind."""
import asyncio


class EncoderServer:
    def __init__(self, delivery) -> None:
        self.delivery = delivery
        self.req_states: dict[str, object] = {}
        self.destinations: dict[str, set] = {}

    def release(self, req_id: str) -> None:
        self.req_states.pop(req_id, None)
        self.destinations.pop(req_id, None)

    async def register_destinations(self, req_id: str, urls: list) -> None:
        state = self.req_states.get(req_id)
        if state is None:
            raise KeyError(req_id)
        self.destinations[req_id] = set(urls)
        await self.delivery.notify(req_id)
