# expect: none
"""Extra keys carry the content digest of the adapter weights: a reload with new
weights under the same name gets new KV blocks."""
from typing import Any, List


def lora_extra_hash_keys(request) -> List[Any]:
    lora_request = request.lora_request
    if lora_request is None:
        return []
    return [("lora", lora_request.lora_int_id, lora_request.weights_digest)]
