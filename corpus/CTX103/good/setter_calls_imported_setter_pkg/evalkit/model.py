# expect: none
"""inspect-ai / torchtitan setters: an API setter whose last call is another module's
setter (it only binds a ContextVar from its parameter), and one that keeps a plain
`global` copy and ends with a same-module clear helper. Leaving the values bound is
their purpose; the caller owns the scope."""
from contextvars import ContextVar

from evalkit.config import set_active_config

active_model: ContextVar[object] = ContextVar("active_model", default=None)
_STEP = ContextVar("step", default=0)
_TAGS = ContextVar("tags", default=())
_STEP_GLOBAL = 0
_TAGS_GLOBAL = ()


def init_active_model(model, config) -> None:
    active_model.set(model)
    set_active_config(config)


def clear_step_tags() -> None:
    global _TAGS_GLOBAL
    _TAGS_GLOBAL = ()
    _TAGS.set(())


def set_step(step: int, relative: int | None = None) -> None:
    global _STEP_GLOBAL
    if relative is None:
        relative = step
    _STEP_GLOBAL = step
    _STEP.set(step)
    clear_step_tags()
