# expect: none
"""A per-key lock made on first use and normally dropped with the cached token when it
expires; the coroutine drops it itself only on the branch where no token gets cached.
A removal on one branch says the entry normally outlives the call, so the fetch's
await is not a cancellation point of a per-call registration.
Reduced from litellm litellm/proxy/agent_endpoints/databricks_oauth.py (async_get_token)."""
import asyncio


class TokenCacheManager:
    def __init__(self, client) -> None:
        self.client = client
        self._locks: dict[str, asyncio.Lock] = {}
        self._tokens: dict[str, str] = {}

    def _remove_key(self, request_key: str) -> None:
        self._tokens.pop(request_key, None)
        self._locks.pop(request_key, None)

    async def get_token(self, request_key: str, url: str) -> str:
        if request_key in self._tokens:
            return self._tokens[request_key]
        lock = self._locks.setdefault(request_key, asyncio.Lock())
        async with lock:
            token, ttl = await self.client.fetch(url)
            if ttl > 0:
                self._tokens[request_key] = token
            else:
                self._locks.pop(request_key, None)
            return token
