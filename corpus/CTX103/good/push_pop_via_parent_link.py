# expect: none
"""Kind: push sets the var to a new node's id; the matching pop (another method, not
called from the push) sets it back to the current node's parent, read through the var's
own current value. An API pair whose caller owns the lifecycle (promptflow `Tracer`)."""
from contextvars import ContextVar


class Spans:
    def __init__(self):
        self._cur = ContextVar("cur_node", default="")
        self._nodes = {}

    def _current(self):
        return self._nodes.get(self._cur.get())

    def push(self, node) -> None:
        parent = self._current()
        node.parent_id = parent.node_id if parent else ""
        self._cur.set(node.node_id)
        self._nodes[node.node_id] = node

    def pop(self, result=None):
        node = self._current()
        if node is None:
            return result
        node.result = result
        self._cur.set(node.parent_id)
        return result
