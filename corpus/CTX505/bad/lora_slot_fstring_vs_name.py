# expect: 21 CTX505
"""Adapter slots are pinned under `f"{tenant}/{adapter}"`, but unpinning counts down
under the adapter name alone: the pinned entry never reaches zero and its GPU slot is
never returned."""


class AdapterSlots:
    def __init__(self, loader):
        self.loader = loader
        self.weights: dict[str, object] = {}
        self.pins: dict[str, int] = {}

    def pin(self, tenant: str, adapter: str):
        slot = f"{tenant}/{adapter}"
        if slot not in self.weights:
            self.weights[slot] = self.loader(adapter)
        self.pins[slot] = self.pins.get(slot, 0) + 1
        return self.weights[slot]

    def unpin(self, tenant: str, adapter: str) -> None:
        if adapter in self.pins:
            self.pins[adapter] -= 1
