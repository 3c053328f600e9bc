# expect: none
"""A relay records which connection answered a run's request, but only after the
awaited call (passed the run id itself) came back; the record is meant to last for
the run and is dropped when the run ends. The helper that awaits the call and then
records is awaited by the caller, whose later awaits (a lookup of the record, a
signal) are not the hand-off of anything: the run's owner knew the id long before."""
import asyncio

_routes: dict[str, object] = {}
_routes_lock = asyncio.Lock()


async def _remember(run_id: str, conn) -> None:
    async with _routes_lock:
        _routes[run_id] = conn


async def _forget(run_id: str) -> None:
    async with _routes_lock:
        _routes.pop(run_id, None)


async def _lookup(run_id: str):
    async with _routes_lock:
        return _routes.get(run_id)


async def _ask(conn, method: str, run_id: str, record: bool):
    reply = await conn.request(method, run_id)
    if reply is not None and record:
        await _remember(run_id, conn)
    return reply


async def relay(conn, method: str, run_id: str, workflow) -> None:
    reply = await _ask(conn, method, run_id, record=True)
    if reply is None:
        fallback = await _lookup(run_id)
        if fallback is not None:
            reply = await _ask(fallback, method, run_id, record=False)
    await workflow.signal(run_id, reply)


async def on_run_finished(run_id: str) -> None:
    await _forget(run_id)
