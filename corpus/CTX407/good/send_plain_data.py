# expect: none
"""Only the hash list is sent; the index with its lock and GPU tensors stays local."""
import threading

import ray
import torch


class PrefixIndex:
    def __init__(self) -> None:
        self.blocks: dict[int, torch.Tensor] = {}
        self.lock = threading.Lock()

    def add(self, h: int, kv: torch.Tensor) -> None:
        with self.lock:
            self.blocks[h] = kv.cuda()

    def hashes(self) -> list[int]:
        return sorted(self.blocks)


def publish(index: PrefixIndex):
    return ray.put(index.hashes())
