"""GitHub Actions reporter (`--output-format github`): one workflow command per finding.

`::warning file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CTX501 rule-name::message`
makes GitHub annotate the pull request's diff at that range. Property values
escape `%`, CR, LF, `:` and `,`; the message escapes `%`, CR and LF, as the
Actions runner's `toolkit/core` `escapeProperty`/`escapeData` do ("Workflow
commands for GitHub Actions", and actions/toolkit packages/core/src/command.ts).
The level follows SARIF's: a manifest finding is a `warning`, a latent one (shown with
`--min-confidence low`) and CTX001 (a stale suppression) a `notice`, CTX000 (a file not
analysed) an `error`; the exit status, not the level, fails a CI gate.
"""

from __future__ import annotations

from pathlib import Path

from ctxlint.findings import Finding, printable


def escape_data(s: str) -> str:
    """Escape a workflow command's message."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    """Escape a workflow command's property value."""
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _path(path: str) -> str:
    """The path relative to the working directory (the checkout root in a workflow) when under it."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            pass
    s = p.as_posix()
    while s.startswith("./"):
        s = s[2:]
    return printable(s)


def render(findings: list[Finding], ctx) -> str:
    """One `::warning …::message` line per finding (`::error` for CTX000, `::notice` for a
    latent finding or CTX001); empty string when there are none."""
    out = []
    for f in findings:
        # as SARIF's levels: a file not analysed is an error, a manifest finding a
        # warning, a latent one or a stale suppression a notice
        kind = "error" if f.code == "CTX000" else (
            "notice" if f.code == "CTX001" or f.confidence != "high" else "warning")
        props = [
            ("file", _path(f.path)),
            ("line", str(max(f.line, 1))),
            ("col", str(max(f.col, 1))),
        ]
        if f.end_line >= f.line:
            props.append(("endLine", str(max(f.end_line, 1))))
            props.append(("endColumn", str(max(f.end_col, 1))))
        props.append(("title", f"{f.code} {f.name}"))
        prop_text = ",".join(f"{k}={escape_property(v)}" for k, v in props)
        message = printable(f.message)
        if f.fix is not None:
            message += f" (fix available: {f.fix.description}" + (
                ", unsafe" if f.fix.safety != "safe" else "") + ")"
        out.append(f"::{kind} {prop_text}::{escape_data(message)}")
    return "\n".join(out)
