# expect: 13 CTX104
# Reported in review of stop 22's exemptions: the outer attach runs on one branch only.
# (A real bug the first version of the exemption silenced.)
from opentelemetry import context


def run_job(job, parent_ctx, child_ctx):
    if parent_ctx is not None:
        outer = context.attach(parent_ctx)
    else:
        outer = None
    try:
        context.attach(child_ctx)      # leaks whenever parent_ctx is None
        return job.run()
    finally:
        if outer is not None:
            context.detach(outer)
