# expect: none
"""An httpx auth flow that marks a retry in a ContextVar; httpx drives it inside one send()."""
from contextvars import ContextVar

import httpx

retrying: ContextVar[bool] = ContextVar("retrying", default=False)


class RefreshingAuth(httpx.Auth):
    def __init__(self, tokens):
        self.tokens = tokens

    def auth_flow(self, request):
        token = retrying.set(False)
        try:
            request.headers["Authorization"] = f"Bearer {self.tokens.current()}"
            response = yield request
            if response.status_code == 401:
                retrying.set(True)
                request.headers["Authorization"] = f"Bearer {self.tokens.refresh()}"
                yield request
        finally:
            retrying.reset(token)
