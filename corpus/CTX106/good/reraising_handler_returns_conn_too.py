# expect: none
"""The handler that re-raises returns the connection itself; the return after the
`try` is the normal path's."""
from contextlib import contextmanager

from psycopg2.pool import ThreadedConnectionPool

pool = ThreadedConnectionPool(1, 10, dsn="dbname=vectors")


@contextmanager
def transaction():
    conn = pool.getconn()
    try:
        yield conn
        conn.commit()
    except Exception:
        conn.rollback()
        pool.putconn(conn)
        raise
    pool.putconn(conn)
