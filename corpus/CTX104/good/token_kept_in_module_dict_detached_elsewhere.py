# expect: none
"""Kind: the attach token is stored in a module-level registry keyed by run id; the
module's `on_run_end` takes it out of the registry and detaches it."""
from opentelemetry import context
from opentelemetry.propagate import extract

_live: dict = {}


def on_run_start(run_id: str, carrier: dict) -> None:
    handle = context.attach(extract(carrier))
    _live.setdefault(run_id, []).append(handle)


def on_run_end(run_id: str) -> None:
    for handle in reversed(_live.pop(run_id, [])):
        context.detach(handle)
