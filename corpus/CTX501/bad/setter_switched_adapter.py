# expect: 25 CTX501
"""The client answers with whichever adapter `select()` switched to last, but its
result memo is keyed by the text alone: adapter B is served adapter A's answers."""
import hashlib
from dataclasses import dataclass


@dataclass
class LoraHandle:
    label: str
    lora_int_id: int


class Completer:
    def __init__(self, backend) -> None:
        self.backend = backend
        self.current: LoraHandle | None = None
        self._memo: dict[str, str] = {}

    def select(self, lora: LoraHandle | None) -> None:
        self.current = lora

    def complete(self, text: str) -> str:
        h = hashlib.sha256(text.encode()).hexdigest()
        found = self._memo.get(h)
        if found is not None:
            return found
        out = self.backend.generate(text, lora=self.current)
        self._memo[h] = out
        return self._memo[h]
