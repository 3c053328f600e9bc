# expect: 16 CTX104
# Reported in review of stop 22's exemptions: an attach per message in a poll loop under a current-span decorator.
# (A real bug the first version of the exemption silenced.)
from opentelemetry import context, propagate, trace

tracer = trace.get_tracer(__name__)


@tracer.start_as_current_span("consumer")
def poll_forever(consumer, handle):
    # the decorator's scope ends only when the process stops; each message's context
    # is attached and never detached, so consumer.poll() and everything after the
    # first message runs under the PREVIOUS message's trace
    while True:
        msg = consumer.poll()
        context.attach(propagate.extract(msg.headers))
        handle(msg)
