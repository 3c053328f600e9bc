# expect: none
"""The helper's registration is undone when the awaited hand-off fails or is cancelled."""
import asyncio


class TokenizerManager:
    def __init__(self, tokenizer, scheduler) -> None:
        self.tokenizer = tokenizer
        self.scheduler = scheduler
        self.rid_to_state: dict[str, asyncio.Queue] = {}

    def _init_req_state(self, obj) -> None:
        self.rid_to_state[obj.rid] = asyncio.Queue()

    def _drop(self, obj) -> None:
        self.rid_to_state.pop(obj.rid, None)

    def _warm(self) -> None:
        # fills a server-wide entry from no argument: not one request's state
        self.rid_to_state["__warmup__"] = asyncio.Queue()

    async def generate_request(self, obj):
        self._init_req_state(obj)
        try:
            ids = await self.tokenizer.encode_async(obj)
        except BaseException:
            self._drop(obj)
            raise
        self.scheduler.send(obj.rid, ids)
        return self.rid_to_state[obj.rid]

    async def warmup(self):
        self._warm()
        await self.tokenizer.encode_async("warmup")
