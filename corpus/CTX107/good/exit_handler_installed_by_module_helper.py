# expect: none
# A module helper installs whatever callback it is given as a SIGTERM handler with
# signal.signal; the callback it is given schedules the final flush on the loop.
import asyncio
import signal

_loop = asyncio.new_event_loop()


def on_terminate(callback) -> None:
    signal.signal(signal.SIGTERM, lambda signum, frame: callback())


async def flush_and_close(path: str) -> None:
    await asyncio.sleep(0)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("closed\n")


def final_flush() -> None:
    _loop.create_task(flush_and_close("/tmp/usage.log"))


def main() -> None:
    on_terminate(final_flush)
    _loop.run_forever()
