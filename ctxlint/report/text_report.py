"""Text reporter: `path:line:col: CODE message [*]` plus a summary line (ruff style)."""

from __future__ import annotations

from collections import Counter

from ctxlint.findings import Finding


def render(findings: list[Finding], ctx) -> str:
    """One line per finding; `[*]` marks a safe fix, `[unsafe fix]` an unsafe one."""
    out = []
    for f in findings:
        mark = ""
        if f.fix is not None:
            mark = " [*]" if f.fix.safety == "safe" else " [unsafe fix]"
        out.append(f"{f.path}:{f.line}:{f.col}: {f.code}{mark} {f.message}")
    if ctx.quiet:
        return "\n".join(out)
    if ctx.statistics and findings:
        out.append("")
        counts = Counter(f.code for f in findings)
        fixable = Counter(f.code for f in findings if f.fix is not None and f.fix.safety == "safe")
        unsafe = Counter(f.code for f in findings if f.fix is not None and f.fix.safety != "safe")
        for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            rule = ctx.rules.get(code)
            name = rule.name if rule else ""
            fx = " [*]" if fixable[code] else (" [unsafe fix]" if unsafe[code] else "")
            out.append(f"{n:>6}  {code}  {name}{fx}")
    n = len(findings)
    if n:
        safe = sum(1 for f in findings if f.fix is not None and f.fix.safety == "safe")
        unsafe = sum(1 for f in findings if f.fix is not None and f.fix.safety != "safe")
        summary = f"Found {n} finding{'s' if n != 1 else ''} in {ctx.files} file{'s' if ctx.files != 1 else ''}."
        if safe:
            summary += f"\n[*] {safe} fixable with `ctxlint check --fix`."
        if unsafe:
            summary += f"\n{unsafe} more fixable with `--fix --unsafe-fixes`."
        out.append(summary)
    else:
        out.append(f"All checks passed ({ctx.files} file{'s' if ctx.files != 1 else ''}).")
    if ctx.fixed:
        out.append(f"Fixed {ctx.fixed} finding{'s' if ctx.fixed != 1 else ''}.")
    return "\n".join(out)
