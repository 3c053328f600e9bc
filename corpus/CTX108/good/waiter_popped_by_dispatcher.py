# expect: none
"""The request is handed to the engine by a synchronous call, then the coroutine waits
on the future stored in the entry; the dispatcher thread pops the entry when the
engine reports the request finished or failed. A cancellation at that await leaves
the entry to the dispatcher, which still removes it. Reduced from xinference
xinference/model/image/vllm/core.py (_submit_and_wait / the output dispatcher)."""
import asyncio
import concurrent.futures
import threading
import uuid


class _Waiter:
    def __init__(self) -> None:
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.outputs: list = []


class ImageEngineModel:
    def __init__(self, engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._waiters: dict[str, _Waiter] = {}

    async def submit_and_wait(self, prompt: str, params: dict) -> list:
        request_id = f"img-{uuid.uuid4()}"
        waiter = _Waiter()
        with self._lock:
            self._waiters[request_id] = waiter
        try:
            self.engine.add_request(request_id=request_id, prompt=prompt, params=params)
        except Exception:
            with self._lock:
                self._waiters.pop(request_id, None)
            raise
        return await asyncio.wrap_future(waiter.future)

    def _on_engine_message(self, request_id: str, output, finished: bool) -> None:
        with self._lock:
            waiter = self._waiters.get(request_id)
        if waiter is None:
            return
        waiter.outputs.append(output)
        if finished:
            with self._lock:
                self._waiters.pop(request_id, None)
            waiter.future.set_result(list(waiter.outputs))
