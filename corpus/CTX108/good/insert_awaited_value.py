# expect: none
"""The entry is stored only once the awaited lookup completed: `x[k] = await ...`
evaluates the await first, so a cancellation there stores nothing.
Reduced from xinference xinference/model/llm/vllm/xavier/scheduler.py (set_unpin_handler)."""
import asyncio


async def actor_ref(address: str, uid: str) -> object:
    await asyncio.sleep(0)
    return (address, uid)


class XavierScheduler:
    def __init__(self):
        self._unpin_handlers: dict[str, object] = {}

    async def set_unpin_handler(self, model_uid: str, request_id: str, address: str) -> None:
        self._unpin_handlers[request_id] = await actor_ref(address, f"{model_uid}-{request_id}")

    def remove_unpin_handler(self, request_id: str) -> None:
        if request_id in self._unpin_handlers:
            del self._unpin_handlers[request_id]
