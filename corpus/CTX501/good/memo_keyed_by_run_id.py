# expect: none
"""skyvern's experiment memo: the key is the task's own run id, generated per run, so no
two tenants can ever share an entry, although `organization_id` is at hand."""
from typing import Dict, Optional

_ASSIGNMENT_MEMO: Dict[str, bool] = {}
_WAIT_CONFIG_CACHE: Dict[str, dict] = {}


async def resolve_assignment(provider, task, organization_id: str) -> bool:
    distinct_id = task.workflow_run_id or task.task_id
    if distinct_id in _ASSIGNMENT_MEMO:
        return _ASSIGNMENT_MEMO[distinct_id]
    value = await provider.is_enabled("collapse", distinct_id, organization_id=organization_id)
    _ASSIGNMENT_MEMO[distinct_id] = value
    return value


async def wait_config(provider, organization_id: Optional[str], task_id: Optional[str],
                      workflow_run_id: Optional[str]) -> Optional[dict]:
    if not organization_id:
        return None
    cache_key = task_id or workflow_run_id
    if not cache_key:
        return None
    if cache_key in _WAIT_CONFIG_CACHE:
        return _WAIT_CONFIG_CACHE[cache_key]
    config = await provider.payload("wait", cache_key, organization_id=organization_id)
    _WAIT_CONFIG_CACHE[cache_key] = config
    return config


def end_run(run_id: str) -> None:
    _ASSIGNMENT_MEMO.pop(run_id, None)
    _WAIT_CONFIG_CACHE.pop(run_id, None)
