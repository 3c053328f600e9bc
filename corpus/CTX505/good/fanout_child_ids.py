# expect: none
"""A parent request fans out into children keyed `f"{index}_{parent_id}"`; the id is
handed back to the caller, which finishes each child with that full id. The release
parameter's name shares words with the parent id, but it is not a part of the key."""


class FanoutState:
    def __init__(self, request_id: str, n: int) -> None:
        self.request_id = request_id
        self.n = n
        self.live_children: set[str] = set()

    def child_id(self, index: int) -> str:
        child_request_id = f"{index}_{self.request_id}"
        self.live_children.add(child_request_id)
        return child_request_id

    def finish_child(self, child_request_id: str) -> bool:
        if child_request_id in self.live_children:
            self.live_children.remove(child_request_id)
        return not self.live_children
