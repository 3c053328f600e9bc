# expect: 28 CTX108
# Reported in review of stop 22's exemptions: the lazily created queue is also rebound bounded by tuple unpacking.
# (A real bug the first version of the exemption silenced.)
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

    def resize(self, n: int) -> None:
        # a bounded queue installed by tuple assignment
        self._event_queue, self._event_loop = asyncio.Queue(maxsize=n), asyncio.get_running_loop()

    async def add_event(self, event) -> None:
        await self._get_event_queue().put(event)

    async def add_request_info_event(self, event) -> None:
        self._pending[event.request_id] = event
        await self.add_event(event)

    async def send_response(self, request_id: str, response) -> None:
        event = self._pending.pop(request_id)
        await self.add_event({"response": response, "for": event})
