# expect: none
"""A schema migration: `ForeignKey` is a column constraint, not a cache key,
even with a user id in scope."""
import sqlalchemy as sa
from alembic import op


def upgrade() -> None:
    op.create_table(
        "group_member",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("group_id", sa.Text(), sa.ForeignKey("group.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Text(), sa.ForeignKey("user.id", ondelete="CASCADE"), nullable=False),
    )


def backfill(conn, uid: str, gid: str) -> None:
    table = sa.table("group_member", sa.column("group_id"), sa.column("user_id"))
    conn.execute(sa.insert(table).values(group_id=gid, user_id=uid))
    sa.Column("owner", sa.Text(), sa.ForeignKey("user.id"))
