# expect: none
"""The instances of an Enum are its members, made once at import: an unbounded
cache keyed on them keeps nothing that would otherwise be freed."""
import enum
from functools import lru_cache


class ModelFamily(enum.Enum):
    SMALL = "small"
    LARGE = "large"

    @lru_cache(maxsize=None)
    def attention_layers(self) -> tuple:
        depth = 12 if self is ModelFamily.SMALL else 48
        return tuple(range(1, depth, 3))
