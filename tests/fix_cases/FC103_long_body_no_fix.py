# fix: same
# fix case (contextvar_reset_finally): issue 35's aiotools shape. A reset on the happy path after a long body: the try/finally fix would re-indent every line of it (65-100 lines in aiotools), a diff no pre-commit hook should write unreviewed, so no fix is offered
from contextvars import ContextVar

worker_index: ContextVar[int] = ContextVar("worker_index", default=-1)


def run_worker(index: int, jobs: list) -> list:
    token = worker_index.set(index)
    out = []
    for job in jobs:
        out.append((worker_index.get(), job))
    out.append("step 1")
    out.append("step 2")
    out.append("step 3")
    out.append("step 4")
    out.append("step 5")
    out.append("step 6")
    out.append("step 7")
    out.append("step 8")
    out.append("step 9")
    out.append("step 10")
    out.append("step 11")
    out.append("step 12")
    out.append("step 13")
    out.append("step 14")
    out.append("step 15")
    out.append("step 16")
    out.append("step 17")
    out.append("step 18")
    out.append("step 19")
    out.append("step 20")
    out.append("step 21")
    out.append("step 22")
    out.append("step 23")
    out.append("step 24")
    out.append("step 25")
    out.append("step 26")
    out.append("step 27")
    out.append("step 28")
    out.append("step 29")
    out.append("step 30")
    worker_index.reset(token)
    return out


def behaviour():
    return run_worker(3, ["a", "b"])[:2], worker_index.get()


def comment_kept(text: str) -> bool:
    # the body stays where it was: no line of it was re-indented
    return "\n    out.append(\"step 30\")\n" in text
