# expect: none
"""The memoized function takes the user id as a parameter; the caller reads the
ContextVar outside the cache."""
import functools
from contextvars import ContextVar

_user_id: ContextVar[str] = ContextVar("user_id", default="anonymous")

ENTITLEMENTS = {"alice": frozenset({"search", "code"}), "bob": frozenset({"search"})}


@functools.lru_cache(maxsize=4096)
def allowed_tools(user_id: str, model: str) -> tuple:
    tools = ENTITLEMENTS.get(user_id, frozenset())
    if model.startswith("small-"):
        tools = tools - {"code"}
    return tuple(sorted(tools))


def tools_for_request(model: str) -> tuple:
    return allowed_tools(_user_id.get(), model)
