# expect: none
from .indexer import configure_content
from .utils import run_in_executor


async def sync_notion(user_id: str, background_tasks) -> dict:
    background_tasks.add_task(run_in_executor, configure_content, user_id, {}, False)
    return {"status": "queued"}
