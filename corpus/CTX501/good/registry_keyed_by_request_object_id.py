# expect: none
"""In-flight registries keyed by the request's own id: a per-request key never hits
for another request, so it cannot serve one tenant's entry to another even though
tenant_id is in scope."""
import asyncio
from dataclasses import dataclass


@dataclass
class GenerationRequest:
    id: str
    tenant_id: str
    prompt: str


_inflight_registry: dict[str, GenerationRequest] = {}
_stream_cache: dict[str, asyncio.Queue] = {}


async def submit(request: GenerationRequest, tenant_id: str, engine) -> str:
    _inflight_registry[request.id] = request
    try:
        return await engine.generate(tenant_id, request.prompt)
    finally:
        _inflight_registry.pop(request.id, None)


async def open_stream(seq, tenant_id: str) -> asyncio.Queue:
    queue: asyncio.Queue = asyncio.Queue()
    _stream_cache[seq.uuid] = queue
    await asyncio.sleep(0)
    return queue


def close_stream(seq) -> None:
    _stream_cache.pop(seq.uuid, None)
