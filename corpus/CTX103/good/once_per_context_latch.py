# expect: none
"""Reduced from crewai `crewai/utilities/env.py` (`get_env_context`): a once-per-Context
flag. The function returns early when the flag is already set, then sets it to a
constant: the flag is meant to stay set, and nothing request-specific is bound."""
from contextvars import ContextVar

_env_context_emitted: ContextVar[bool] = ContextVar("env_context_emitted", default=False)


def emit(event) -> None:
    print(event)


def get_env_context(markers: dict) -> None:
    if _env_context_emitted.get():
        return
    _env_context_emitted.set(True)
    for name, value in markers.items():
        if value:
            emit(name)
            return
