# expect: none
"""Kind: one method handles both halves of a push/pop pair kept in a ContextVar. An
"open" event pushes an entry onto the per-Context stack; the matching "close" event (a
later call) cuts that entry - and any of ours left open above it - out of the stack:
`stack[:i] + tuple(e for e in stack[i + 1:] if ...)` is made only of parts of the
current value, so it binds nothing new, and the push has its pop in the other branch."""
import itertools
from contextvars import ContextVar

_open_spans: ContextVar[tuple] = ContextVar("open_spans", default=())


class Recorder:
    def __init__(self, sink):
        self._sink = sink
        self._owner = object()
        self._seq = itertools.count()

    def record(self, event):
        owner = self._owner
        seq = next(self._seq)
        stack = _open_spans.get()
        if event.phase == "open":
            event.parent = stack[-1][1] if stack else None
            _open_spans.set(stack + ((owner, seq, event.name),))
        elif event.phase == "close":
            idx = self._find(stack, event.name)
            if idx is not None:
                event.parent = stack[idx][1]
                _open_spans.set(stack[:idx] + tuple(e for e in stack[idx + 1:] if e[0] is not owner))
        self._sink.write(event)

    def _find(self, stack, name):
        for i in range(len(stack) - 1, -1, -1):
            if stack[i][0] is self._owner and stack[i][2] == name:
                return i
        return None
