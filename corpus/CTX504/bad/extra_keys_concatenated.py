# expect: 20 CTX504
"""Block-hash extra keys concatenate whichever scope parts a request has, as bare
values: a request with LoRA "acme" and no salt and a request with no LoRA and salt
"acme" hash to the same blocks."""
from typing import Any, List, Optional, Tuple


def _lora_keys(request) -> List[Any]:
    return [request.lora_name] if request.lora_name else []


def _mm_keys(request, start: int, end: int) -> List[Any]:
    return [h for (off, h) in request.mm_positions if start <= off < end]


def block_extra_keys(request, start: int, end: int) -> Optional[Tuple[Any, ...]]:
    lora_extra_keys = _lora_keys(request)
    mm_extra_keys = _mm_keys(request, start, end)
    salt_keys = [request.cache_salt] if (start == 0 and request.cache_salt) else []
    extra_keys = lora_extra_keys + mm_extra_keys + salt_keys
    return tuple(extra_keys) if extra_keys else None
