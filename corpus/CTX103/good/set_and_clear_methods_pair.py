# expect: none
"""Kind: a set/clear API pair - one method binds the var, another method of the class
(not called from the first) clears it back to None. The pair is an API whose caller
owns the lifecycle (promptflow `set_node_info`/`clear_node_info`)."""
from contextvars import ContextVar


class StepLog:
    def __init__(self):
        self._slot = ContextVar("step_slot", default=None)
        self.buffers = {}

    def bind(self, step_id: str, label: str) -> None:
        self._slot.set((step_id, label))
        self.buffers[step_id] = []

    def unbind(self, step_id: str) -> None:
        held = self._slot.get()
        if held and held[0] == step_id:
            self._slot.set(None)
        self.buffers.pop(step_id, None)

    def write(self, text: str) -> None:
        held = self._slot.get()
        if held:
            self.buffers[held[0]].append(text)
