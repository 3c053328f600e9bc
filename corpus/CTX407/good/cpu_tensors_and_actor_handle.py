# expect: none
"""CPU tensors pickle fine; an actor's own lock never travels (only its handle does)."""
import threading

import ray
import torch


class Batch:
    def __init__(self, ids: list[int]) -> None:
        self.ids = torch.tensor(ids, device="cpu")


@ray.remote
class Worker:
    def __init__(self) -> None:
        self.lock = threading.Lock()

    def run(self, batch: Batch) -> int:
        with self.lock:
            return int(batch.ids.sum())


def go(ids: list[int]):
    worker = Worker.remote()
    return worker.run.remote(Batch(ids))
