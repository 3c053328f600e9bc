# expect: none
"""The same tokenizer: the id is read on the event loop and passed in, or the job runs
in a copy of the caller's Context; a job that reads no context needs no copy."""
import asyncio
import contextvars
import functools
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
_TOKENIZE_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tok")
_DETOK_PROCS = ProcessPoolExecutor(max_workers=2)


def _encode(text: str, rid: str) -> dict:
    return {"request": rid, "ids": [ord(c) for c in text]}


def _encode_tagged(text: str) -> dict:
    return {"request": request_id.get(), "ids": [ord(c) for c in text]}


def _decode(ids: list[int]) -> str:
    return "".join(map(chr, ids))


async def encode(text: str) -> dict:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_TOKENIZE_POOL, functools.partial(_encode, text, request_id.get()))


async def encode_tagged(text: str) -> dict:
    loop = asyncio.get_running_loop()
    ctx = contextvars.copy_context()
    return await loop.run_in_executor(_TOKENIZE_POOL, ctx.run, _encode_tagged, text)


async def decode(ids: list[int]) -> str:
    loop = asyncio.get_running_loop()
    first = await loop.run_in_executor(None, _decode, ids)
    return first + await loop.run_in_executor(_DETOK_PROCS, _decode, ids)
