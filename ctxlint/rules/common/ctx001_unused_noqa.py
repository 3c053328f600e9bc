"""CTX001 unused-noqa: a suppression comment that suppresses no finding (off by default)."""

from __future__ import annotations

from ctxlint.findings import Finding
from ctxlint.rules import Rule


class UnusedNoqa(Rule):
    code = "CTX001"
    name = "unused-noqa"
    language = "any"
    default = False
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
No fix.

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
                           f"unused suppression for {', '.join(sorted(mine))}"))
    return out
