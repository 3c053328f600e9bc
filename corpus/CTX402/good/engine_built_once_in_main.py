# expect: none
"""The engine is built once per process by `main()`, which only the `__main__`
guard calls: a cache keyed on it keeps nothing that would otherwise be freed."""
import functools
import sys


class InferenceEngine:
    def __init__(self, model_path: str, max_batch: int):
        self.model_path = model_path
        self.max_batch = max_batch

    @functools.lru_cache(maxsize=64)
    def padded_batch(self, n: int) -> int:
        size = 1
        while size < n:
            size *= 2
        return min(size, self.max_batch)

    def serve(self, requests) -> None:
        for batch in requests:
            print(self.padded_batch(len(batch)))


def main(argv: list[str]) -> None:
    engine = InferenceEngine(argv[1], int(argv[2]))
    engine.serve([[1, 2, 3]])


if __name__ == "__main__":
    main(sys.argv)
