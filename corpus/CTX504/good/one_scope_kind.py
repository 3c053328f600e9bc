# expect: none
"""Concatenating the adapter part with token parts is fine: only one scope kind is
involved, and token ids are never confused with an adapter name."""
from typing import Any, List


def block_hash_keys(request, start: int, end: int) -> tuple:
    lora_keys: List[Any] = [request.lora_int_id] if request.lora_int_id else []
    token_keys = list(request.prompt_token_ids[start:end])
    return tuple(lora_keys + token_keys)
