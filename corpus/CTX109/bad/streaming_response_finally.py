# expect: 9 CTX109
"""Streaming chat endpoint body: tenant bound for the whole stream."""
from contextvars import ContextVar

current_tenant: ContextVar[str | None] = ContextVar("current_tenant", default=None)


async def stream_completion(engine, tenant_id: str, prompt: str):
    token = current_tenant.set(tenant_id)
    try:
        async for chunk in engine.generate(prompt):
            yield f"data: {chunk}\n\n"
    finally:
        current_tenant.reset(token)
