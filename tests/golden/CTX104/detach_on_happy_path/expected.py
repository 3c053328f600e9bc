from opentelemetry import context as otel_ctx


def run_with_parent(parent_ctx, job):
    token = otel_ctx.attach(parent_ctx)
    try:
        result = job()
    finally:
        otel_ctx.detach(token)
    return result
