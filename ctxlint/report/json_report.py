"""JSON reporter: one array, items as in DESIGN.md's contract (plus `fix_safety`)."""

from __future__ import annotations

import json

from ctxlint.findings import Finding


def render(findings: list[Finding], ctx) -> str:
    return json.dumps([f.to_json() for f in findings], indent=2)
