# expect: 13 CTX503
"""Extra keys of a prefix-cache block hash name the LoRA by its `lora_name`; the
same module logs `lora_int_id`, the id the engine assigns per load. Re-pointing a
name at new weights keeps matching the old KV blocks."""
from typing import Any, List


def lora_extra_hash_keys(request) -> List[Any]:
    lora_request = request.lora_request
    if lora_request is None:
        return []
    # the name is what the user typed in the API call ...
    return [lora_request.lora_name]


def describe(request) -> str:
    if request.lora_request is None:
        return "base model"
    # ... while the engine identifies the loaded weights by lora_int_id
    return f"lora {request.lora_request.lora_name} (slot {request.lora_request.lora_int_id})"
