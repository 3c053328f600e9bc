# expect: none
"""Each step binds and unbinds the job id between two yields."""
import contextvars

job_id = contextvars.ContextVar("job_id")


def export_rows(job: str, rows, render):
    for row in rows:
        tok = job_id.set(job)
        try:
            out = render(row)
        finally:
            job_id.reset(tok)
        yield out
