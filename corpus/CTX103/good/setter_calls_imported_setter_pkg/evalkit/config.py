# expect: none
from contextvars import ContextVar

active_config: ContextVar[dict] = ContextVar("active_config", default={})


def set_active_config(config) -> None:
    """Bind the generate config for the rest of this sample's Context."""
    active_config.set(config)
