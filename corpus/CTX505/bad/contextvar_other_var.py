# expect: 37 CTX505 indexes `self._frames` by `self.current`
"""Near miss of the ContextVar read-back: acquire stores its key in one ContextVar but
the release reads another one (the parent depth), which never holds that key."""
import random
from contextvars import ContextVar

_depth = ContextVar("depth", default=0)
_parent = ContextVar("parent", default=0)


class Frame:
    def __init__(self, token):
        self.token = token


class FrameStack:
    def __init__(self):
        self._frames: dict = {}

    @property
    def current(self):
        return _parent.get()

    def _fresh(self):
        n = random.random()
        while n in self._frames:
            n = random.random()
        return n

    def push(self):
        n = self._fresh()
        token = _depth.set(n)
        self._frames[n] = Frame(token)
        return self._frames[n]

    def pop(self):
        frame = self._frames.get(self.current)
        if frame is not None:
            del self._frames[self.current]
            _depth.reset(frame.token)
