# expect: none
"""The registering coroutine has no try of its own, but its only caller removes the entry
in `finally`, however the stream ends (lightllm's PD master `fetch_stream`, a misread of
the fresh review; L07's conditional cleanup is the bad twin)."""
import asyncio
from dataclasses import dataclass, field
from typing import Dict


@dataclass
class RequestState:
    rid: str
    prompt_ids: list
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)


class Frontend:
    def __init__(self, core):
        self.core = core
        self.live: Dict[str, RequestState] = {}

    async def add(self, rid: str, prompt_ids: list) -> asyncio.Queue:
        state = RequestState(rid, prompt_ids)
        self.live[rid] = state
        await self.core.submit(rid, prompt_ids)
        return state.queue

    def abort(self, rid: str) -> None:
        self.live.pop(rid, None)

    async def generate(self, rid: str, prompt_ids: list):
        q = None
        try:
            q = await self.add(rid, prompt_ids)
            while True:
                item = await q.get()
                if item is None:
                    return
                yield item
        finally:
            self.abort(rid)  # however the stream ends, cancelled inside add() included
