# expect: 20 CTX107
# expect: 25 CTX107
"""A task bound to a local that nothing reads: awaiting other work afterwards keeps the
frame, not the task's result, so a failure of the task is never retrieved, and once the
frame ends nothing holds the task at all."""
import asyncio


async def write_audit(store, request_id: str, prompt: str) -> None:
    await store.insert("audit", {"id": request_id, "prompt": prompt})


async def heartbeat(server) -> None:
    while True:
        await server.ping()
        await asyncio.sleep(5)


async def serve(server) -> None:
    beat = asyncio.create_task(heartbeat(server))
    await server.serve_forever()


async def handle_completion(engine, store, request_id: str, prompt: str) -> str:
    audit = asyncio.create_task(write_audit(store, request_id, prompt))
    out = await engine.generate(prompt)
    return out.text
