# expect: 23 CTX503
"""An adapter handle hashes by its name, so the memoized weight loader treats two
different loads with the same name as one: the second caller gets the first load's
merged weights."""
from dataclasses import dataclass
from functools import lru_cache


@dataclass(eq=False)
class AdapterRef:
    name: str
    uid: int
    path: str

    def __hash__(self) -> int:
        return hash(self.name)

    def __eq__(self, other) -> bool:
        return isinstance(other, AdapterRef) and other.name == self.name


@lru_cache(maxsize=8)
def merged_weights(adapter: AdapterRef, scale: float):
    return {"path": adapter.path, "scale": scale}
