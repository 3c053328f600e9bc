# expect: none
"""The lambda's token is kept and detached in `finally` for every job."""
import queue

from opentelemetry import context, propagate

activate = lambda carrier: context.attach(propagate.extract(carrier))  # noqa: E731
jobs: "queue.Queue[dict]" = queue.Queue()


def worker(handle):
    while True:
        job = jobs.get()
        token = activate(job["carrier"])
        try:
            handle(job["payload"])
        finally:
            context.detach(token)
            jobs.task_done()
