# expect: none
"""A process pool cannot take a Context; `submit` on a non-executor is not an executor hop."""
from concurrent.futures import ProcessPoolExecutor


def run_batch(fn, items):
    with ProcessPoolExecutor() as pool:
        return list(pool.map(fn, items)) + [pool.submit(fn, items[0]).result()]


class Form:
    def submit(self, handler):
        return handler(self)


def send(form: Form, handler):
    return form.submit(handler)
