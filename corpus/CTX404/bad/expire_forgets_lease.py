# expect: 25 CTX404
"""`acquire` files each thread's sandbox and its lease together, so every ending
owes both; `expire_sandbox` drops the sandbox and leaves the lease."""
from typing import Dict


class SandboxManager:
    def __init__(self, factory):
        self.factory = factory
        self._boxes: Dict[str, object] = {}
        self._leases: Dict[str, float] = {}

    def acquire(self, thread_id: str, ttl: float):
        box = self.factory.open_sync()
        self._boxes[thread_id] = box
        self._leases[thread_id] = ttl
        return box

    def close_sandbox(self, thread_id: str) -> None:
        box = self._boxes.pop(thread_id, None)
        self._leases.pop(thread_id, None)
        if box is not None:
            box.close()

    def expire_sandbox(self, thread_id: str) -> None:
        box = self._boxes.pop(thread_id, None)
        if box is not None:
            box.close()
