# expect: 12 CTX106
"""Near miss of alembic's comparison step: here what follows the `yield` is a real
restore, the engine's previous isolation level put back through its setter, and an
exception in the with-body skips it."""
import contextlib


@contextlib.contextmanager
def isolation(engine, level: str):
    previous = engine.get_isolation_level()
    engine.set_isolation_level(level)
    yield engine
    engine.set_isolation_level(previous)
