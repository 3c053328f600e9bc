def _key_part(kind, part):
    """`part` labelled with its kind, keeping its type: `[(kind, tuple(part))]` for a list,
    the same as a tuple for a tuple, `repr((kind, part))` for a str; an empty part stays
    empty, so a key with no scope part is what it was (added by ctxlint, CTX504)."""
    if not part:
        return part
    if isinstance(part, str):
        return repr((kind, part))
    return type(part)([(kind, tuple(part))])


def block_extra_keys(request, start, end):
    lora_keys = [request.lora_name] if request.lora_name else []
    mm_keys = [h for (off, h) in request.mm_positions if start <= off < end]
    salt_keys = [request.cache_salt] if start == 0 and request.cache_salt else []
    extra_keys = _key_part("lora", lora_keys) + mm_keys + _key_part("cache_salt", salt_keys)
    return tuple(extra_keys) if extra_keys else None
