# expect: 26 CTX110 KV blocks are reserved before the first yield and freed only after the loop: a client disconnect closes the generator at a yield and the blocks stay reserved
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

app = FastAPI()


class BlockAllocator:
    def __init__(self, total: int) -> None:
        self.free_blocks = list(range(total))

    def reserve(self, n: int) -> list[int]:
        if n > len(self.free_blocks):
            raise MemoryError("out of KV blocks")
        taken, self.free_blocks = self.free_blocks[:n], self.free_blocks[n:]
        return taken

    def free(self, blocks: list[int]) -> None:
        self.free_blocks.extend(blocks)


allocator = BlockAllocator(4096)


async def decode_stream(engine, prompt_ids: list[int], max_tokens: int):
    blocks = allocator.reserve((len(prompt_ids) + max_tokens) // 16 + 1)
    async for text in engine.decode(prompt_ids, blocks, max_tokens):
        yield text
    allocator.free(blocks)


@app.post("/v1/generate_stream")
async def generate_stream(body: dict):
    gen = decode_stream(app.state.engine, body["prompt_ids"], body.get("max_tokens", 128))
    return StreamingResponse(gen, media_type="text/plain")
