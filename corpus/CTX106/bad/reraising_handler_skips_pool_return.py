# expect: 13 CTX106
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
        raise
    pool.putconn(conn)


def save_embeddings(rows) -> None:
    with transaction() as conn, conn.cursor() as cur:
        cur.executemany("INSERT INTO embeddings (doc_id, vec) VALUES (%s, %s)", rows)
