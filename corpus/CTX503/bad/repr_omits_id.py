# expect: 20 CTX503
"""The adapter's own __repr__ prints only its label, and the memo key is built from
it: reloading new weights under the same label serves the old results."""
from dataclasses import dataclass

_RESULTS: dict = {}


@dataclass
class Adapter:
    label: str
    adapter_id: int

    def __repr__(self) -> str:
        return f"Adapter({self.label})"


def answer(adapter: Adapter, prompt: str, run):
    key = f"{adapter!r}:{prompt}"
    if key not in _RESULTS:
        _RESULTS[key] = run(adapter, prompt)
    return _RESULTS[key]
