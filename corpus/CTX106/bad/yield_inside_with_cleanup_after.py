# expect: 14 CTX106
"""Loads dummy LoRAs for warm-up under a lock, then removes them after the block."""
import threading
from contextlib import contextmanager

_lock = threading.Lock()


@contextmanager
def warmup_loras(manager, lora_ids: list[int]):
    with _lock:
        for lid in lora_ids:
            manager.add_dummy_lora(lid)
        yield
    manager.remove_all_adapters()
