# expect: 24 CTX104
"""The attach token is handed to a small scope object of this module, whose close()
only drops the parent context: nothing ever detaches the token."""
from opentelemetry import context, propagate


class RemoteParent:
    def __init__(self, token, carrier: dict):
        self._token = token
        self._carrier = carrier

    def close(self) -> None:
        self._carrier.clear()
        self._token = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def continue_trace(headers: dict) -> RemoteParent:
    token = context.attach(propagate.extract(headers))
    return RemoteParent(token, dict(headers))
