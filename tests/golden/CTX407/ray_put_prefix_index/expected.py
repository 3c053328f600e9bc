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

    def __getstate__(self) -> dict:
        # plain data only (ctxlint CTX407): these fields cannot or must not be pickled
        state = self.__dict__.copy()
        for dropped in ("blocks", "lock", "loop"):
            state.pop(dropped, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.blocks = {}
        self.lock = threading.Lock()
        self.loop = None


def publish(index: PrefixIndex):
    return ray.put(index)
