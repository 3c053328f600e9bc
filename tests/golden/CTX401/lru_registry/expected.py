"""Per-user agent graphs."""
import functools
from collections import OrderedDict


class _BoundedDict(OrderedDict):
    """A dict that keeps at most `maxsize` entries: storing a key makes it the newest,
    and the oldest entry goes when the bound is passed (added by ctxlint, CTX401)."""

    def __init__(self, *args, maxsize=1024, **kwargs):
        self.maxsize = maxsize
        super().__init__(*args, **kwargs)

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.maxsize:
            self.popitem(last=False)


_USER_AGENT_GRAPHS = _BoundedDict(maxsize=64)


def get_user_subagent(integration_id, user_id, compile_agent):
    key = (integration_id, user_id)
    graph = _USER_AGENT_GRAPHS.get(key)
    if graph is None:
        graph = _USER_AGENT_GRAPHS[key] = compile_agent(integration_id, user_id)
    return graph
