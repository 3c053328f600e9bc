# expect: none
# The cleanup after `yield` acts on objects the generator made and keeps to itself,
# whose classes clean up when collected: an exception ends the frame and the
# finalizer runs at once (TemporaryDirectory's weakref.finalize, tqdm's __del__).
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from tqdm.auto import tqdm


@contextmanager
def scratch_dir(prefix=None):
    tmp = tempfile.TemporaryDirectory(prefix=prefix)
    yield Path(tmp.name)
    shutil.rmtree(tmp.name, ignore_errors=True)


@contextmanager
def progress(total):
    bar = tqdm(total=total, unit="B")
    yield lambda n: None
    bar.close()
