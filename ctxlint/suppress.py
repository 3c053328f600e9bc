"""Suppression comments for every language.

Python: `# noqa`, `# noqa: CTX501, CTX103`, `# ctxlint: ignore[CTX501]` on the
finding's line; `# ctxlint: ignore-file` in the first 10 lines skips the file.
Go: `//nolint:ctxlint` (with or without `// reason`), `//nolint` (all linters),
`// ctxlint:ignore CTX101`. Jinja: `{# ctxlint: ignore CTX302 #}` or `{# noqa: CTX302 #}`.

A peer linter's suppression of the same defect suppresses ctxlint's finding too
(`PEER_CODES`), as ruff honours the flake8 codes it re-implements: a line already
marked `# noqa: RUF006` (ruff's asyncio-dangling-task) or `//nolint:containedctx`
has had that defect judged by its author, and asking for a second comment is noise.

A suppression applies to findings whose *first* line carries it (as flake8/ruff).
`apply_suppressions` also reports which suppressions matched nothing, for the
off-by-default `CTX001 unused-noqa` rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ctxlint.findings import Finding

_CODE_LIST = r"(?P<codes>[A-Z]+[0-9]+(?:\s*[,\s]\s*[A-Z]+[0-9]+)*)"
_PY_NOQA = re.compile(r"#\s*noqa(?::\s*" + _CODE_LIST + r")?", re.IGNORECASE)
_PY_IGNORE = re.compile(r"#\s*ctxlint:\s*ignore\[(?P<codes>[^\]]*)\]", re.IGNORECASE)
_GO_NOLINT = re.compile(r"//\s*nolint(?::(?P<linters>[\w,-]+))?", re.IGNORECASE)
_GO_IGNORE = re.compile(r"//\s*ctxlint:ignore(?:\s+" + _CODE_LIST + r")?", re.IGNORECASE)
_JINJA = re.compile(r"\{#[-+]?\s*(?:ctxlint:\s*ignore|noqa:?)\s*" + _CODE_LIST + r"?\s*[-+]?#\}", re.IGNORECASE)
_FILE_IGNORE = re.compile(r"(#|//|\{#)\s*ctxlint:\s*ignore-file", re.IGNORECASE)


#: A peer linter's code (Python `# noqa: X`) or golangci-lint linter name (Go
#: `//nolint:x`) -> the ctxlint codes that report the same defect. Only exact
#: equivalents: ruff's RUF006 asyncio-dangling-task (docs.astral.sh/ruff/rules/
#: asyncio-dangling-task) is CTX107; go vet's lostcancel analyzer (golangci-lint runs
#: it inside `govet`) is CTX101; golangci-lint's `containedctx` is CTX202 and its
#: `contextcheck` is CTX206.
PEER_CODES: dict[str, frozenset[str]] = {
    "RUF006": frozenset({"CTX107"}),
    "govet": frozenset({"CTX101"}),
    "lostcancel": frozenset({"CTX101"}),
    "containedctx": frozenset({"CTX202"}),
    "contextcheck": frozenset({"CTX206"}),
}
_PEER_LOWER = {k.lower(): v for k, v in PEER_CODES.items()}


@dataclass
class Suppression:
    """One suppression comment: the line it is on, the codes it names (None = all)."""

    line: int
    codes: frozenset[str] | None
    col: int
    end_col: int
    used: bool = False
    peer: frozenset[str] = frozenset()  # ctxlint codes a peer's code on the comment stands for

    def matches(self, code: str) -> bool:
        return self.codes is None or code in self.peer or any(code.startswith(c) for c in self.codes)


def _codes(text: str | None) -> frozenset[str] | None:
    if not text:
        return None
    return frozenset(c.upper() for c in re.split(r"[\s,]+", text.strip()) if c)


def file_ignored(text: str) -> bool:
    """True when `ctxlint: ignore-file` appears in the first 10 lines."""
    head = "\n".join(text.splitlines()[:10])
    return bool(_FILE_IGNORE.search(head))


def parse_suppressions(text: str, language: str) -> dict[int, list[Suppression]]:
    """Find suppression comments; returns line (1-based) -> suppressions on that line.

    Only lines containing the comment markers are regex-scanned, so the cost is
    a substring search over the file. Python matches are accepted anywhere on
    the line after a `#` (a `#` inside a string is a rare false suppression that
    flake8 accepts too).
    """
    out: dict[int, list[Suppression]] = {}
    if language == "python":
        if "noqa" not in text and "ctxlint" not in text and "NOQA" not in text:
            return out
        pats = (_PY_NOQA, _PY_IGNORE)
    elif language == "go":
        if "nolint" not in text and "ctxlint" not in text:
            return out
        pats = (_GO_NOLINT, _GO_IGNORE)
    else:
        if "ctxlint" not in text and "noqa" not in text:
            return out
        pats = (_JINJA,)
    for i, line in enumerate(text.splitlines(), 1):
        if "noqa" not in line and "ctxlint" not in line and "nolint" not in line and "NOQA" not in line:
            continue
        for pat in pats:
            for m in pat.finditer(line):
                peer: frozenset[str] = frozenset()
                if pat is _GO_NOLINT:
                    linters = m.group("linters")
                    names = linters.lower().split(",") if linters else []
                    if names and "ctxlint" not in names:
                        peer = frozenset().union(*(_PEER_LOWER.get(n, frozenset()) for n in names))
                        if not peer:
                            continue
                        codes: frozenset[str] | None = frozenset()
                    else:
                        codes = None
                else:
                    codes = _codes(m.groupdict().get("codes"))
                    if codes:
                        peer = frozenset().union(*(_PEER_LOWER.get(c.lower(), frozenset()) for c in codes))
                out.setdefault(i, []).append(Suppression(i, codes, m.start() + 1, m.end() + 1, peer=peer))
    return out


def apply_suppressions(findings: list[Finding], text: str, language: str) -> tuple[list[Finding], list[Suppression]]:
    """Drop findings suppressed by a comment on their first line.

    Returns:
        (kept findings, all suppressions found in the file with `used` set).
    CTX000 parse errors are never suppressed by a line comment.
    """
    sups = parse_suppressions(text, language)
    if not sups:
        return findings, []
    kept = []
    for f in findings:
        hit = False
        if f.code != "CTX000":
            for s in sups.get(f.line, ()):
                if s.matches(f.code):
                    s.used = True
                    hit = True
        if not hit:
            kept.append(f)
    return kept, [s for lst in sups.values() for s in lst]
