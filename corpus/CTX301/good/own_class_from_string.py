# expect: none
"""Reduced from arize-phoenix's api/routers/agents.py: `Cursor.from_string` is the
project's own base64 pagination-cursor parser, not jinja2 (the file also uses jinja2)."""
import base64
from dataclasses import dataclass

from jinja2 import Template

SUMMARY = Template("{{ n }} sessions")


@dataclass
class Cursor:
    rowid: int

    @classmethod
    def from_string(cls, text: str) -> "Cursor":
        return cls(int(base64.b64decode(text).decode().split(":")[1]))


def parse_cursor(cursor: str) -> Cursor:
    return Cursor.from_string(cursor)


def parse_again(cursor: str) -> Cursor:
    parser = Cursor(0)
    return parser.from_string(cursor)
