# expect: none
"""The token is stored on the object whose end()/__exit__ resets it."""
from contextvars import ContextVar, Token

_current_llm: ContextVar["LLM | None"] = ContextVar("_current_llm", default=None)


class LLM:
    def __init__(self, model: str) -> None:
        self.model = model
        self._token: Token | None = None

    def end(self) -> None:
        if self._token is not None:
            _current_llm.reset(self._token)
            self._token = None

    def __enter__(self) -> "LLM":
        if self._token is None:
            self._token = _current_llm.set(self)
        return self

    def __exit__(self, *exc) -> None:
        self.end()


class Agent:
    def start_llm(self, model: str) -> LLM:
        llm = LLM(model)
        llm._token = _current_llm.set(llm)
        return llm
