# expect: none
"""The signal file is written only after the `yield`, then removed: when the with-body
raises, the file was never written, so there is nothing to clean up (composer's
`busy_wait_for_local_rank_zero`)."""
import os
from contextlib import contextmanager


def write_signal_file(name: str, dir_path: str) -> str:
    path = os.path.join(dir_path, name)
    with open(path, "w") as f:
        f.write("done")
    return path


@contextmanager
def wait_for_rank_zero(dir_path: str):
    name = f"signal-{os.getpid()}"
    yield
    signal_path = write_signal_file(name, dir_path)
    os.remove(signal_path)
