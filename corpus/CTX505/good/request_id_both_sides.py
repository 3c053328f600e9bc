# expect: none
"""Registration keys on `req.request_id`, unregistration on the `request_id`
parameter: the same id, spelled two ways."""
from typing import Dict


class StreamRegistry:
    def __init__(self):
        self.streams: Dict[str, object] = {}

    def register(self, req, stream) -> None:
        self.streams[req.request_id] = stream

    def unregister(self, request_id: str) -> None:
        self.streams.pop(request_id, None)
