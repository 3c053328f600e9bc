# expect: none
import contextvars

current_user: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_user", default=None)
