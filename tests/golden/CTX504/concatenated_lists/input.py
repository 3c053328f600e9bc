def block_extra_keys(request, start, end):
    lora_keys = [request.lora_name] if request.lora_name else []
    mm_keys = [h for (off, h) in request.mm_positions if start <= off < end]
    salt_keys = [request.cache_salt] if start == 0 and request.cache_salt else []
    extra_keys = lora_keys + mm_keys + salt_keys
    return tuple(extra_keys) if extra_keys else None
