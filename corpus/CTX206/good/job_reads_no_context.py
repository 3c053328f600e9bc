# expect: none
"""The caller set a ContextVar, but the job is pure computation: nothing is lost."""
import asyncio
import contextvars
import hashlib

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id")


def digest(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()


async def upload(blob: bytes, rid: str) -> str:
    token = request_id.set(rid)
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, digest, blob)
    finally:
        request_id.reset(token)
