# expect: 23 CTX103
# Near miss of the shared-cell release: a closure that would reset the token exists,
# but nothing registers or calls it, so the token set on the first pull is never reset.
import contextvars

usage = contextvars.ContextVar("usage", default=None)


class Stream:
    def __init__(self, source, on_pull) -> None:
        self.source = source
        self.on_pull = on_pull


def traced_stream(source) -> Stream:
    usage_token = None

    def _finalize() -> None:
        usage.reset(usage_token)

    def _on_pull() -> None:
        nonlocal usage_token
        usage_token = usage.set({})

    return Stream(source, _on_pull)
