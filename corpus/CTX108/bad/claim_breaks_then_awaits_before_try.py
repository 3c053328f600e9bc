# expect: 24 CTX108 the warm-up await after the break runs before the try whose finally pops the claim
"""Near miss of the per-key creation lock: the caller that claims the key breaks out
of the loop, but awaits a warm-up call before the `try` whose `finally` pops the claim;
a cancellation there leaves the claim (and every later caller waits on it forever)."""
import asyncio
import threading


class BrowserPool:
    def __init__(self, launcher) -> None:
        self.launcher = launcher
        self._guard = threading.Lock()
        self._browsers: dict[str, object] = {}
        self._creating: dict[str, threading.Event] = {}

    async def get_browser(self, thread_id: str):
        loop = asyncio.get_running_loop()
        while True:
            with self._guard:
                if thread_id in self._browsers:
                    return self._browsers[thread_id]
                if thread_id not in self._creating:
                    # the claim
                    self._creating[thread_id] = threading.Event()
                    break
                event = self._creating[thread_id]
            await loop.run_in_executor(None, event.wait)

        await self.launcher.warm_up(thread_id)
        try:
            browser = await self.launcher.launch(thread_id)
            with self._guard:
                self._browsers[thread_id] = browser
            return browser
        finally:
            with self._guard:
                done = self._creating.pop(thread_id)
            done.set()

    async def close_browser(self, thread_id: str) -> None:
        with self._guard:
            browser = self._browsers.pop(thread_id, None)
        if browser is not None:
            await self.launcher.close(browser)
