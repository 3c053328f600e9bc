# expect: 19 CTX107 the task from self._loop.create_task is bound to a local that is only logged: the reference dies when schedule() returns
import asyncio
import logging

log = logging.getLogger("warmup")


class ModelWarmer:
    def __init__(self, engine, loop: asyncio.AbstractEventLoop) -> None:
        self.engine = engine
        self._loop = loop

    async def _warm(self, model_id: str) -> None:
        await self.engine.load(model_id)
        await self.engine.generate(model_id, "ping", max_tokens=1)
        log.info("model %s warm", model_id)

    def schedule(self, model_id: str) -> None:
        task = self._loop.create_task(self._warm(model_id), name=f"warm-{model_id}")
        log.debug("scheduled %s", task.get_name())


def warm_all(warmer: ModelWarmer, model_ids: list[str]) -> None:
    for model_id in model_ids:
        warmer.schedule(model_id)
