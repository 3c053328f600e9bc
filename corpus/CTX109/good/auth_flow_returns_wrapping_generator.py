# expect: none
"""An async auth flow override that returns a wrapping generator; httpx runs it to completion."""
from contextvars import ContextVar
from typing import AsyncGenerator

from httpx import Auth as BaseAuth
from httpx import Request, Response

in_challenge: ContextVar[bool] = ContextVar("in_challenge", default=False)


async def _track_challenges(inner: AsyncGenerator[Request, Response]) -> AsyncGenerator[Request, Response]:
    mark = in_challenge.set(False)
    try:
        outgoing = await inner.__anext__()
        while True:
            response = yield outgoing
            if response.status_code == 403:
                in_challenge.set(True)
            try:
                outgoing = await inner.asend(response)
            except StopAsyncIteration:
                return
    finally:
        in_challenge.reset(mark)
        await inner.aclose()


class ScopedAuth(BaseAuth):
    async def _base_flow(self, request):
        yield request

    def async_auth_flow(self, request):
        flow = _track_challenges(self._base_flow(request))
        return flow
