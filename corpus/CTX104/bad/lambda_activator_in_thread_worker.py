# expect: 16 CTX104
"""A thread-pool worker makes each job's parent context current through a lambda the
module binds once; the worker never detaches, so the pooled thread runs the next job
under the previous job's trace."""
import queue

from opentelemetry import context, propagate

activate = lambda carrier: context.attach(propagate.extract(carrier))  # noqa: E731
jobs: "queue.Queue[dict]" = queue.Queue()


def worker(handle):
    while True:
        job = jobs.get()
        activate(job["carrier"])
        handle(job["payload"])
        jobs.task_done()
