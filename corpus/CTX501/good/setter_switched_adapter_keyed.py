# expect: none
"""The memo key carries the selected adapter's id."""
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
        self._memo: dict[tuple[int, str], str] = {}

    def select(self, lora: LoraHandle | None) -> None:
        self.current = lora

    def complete(self, text: str) -> str:
        lora_int_id = self.current.lora_int_id if self.current else 0
        h = (lora_int_id, hashlib.sha256(text.encode()).hexdigest())
        if h not in self._memo:
            self._memo[h] = self.backend.generate(text, lora=self.current)
        return self._memo[h]
