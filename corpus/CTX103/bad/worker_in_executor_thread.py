# expect: 14 CTX103
"""Near miss of `asyncio.to_thread`: `run_in_executor` runs the step in the pool
thread's own Context, which persists from one job to the next, so the tenant bound here
is still set when the thread runs another tenant's job."""
import asyncio
import contextvars
import logging

current_tenant: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_tenant", default=None)
log = logging.getLogger(__name__)


def _render_report(tenant_id: str, rows: list[dict]) -> str:
    current_tenant.set(tenant_id)
    log.info("rendering %d rows", len(rows))
    return "\n".join(f"{r['name']}: {r['value']}" for r in rows)


async def report(tenant_id: str, rows: list[dict]) -> str:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, _render_report, tenant_id, rows)
