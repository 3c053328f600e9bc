# expect: none
"""A runner that pins one library's work to a single thread, called only here with
this class's own jobs, none of which reads a ContextVar or the current span."""
import concurrent.futures
from typing import Any, Callable


class AudioModel:
    def __init__(self, path: str) -> None:
        self._path = path
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._weights: bytes | None = None

    def _on_worker(self, job: Callable[..., Any], *args: Any) -> Any:
        # the native library keeps per-thread state: every call runs on the same thread
        return self._pool.submit(job, *args).result()

    def _load(self) -> None:
        with open(self._path, "rb") as fh:
            self._weights = fh.read()

    def _synthesize(self, text: str) -> bytes:
        assert self._weights is not None
        return bytes(len(text)) + self._weights[:16]

    def load(self) -> None:
        self._on_worker(self._load)

    def speak(self, text: str) -> bytes:
        return self._on_worker(self._synthesize, text)
