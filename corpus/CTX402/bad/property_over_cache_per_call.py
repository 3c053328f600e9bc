# expect: 12 CTX402
"""`@property` over the cache still calls it with the instance: every reader built per
call stays in the class-wide cache with the buffer it holds."""
import functools


class FrameReader:
    def __init__(self, buf: bytes):
        self.buf = buf

    @property
    @functools.lru_cache(maxsize=None)
    def header(self) -> bytes:
        return self.buf[:64]


def headers(frames: list[bytes]) -> list[bytes]:
    return [FrameReader(f).header for f in frames]
