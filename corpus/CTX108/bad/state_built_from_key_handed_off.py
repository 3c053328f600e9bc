# expect: 21 CTX108
"""The awaited submit is passed the state object, which carries the request id: the
hand-off of the request, so a cancellation there leaks the entry."""
import asyncio


class ReqState:
    def __init__(self, rid: str, prompt_ids: list[int]) -> None:
        self.rid = rid
        self.prompt_ids = prompt_ids
        self.out: asyncio.Queue = asyncio.Queue()


class Frontend:
    def __init__(self, core) -> None:
        self.core = core
        self.live: dict[str, ReqState] = {}

    async def add(self, rid: str, prompt_ids: list[int]) -> asyncio.Queue:
        state = ReqState(rid, prompt_ids)
        self.live[rid] = state
        await self.core.submit(state)
        return state.out

    def on_output(self, rid: str, done: bool) -> None:
        if done:
            self.live.pop(rid, None)
