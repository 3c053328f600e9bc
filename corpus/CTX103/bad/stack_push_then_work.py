# expect: 13 CTX103
"""Next to crewai's push/pop pair (see good/stack_pop_undoes_push.py): this push is not a
setter - it pushes, runs the step and never pops, so every step left on a pooled worker
thread grows the stack the next request starts with."""
from contextvars import ContextVar

_event_id_stack: ContextVar[tuple] = ContextVar("event_id_stack", default=())


class Runner:
    def run_step(self, step):
        stack = _event_id_stack.get()
        _event_id_stack.set((*stack, step.id))
        result = step.execute()
        return result
