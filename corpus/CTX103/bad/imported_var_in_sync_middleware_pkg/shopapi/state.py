# expect: none
"""Request-scoped state of the shop API, read by the audit log and the pricing code."""
import contextvars

shopper_id = contextvars.ContextVar("shopper_id", default=None)


def current_shopper():
    return shopper_id.get()
