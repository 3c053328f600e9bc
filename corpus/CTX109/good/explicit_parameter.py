# expect: none
"""Streaming chat endpoint body: the tenant is passed explicitly, nothing is bound across yields."""


async def stream_completion(engine, tenant_id: str, prompt: str):
    async for chunk in engine.generate(prompt, tenant_id=tenant_id):
        yield f"data: {chunk}\n\n"
