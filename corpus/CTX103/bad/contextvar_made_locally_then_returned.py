# expect: 14 CTX103
"""Near miss of a function-local ContextVar: this one is registered in a module-level
table, so other code reads it later, and the value bound while loading the plugin stays
set in the caller's Context."""
import contextvars
import importlib

PLUGIN_VARS: dict[str, contextvars.ContextVar[str]] = {}


def load_plugin(name: str, module_path: str):
    var: contextvars.ContextVar[str] = contextvars.ContextVar(f"plugin_{name}")
    PLUGIN_VARS[name] = var
    var.set(name)
    module = importlib.import_module(module_path)
    module.setup()
    return module
