# expect: none
"""Sync WSGI middleware: the var is reset in `except Exception` (re-raising) and in
`else:`; only a KeyboardInterrupt/SystemExit, which end the process, skips both."""
import contextvars as cv
from typing import Optional


class RequestContext:
    user_id: cv.ContextVar[Optional[str]] = cv.ContextVar("user_id", default=None)


class UserContextMiddleware:
    """Exposes the caller's user id to the model-routing code below the WSGI app."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        tok = RequestContext.user_id.set(environ.get("HTTP_X_USER_ID"))
        try:
            result = self.app(environ, start_response)
        except Exception:
            RequestContext.user_id.reset(tok)
            raise
        else:
            RequestContext.user_id.reset(tok)
        return result


def current_user_id() -> Optional[str]:
    return RequestContext.user_id.get()
