# expect: none
"""A once-per-Context flag set in the `else:` of an if/elif chain whose earlier test
returns when it is already set (kopf's implicit sub-handler execution)."""
from contextvars import ContextVar

subexecuted_var: ContextVar[bool] = ContextVar("subexecuted_var", default=False)
subregistry_var: ContextVar[list] = ContextVar("subregistry_var")


def execute(*, handlers=None, registry=None):
    if handlers is not None:
        subregistry = list(handlers)
    elif registry is not None:
        subregistry = registry
    elif subexecuted_var.get():
        return
    else:
        subexecuted_var.set(True)
        subregistry = subregistry_var.get()
    for h in subregistry:
        h()
