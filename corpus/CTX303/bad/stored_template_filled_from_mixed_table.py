# expect: 19 CTX303
# Near miss of the constant-table exemption: the table handed with `**` holds a live
# object next to the strings, so a stored template can walk from it
# (`{settings.__init__.__globals__}`).
import sqlite3


class Settings:
    api_key = "sk-live-0000"


def render_all(db_path: str) -> list[str]:
    table = {"flow_name": "{{ flow.name }}", "settings": Settings()}
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT message_template FROM notification_policy").fetchall()
    out = []
    for (message_template,) in rows:
        if message_template:
            out.append(message_template.format(**table))
    return out
