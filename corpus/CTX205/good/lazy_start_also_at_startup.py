# expect: none
"""Watchdog loops started once by `start()`, which the application's startup entry
point (an `@app.on_event("startup")` hook, a `add_event_handler("startup", ...)`
registration) calls; `submit()` calls it too, but only as an idempotent fallback."""
import asyncio

from fastapi import FastAPI

app = FastAPI()


class JobService:
    def __init__(self) -> None:
        self._watchdog: asyncio.Task | None = None

    async def start(self) -> None:
        self._start_watchdog()

    def _start_watchdog(self) -> None:
        if self._watchdog is not None:
            return

        async def _loop() -> None:
            while True:
                await asyncio.sleep(30)

        self._watchdog = asyncio.create_task(_loop())

    async def submit(self, request_id: str, payload: dict) -> str:
        await self.start()
        return request_id

    async def recover_on_boot(self) -> None:
        await self.start()


jobs = JobService()


@app.on_event("startup")
async def _boot() -> None:
    await jobs.recover_on_boot()


_sweeper: asyncio.Task | None = None


async def _sweep_loop() -> None:
    while True:
        await asyncio.sleep(60)


def ensure_sweeper() -> None:
    global _sweeper
    if _sweeper is None:
        _sweeper = asyncio.get_running_loop().create_task(_sweep_loop())


async def record(request_id: str) -> None:
    ensure_sweeper()


async def init_app() -> None:
    ensure_sweeper()


app.add_event_handler("startup", init_app)
