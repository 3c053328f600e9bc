# expect: 17 CTX206
"""Agent tool runner: each tool call runs in a worker thread."""
from concurrent.futures import Future, ThreadPoolExecutor


class ToolRunner:
    def __init__(self, workers: int = 4) -> None:
        self.executor: ThreadPoolExecutor = ThreadPoolExecutor(max_workers=workers)

    def run(self, tool, *args, **kwargs) -> Future:
        def job():
            try:
                return tool(*args, **kwargs)
            except Exception as exc:  # reported to the agent as text
                return f"tool failed: {exc}"

        return self.executor.submit(job)
