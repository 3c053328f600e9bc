# expect: none
"""The attach token is handed to a scope object of this module that detaches it when
the with-block ends."""
from opentelemetry import context, propagate


class RemoteParent:
    def __init__(self, token):
        self._token = token

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        token, self._token = self._token, None
        if token is not None:
            context.detach(token)


def continue_trace(headers: dict) -> RemoteParent:
    token = context.attach(propagate.extract(headers))
    return RemoteParent(token)
