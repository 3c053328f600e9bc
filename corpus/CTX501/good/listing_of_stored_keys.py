# expect: none
"""Reduced from lightrag's rebuild tool: a helper that lists the keys one KV store
already holds (its key view) builds no key; their scope was decided where they were
stored."""
import logging

log = logging.getLogger(__name__)


def snapshot_cache_keys(store) -> list:
    log.debug("listing keys of %s", store.namespace)
    with store.lock:
        return sorted(store.entries.keys())


def dump(store):
    return [store.entries[k] for k in snapshot_cache_keys(store)]
