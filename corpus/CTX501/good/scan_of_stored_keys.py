# expect: none
"""A scan over a store's own key space: every returned key is an item the scan read
back (prefix stripped, decoded), not a key made here, whether the scan is an awaited
batch loop or an `async for` over a cursor."""
import logging

log = logging.getLogger(__name__)


async def all_kv_keys(store) -> list:
    prefix = f"{store.final_prefix}:"
    log.debug("scanning %s", store.namespace)
    found = set()
    cursor = 0
    while True:
        cursor, page = await store.redis.scan(cursor, match=prefix + "*")
        for raw in page:
            if isinstance(raw, bytes):
                raw = raw.decode()
            found.add(raw[len(prefix):] if raw.startswith(prefix) else raw)
        if cursor == 0:
            break
    return list(found)


async def document_cache_keys(store, account_id):
    log.debug("listing documents of %s", account_id)
    ids = []
    async for chunk in store.iter_docs(batch_size=500):
        ids.extend(doc["_id"] for doc in chunk)
    return ids
