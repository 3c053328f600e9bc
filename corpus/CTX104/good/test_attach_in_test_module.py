# expect: none
"""Kind: the project's own test module attaches a context to check what a handler sees
and leaves it attached: the leftover reaches only the later tests of the run, as CTX103
skips such modules. The same attach in a library module is CTX104."""
from opentelemetry import baggage, context


def read_tenant() -> str | None:
    return baggage.get_baggage("tenant")


def test_handler_reads_tenant_from_baggage():
    context.attach(baggage.set_baggage("tenant", "acme"))
    assert read_tenant() == "acme"
