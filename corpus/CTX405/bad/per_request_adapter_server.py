# expect: 13 CTX405
import asyncio


async def serve(queue: asyncio.Queue, model, tokenizer):
    """Each request names an adapter; the worker loads it and never lets it go."""
    while True:
        req = await queue.get()
        if req is None:
            break
        name = f"adapter-{req.adapter_id}"
        if name not in model.peft_config:
            model.add_adapter(name, req.lora_config)
        model.set_adapter(name)
        ids = tokenizer(req.prompt, return_tensors="pt").input_ids
        req.future.set_result(model.generate(input_ids=ids, max_new_tokens=64))
