# expect: 9 CTX109
"""Batch exporter that tags every row with the job id while it is iterated."""
import contextvars

job_id = contextvars.ContextVar("job_id")


def export_rows(job: str, rows):
    tok = job_id.set(job)
    for row in rows:
        yield {"job": job_id.get(), **row}
    job_id.reset(tok)
