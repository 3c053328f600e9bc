# expect: 12 CTX109
"""Near miss: the wrapping generator is returned by the auth flow AND handed to a streaming response."""
from contextvars import ContextVar

import httpx
from starlette.responses import StreamingResponse

in_challenge: ContextVar[bool] = ContextVar("in_challenge", default=False)


async def _track(inner):
    mark = in_challenge.set(False)
    try:
        async for item in inner:
            yield item
    finally:
        in_challenge.reset(mark)


class ScopedAuth(httpx.Auth):
    async def _base_flow(self, request):
        yield request

    def async_auth_flow(self, request):
        return _track(self._base_flow(request))


async def relay(upstream):
    return StreamingResponse(_track(upstream))
