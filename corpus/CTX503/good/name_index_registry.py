# expect: none
"""A registry that maps the user-facing adapter name to the loaded adapter object is
a lookup table by name (loading a second adapter under a taken name is refused),
not a cache of data derived from the adapter."""
from dataclasses import dataclass
from typing import Dict


@dataclass
class AdapterRef:
    name: str
    adapter_id: str
    path: str


class AdapterRegistry:
    def __init__(self):
        self._registry: Dict[str, AdapterRef] = {}

    def register(self, ref: AdapterRef) -> None:
        if ref.name in self._registry:
            raise ValueError(f"adapter {ref.name!r} is already loaded")
        self._registry[ref.name] = ref

    def unregister(self, name: str) -> AdapterRef:
        return self._registry.pop(name)
