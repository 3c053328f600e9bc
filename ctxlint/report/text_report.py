"""Text reporter: `path:line:col: CODE message [*]` plus a summary line (ruff style)."""

from __future__ import annotations

from collections import Counter

from ctxlint.findings import Finding, terminal_safe


def render(findings: list[Finding], ctx) -> str:
    """One line per finding; `[*]` marks a safe fix, `[unsafe fix]` an unsafe one.

    With `ctx.statistics` only the per-code table and the summary are printed (as
    ruff's `--statistics`); with `ctx.fixed` the summary counts what was found before
    fixing ("Found 11 findings in 4 files (8 fixed, 3 remaining)."); `ctx.fix_only`
    prints only what was fixed (ruff's `--fix-only` reports no leftovers);
    `ctx.baseline_hidden` says how many findings a baseline hid; `ctx.color` (a
    terminal) adds ANSI colour and a code frame under each finding."""
    out = []
    if getattr(ctx, "fix_only", False):
        fixed = ctx.fixed
        if not ctx.quiet:
            return (f"Fixed {fixed} finding{'s' if fixed != 1 else ''}." if fixed
                    else "No findings fixed.")
        return ""
    color = getattr(ctx, "color", False)
    paint = _paint if color else (lambda text, _style: text)
    sources: dict[str, list[str] | None] = {}
    for f in ([] if ctx.statistics and not ctx.quiet else findings):
        mark = ""
        if f.fix is not None:
            mark = paint(" [*]", "cyan") if f.fix.safety == "safe" else paint(" [unsafe fix]", "yellow")
        tier = " [low]" if f.confidence != "high" else ""
        out.append(f"{paint(terminal_safe(f.path), 'bold')}:{f.line}:{f.col}: {paint(f.code, 'red')}{tier}{mark} "
                   f"{terminal_safe(f.message)}")
        if color:
            out.extend(_code_frame(f, sources))
        for t in (() if ctx.quiet else f.trace):  # the evidence, as rustc/ruff notes under the finding
            where = f"{terminal_safe(t.path)}:{t.line}" if t.path else f"{t.line}"
            out.append(f"  = note: {where}: {terminal_safe(t.message)}")
    if ctx.quiet:
        return "\n".join(out)
    if ctx.statistics and findings:
        counts = Counter(f.code for f in findings)
        low = Counter(f.code for f in findings if f.confidence != "high")
        fixable = Counter(f.code for f in findings if f.fix is not None and f.fix.safety == "safe")
        unsafe = Counter(f.code for f in findings if f.fix is not None and f.fix.safety != "safe")
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            rule = ctx.rules.get(code)
            name = rule.name if rule else ""
            fx = " [*]" if fixable[code] else (" [unsafe fix]" if unsafe[code] else "")
            tiers = f"  (high {n - low[code]}, low {low[code]})" if low else ""
            out.append(f"{n:>6}  {code}  {name}{fx}{tiers}")
    n = len(findings)
    checked = ctx.files - len(ctx.skipped)
    if ctx.skipped:
        k = len(ctx.skipped)
        names = ", ".join(terminal_safe(p) for p, _ in ctx.skipped[:3]) + (", ..." if k > 3 else "")
        out.append(f"Skipped {k} file{'s' if k != 1 else ''} over the max-file-size limit, not checked: {names} "
                   f"(raise `max-file-size` in [tool.ctxlint] to check {'them' if k != 1 else 'it'}).")
    unchecked = getattr(ctx, "unchecked", None) or []
    if unchecked:
        k = len(unchecked)
        where = ", ".join(f"{terminal_safe(p)}:{ln}" for p, ln, _ in unchecked[:3]) + (", ..." if k > 3 else "")
        out.append(f"Not checked: {k} declaration{'s' if k != 1 else ''} whose syntax the Go parser does not "
                   f"know ({where}).")
    unreadable = getattr(ctx, "unreadable", [])
    if unreadable:
        k = len(unreadable)
        names = ", ".join(terminal_safe(p) for p, _ in unreadable[:3]) + (", ..." if k > 3 else "")
        out.append(f"Could not read {k} path{'s' if k != 1 else ''}, not checked: {names}.")
    files = f"{checked} file{'s' if checked != 1 else ''}"
    if n or ctx.fixed:
        # as ruff: what was found (fixed ones included) first, so a fixed run does not
        # read as a clean one, then what is left
        total = n + ctx.fixed
        where = len({f.path for f in findings})
        if n and not ctx.fixed and 0 < where < checked:
            # "in 9 of 215 files": not as if every file checked held one (new-user trial)
            files = f"{where} of {checked} files"
        summary = f"Found {total} finding{'s' if total != 1 else ''} in {files}"
        summary += f" ({ctx.fixed} fixed, {n} remaining)." if ctx.fixed else "."
        safe = sum(1 for f in findings if f.fix is not None and f.fix.safety == "safe")
        unsafe = sum(1 for f in findings if f.fix is not None and f.fix.safety != "safe")
        applied = getattr(ctx, "applied_fixes", "")
        if safe and not applied:
            summary += f"\n[*] {safe} fixable with `ctxlint check --fix`."
        if unsafe and applied != "unsafe":
            summary += f"\n{unsafe} more fixable with `--fix --unsafe-fixes`."
        out.append(summary)
    elif unreadable:
        out.append(f"No findings, but not every file was checked: {len(unreadable)} "
                   f"path{'s' if len(unreadable) != 1 else ''} could not be read.")
    else:
        out.append(f"All checks passed ({files}"
                   + (f"; {len(ctx.skipped)} skipped)." if ctx.skipped else ")."))
    hidden_base = getattr(ctx, "baseline_hidden", 0)
    if hidden_base:
        out.append(f"{hidden_base} finding{'s' if hidden_base != 1 else ''} hidden by the baseline.")
    hidden = getattr(ctx, "hidden_low", 0)
    if hidden:
        out.append(f"{hidden} latent finding{'s' if hidden != 1 else ''} (low confidence: the harm depends on "
                   f"what the project does not show) not shown; `--min-confidence low` shows "
                   f"{'them' if hidden != 1 else 'it'}.")
    return "\n".join(out)


#: ANSI SGR codes for the styles the terminal output uses.
_STYLES = {"bold": "1", "red": "1;31", "cyan": "36", "yellow": "33", "blue": "1;34"}


def _paint(text: str, style: str) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"


def _code_frame(f: Finding, sources: dict) -> list[str]:
    """The flagged line under a finding with a caret run under its range, as ruff and
    rustc print on a terminal (`ReportContext.color`); [] when the file cannot be read.
    Columns are the finding's (characters after the 1-based shift; a multi-line range
    is underlined to the end of its first line)."""
    if f.path not in sources:
        try:
            from pathlib import Path
            sources[f.path] = Path(f.path).read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except (OSError, ValueError):
            sources[f.path] = None
    lines = sources[f.path]
    if not lines or not 0 < f.line <= len(lines):
        return []
    text = terminal_safe(lines[f.line - 1].expandtabs(4))
    start = max(f.col - 1, 0)
    end = f.end_col - 1 if f.end_line == f.line and f.end_col > f.col else len(text)
    width = len(str(f.line))
    gutter = _paint(" " * width + " |", "blue")
    return [gutter, _paint(f"{f.line} |", "blue") + " " + text,
            gutter + " " + " " * start + _paint("^" * max(end - start, 1), "red")]
