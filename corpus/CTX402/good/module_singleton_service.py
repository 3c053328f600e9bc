# expect: none
"""A service object built once at import time and for the life of the process."""
from functools import lru_cache


class RoutingTable:
    def __init__(self, routes: dict[str, str]):
        self.routes = routes

    @lru_cache
    def resolve(self, path: str) -> str:
        head, _, rest = path.partition("/")
        target = self.routes.get(head, "default")
        return f"{target}/{rest}" if rest else target


ROUTES = RoutingTable({"chat": "llm", "embed": "encoder"})


def handle(path: str) -> str:
    return ROUTES.resolve(path)
