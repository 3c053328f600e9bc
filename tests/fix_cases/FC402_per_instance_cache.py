# fix: kept
# fix case (per_instance_cache): lru_cache on a method becomes a per-instance cache; results and the comment stay
import functools


class Scorer:
    def __init__(self, weight: int) -> None:
        self.weight = weight
        self.calls = 0

    @functools.lru_cache(maxsize=32)  # keep: sized for the prompts
    def score(self, word: str) -> int:
        self.calls += 1
        return len(word) * self.weight


def behaviour():
    a, b = Scorer(2), Scorer(3)
    return a.score("xy"), a.score("xy"), b.score("xy"), a.calls, b.calls


def comment_kept(text: str) -> bool:
    return any("# keep: sized for the prompts" in ln and not ln.lstrip().startswith(("#", "return"))
               for ln in text.splitlines())
