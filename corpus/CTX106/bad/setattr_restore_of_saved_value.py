# expect: 16 CTX106
# Reported in review of stop 22's exemptions: setattr restores the saved value onto the yielded object.
# (A real bug the first version of the exemption silenced.)
from contextlib import contextmanager


class Settings:
    def __init__(self) -> None:
        self.mode = "normal"


@contextmanager
def override_mode(settings: Settings, mode: str):
    previous = settings.mode
    settings.mode = mode
    yield settings
    # restore, not a write-back: skipped when the block raises
    setattr(settings, "mode", previous)
