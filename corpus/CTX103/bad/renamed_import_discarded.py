# expect: 15 CTX103
"""Sync completion handler run by a WSGI server thread per request."""
import logging
from contextvars import ContextVar as CV

_request_id = CV("request_id", default="-")
log = logging.getLogger("gateway")


class CompletionHandler:
    def __init__(self, backend):
        self.backend = backend

    def handle(self, request: dict) -> dict:
        _request_id.set(request["id"])
        log.info("completion for %s", request["model"])
        text = self.backend.complete(request["prompt"], max_tokens=request.get("max_tokens", 256))
        return {"id": request["id"], "text": text}
