"""Lint one Python source: facts, rules, then each finding's tier.

The entry the engine calls for Python (`engine.LANGUAGE_MODULES`). It sits above both
the facts (`semantic.python.facts`) and the evidence (`semantic.python.evidence`, which
needs the call graph): a rule whose `manifest` is "reached" leaves its findings' tier
open, and `run_rules` decides it here from the entry-point path to the def holding the
finding (Infer Pulse's manifest/latent split).
"""

from __future__ import annotations

import ast

from ctxlint.config import Config
from ctxlint.findings import Finding
from ctxlint.semantic.python.facts import PythonFacts


def run_rules(facts: PythonFacts, rules: list) -> list[Finding]:
    """Run the rules over the shared facts (`ctxlint.rules.run_checks`), then settle the
    tier of each finding a "reached" rule left open: high with the shortest path from an
    entry point as its trace, else low with the reason (`evidence.reach_trace`)."""
    from ctxlint.rules import run_checks
    out = run_checks(facts, rules)
    pending = [f for f in out if f.confidence == ""]
    if pending:
        from ctxlint.semantic.python.evidence import reach_trace
        for f in pending:
            try:
                tier, steps = reach_trace(facts, getattr(f, "_reach_from", None))
            except RecursionError:
                tier, steps = "low", []
            f.confidence = tier
            f.trace = (*f.trace, *(facts.step(*s) if isinstance(s, tuple) else s for s in steps))
    return out


def lint(path: str, text: str, rules: list, config: Config, tree: ast.Module | None = None) -> list[Finding]:
    """Lint one Python source with the given (already prefiltered) rules.

    Args:
        tree: an already-parsed `ast.Module` (flake8 hands in its own); parsed here otherwise.
    Returns findings before suppression. Never raises on bad input.
    """
    if not rules:
        return []
    if tree is None:
        from ctxlint.languages.python import parse
        tree, err = parse(path, text)
        if err is not None:
            return [err]
        if tree is None:
            return []  # valid code of a newer Python: `parse` left a notice
    facts = PythonFacts(path, text, tree, config)
    try:
        return run_rules(facts, rules)
    finally:
        # The layer's memoized analyses point back at `facts` (a CallGraph keeps its
        # facts): drop them so the tree and every index are freed by reference
        # counting now, not by a full cycle collection later (findings keep no nodes).
        facts.__dict__.clear()
