# expect: 11 CTX402
# expect: 15 CTX402
import functools as ft


class ShardReader:
    def __init__(self, path: str, fs):
        self.path = path
        self.fs = fs

    @ft.lru_cache(maxsize=None)
    def header(self) -> bytes:
        return self.fs.read(self.path, 0, 4096)

    @ft.lru_cache()
    def tensor(self, name: str) -> bytes:
        offset, size = self.index()[name]
        return self.fs.read(self.path, offset, size)

    def index(self) -> dict:
        return {}


def checkpoint_headers(fs, shard_paths: list[str]) -> list[bytes]:
    # one reader per shard, per call: every reader (and its fs handle) stays in the caches
    return [ShardReader(p, fs).header() for p in shard_paths]
