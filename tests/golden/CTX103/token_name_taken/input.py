from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("request_id")


def run_job(job, token):
    request_id.set(job.id)
    if job.kind == "batch":
        return job.run_batch(token)
    return job.run(token)
