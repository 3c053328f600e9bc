# expect: 22 CTX407
"""Session records fanned out to remote scorers in a batch list."""
import threading
from dataclasses import dataclass, field

import ray


@dataclass
class Session:
    session_id: str
    turns: list[str] = field(default_factory=list)
    guard: threading.RLock = field(default_factory=threading.RLock)


@ray.remote
def score(batch: list) -> int:
    return sum(len(s.turns) for s in batch)


def score_all(a: Session, b: Session):
    return score.remote([a, b])
