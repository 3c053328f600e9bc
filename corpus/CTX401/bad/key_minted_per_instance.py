# expect: 20 CTX401
"""The handler mints its id in `__init__`, per instance: every call files a new entry
under a new key, and nothing removes it."""
import uuid


class StreamHandler:
    kind = "stream"

    def __init__(self):
        self.uid = uuid.uuid4().hex
        self.chunks: list[str] = []


handlers: dict[str, StreamHandler] = {}


def open_stream() -> StreamHandler:
    handler = StreamHandler()
    handlers[handler.uid] = handler
    return handler
