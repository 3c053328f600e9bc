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
    for f in out:
        # a rule may call its fix safe for a manifest finding only (CTX103: a latent set
        # may be meant to outlive the function): a latent one's fix is unsafe (issue 35)
        if f.fix is not None and f.confidence != "high" and getattr(f, "fix_needs_manifest", False):
            from dataclasses import replace
            from ctxlint.findings import UNSAFE
            f.fix = replace(f.fix, safety=UNSAFE)
    return out


def refused_in_functions(facts: PythonFacts) -> Finding | None:
    """CTX000 with the compiler's message for a file whose function bodies hold what the
    parser accepts but the compiler refuses (`break`/`continue` outside a loop, `await`
    in a plain `def` or lambda): `languages.python.refused` judges module and class level
    code. Asks the compiler only when the type index (built for the rules anyway) holds a
    candidate, so valid code is never CTX000 and pays one ancestor walk per such node."""
    candidate = False
    for n in facts.nodes(ast.Break, ast.Continue):
        for a in facts.ancestors(n):
            if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
                break
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Module)):
                candidate = True
                break
        if candidate:
            break
    if not candidate:
        for n in facts.nodes(ast.Await):
            fn = next((a for a in facts.ancestors(n)
                       if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))), None)
            if fn is not None and not isinstance(fn, ast.AsyncFunctionDef):
                candidate = True
                break
    if not candidate:
        return None
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(facts.text, facts.path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        return Finding("CTX000", "parse-error", facts.path, line, col, line, col + 1,
                       f"Python refuses this file: {exc.msg}")
    except Exception:  # ValueError, RecursionError, MemoryError: not a verdict on the code
        return None
    return None


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
        refused = refused_in_functions(facts)
        if refused is not None:
            return [refused]
        return run_rules(facts, rules)
    finally:
        # The layer's memoized analyses point back at `facts` (a CallGraph keeps its
        # facts): drop them so the tree and every index are freed by reference
        # counting now, not by a full cycle collection later (findings keep no nodes).
        facts.__dict__.clear()
