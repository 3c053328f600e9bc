def prefix_key(req, block_tokens):
    return hash((req.cache_salt, req.adapter_name, tuple(block_tokens)))
