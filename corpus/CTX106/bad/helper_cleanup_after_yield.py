# expect: 21 CTX106
"""Adapter routing: a helper of this module undoes the registration after the yield."""
from contextlib import contextmanager

_active: dict[str, object] = {}


def _activate(name: str, adapter) -> None:
    _active[name] = adapter


def _deactivate(name: str) -> None:
    # named for what it does, not by any cleanup word a name list would know
    _active.pop(name, None)


@contextmanager
def routed(name: str, adapter):
    _activate(name, adapter)
    # an exception in the with-body skips the helper, and the adapter stays routed
    yield adapter
    _deactivate(name)
