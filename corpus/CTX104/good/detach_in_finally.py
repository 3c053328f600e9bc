# expect: none
"""Queue consumer: the extracted context is detached in finally."""
from opentelemetry import context, propagate, trace

tracer = trace.get_tracer("batch.consumer")


def handle_message(msg: dict, run_job) -> None:
    token = context.attach(propagate.extract(msg["headers"]))
    try:
        with tracer.start_as_current_span("job"):
            run_job(msg["body"])
    finally:
        context.detach(token)
