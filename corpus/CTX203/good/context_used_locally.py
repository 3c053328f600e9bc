# expect: none
"""A copied Context is used within the call that copied it."""
import contextvars
from concurrent.futures import ThreadPoolExecutor

_pool = ThreadPoolExecutor(max_workers=4)


def run_in_thread(fn, *args):
    ctx = contextvars.copy_context()
    return _pool.submit(ctx.run, fn, *args)
