# expect: none
"""Per-key creation lock: the caller that claims the key breaks out of the loop
straight into a `try` whose `finally` pops the claim; the `await` inside the loop runs
only on passes where another caller owns the claim (this one did not insert).
Reduced from crewai-tools crewai_tools/aws/bedrock/browser/browser_session_manager.py
(get_async_browser)."""
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
                    self._creating[thread_id] = threading.Event()
                    break
                event = self._creating[thread_id]
            await loop.run_in_executor(None, event.wait)

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
