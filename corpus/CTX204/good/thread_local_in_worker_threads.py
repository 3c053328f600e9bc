# expect: none
"""A thread-local per-thread HTTP session used only by executor threads."""
import asyncio
import threading

import requests

_tls = threading.local()


def _session() -> requests.Session:
    s = getattr(_tls, "session", None)
    if s is None:
        s = _tls.session = requests.Session()
    return s


def fetch(url: str) -> bytes:
    return _session().get(url, timeout=10).content


async def fetch_all(urls: list[str]) -> list[bytes]:
    loop = asyncio.get_running_loop()
    return await asyncio.gather(*(loop.run_in_executor(None, fetch, u) for u in urls))
