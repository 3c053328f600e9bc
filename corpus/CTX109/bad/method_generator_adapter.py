# expect: 13 CTX109
"""Decode loop of a multi-LoRA server that binds the adapter across yields."""
from contextvars import ContextVar


class LoraServer:
    active_adapter: ContextVar[str] = ContextVar("active_adapter", default="base")

    def __init__(self, model):
        self.model = model

    async def decode(self, adapter: str, input_ids: list[int], max_new: int):
        token = self.active_adapter.set(adapter)
        try:
            for _ in range(max_new):
                nxt = await self.model.step(input_ids)
                input_ids.append(nxt)
                yield nxt
        finally:
            self.active_adapter.reset(token)
