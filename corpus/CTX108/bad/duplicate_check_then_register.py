# expect: 22 CTX108
"""The coroutine looks the id up first, but only to refuse a duplicate: the entry is
still created by this call, and cancelled at the submit it stays forever (the
'entry may exist already' exemption must not cover a duplicate check that raises)."""
import asyncio


class RequestState:
    def __init__(self, rid: str) -> None:
        self.rid = rid
        self.queue: asyncio.Queue = asyncio.Queue()


class OutputProcessor:
    def __init__(self, core) -> None:
        self.core = core
        self.request_states: dict[str, RequestState] = {}

    async def add_request(self, rid: str, prompt_ids: list[int]) -> asyncio.Queue:
        if rid in self.request_states:
            raise ValueError(f"request {rid} already running")
        self.request_states[rid] = RequestState(rid)
        await self.core.add_request_async(rid, prompt_ids)
        return self.request_states[rid].queue

    def finish(self, rid: str) -> None:
        self.request_states.pop(rid, None)
