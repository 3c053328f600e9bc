# expect: 28 CTX206
# expect: 33 CTX206
"""A tenant set through a helper, and a span current through the decorator form: both lost in the executor."""
import asyncio
import contextvars

from opentelemetry import trace

tracer = trace.get_tracer(__name__)
tenant = contextvars.ContextVar("tenant")


def set_tenant(t):
    tenant.set(t)


def work(x):
    return tenant.get(), x


def traced(x):
    with tracer.start_as_current_span("child"):
        return x


async def a(x, t):
    set_tenant(t)
    return await asyncio.get_running_loop().run_in_executor(None, work, x)


@tracer.start_as_current_span("parent")
async def b(x):
    return await asyncio.get_running_loop().run_in_executor(None, traced, x)
