# expect: 20 CTX106
# Near miss of the write-back exemption: what is set back after the `yield` is the
# previous value saved before it, not the object handed to the caller; an exception
# in the block leaves the override in place.
from contextlib import contextmanager


class Settings:
    def __init__(self) -> None:
        self.mode = "normal"

    def set_mode(self, mode: str) -> None:
        self.mode = mode


@contextmanager
def override_mode(settings: Settings, mode: str):
    previous = settings.mode
    settings.set_mode(mode)
    yield settings
    settings.set_mode(previous)
