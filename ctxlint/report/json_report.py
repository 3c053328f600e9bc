"""JSON reporter: one array, items as in DESIGN.md's contract (plus `fix_safety`)."""

from __future__ import annotations

import json

from ctxlint.findings import Finding


def render(findings: list[Finding], ctx) -> str:
    """A JSON array of `Finding.to_json()` (sorted as given), 2-space indented;
    `ctx` (the ReportContext) is unused: the contract has no summary object."""
    return json.dumps([f.to_json() for f in findings], indent=2)
