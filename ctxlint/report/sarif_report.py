"""SARIF 2.1.0 reporter (`--output-format sarif`), for GitHub code scanning and other viewers.

One run with `tool.driver.rules` for every rule that has a finding (id, name,
short and full description, `help` with the rule's markdown doc, default level,
fix safety) and one `result` per finding: rule id and index, level, message,
a physical location (1-based region; `columnKind` utf16CodeUnits as GitHub reads
it), a `partialFingerprints` entry (the baseline fingerprint: code + path + the
flagged line's normalised text, so alerts survive code moving), and, when the
finding's fix carries text edits, a `fixes` entry with `artifactChanges` and
`replacements` (deleted region + inserted content). Codemod fixes (Python) are
described in the result's properties, since their edits only exist once libcst
has rewritten the file.

Spec: OASIS SARIF v2.1.0 (errata01), sections 3.13 (run), 3.27 (result),
3.55 (fix), 3.57 (replacement); GitHub's "SARIF support for code scanning".
The output validates against the OASIS JSON schema (tests/test_reports.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from ctxlint import __version__
from ctxlint.findings import Finding, printable

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def level(code: str, confidence: str = "high") -> str:
    """SARIF level of a finding.

    A manifest (high) rule finding is a `warning`, as the LSP shows it; a latent (low)
    one is a `note` (CodeQL's query precision shown as level). CTX000 (a file that was
    not analysed) is an `error`; CTX001 (a stale suppression comment) is a `note`.
    """
    if code == "CTX001":
        return "note"
    if code == "CTX000":
        return "error"
    return "warning" if confidence == "high" else "note"


def _step_location(step, texts: dict, message: str | None = None) -> dict:
    """A SARIF location (physical location and message) for a `TraceStep`."""
    from ctxlint.engine import language_of
    if step.path not in texts:
        texts[step.path] = _read_lf_text(step.path)
    text = texts[step.path]
    lines = text.split("\n") if text is not None else None
    col = max(step.col, 1)
    if lines is not None and 0 < step.line <= len(lines):
        col = utf16_column(lines[step.line - 1], col, language_of(step.path))
    return {
        "physicalLocation": {"artifactLocation": _artifact(step.path),
                             "region": {"startLine": max(step.line, 1), "startColumn": col}},
        "message": {"text": printable(message or step.message)},
    }


def _uri(path: str) -> str:
    """A path as a SARIF URI reference.

    Relative paths, and absolute paths under the working directory, become relative
    URIs (forward slashes, percent-encoded) resolved against `%SRCROOT%`, as code
    scanning expects; other absolute paths become file URIs. The file name's bytes
    are what is percent-encoded (RFC 3986 section 2.1), so a name that is not
    UTF-8 (`bad_\\xff.py`) becomes `bad_%FF.py`, not an encoding error.
    """
    import os
    from urllib.parse import quote
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            return p.as_uri()
    s = p.as_posix()
    while s.startswith("./"):
        s = s[2:]
    return quote(os.fsencode(s), safe="/")


def _artifact(path: str) -> dict:
    uri = _uri(path)
    if uri.startswith("file:"):
        return {"uri": uri}
    return {"uri": uri, "uriBaseId": "%SRCROOT%"}


def _read_lf_text(path: str) -> str | None:
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset into LF-normalised text."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def _utf16_col(line_text: str, char_col: int) -> int:
    """1-based UTF-16 column for a 1-based character column."""
    prefix = line_text[: max(char_col - 1, 0)]
    return len(prefix.encode("utf-16-le")) // 2 + 1


#: Languages whose parsers report columns in UTF-8 bytes (stdlib `ast`
#: col_offset, tree-sitter points); Jinja columns are characters.
BYTE_COLUMN_LANGUAGES = ("python", "go")


def utf16_column(line_text: str, col: int, language: str | None) -> int:
    """Convert a finding's 1-based column on `line_text` to a 1-based UTF-16 column.

    Args:
        line_text: the source line (without its newline).
        col: the finding's column: UTF-8 bytes + 1 for Python and Go, characters + 1 otherwise.
        language: "python" | "go" | "jinja" | None.
    LSP positions and SARIF's utf16CodeUnits column kind count UTF-16 code units;
    for ASCII lines all three units agree.
    """
    n = max(col - 1, 0)
    if language in BYTE_COLUMN_LANGUAGES:
        prefix = line_text.encode("utf-8")[:n].decode("utf-8", "ignore")
    else:
        prefix = line_text[:n]
    return len(prefix.encode("utf-16-le")) // 2 + 1


def _fix_object(f: Finding, texts: dict[str, str | None]) -> dict | None:
    if f.fix is None or not f.fix.edits:
        return None
    if f.path not in texts:
        texts[f.path] = _read_lf_text(f.path)
    text = texts[f.path]
    replacements = []
    for e in sorted(f.fix.edits, key=lambda e: (e.start, e.end)):
        if text is not None:
            sl, sc = _position(text, e.start)
            el, ec = _position(text, e.end)
            lines = text.split("\n")
            region = {
                "startLine": sl, "startColumn": _utf16_col(lines[sl - 1], sc),
                "endLine": el, "endColumn": _utf16_col(lines[el - 1], ec),
            }
        else:
            region = {"charOffset": e.start, "charLength": e.end - e.start}
        rep: dict = {"deletedRegion": region}
        if e.text:
            rep["insertedContent"] = {"text": e.text}
        replacements.append(rep)
    return {
        "description": {"text": f.fix.description},
        "artifactChanges": [{"artifactLocation": _artifact(f.path), "replacements": replacements}],
    }


def _rule_descriptor(code: str, rule, name: str) -> dict:
    d: dict = {"id": code, "name": name}
    if rule is None:
        return d
    d["shortDescription"] = {"text": rule.summary or name}
    first = rule.doc.split("## Why is this bad")[0].replace("## What it does", "").strip()
    if first:
        d["fullDescription"] = {"text": " ".join(first.split())}
    doc = f"# {code} {rule.name}\n\n{rule.summary}\n\n{rule.doc}".rstrip()
    d["help"] = {"text": doc, "markdown": doc}
    d["defaultConfiguration"] = {"level": level(code), "enabled": bool(rule.default)}
    d["properties"] = {
        "language": rule.language,
        "fix": rule.fix_safety or "none",
        "tags": ["ctxlint", rule.language],
    }
    return d


def render(findings: list[Finding], ctx) -> str:
    """The SARIF log as indented JSON text.

    Args:
        findings: the run's findings (paths as reported; relative paths become
            relative URIs against the checkout root, as code scanning expects).
        ctx: a `ReportContext`; `ctx.rules` (code -> Rule) supplies names and docs.
    """
    from ctxlint.baseline import fingerprint
    from ctxlint.engine import language_of

    rules_by_code = ctx.rules or {}
    codes = sorted({f.code for f in findings})
    index = {c: i for i, c in enumerate(codes)}
    descriptors = []
    for c in codes:
        rule = rules_by_code.get(c)
        name = rule.name if rule else next(f.name for f in findings if f.code == c)
        descriptors.append(_rule_descriptor(c, rule, name))

    texts: dict[str, str | None] = {}
    results = []
    for f in findings:
        if f.path not in texts:
            texts[f.path] = _read_lf_text(f.path)
        text = texts[f.path]
        lines = text.split("\n") if text is not None else None
        lang = language_of(f.path)
        start_col, end_col = max(f.col, 1), max(f.end_col, 1)
        if lines is not None and 0 < f.line <= len(lines):
            start_col = utf16_column(lines[f.line - 1], start_col, lang)
            if 0 < f.end_line <= len(lines):
                end_col = utf16_column(lines[f.end_line - 1], end_col, lang)
        region = {"startLine": max(f.line, 1), "startColumn": start_col}
        if f.end_line > f.line or (f.end_line == f.line and end_col >= start_col):
            region["endLine"] = f.end_line
            region["endColumn"] = end_col
        if lines is not None and 0 < f.line <= len(lines):
            region["snippet"] = {"text": lines[f.line - 1]}
        result: dict = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": level(f.code, f.confidence),
            "message": {"text": printable(f.message)},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": _artifact(f.path),
                    "region": region,
                },
            }],
            "partialFingerprints": {"ctxlintLineHash/v1": fingerprint(f, lines)},
        }
        fix = _fix_object(f, texts)
        if fix is not None:
            result["fixes"] = [fix]
        props: dict = {"confidence": f.confidence}
        if f.fix is not None:
            props.update({"fixable": True, "fixSafety": f.fix.safety, "fixDescription": f.fix.description})
        result["properties"] = props
        if f.trace:
            # The evidence: related locations (with ids) and one thread flow, which
            # GitHub code scanning renders as numbered steps (SARIF 3.36, 3.37).
            steps = [_step_location(t, texts) for t in f.trace]
            result["relatedLocations"] = [{"id": i + 1, **loc} for i, loc in enumerate(steps)]
            final = {"physicalLocation": result["locations"][0]["physicalLocation"],
                     "message": {"text": printable(f.message)}}
            result["codeFlows"] = [{"threadFlows": [{"locations": [
                {"location": loc, "nestingLevel": 0, "executionOrder": i + 1}
                for i, loc in enumerate([*steps, final])]}]}]
        results.append(result)

    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "ctxlint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": descriptors,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri() + "/"}},
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    }
    skipped = getattr(ctx, "skipped", None) or []
    unchecked = getattr(ctx, "unchecked", None) or []
    if skipped or unchecked:
        # SARIF 3.20.21/3.58: conditions met while running that are not results.
        log["runs"][0]["invocations"] = [{
            "executionSuccessful": True,
            "toolExecutionNotifications": [{
                "level": "warning",
                "descriptor": {"id": "max-file-size"},
                "message": {"text": printable(notice)},
                "locations": [{"physicalLocation": {"artifactLocation": _artifact(path)}}],
            } for path, notice in skipped] + [{
                "level": "note",
                "descriptor": {"id": "unparsed-function"},
                "message": {"text": printable(notice)},
                "locations": [{"physicalLocation": {"artifactLocation": _artifact(path),
                                                    "region": {"startLine": line}}}],
            } for path, line, notice in unchecked],
        }]
    return json.dumps(log, indent=2, ensure_ascii=False)
