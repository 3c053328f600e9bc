# expect: none
"""Reduced from cashews' cache-detect context: the acquire side stores its key in a
ContextVar and keys the frames dict by it; the release side reads the ContextVar back
through a property, so it is the very key acquire used."""
import random
from contextvars import ContextVar

_depth = ContextVar("depth", default=0)


class Frame:
    def __init__(self, parent, token):
        self.parent = parent
        self.token = token


class FrameStack:
    def __init__(self):
        self._frames: dict = {}

    @property
    def current(self):
        return _depth.get()

    def _fresh(self):
        n = random.random()
        while n in self._frames:
            n = random.random()
        return n

    def push(self):
        parent = self.current
        n = self._fresh()
        token = _depth.set(n)
        self._frames[n] = Frame(parent, token)
        return self._frames[n]

    def pop(self):
        if self.current in self._frames:
            token = self._frames[self.current].token
            del self._frames[self.current]
            _depth.reset(token)
