# expect: 15 CTX502
"""Tool manifests are filtered by the caller's entitlements, read from a ContextVar
the auth middleware sets. functools.cache keys only on `model`, so the first user's
tool list is served to everyone."""
import functools
from contextvars import ContextVar

_user_id: ContextVar[str] = ContextVar("user_id", default="anonymous")

ENTITLEMENTS = {"alice": {"search", "code"}, "bob": {"search"}}


@functools.cache
def allowed_tools(model: str) -> tuple:
    uid = _user_id.get()
    tools = ENTITLEMENTS.get(uid, set())
    if model.startswith("small-"):
        tools = tools - {"code"}
    return tuple(sorted(tools))
