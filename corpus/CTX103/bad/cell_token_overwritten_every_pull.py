# expect: 35 CTX103
# Reported in review of stop 22's exemptions: the token in the cell is overwritten on every pull, only the last is reset.
# (A real bug the first version of the exemption silenced.)
import contextvars

usage = contextvars.ContextVar("usage", default=None)


class Stream:
    def __init__(self, source) -> None:
        self.source = source
        self.hooks = []

    def with_cleanup_hook(self, hook):
        self.hooks.append(hook)
        return self

    def with_pull_hook(self, hook):
        self.hooks.append(hook)
        return self


def traced_stream(source) -> Stream:
    usage_token = None

    def _finalize() -> None:
        if usage_token is not None:
            usage.reset(usage_token)

    def _on_pull() -> None:
        nonlocal usage_token
        # no `if usage_token is None` guard: every pull sets again and overwrites the
        # token; _finalize resets only the last one, which restores the value the
        # previous pull set, so the var is left set after the stream ends
        usage_token = usage.set({})

    return Stream(source).with_cleanup_hook(_finalize).with_pull_hook(_on_pull)
