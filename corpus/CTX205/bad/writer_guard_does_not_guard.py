# expect: 23 CTX205
# expect: 42 CTX205
"""Near misses of the started-once exemption: the test of the stored writer only logs
(the writer is recreated by every request), and a public helper with no caller here
is no startup entry point (route handlers of another module call it)."""
import asyncio
import logging

log = logging.getLogger(__name__)
_audit_writer: asyncio.Task | None = None
_metrics_flusher: asyncio.Task | None = None


async def _drain_audit_queue() -> None:
    while True:
        await asyncio.sleep(1)


def _ensure_audit_writer() -> None:
    global _audit_writer
    if _audit_writer is not None:
        log.warning("restarting audit writer")
    _audit_writer = asyncio.get_running_loop().create_task(_drain_audit_queue())


async def audit(request_id: str, decision: str) -> None:
    _ensure_audit_writer()


async def init_app() -> None:
    _ensure_audit_writer()


async def _flush_metrics() -> None:
    while True:
        await asyncio.sleep(10)


def _ensure_flusher() -> None:
    global _metrics_flusher
    if _metrics_flusher is None or _metrics_flusher.done():
        _metrics_flusher = asyncio.get_running_loop().create_task(_flush_metrics())


async def record_usage(request_id: str, tokens: int) -> None:
    _ensure_flusher()


def enqueue_record(record: dict) -> None:
    """Public helper; the route handlers in api.py call it."""
    _ensure_flusher()
