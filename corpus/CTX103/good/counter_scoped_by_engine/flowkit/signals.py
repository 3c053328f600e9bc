# expect: none
"""Kind: updates of a ContextVar that another module of the same project scopes. The
engine (engine.py) binds the pause counter to 0 around each run and resets it in
`finally`; `pause()` bumps the current value once per call. Every bump happens inside
that scope and is undone by its reset."""
from contextvars import ContextVar

_pause_index: ContextVar[int] = ContextVar("pause_index", default=0)
_replies: ContextVar[list | None] = ContextVar("replies", default=None)


class Paused(Exception):
    """Raised to stop the graph at a pause point."""


def pause(prompt):
    replies = _replies.get()
    index = _pause_index.get()
    if replies is not None and index < len(replies):
        _pause_index.set(index + 1)
        return replies[index]
    _pause_index.set(_pause_index.get() + 1)
    raise Paused(prompt)
