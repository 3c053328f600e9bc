from typing import Dict
from weakref import WeakValueDictionary


class MiniEngine:
    def __init__(self):
        self.child_to_group: WeakValueDictionary[str, object] = WeakValueDictionary()  # child id -> group

    def submit(self, parent_id, request, n):
        for i in range(n):
            self.child_to_group[f"{parent_id}#{i}"] = request.group
