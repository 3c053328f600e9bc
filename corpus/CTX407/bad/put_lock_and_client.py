# expect: 26 CTX407
"""Shared rate limiter published to Ray workers."""
import asyncio

import httpx
import ray


class RateLimiter:
    def __init__(self, rps: int) -> None:
        self.rps = rps
        self._lock = asyncio.Lock()
        self._http = httpx.AsyncClient(timeout=5.0)
        self._tokens = rps

    async def acquire(self) -> None:
        async with self._lock:
            while self._tokens <= 0:
                await asyncio.sleep(1 / self.rps)
                self._tokens += 1
            self._tokens -= 1


def share(limiter: RateLimiter):
    # every worker gets "the" limiter
    return ray.put(limiter)
