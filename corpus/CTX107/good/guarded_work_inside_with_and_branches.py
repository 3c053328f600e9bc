# expect: none
"""Fire-and-forget UI commands whose coroutines catch and report every error of the work
they await (dashscope's TUI shape): the try sits inside a `with` after synchronous
set-up, or in each branch of an `if`. No exception of theirs can go unretrieved."""
import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)


@contextlib.contextmanager
def captured_output(view):
    yield view


class CommandPanel:
    def __init__(self, backend, view):
        self.backend = backend
        self.view = view

    async def _run_command(self, command: str) -> None:
        """Run one slash command, showing its output in the panel."""
        out = self.view.get("output")
        interactive = command.startswith("/setup")
        with captured_output(out):
            try:
                if interactive:
                    await asyncio.to_thread(self.backend.run_blocking, command)
                else:
                    await self.backend.dispatch(command)
            except Exception as e:  # shown to the user, never lost
                out.append(f"Command failed: {e}")

    async def _refresh(self, kind: str) -> None:
        if kind == "models":
            try:
                await self.backend.list_models()
            except Exception:
                log.exception("refresh failed")
        else:
            for attempt in range(3):
                try:
                    await self.backend.ping()
                    break
                except Exception:
                    log.warning("ping %d failed", attempt)

    def on_submit(self, command: str) -> None:
        asyncio.create_task(self._run_command(command))

    def on_refresh(self, kind: str) -> None:
        asyncio.create_task(self._refresh(kind))
