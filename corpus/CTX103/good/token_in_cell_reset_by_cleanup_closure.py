# expect: none
# A streaming wrapper sets a ContextVar lazily on the first pull, in a hook closure,
# and keeps the token in the enclosing function's cell (`nonlocal`). The cleanup
# closure that the stream runs when it finishes, fails or is closed resets that same
# token: the two closures share the cell.
import contextvars

usage = contextvars.ContextVar("usage", default=None)


class Stream:
    def __init__(self, source) -> None:
        self.source = source
        self.cleanup_hooks = []
        self.pull_hooks = []

    def with_cleanup_hook(self, hook):
        self.cleanup_hooks.append(hook)
        return self

    def with_pull_hook(self, hook):
        self.pull_hooks.append(hook)
        return self


def traced_stream(source) -> Stream:
    usage_token = None

    def _finalize() -> None:
        if usage_token is not None:
            usage.reset(usage_token)

    def _on_pull() -> None:
        nonlocal usage_token
        if usage_token is None:
            usage_token = usage.set({})

    return Stream(source).with_cleanup_hook(_finalize).with_pull_hook(_on_pull)
