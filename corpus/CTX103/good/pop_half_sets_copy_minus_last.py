# expect: none
"""Kind: the pop half of a push/pop pair kept in a ContextVar: it copies the var's current
list, removes the last entry and sets the copy back. That binds nothing the var did not
already hold - it is the restore of the push (whose caller runs the pop from `finally`)."""
from contextvars import ContextVar

_frames: ContextVar[list | None] = ContextVar("frames", default=None)


class Recorder:
    def enter(self, frame) -> None:
        frames = list(_frames.get() or [])
        frames.append(frame)
        _frames.set(frames)

    def leave(self):
        frames = list(_frames.get() or [])
        if not frames:
            return None
        top = frames.pop()
        _frames.set(frames)
        top.close()
        return top

    def run(self, frame, work):
        self.enter(frame)
        try:
            return work()
        finally:
            self.leave()
