# expect: 24 CTX401
"""Near miss: the looked-up value IS a request id (the table maps tasks to requests)."""
import asyncio
from typing import Dict


class StreamEngine:
    def __init__(self):
        self._task_request: Dict[int, str] = {}
        self._started_at: Dict[str, float] = {}

    async def start(self, request_id: str) -> None:
        task = asyncio.current_task()
        self._task_request[id(task)] = request_id

    def finish(self) -> None:
        task = asyncio.current_task()
        self._task_request.pop(id(task), None)

    def on_token(self, when: float) -> None:
        task = asyncio.current_task()
        owner = self._task_request.get(id(task))
        if owner is not None and owner not in self._started_at:
            self._started_at[owner] = when
