def prefix_key(req, block_tokens):
    return hash((("salt", req.cache_salt), ("adapter", req.adapter_name), tuple(block_tokens)))
