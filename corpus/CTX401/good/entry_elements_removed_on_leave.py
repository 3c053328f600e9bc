# expect: none
"""Kind: a room's display-name index (matrix-nio's `MatrixRoom.names`): each member's id
is appended under their display name and removed again when they leave or rename, so no
entry grows with every call."""
from collections import defaultdict


class Room:
    def __init__(self, room_id: str):
        self.room_id = room_id
        self.users: dict[str, str] = {}
        self.names: defaultdict[str, list[str]] = defaultdict(list)

    def add_member(self, user_id: str, display_name: str | None) -> None:
        self.users[user_id] = display_name or user_id
        self.names[display_name or user_id].append(user_id)

    def remove_member(self, user_id: str) -> None:
        name = self.users.pop(user_id, None)
        if name is not None:
            self.names[name].remove(user_id)

    def rename(self, user_id: str, new_name: str) -> None:
        self.names[self.users[user_id]].remove(user_id)
        self.users[user_id] = new_name
        self.names[new_name].append(user_id)


ROOMS: dict[str, Room] = {}
