# expect: 13 CTX501 tenant
"""Near miss of a scan listing: each stored id read back is combined with the prompt,
so the function builds new keys, and the tenant in reach is missing from them."""
_ANSWERS = {}


async def lookup_cache_keys(store, prompt, tenant_id):
    keys = []
    rows = await store.fetch(prompt)
    for row in rows:
        keys.append((row["id"], prompt))
    _ = tenant_id
    return keys

