# expect: none
"""Reduced from crewai `crewai/events/event_context.py` (`push_event_scope` /
`pop_event_scope`): the pop sets the stack var back to `stack[:-1]`, a part of its own
current value. That undoes the matching push and binds nothing new; the push is a setter
whose last statement is the `set()` (its caller owns the scope)."""
from contextvars import ContextVar

_event_id_stack: ContextVar[tuple] = ContextVar("event_id_stack", default=())


def push_event_scope(event_id: str, event_type: str = "") -> None:
    stack = _event_id_stack.get()
    if len(stack) > 100:
        raise RuntimeError("event stack too deep")
    _event_id_stack.set((*stack, (event_id, event_type)))


def pop_event_scope():
    stack = _event_id_stack.get()
    if not stack:
        return None
    _event_id_stack.set(stack[:-1])
    return stack[-1]
