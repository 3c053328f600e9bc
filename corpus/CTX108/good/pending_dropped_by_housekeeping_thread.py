# expect: none
"""A client whose housekeeping thread walks the pending table itself every second
and drops stale calls: an entry a cancelled call leaves behind is dropped there."""
import threading
import time


class RpcClient:
    def __init__(self, conn, ttl: float = 30.0) -> None:
        self.conn = conn
        self.ttl = ttl
        self._pending: dict[str, tuple[float, object]] = {}
        self._lock = threading.Lock()
        worker = threading.Thread(target=self._housekeeping, daemon=True)
        worker.start()

    async def call(self, call_id: str, payload: bytes, waiter) -> object:
        self._pending[call_id] = (time.monotonic(), waiter)
        await self.conn.send(call_id, payload)
        result = await waiter
        self._pending.pop(call_id, None)
        return result

    def on_reply(self, call_id: str, value) -> None:
        entry = self._pending.pop(call_id, None)
        if entry is not None:
            entry[1].set_result(value)

    def _housekeeping(self) -> None:
        while True:
            time.sleep(1.0)
            now = time.monotonic()
            with self._lock:
                for call_id, (started, _w) in list(self._pending.items()):
                    if now - started > self.ttl:
                        self._pending.pop(call_id, None)
