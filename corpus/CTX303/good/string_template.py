# expect: none
"""string.Template for operator text, and f-strings/format on developer literals."""
import string


def banner(template: str, host: str, user: str) -> str:
    return string.Template(template).safe_substitute(host=host, user=user)


def line(role: str, content: str) -> str:
    fmt = "{role:>10}: {content}"
    return fmt.format(role=role, content=content)


def table(rows: list[tuple[str, float]]) -> str:
    head = "{:<20}{:>8}"
    return "\n".join(head.format(name, score) for name, score in rows)
