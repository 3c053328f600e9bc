"""A small LLM-serving module with the bugs ctxlint exists to find."""
import asyncio
import contextvars
from functools import lru_cache

from fastapi import FastAPI

app = FastAPI()

current_tenant: contextvars.ContextVar[str] = contextvars.ContextVar("current_tenant")
# Keyed by the prompt alone, and fine: the cached value is the prompt prefix itself,
# the same for every tenant, so sharing it across tenants leaks nothing.
_prefix_cache: dict = {}


async def record_usage(tenant_id: str, n: int) -> None:
    await asyncio.sleep(0)


@app.post("/v1/generate")  # an entry point: the leaks below happen once per request
async def handle(tenant_id: str, prompt: str) -> str:
    token = current_tenant.set(tenant_id)
    key = hash(prompt[:64])
    if key not in _prefix_cache:
        _prefix_cache[key] = prompt[:64]
    n_tokens = len(Tokenizer().encode(prompt))  # a new Tokenizer per request
    asyncio.create_task(record_usage(tenant_id, n_tokens))
    current_tenant.reset(token)
    return _prefix_cache[key]


class Tokenizer:
    @lru_cache(maxsize=1024)
    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]
