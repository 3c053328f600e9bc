"""The one data model every part of ctxlint shares: Finding, Fix, Edit.

Rules produce `Finding`s; a finding may carry a `Fix`; a fix is either a list of
text `Edit`s known at check time (Go and Jinja byte-range edits) or the name of a
codemod in `ctxlint.fixers` plus JSON-able parameters (Python libcst transformers),
so that lint and codemod are one path (the Fixit model). Everything here is plain
data and round-trips through JSON, so findings can be cached per file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Edit:
    """Replace `source[start:end]` with `text`.

    Args:
        start, end: character offsets (0-based, end exclusive) into the decoded
            source text of the file the finding is in.
        text: the replacement.
    """

    start: int
    end: int
    text: str

    def to_dict(self) -> dict:
        """{"start", "end", "text"}: JSON-able, for the findings cache."""
        return {"start": self.start, "end": self.end, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict) -> "Edit":
        """Inverse of `to_dict`. Raises KeyError, TypeError or ValueError on a malformed dict."""
        return cls(int(d["start"]), int(d["end"]), str(d["text"]))


SAFE = "safe"
UNSAFE = "unsafe"

#: Confidence tiers (Infer Pulse's manifest/latent split; CodeQL's query precision;
#: bandit's confidence). HIGH: the project shows the harm (an entry point reaches the
#: code, the owner's lifetime comes from its allocation site, the text comes from a
#: request). LOW: the pattern is there, and its harm depends on what the project does
#: not show. `ctxlint check` reports HIGH by default; `--min-confidence low` reports both.
HIGH = "high"
LOW = "low"
CONFIDENCES = (HIGH, LOW)


def confidence_rank(confidence: str) -> int:
    """0 for "high", 1 for "low" (anything else counts as low): a finding is reported
    when `confidence_rank(f.confidence) <= confidence_rank(min_confidence)`."""
    return 0 if confidence == HIGH else 1


@dataclass(frozen=True)
class TraceStep:
    """One step of a finding's evidence: where a value was created, where it went, which
    entry point or allocation site makes the harm real (a SARIF thread-flow location).

    Args:
        path: file of the step (usually the finding's own file).
        line, col: 1-based position.
        message: one short sentence ("`SESSIONS` is created at import time ...").
    """

    path: str
    line: int
    col: int
    message: str

    def to_dict(self) -> dict:
        """{"path", "line", "col", "message"}: the JSON contract's trace item."""
        return {"path": printable(self.path), "line": self.line, "col": self.col,
                "message": printable(self.message)}

    @classmethod
    def from_dict(cls, d: dict, path: str | None = None) -> "TraceStep":
        """Inverse of `to_dict`; `path` replaces a missing or empty stored path (the
        cache stores steps of the finding's own file without a path).
        Raises KeyError, TypeError or ValueError on a malformed dict."""
        return cls(str(d.get("path") or path or ""), int(d["line"]), int(d["col"]), str(d["message"]))


@dataclass(frozen=True)
class Fix:
    """A proposed rewrite for one finding.

    Args:
        description: imperative one-liner shown to the user ("insert `defer cancel()`").
        safety: "safe" (behaviour-preserving apart from the bug) or "unsafe"
            (changes behaviour: cache keys gain an id, caches become bounded), as ruff.
        edits: text edits, when the rule can compute them directly.
        codemod: name of a codemod registered in `ctxlint.fixers` when the rewrite
            needs a concrete syntax tree (libcst); applied by the fixers.
        data: JSON-able parameters for the codemod (names, positions).
    """

    description: str
    safety: str = SAFE
    edits: tuple[Edit, ...] = ()
    codemod: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """All fields as JSON-able data (edits as `Edit.to_dict`), for the findings cache."""
        return {
            "description": self.description,
            "safety": self.safety,
            "edits": [e.to_dict() for e in self.edits],
            "codemod": self.codemod,
            "data": self.data,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Fix":
        """Inverse of `to_dict`; missing optional keys take their defaults.

        Raises:
            KeyError, TypeError, ValueError: a malformed dict (the cache treats it as a miss).
        """
        return cls(
            description=d["description"],
            safety=d.get("safety", SAFE),
            edits=tuple(Edit.from_dict(e) for e in d.get("edits", ())),
            codemod=d.get("codemod"),
            data=d.get("data") or {},
        )


@dataclass
class Finding:
    """One diagnostic: a rule's code at a source range, with an optional fix.

    Lines and columns are 1-based; `end_line`/`end_col` point one past the last
    character (as LSP/SARIF ranges after the 1-based shift). `path` is the path as
    given on the command line (or the discovered path below it).
    """

    code: str
    name: str
    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    message: str
    fix: Fix | None = None
    #: "high" (manifest: reported by default) or "low" (latent: `--min-confidence low`).
    confidence: str = HIGH
    #: The evidence: the few steps that made the finding manifest or latent.
    trace: tuple[TraceStep, ...] = ()

    @property
    def fixable(self) -> bool:
        """Does the finding carry a fix (safe or unsafe)? The JSON contract's `fixable`."""
        return self.fix is not None

    def sort_key(self) -> tuple:
        """(path, line, col, code): the order every report lists findings in."""
        return (self.path, self.line, self.col, self.code)

    def to_json(self) -> dict:
        """The JSON contract of DESIGN.md, plus `fix_safety` (null when not fixable).

        Path and message go through `printable`, so a non-UTF-8 file name is
        written as `\\xNN` escapes and the document is strict JSON."""
        return {
            "code": self.code,
            "name": self.name,
            "path": printable(self.path),
            "line": self.line,
            "col": self.col,
            "end_line": self.end_line,
            "end_col": self.end_col,
            "message": printable(self.message),
            "fixable": self.fixable,
            "fix_safety": self.fix.safety if self.fix else None,
            "confidence": self.confidence,
            "trace": [t.to_dict() for t in self.trace],
        }

    def to_cache(self) -> dict:
        """The finding as stored in the per-file cache: `to_json` without the
        path (the cache is keyed by content, the path is the caller's) and with
        the whole fix (`Fix.to_dict`)."""
        d = self.to_json()
        del d["fixable"], d["fix_safety"], d["path"]
        d["fix"] = self.fix.to_dict() if self.fix else None
        d["trace"] = [{**t.to_dict(), "path": "" if t.path == self.path else t.to_dict()["path"]}
                      for t in self.trace]
        return d

    @classmethod
    def from_cache(cls, d: dict, path: str) -> "Finding":
        """Inverse of `to_cache`, reported at `path`.

        Raises:
            KeyError, TypeError, ValueError, AttributeError: a malformed entry
                (`engine.Cache.get` treats it as a miss).
        """
        return cls(
            code=d["code"],
            name=d["name"],
            path=path,
            line=d["line"],
            col=d["col"],
            end_line=d["end_line"],
            end_col=d["end_col"],
            message=d["message"],
            fix=Fix.from_dict(d["fix"]) if d.get("fix") else None,
            confidence=LOW if d.get("confidence") == LOW else HIGH,
            trace=tuple(TraceStep.from_dict(t, path) for t in d.get("trace") or ()),
        )


# A side channel for "analysis incomplete" notices (a rule that hit Python's
# recursion limit on absurdly deep code): languages call `note()`, the engine
# drains them per file into the run's notices, and such files are not cached.
_NOTICES: list[str] = []


def note(message: str) -> None:
    """Record a one-line notice about the file being linted (shown on stderr)."""
    _NOTICES.append(message)


#: Prefix of a notice recorded by `note_unchecked`: "<marker><line>\t<message>".
UNCHECKED_MARKER = "__unchecked__\n"


def note_unchecked(line: int, message: str) -> None:
    """Record that part of the file being linted (a function starting at 1-based
    `line`) was not checked: the engine shows it on stderr, counts it in the text
    summary and lists it in SARIF's `toolExecutionNotifications`."""
    _NOTICES.append(f"{UNCHECKED_MARKER}{line}\t{message}")


def drain_notices() -> list[str]:
    """Return and clear the notices recorded since the last call."""
    out = _NOTICES[:]
    _NOTICES.clear()
    return out


_CONTROL = None


def terminal_safe(text: str) -> str:
    """`printable(text)` with control characters (C0, DEL, C1: a newline, a
    carriage return, an ANSI escape) written as Python escapes (`\\n`, `\\x1b`),
    for the one-line-per-item text a terminal shows: a file named `a\\nb.py` or
    `\\x1b[2J.py` can neither split a report line nor drive the terminal."""
    global _CONTROL
    text = printable(text)
    if _CONTROL is None:
        import re
        _CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def printable(text: str) -> str:
    """`text` with every lone surrogate (an undecodable byte of a file name, kept by
    Python's `surrogateescape`) written as a `\\xNN` escape of that byte.

    File names on POSIX are bytes; a name that is not UTF-8 reaches ctxlint as a
    str holding lone surrogates, which no UTF-8 output (text, strict JSON, SARIF,
    a baseline file) can carry. Every reporter writes such a path through this
    function, so one file has one spelling in every format (`bad_\\xff.py`);
    SARIF's artifact URIs percent-encode the raw bytes instead (`bad_%FF.py`,
    RFC 3986), as a URI must. Text without surrogates is returned unchanged.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") \
            if _only_escapes(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")


def _only_escapes(text: str) -> bool:
    """Are all lone surrogates in `text` of the surrogateescape range (U+DC80..U+DCFF)?"""
    return all(not ("\ud800" <= ch <= "\udfff") or "\udc80" <= ch <= "\udcff" for ch in text)
