# expect: none
"""Builds a directory beside its destination and swaps it in on success (datasets'
`incomplete_dir`): the `finally` removes the temporary directory on every path; replacing
the old destination is the success path's commit, which must not run when the body raises."""
import os
import shutil
from contextlib import contextmanager


@contextmanager
def incomplete_dir(dirname: str):
    tmp_dir = dirname + ".incomplete"
    os.makedirs(tmp_dir, exist_ok=True)
    try:
        yield tmp_dir
        if os.path.isdir(dirname):
            shutil.rmtree(dirname)
        shutil.move(tmp_dir, dirname)
    finally:
        if os.path.exists(tmp_dir):
            shutil.rmtree(tmp_dir)
