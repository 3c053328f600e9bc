# expect: none
"""alembic's column comparison: a generator step yields, then goes on comparing; the
`set(...)` after the `yield` builds a set of names, it restores nothing."""
import contextlib


@contextlib.contextmanager
def compare_columns(ops, conn_table, metadata_table):
    conn_col_names = [c.name for c in conn_table.columns]
    metadata_col_names = {c.name for c in metadata_table.columns}
    yield
    for name in set(conn_col_names).difference(metadata_col_names):
        ops.append(("drop_column", conn_table.name, name))
