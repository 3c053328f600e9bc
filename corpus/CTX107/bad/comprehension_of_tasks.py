# expect: 15 CTX107
# expect: 19 CTX107
# expect: 23 CTX107
"""Fan-out written as a comprehension statement: the list (or set) of tasks is built
and dropped in the same statement, so the loop holds every task only weakly."""
import asyncio
import logging

logger = logging.getLogger(__name__)


async def warm_adapters(engine, adapter_ids: list[str]) -> None:
    """Preload adapters in the background while the server starts."""
    logger.info("warming %d adapters", len(adapter_ids))
    [asyncio.create_task(engine.load_adapter(a)) for a in adapter_ids]


def notify_all(loop: asyncio.AbstractEventLoop, hooks, event) -> None:
    {loop.create_task(h(event)) for h in hooks}


async def flush_all(sinks) -> None:
    (asyncio.ensure_future(s.flush()) for s in sinks)   # never iterated: nothing runs
