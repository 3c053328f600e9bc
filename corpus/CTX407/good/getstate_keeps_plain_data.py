# expect: none
"""The class says what travels: plain data only."""
import threading

import ray


class Counter:
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def __getstate__(self) -> dict:
        return {"counts": dict(self.counts)}

    def __setstate__(self, state: dict) -> None:
        self.counts = state["counts"]
        self.lock = threading.Lock()


def publish(c: Counter):
    return ray.put(c)
