# expect: none
import asyncio
import contextvars
import functools
import logging
from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("request_id", default="-")
log = logging.getLogger(__name__)


def render_chat_template(tokenizer, messages: list[dict]) -> str:
    log.info("rendering for %s", request_id.get())
    return tokenizer.apply_chat_template(messages, tokenize=False)


class Preprocessor:
    def __init__(self, tokenizer, executor) -> None:
        self.tokenizer = tokenizer
        self.executor = executor

    async def prepare(self, messages: list[dict]) -> str:
        loop = asyncio.get_running_loop()
        job = functools.partial(render_chat_template, self.tokenizer, messages)
        ctx = contextvars.copy_context()
        return await loop.run_in_executor(self.executor, ctx.run, job)
