# expect: 17 CTX103
"""Next to good/set_and_clear_methods_pair.py: the clear method exists, but the setter
itself calls it after the work, not in `finally` - an exception leaves the value bound."""
from contextvars import ContextVar


class Job:
    _slot: ContextVar = ContextVar("job_slot", default=None)

    def __init__(self, runner):
        self.runner = runner

    def _clear(self) -> None:
        self._slot.set(None)

    def execute(self, payload):
        self._slot.set(payload.owner)
        out = self.runner.run(payload)
        self._clear()
        return out
