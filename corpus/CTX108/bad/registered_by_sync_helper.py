# expect: 30 CTX108
"""Tokenizer front door: a sync helper registers the request before the awaited work."""
import asyncio


class ReqState:
    def __init__(self) -> None:
        self.out: asyncio.Queue = asyncio.Queue()


class TokenizerManager:
    def __init__(self, tokenizer, scheduler) -> None:
        self.tokenizer = tokenizer
        self.scheduler = scheduler
        self.rid_to_state: dict[str, ReqState] = {}

    def _make_state(self, obj) -> None:
        self.rid_to_state[obj.rid] = ReqState()

    def _init_req_state(self, obj) -> None:
        # one more helper layer: the summary composes through it
        self._make_state(obj)

    def abort_request(self, rid: str) -> None:
        self.rid_to_state.pop(rid, None)

    async def generate_request(self, obj):
        # the helper's insertion is this coroutine's; cancelled or failing in the
        # awaited tokenization, nobody removes it
        self._init_req_state(obj)
        ids = await self.tokenizer.encode_async(obj)
        self.scheduler.send(obj.rid, ids)
        return self.rid_to_state[obj.rid].out
