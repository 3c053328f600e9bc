# expect: none
"""Cleanup paths: dropping entries (`pop`, `del`, `discard`) looks nothing up and
stores nothing, so it cannot hand one tenant's entry to another, even with the
tenant id in scope. The key was built where the entry was stored (here: with the
tenant)."""
from typing import Dict, Set, Tuple

_RESULT_CACHE: Dict[Tuple[str, str], str] = {}
_WARM_KEYS: Set[str] = set()


def remember(tenant_id: str, prompt: str, generate) -> None:
    _RESULT_CACHE[(tenant_id, prompt)] = generate(tenant_id, prompt)


def forget_conversation(entry_ref: int, tenant_id: str, prompts: list) -> None:
    _RESULT_CACHE.pop(entry_ref, None)
    for p in prompts:
        _WARM_KEYS.discard(p)
    if entry_ref in _RESULT_CACHE:
        del _RESULT_CACHE[entry_ref]
