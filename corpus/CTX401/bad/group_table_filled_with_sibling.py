# expect: 22 CTX401
"""`spawn` files each child under the same key in two tables; `collect` pops the
outputs table but nothing ever removes a child from `owners`."""
from typing import Dict


class Fanout:
    def __init__(self, n: int):
        self.n = n
        self.total = n


class Splitter:
    def __init__(self):
        self.owners: Dict[str, Fanout] = {}
        self.outputs: Dict[str, list] = {}

    def spawn(self, parent: str, n: int) -> None:
        group = Fanout(n)
        for i in range(n):
            child = f"{parent}#{i}"
            self.owners[child] = group
            self.outputs[child] = []

    def collect(self, child: str) -> list:
        return self.outputs.pop(child)
