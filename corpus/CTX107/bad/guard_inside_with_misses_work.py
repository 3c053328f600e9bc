# expect: 39 CTX107
# expect: 42 CTX107
"""Near misses of the guarded-with shape: one coroutine awaits outside its catch-all (in
the other branch), the other awaits the flush after its `try` inside the `with`. Their
failures are never retrieved from the dropped tasks."""
import asyncio
import contextlib


@contextlib.contextmanager
def captured_output(view):
    yield view


class CommandPanel:
    def __init__(self, backend, view):
        self.backend = backend
        self.view = view

    async def _run_command(self, command: str) -> None:
        out = self.view.get("output")
        with captured_output(out):
            try:
                await self.backend.dispatch(command)
            except ValueError as e:
                out.append(f"bad command: {e}")
            await out.flush()

    async def _refresh(self, kind: str) -> None:
        if kind == "models":
            try:
                await self.backend.list_models()
            except Exception:
                pass
        else:
            await self.backend.ping()

    def on_submit(self, command: str) -> None:
        asyncio.create_task(self._run_command(command))

    def on_refresh(self, kind: str) -> None:
        asyncio.create_task(self._refresh(kind))
