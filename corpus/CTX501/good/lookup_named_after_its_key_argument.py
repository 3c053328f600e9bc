# expect: none
"""skyvern's `get_workflow_script_by_cache_key_value`: a query named after the key it
looks up with. It returns what it found and a flag, builds no key, and filters by the
organization in the query itself."""
from typing import Optional, Tuple


async def get_workflow_script_by_cache_key_value(session, organization_id: str, workflow_id: str,
                                                 cache_key_value: str) -> Tuple[Optional[dict], bool]:
    row = await session.first(
        "select * from workflow_scripts where organization_id = :o and workflow_id = :w and cache_key_value = :k",
        o=organization_id, w=workflow_id, k=cache_key_value)
    if row is None:
        return None, False
    script, is_pinned = row
    return dict(script), bool(is_pinned)
