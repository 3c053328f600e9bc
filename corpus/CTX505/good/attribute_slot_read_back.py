# expect: none
"""The acquire side remembers the key it minted on the instance; the release side pops
by that attribute, directly or through a local: the same value on both sides."""
import hashlib


def _slot_key(model: str, prompt: str) -> str:
    return hashlib.sha256(f"{model}:{prompt}".encode()).hexdigest()


class ActiveSlot:
    def __init__(self):
        self.slots: dict = {}
        self._active_key = None

    def begin(self, model, prompt, handle):
        key = _slot_key(model, prompt)
        self._active_key = key
        self.slots[key] = handle

    def end(self):
        active = self._active_key
        if active is None:
            return None
        return self.slots.pop(active, None)
