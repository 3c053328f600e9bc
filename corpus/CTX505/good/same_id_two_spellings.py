# expect: none
"""Register and unregister reach the same id through two spellings: not a mismatch."""
import threading

_providers: dict = {}
_lock = threading.Lock()


def add_provider(spec) -> None:
    with _lock:
        _providers[spec.provider_id] = spec


def remove_provider(provider_id: str) -> None:
    with _lock:
        _providers.pop(provider_id, None)
