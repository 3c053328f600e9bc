# expect: 13 CTX103
"""Next to good/setter_calls_imported_setter_pkg: the imported function binds a value
and then runs the sample, so the model set here is bound for that work, on whatever
thread runs it, and nothing unbinds it."""
from contextvars import ContextVar

from evalkit.config import run_with_config

active_model: ContextVar[object] = ContextVar("active_model", default=None)


def run_sample(model, config, sample) -> None:
    active_model.set(model)
    run_with_config(config, sample)
