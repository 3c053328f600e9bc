#!/usr/bin/env python3
"""Tables of a fresh blind review: verdicts by confidence tier, per project and per code.

A fresh review is the precision measurement of issue 32: ctxlint (`check --min-confidence
low --output-format json`) over projects it never linted before, every finding judged by
a reviewer who has not read the rules' code (`true` = a maintainer would fix it,
`harmless` = the code does what the message says but nothing needs fixing, `wrong` = the
rule misread the code). The verdicts are kept one JSON object per line in
`tests/ecosystem/fresh_review_*.jsonl` with the keys project, version, code, path, line,
confidence, line_text, verdict, reason, sampled (a low finding drawn at random from a
project with many), tier_comment.

Usage:
    python scripts/fresh_review.py tests/ecosystem/fresh_review_stop31_python.jsonl [...]

Prints, for each file: the default output (high) and the latent tier (low) with counts of
true / harmless / wrong, precision (true / reviewed) of the default output, the wrong
rate over every reviewed finding, and high precision per rule code.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict


def table(rows: list[dict]) -> list[str]:
    """The summary lines for one review's rows (see the module docstring)."""
    out = [f"{'tier':6} {'reviewed':>8} {'true':>5} {'harmless':>8} {'wrong':>5}  precision"]
    for tier in ("high", "low"):
        c = Counter(r["verdict"] for r in rows if r.get("confidence", "high") == tier)
        n = sum(c.values())
        prec = f"{c['true'] / n:.0%}" if n else "-"
        out.append(f"{tier:6} {n:>8} {c['true']:>5} {c['harmless']:>8} {c['wrong']:>5}  {prec}")
    n = len(rows)
    wrong = sum(r["verdict"] == "wrong" for r in rows)
    out.append(f"wrong over both tiers: {wrong}/{n} ({wrong / n:.1%})" if n else "no rows")
    per: dict[str, Counter] = defaultdict(Counter)
    for r in rows:
        if r.get("confidence", "high") == "high":
            per[r["code"]][r["verdict"]] += 1
    out.append("high findings per code (true/reviewed):")
    for code in sorted(per):
        c = per[code]
        total = sum(c.values())
        bar = "" if total < 5 else ("  ok" if c["true"] / total >= 0.75 else "  below 75%")
        out.append(f"  {code}  {c['true']}/{total}  (harmless {c['harmless']}, wrong {c['wrong']}){bar}")
    projects = sorted({r["project"] for r in rows})
    out.append(f"projects: {len(projects)}")
    return out


def main(argv: list[str]) -> int:
    """Print the tables of each verdicts file named in `argv`; 2 when none is given."""
    if not argv:
        print(__doc__)
        return 2
    for path in argv:
        with open(path, encoding="utf-8") as fh:
            rows = [json.loads(line) for line in fh if line.strip()]
        print(f"## {path}")
        print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
