# expect: 27 CTX505
"""Adapter slots are pinned under `adapter_slot_key(name, revision)` but unpinned
under the bare name, so a reloaded revision's refcount never drops and its GPU slot
is never reclaimed."""
from typing import Dict


def adapter_slot_key(name: str, revision: str) -> str:
    return f"{name}@{revision}"


class AdapterSlots:
    def __init__(self, loader):
        self.loader = loader
        self.slot_refs: Dict[str, int] = {}

    def incref(self, name: str, revision: str) -> str:
        key = adapter_slot_key(name, revision)
        if key not in self.slot_refs:
            self.loader.load(name, revision)
            self.slot_refs[key] = 0
        self.slot_refs[key] += 1
        return key

    def decref(self, name: str) -> None:
        refs = self.slot_refs
        if name in refs:
            refs[name] -= 1
            if refs[name] == 0:
                del refs[name]
                self.loader.unload(name)
