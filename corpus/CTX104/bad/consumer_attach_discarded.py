# expect: 10 CTX104
"""Queue consumer that continues the producer's trace for each job."""
from opentelemetry import context, propagate, trace

tracer = trace.get_tracer("batch.consumer")


def handle_message(msg: dict, run_job) -> None:
    parent = propagate.extract(msg["headers"])
    context.attach(parent)
    with tracer.start_as_current_span("job"):
        run_job(msg["body"])
