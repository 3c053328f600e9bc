# expect: 13 CTX206
"""A private runner, but its caller has a current span: the job's spans start a new trace."""
import asyncio
from typing import Any, Callable

from opentelemetry import trace

tracer = trace.get_tracer(__name__)


async def _off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, fn, *args)


def _rank(query: str, docs: list[str]) -> list[str]:
    return sorted(docs, key=lambda d: -sum(w in d for w in query.split()))


async def retrieve(query: str, docs: list[str]) -> list[str]:
    with tracer.start_as_current_span("retrieve"):
        return await _off_loop(_rank, query, docs)
