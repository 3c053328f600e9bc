# expect: none
"""Each part is labelled with its kind, so an adapter name can never be mistaken for
a cache salt."""
from typing import Any, List, Optional, Tuple


def block_extra_keys(request, start: int) -> Optional[Tuple[Any, ...]]:
    lora_extra_keys: List[Any] = [("lora", request.lora_name)] if request.lora_name else []
    salt_keys = [("cache_salt", request.cache_salt)] if (start == 0 and request.cache_salt) else []
    extra_keys = lora_extra_keys + salt_keys
    return tuple(extra_keys) if extra_keys else None
