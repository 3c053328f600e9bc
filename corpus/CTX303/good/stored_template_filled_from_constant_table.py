# expect: none
# A one-shot data migration rewrites each stored notification template: the old
# `{placeholder}` fields become the new engine's syntax by formatting the stored text
# with a constant table of strings. Whatever the stored text says, a field like
# `{flow_id.__class__.__init__}` can only reach str's builtin methods.
import sqlite3

PLACEHOLDER_MAP = {
    "flow_id": "{{ flow.id }}",
    "flow_name": "{{ flow.name }}",
    "flow_run_url": "{{ flow_run|ui_url }}",
}


def upgrade(db_path: str) -> None:
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT id, message_template FROM notification_policy").fetchall()
    for row_id, message_template in rows:
        body = message_template.format(**PLACEHOLDER_MAP) if message_template else ""
        conn.execute("UPDATE notification_policy SET body = ? WHERE id = ?", (body, row_id))
    conn.commit()
