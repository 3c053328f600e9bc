# expect: 24 CTX103  expect: 28 CTX103
"""Next to good/span_stack_dispatch_push_pop.py: the "close" branch does not take the
entry out - it puts a new entry in its place (`stack[:idx] + (marker,)`), so neither
branch is an undo: both bind new values that stay for the next request on this
worker thread."""
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
                _open_spans.set(stack[:idx] + ((owner, seq, "closed:" + event.name),))
        self._sink.write(event)

    def _find(self, stack, name):
        for i in range(len(stack) - 1, -1, -1):
            if stack[i][0] is self._owner and stack[i][2] == name:
                return i
        return None
