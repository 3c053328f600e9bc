# expect: 25 CTX407
"""A job description that captures the caller's tenant and Context, sent to a remote task."""
import contextvars

import ray

tenant = contextvars.ContextVar("tenant", default="")


class Job:
    def __init__(self, prompt: str) -> None:
        self.prompt = prompt
        self.owner = tenant.get()
        self.ctx = contextvars.copy_context()


@ray.remote
def generate(job: Job) -> str:
    return job.ctx.run(lambda: job.prompt.upper())


def submit(prompt: str):
    job = Job(prompt)
    # the remote worker receives this request's Context
    return generate.remote(job)
