# expect: none
"""textual's `Color(NamedTuple)`: the cached methods key on a tuple of four numbers,
hashed by value (equal colours share one entry), and keeping an instance alive keeps only
those numbers. New colours are made on every call, and that is still no leak."""
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple


class Color(NamedTuple):
    r: int
    g: int
    b: int
    a: float = 1.0

    @lru_cache(maxsize=1024)
    def blend(self, other: "Color", factor: float) -> "Color":
        return Color(int(self.r + (other.r - self.r) * factor), self.g, self.b, self.a)

    @property
    @lru_cache(1024)
    def css(self) -> str:
        return f"rgba({self.r},{self.g},{self.b},{self.a})"


@dataclass(frozen=True)
class Offset:
    x: int
    y: int
    label: str | None = None

    @property
    @lru_cache(maxsize=4096)
    def doubled(self) -> "Offset":
        return Offset(self.x * 2, self.y * 2)


def from_lab(l: float, a: float, b: float, alpha: float = 1.0) -> Color:
    return Color(int(l * 2.55), int(a), int(b), alpha)


def at(x: int, y: int) -> Offset:
    return Offset(x, y)
