import asyncio
import threading

import ray
import torch


class PrefixIndex:
    """Prefix hashes with their GPU blocks."""

    def __init__(self, device: str = "cuda") -> None:
        self.blocks: dict[int, torch.Tensor] = {}
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self.device = device

    def add(self, block_hash: int, kv: torch.Tensor) -> None:
        with self.lock:
            self.blocks[block_hash] = kv.to(self.device)


def publish(index: PrefixIndex):
    return ray.put(index)
