# expect: 16 CTX106
# expect: 25 CTX106
# The TemporaryDirectory object itself is yielded: the caller's `as` name keeps it
# alive after an exception, so its finalizer does not run when the generator ends;
# and removing a name from a module list is cleanup no finalizer does.
import tempfile
from contextlib import contextmanager

_ACTIVE = []


@contextmanager
def workspace():
    tmp = tempfile.TemporaryDirectory()
    _ACTIVE.append(tmp.name)
    yield tmp
    _ACTIVE.remove(tmp.name)
    tmp.cleanup()


@contextmanager
def tracked_scratch():
    tmp = tempfile.TemporaryDirectory()
    _ACTIVE.append(tmp.name)
    yield tmp.name
    _ACTIVE.remove(tmp.name)
