# expect: none
import functools


class PromptTemplates:
    _dir = "templates"

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def load(name: str) -> str:
        with open(f"templates/{name}.txt", encoding="utf-8") as fh:
            return fh.read()

    @classmethod
    @functools.lru_cache(maxsize=None)
    def names(cls) -> tuple:
        return tuple(sorted(["chat", "completion"]))

    @functools.cached_property
    def default(self) -> str:
        return self.load("chat")
