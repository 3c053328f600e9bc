# expect: none
"""Reduced from crewai `crewai/context.py` (`apply_execution_context`) and
`crewai/events/base_events.py` (`reset_emission_counter`, `set_emission_counter`):
module-level functions whose whole effect is binding ContextVars (from a parameter or to a
fresh counter) and which return nothing are API setters: leaving the value bound is their
job, and their caller owns the scope."""
import itertools
from contextvars import ContextVar

from .flow_context import current_flow_id

_current_task_id: ContextVar[str | None] = ContextVar("current_task_id", default=None)
_emission_counter: ContextVar = ContextVar("emission_counter")
_last_emitted: ContextVar[int] = ContextVar("last_emitted", default=0)


def reset_emission_counter() -> None:
    counter = itertools.count(start=1)
    _emission_counter.set(counter)
    _last_emitted.set(0)


def set_emission_counter(start: int) -> None:
    counter = itertools.count(start=start + 1)
    _emission_counter.set(counter)
    _last_emitted.set(start)


def apply_execution_context(ctx) -> None:
    """Write a captured snapshot back into the ContextVars."""
    if isinstance(ctx, dict):
        ctx = dict(ctx)
    _current_task_id.set(ctx["current_task_id"])
    current_flow_id.set(ctx["flow_id"])
    set_emission_counter(ctx["emission_sequence"])
