# expect: 24 CTX303
# Reported in review of stop 22's exemptions: the **table is mutated to hold a live object.
# (A real bug the first version of the exemption silenced.)
import sqlite3

PLACEHOLDER_MAP = {
    "flow_id": "{{ flow.id }}",
    "flow_name": "{{ flow.name }}",
}


class Settings:
    api_key = "sk-live-0000"


def install(settings: Settings) -> None:
    PLACEHOLDER_MAP["settings"] = settings     # a live object joins the "constant" table


def render_all(db_path: str) -> list[str]:
    conn = sqlite3.connect(db_path)
    rows = conn.execute("SELECT message_template FROM notification_policy").fetchall()
    # a stored "{settings.__init__.__globals__[...]}" now walks from the live object
    return [t.format(**PLACEHOLDER_MAP) for (t,) in rows if t]
