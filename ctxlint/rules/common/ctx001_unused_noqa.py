"""CTX001 unused-noqa: a suppression comment that suppresses no finding (off by default)."""

from __future__ import annotations

import re

from ctxlint.findings import SAFE, Edit, Finding, Fix
from ctxlint.rules import Rule


class UnusedNoqa(Rule):
    code = "CTX001"
    name = "unused-noqa"
    language = "any"
    default = False
    fix_safety = SAFE
    summary = "A suppression comment that suppresses no finding."
    doc = """\
## What it does
Reports `# noqa: CTX…`, `# ctxlint: ignore[…]`, `//nolint:ctxlint` and
`{# ctxlint: ignore … #}` comments that name a ctxlint code but suppressed
nothing in this run. Off by default; enable with `--select CTX001` (alongside
the rules whose suppressions you want checked).

## Why is this bad
Stale suppressions hide the next real finding on that line.

## Example
```python
cache[key] = value  # noqa: CTX501   <- the key was fixed long ago
```

## Use instead
Delete the comment.

## Fix safety
Safe: the fix drops the dead ctxlint codes from the comment's list (`# noqa: CTX501,
E501` becomes `# noqa: E501`: another linter's codes stay), or the whole comment when
it names nothing else (a line left blank goes with it). Python and Go comments only;
a Jinja comment tag can carry whitespace control, so it is left to the author.

## Source
ruff RUF100 (unused-noqa).
"""

    def check(self, facts):
        return ()


def unused_suppressions(path: str, sups, selected: set[str], text: str) -> list[Finding]:
    """CTX001 findings for suppressions that matched nothing.

    Only suppressions naming a ctxlint code (CTX…) are considered, and only
    codes among the selected rules, so a `# noqa: E501` for another linter or a
    code that did not run is never reported.
    """
    out = []
    for s in sups:
        if s.used or s.codes is None:
            continue
        mine = [c for c in s.codes if c.startswith("CTX")]
        if not mine or not all(any(sel.startswith(c) for sel in selected) for c in mine):
            continue
        out.append(Finding("CTX001", "unused-noqa", path, s.line, s.col, s.line, s.end_col,
                           f"unused suppression for {', '.join(sorted(mine))}",
                           fix=_drop_codes(text, s, set(mine))))
    return out


_TOKEN = re.compile(r"[A-Za-z]+[0-9]+")


def _drop_codes(text: str, s, dead: set[str]) -> Fix | None:
    """The edit that removes the `dead` codes from suppression `s` (a Python `#` or Go
    `//` comment; a Jinja tag gets None): the list without them, or, when no code is
    left, the comment and the blanks before it (the whole line when nothing else is
    on it). None when the comment's text is not where `s` says."""
    lines = text.split("\n")
    if not 0 < s.line <= len(lines):
        return None
    line = lines[s.line - 1]
    start = sum(len(ln) + 1 for ln in lines[:s.line - 1])
    a, b = s.col - 1, s.end_col - 1
    comment = line[a:b]
    if not comment.startswith(("#", "//")):
        return None
    kept = [t for t in _TOKEN.findall(comment.split(":", 1)[-1].split("[", 1)[-1]) if t.upper() not in dead]
    if kept and comment.startswith("#") and "[" not in comment:
        m = re.search(r":\s*", comment)
        if m is None:
            return None
        new = comment[:m.end()] + ", ".join(kept)
        return Fix(description=f"remove {', '.join(sorted(dead))} from the suppression", safety=SAFE,
                   edits=(Edit(start + a, start + b, new),))
    if kept:
        return None  # `ignore[...]` / `//nolint:x,ctxlint` with other entries: left to the author
    before = line[:a].rstrip()
    if not before:  # the comment is the whole line: remove the line
        end = start + len(line) + (1 if s.line < len(lines) else 0)
        return Fix(description="remove the unused suppression comment", safety=SAFE,
                   edits=(Edit(start, end, ""),))
    return Fix(description="remove the unused suppression comment", safety=SAFE,
               edits=(Edit(start + len(before), start + b, ""),))
