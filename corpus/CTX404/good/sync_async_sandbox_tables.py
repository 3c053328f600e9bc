# expect: none
"""Async and sync sandboxes live in separate tables, each filled by its own
creation path; each close undoes only the table its creation path filled."""
from typing import Dict, Tuple


class SandboxManager:
    def __init__(self, factory):
        self.factory = factory
        self._async_boxes: Dict[str, Tuple[object, bool]] = {}
        self._sync_boxes: Dict[str, Tuple[object, bool]] = {}

    async def get_async_box(self, thread_id: str):
        if thread_id in self._async_boxes:
            return self._async_boxes[thread_id][0]
        return await self._create_async_box(thread_id)

    async def _create_async_box(self, thread_id: str):
        box = await self.factory.open_async()
        self._async_boxes[thread_id] = (box, True)
        return box

    def get_sync_box(self, thread_id: str):
        if thread_id in self._sync_boxes:
            return self._sync_boxes[thread_id][0]
        box = self.factory.open_sync()
        self._sync_boxes[thread_id] = (box, True)
        return box

    async def close_async_box(self, thread_id: str) -> None:
        if thread_id not in self._async_boxes:
            return
        box, _ = self._async_boxes[thread_id]
        await box.aclose()
        del self._async_boxes[thread_id]

    def close_sync_box(self, thread_id: str) -> None:
        if thread_id not in self._sync_boxes:
            return
        box, _ = self._sync_boxes[thread_id]
        box.close()
        del self._sync_boxes[thread_id]
