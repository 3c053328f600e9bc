# expect: none
"""A blocking step run with `asyncio.to_thread`: it runs in a copy of the caller's
Context, so the tenant it binds for its own logging stays in that copy and is gone when
the step returns."""
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
    return await asyncio.to_thread(_render_report, tenant_id, rows)
