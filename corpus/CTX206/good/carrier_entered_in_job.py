# expect: none
"""The job re-applies the caller's values itself: a carrier entered in the worker thread."""
import contextvars
from concurrent.futures import ThreadPoolExecutor

tenant_var: contextvars.ContextVar[str] = contextvars.ContextVar("tenant", default="")


class Carrier:
    def __init__(self) -> None:
        self._tenant = tenant_var.get()
        self._token = None

    def __enter__(self) -> "Carrier":
        self._token = tenant_var.set(self._tenant)
        return self

    def __exit__(self, *exc) -> None:
        tenant_var.reset(self._token)


def run_in_pool(pool: ThreadPoolExecutor, fn, *args):
    carrier = Carrier()

    def job():
        with carrier:
            return fn(*args)

    return pool.submit(job)
