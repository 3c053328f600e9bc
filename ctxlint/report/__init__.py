"""Reporters: turn a run's findings into text, JSON, SARIF or GitHub annotations.

Each reporter module exposes `render(findings, ctx) -> str`, where `ctx` is a
`ReportContext` (rules by code, statistics flag, fix mode details). The CLI picks
one by `--output-format`.
"""

from __future__ import annotations

import importlib

from ctxlint.config import Record
from ctxlint.findings import Finding

FORMATS = ("text", "json", "sarif", "github")


class ReportContext(Record):
    """What reporters may need beyond the findings.

    rules: code -> Rule for every registered rule; files: number of files checked;
    statistics: print per-code counts; show_fixes: mention fix availability;
    fixed: number of findings fixed in this run (for the summary line);
    quiet: findings only, no summary (text format).
    hidden_low: number of latent (low-confidence) findings the tier filter held back
    (the text summary says how to see them).
    skipped: (path, notice) of files not checked for their size (max-file-size):
    the text summary counts them, SARIF lists them as toolExecutionNotifications;
    the JSON array (the findings contract) leaves them out.
    unchecked: (path, line, notice) of functions left out of linted files because
    their text does not parse: counted in the text summary, listed in SARIF's
    toolExecutionNotifications, left out of the JSON array.
    Every argument is optional (keyword or in this order).
    unreadable (set after construction): (path, notice) of files and directories
    that could not be read; the text summary never calls such a run clean.
    applied_fixes (set after construction): "" | "safe" | "unsafe", the fixes the
    run applied; the text summary offers no flag the run already had.
    """

    unreadable: list = []
    applied_fixes: str = ""

    _fields = ("rules", "files", "statistics", "fixed", "quiet", "skipped", "hidden_low", "unchecked")

    def __init__(self, rules: dict | None = None, files: int = 0, statistics: bool = False, fixed: int = 0,
                 quiet: bool = False, skipped: list | None = None, hidden_low: int = 0,
                 unchecked: list | None = None):
        self.rules = {} if rules is None else rules
        self.files, self.statistics, self.fixed, self.quiet = files, statistics, fixed, quiet
        self.skipped = [] if skipped is None else skipped
        self.hidden_low = hidden_low
        self.unchecked = [] if unchecked is None else unchecked


def render(fmt: str, findings: list[Finding], ctx: ReportContext) -> str:
    """Render findings in `fmt` (one of FORMATS). Raises ValueError for an unknown format."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown output format '{fmt}'")
    mod = importlib.import_module(f"ctxlint.report.{fmt}_report")
    return mod.render(findings, ctx)
