# expect: 12 CTX107
from asyncio import create_task as spawn


async def stream_chunk(rid: str, chunk: str) -> None:
    return None


class Streamer:
    async def push(self, rid: str, chunks: list[str]) -> None:
        for c in chunks:
            spawn(stream_chunk(rid, c))
