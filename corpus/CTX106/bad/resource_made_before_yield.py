# expect: 19 CTX106
"""The signal file is written before the `yield`: an exception in the with-body skips
its removal, and the stale file tells the other ranks the work is done."""
import os
from contextlib import contextmanager


def write_signal_file(name: str, dir_path: str) -> str:
    path = os.path.join(dir_path, name)
    with open(path, "w") as f:
        f.write("done")
    return path


@contextmanager
def announce_rank_zero(dir_path: str):
    name = f"signal-{os.getpid()}"
    signal_path = write_signal_file(name, dir_path)
    yield
    os.remove(signal_path)
