# expect: 23 CTX505 indexes `self.slots` by `self._active_prompt`
"""Near miss of the attribute read-back: the acquire side remembers the raw prompt, not
the digest it keyed the dict by, so the release pops a key never stored."""
import hashlib


def _slot_key(model: str, prompt: str) -> str:
    return hashlib.sha256(f"{model}:{prompt}".encode()).hexdigest()


class ActiveSlot:
    def __init__(self):
        self.slots: dict = {}
        self._active_prompt = None

    def begin(self, model, prompt, handle):
        key = _slot_key(model, prompt)
        self._active_prompt = prompt
        self.slots[key] = handle

    def end(self):
        return self.slots.pop(
            self._active_prompt, None)
