# expect: 9 CTX103
from contextvars import ContextVar

active_config: ContextVar[dict] = ContextVar("active_config", default={})


def run_with_config(config, sample) -> None:
    """Not a setter: it runs the sample's work after binding."""
    active_config.set(config)
    sample.run()
