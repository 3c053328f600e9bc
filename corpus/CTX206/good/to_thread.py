# expect: none
"""asyncio.to_thread copies the Context into the worker thread."""
import asyncio
import contextvars

from opentelemetry import trace

tracer = trace.get_tracer(__name__)
tenant_id: contextvars.ContextVar[str] = contextvars.ContextVar("tenant_id")


def tokenize(text: str) -> list[int]:
    trace.get_current_span().set_attribute("tenant", tenant_id.get())
    return [ord(c) for c in text]


async def handle(text: str, tenant: str) -> list[int]:
    token = tenant_id.set(tenant)
    try:
        with tracer.start_as_current_span("tokenize"):
            return await asyncio.to_thread(tokenize, text)
    finally:
        tenant_id.reset(token)
