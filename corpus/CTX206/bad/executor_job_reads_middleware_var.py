# expect: 30 CTX206
"""The request id is bound by the middleware; the blocking tokenizer runs on a pool and
tags its metrics with the id, but the worker thread never sees it."""
import asyncio
import contextvars
import functools
from concurrent.futures import ThreadPoolExecutor

from starlette.middleware.base import BaseHTTPMiddleware

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
_TOKENIZE_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tok")


class RequestIdMiddleware(BaseHTTPMiddleware):
    async def dispatch(self, request, call_next):
        token = request_id.set(request.headers.get("x-request-id", "-"))
        try:
            return await call_next(request)
        finally:
            request_id.reset(token)


def _encode(text: str, add_bos: bool) -> dict:
    return {"request": request_id.get(), "ids": [ord(c) for c in text], "bos": add_bos}


async def encode(text: str) -> dict:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_TOKENIZE_POOL, functools.partial(_encode, text, True))
