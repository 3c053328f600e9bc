from typing import Dict


class MiniEngine:
    def __init__(self):
        self.child_to_group: Dict[str, object] = {}  # child id -> group

    def submit(self, parent_id, request, n):
        for i in range(n):
            self.child_to_group[f"{parent_id}#{i}"] = request.group
