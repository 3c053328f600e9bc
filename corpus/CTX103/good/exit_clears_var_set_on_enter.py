# expect: none
"""Kind: `__enter__` binds the object, `__exit__` (which always runs) clears the var back
to None: nothing stays bound after the `with` block."""
import contextvars
from typing import Optional


class RunScope:
    def __init__(self, run_id: str):
        self.run_id = run_id

    def __enter__(self) -> "RunScope":
        _scope.set(self)
        return self

    def __exit__(self, *exc) -> None:
        _scope.set(None)


_scope = contextvars.ContextVar[Optional[RunScope]]("run_scope", default=None)


def current_run() -> Optional[RunScope]:
    return _scope.get()
