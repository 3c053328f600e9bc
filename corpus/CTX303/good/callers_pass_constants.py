# expect: none
"""Reduced from crewai utilities/errors.py and memory/storage: a helper formats the
template it is given, and every call passes one of the class's own constant strings."""
from typing import Final


class DatabaseError:
    INIT_ERROR: Final[str] = "Database initialization error: {}"
    SAVE_ERROR: Final[str] = "Error saving task outputs: {}"

    @classmethod
    def format_error(cls, template: str, error: Exception) -> str:
        return template.format(str(error))


def init_storage(connect):
    try:
        return connect()
    except OSError as e:
        raise RuntimeError(DatabaseError.format_error(DatabaseError.INIT_ERROR, e)) from e


def save(conn, row):
    try:
        conn.execute("INSERT INTO outputs VALUES (?)", (row,))
    except OSError as e:
        raise RuntimeError(DatabaseError.format_error(DatabaseError.SAVE_ERROR, e)) from e
