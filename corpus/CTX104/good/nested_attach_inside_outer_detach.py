# expect: none
# The outer attach is detached in `finally`; a second attach inside that `try`
# (baggage for the inner work) needs no token of its own: detaching the outer token
# resets the ContextVar to the value from before both.
from opentelemetry import baggage, context


def run_job(job, parent_ctx):
    outer = context.attach(parent_ctx)
    try:
        context.attach(baggage.set_baggage("job.id", job.id))
        return job.run()
    finally:
        context.detach(outer)
