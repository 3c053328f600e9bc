# expect: none
"""Hook registries of this module: registering keeps the callback in a list or set
the registry owns (and `unregister_hook` takes it out), and hands back nothing but
the callback itself, so a call that drops the result drops no handle."""
from typing import Callable


class HookRegistry:
    def __init__(self):
        self._hooks: dict[str, list[Callable]] = {}

    def register_hook(self, event: str, fn: Callable) -> None:
        self._hooks.setdefault(event, []).append(fn)

    def unregister_hook(self, event: str, fn: Callable) -> None:
        self._hooks.get(event, []).remove(fn)

    def fire(self, event: str, payload):
        for fn in self._hooks.get(event, ()):
            fn(payload)


class DedupRegistry(HookRegistry):
    """Registers each (event, callback) pair once."""

    def __init__(self):
        super().__init__()
        self._seen: set = set()

    def register_hook(self, event: str, fn: Callable) -> None:
        if (event, fn) in self._seen:
            return
        self._seen.add((event, fn))
        super().register_hook(event, fn)


class BatchStage:
    """A pipeline stage; `register_pre_hook` doubles as a decorator."""

    def __init__(self):
        self._pre: set = set()

    def register_pre_hook(self, fn: Callable) -> Callable:
        self._pre.add(fn)
        return fn

    def __call__(self, batch: dict) -> dict:
        if batch.get("debug"):
            self.register_pre_hook(_dump_batch)  # a set: the same callback is kept once
        for fn in self._pre:
            batch = fn(batch) or batch
        return batch


def _dump_batch(batch):
    print(sorted(batch))
