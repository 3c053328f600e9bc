# expect: 26 CTX402
"""A `functools.wraps` wrapper in a helpers module of the project delegates to an
`lru_cache`d copy of the method: the wrapper hides it, the cache is still class-wide and
keyed on `self`, and a session object is made for every websocket connection."""
import functools

from starlette.websockets import WebSocket


def cached_property_like(fn):
    cached = functools.lru_cache(maxsize=1024)(fn)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return cached(*args, **kwargs)

    return call


class LiveSession:
    def __init__(self, socket: WebSocket, speller):
        self.socket = socket
        self.speller = speller
        self.history: list[str] = []

    @cached_property_like
    def suggestions(self, word: str) -> tuple[str, ...]:
        return tuple(self.speller.candidates(word))[:5]


async def serve(socket: WebSocket, speller) -> None:
    session = LiveSession(socket, speller)
    async for word in socket.iter_text():
        await socket.send_json(session.suggestions(word))
