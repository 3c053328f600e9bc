# expect: none
# The pending request is registered, then its event is queued. The queue is an
# unbounded asyncio.Queue re-created on a loop change by a helper method, and
# `put()` on an unbounded queue never suspends, so no cancellation can land between
# the registration and the end of the call. The entry is meant to outlive the call:
# the response handler pops it.
import asyncio


class RunnerContext:
    def __init__(self) -> None:
        self._event_queue: asyncio.Queue | None = None
        self._event_loop = None
        self._pending: dict[str, object] = {}

    def _get_event_queue(self) -> asyncio.Queue:
        loop = asyncio.get_running_loop()
        if self._event_queue is None or self._event_loop is not loop:
            self._event_queue = asyncio.Queue()
            self._event_loop = loop
        return self._event_queue

    async def add_event(self, event) -> None:
        await self._get_event_queue().put(event)

    async def add_request_info_event(self, event) -> None:
        self._pending[event.request_id] = event
        await self.add_event(event)

    async def send_response(self, request_id: str, response) -> None:
        event = self._pending.pop(request_id)
        await self.add_event({"response": response, "for": event})
