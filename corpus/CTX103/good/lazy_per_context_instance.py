# expect: none
"""Kind: lazy per-context initialisation - the var is set only when it holds nothing yet,
and what is set is a fresh object: a per-Context singleton meant to stay bound."""
import collections
from contextvars import ContextVar


class Bag(dict):
    pass


_bag: ContextVar[Bag | None] = ContextVar("bag", default=None)
_registry: ContextVar[dict] = ContextVar("registry")


def current_bag() -> Bag:
    bag = _bag.get()
    if bag is None:
        bag = Bag()
        _bag.set(bag)
    bag.setdefault("hits", 0)
    return bag


def registry() -> dict:
    try:
        return _registry.get()
    except LookupError:
        fresh = {}
        _registry.set(fresh)
        return fresh


_hits: ContextVar[dict | None] = ContextVar("hits", default=None)


def count(key: str) -> int:
    if _hits.get(None) is None:
        _hits.set(collections.defaultdict(int))
    table = _hits.get()
    table[key] += 1
    return table[key]
