# expect: 11 CTX501
"""Next to good/memo_keyed_by_run_id.py: the memo is keyed by the task's name, which
two tenants can both use, while the value depends on the tenant."""
from typing import Dict

_ASSIGNMENT_MEMO: Dict[str, bool] = {}


async def resolve_assignment(provider, task, organization_id: str) -> bool:
    key = task.name
    if key in _ASSIGNMENT_MEMO:
        return _ASSIGNMENT_MEMO[key]
    value = await provider.is_enabled("collapse", key, organization_id=organization_id)
    _ASSIGNMENT_MEMO[key] = value
    return value
