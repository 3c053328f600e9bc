"""Text reporter: `path:line:col: CODE message [*]` plus a summary line (ruff style)."""

from __future__ import annotations

from collections import Counter

from ctxlint.findings import Finding, terminal_safe


def render(findings: list[Finding], ctx) -> str:
    """One line per finding; `[*]` marks a safe fix, `[unsafe fix]` an unsafe one."""
    out = []
    for f in findings:
        mark = ""
        if f.fix is not None:
            mark = " [*]" if f.fix.safety == "safe" else " [unsafe fix]"
        tier = " [low]" if f.confidence != "high" else ""
        out.append(f"{terminal_safe(f.path)}:{f.line}:{f.col}: {f.code}{tier}{mark} {terminal_safe(f.message)}")
        for t in (() if ctx.quiet else f.trace):  # the evidence, as rustc/ruff notes under the finding
            where = f"{terminal_safe(t.path)}:{t.line}" if t.path else f"{t.line}"
            out.append(f"  = note: {where}: {terminal_safe(t.message)}")
    if ctx.quiet:
        return "\n".join(out)
    if ctx.statistics and findings:
        out.append("")
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
    if n:
        safe = sum(1 for f in findings if f.fix is not None and f.fix.safety == "safe")
        unsafe = sum(1 for f in findings if f.fix is not None and f.fix.safety != "safe")
        summary = f"Found {n} finding{'s' if n != 1 else ''} in {checked} file{'s' if checked != 1 else ''}."
        applied = getattr(ctx, "applied_fixes", "")
        if safe and not applied:
            summary += f"\n[*] {safe} fixable with `ctxlint check --fix`."
        if unsafe and applied != "unsafe":
            summary += f"\n{unsafe} more fixable with `--fix --unsafe-fixes`."
        out.append(summary)
    elif ctx.fixed:
        # as ruff: say what was found and fixed first, so a fixed run does not read as a clean one
        out.append(f"Found {ctx.fixed} finding{'s' if ctx.fixed != 1 else ''} in {checked} "
                   f"file{'s' if checked != 1 else ''} ({ctx.fixed} fixed, 0 remaining).")
    elif unreadable:
        out.append(f"No findings, but not every file was checked: {len(unreadable)} "
                   f"path{'s' if len(unreadable) != 1 else ''} could not be read.")
    else:
        out.append(f"All checks passed ({checked} file{'s' if checked != 1 else ''}"
                   + (f"; {len(ctx.skipped)} skipped)." if ctx.skipped else ")."))
    if ctx.fixed and n:
        out.append(f"Fixed {ctx.fixed} finding{'s' if ctx.fixed != 1 else ''}; {n} remaining.")
    hidden = getattr(ctx, "hidden_low", 0)
    if hidden:
        out.append(f"{hidden} latent finding{'s' if hidden != 1 else ''} (low confidence: the harm depends on "
                   f"what the project does not show) not shown; `--min-confidence low` shows "
                   f"{'them' if hidden != 1 else 'it'}.")
    return "\n".join(out)
