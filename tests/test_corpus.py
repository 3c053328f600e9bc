"""Corpus-driven rule tests: every case under corpus/<CODE>/{bad,good}/ declares its
findings with `expect:` headers, and ctxlint must report exactly those (all codes),
with the prefilter on and off."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import CORPUS, corpus_cases, expectations
from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules

CASES = corpus_cases()


def _found(case: Path) -> set[tuple[str, int, str]]:
    cfg = Config(root=case.parent)
    rules = select_rules([], [])
    res = engine.lint_paths([str(case)], cfg, rules, jobs=1, use_cache=False)
    assert not res.internal_errors, res.notices
    return {(str(Path(f.path).resolve()), f.line, f.code) for f in res.findings}


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(CORPUS)) for c in CASES])
def test_case(case: Path):
    exp = expectations(case)
    assert exp is not None, f"{case} has no expect: header"
    if "/good/" in str(case):
        assert not {e for e in exp if e[2] == case.parent.parent.name}, "a good case must not expect its own rule"
    else:
        assert any(e[2] == case.parent.parent.name for e in exp), "a bad case must expect its rule"
    assert _found(case) == exp


@pytest.mark.slow  # every corpus case linted twice: `pytest -m slow` (and .ci/run) runs it
def test_prefilter_does_not_change_findings(monkeypatch):
    """The literal prefilter is an optimisation only: findings are the same without it."""
    rules = select_rules([], [])
    cfg = Config(root=CORPUS)
    with_pf = engine.lint_paths([str(CORPUS)], cfg, rules, jobs=1, use_cache=False)
    monkeypatch.setenv("CTXLINT_NO_PREFILTER", "1")
    without = engine.lint_paths([str(CORPUS)], cfg, rules, jobs=1, use_cache=False)
    key = lambda r: sorted((f.path, f.line, f.code) for f in r.findings)  # noqa: E731
    assert key(with_pf) == key(without)
    assert with_pf.findings, "the corpus must produce findings"


def test_every_rule_has_corpus_cases():
    from ctxlint.rules import all_rules
    for code, rule in all_rules().items():
        if code in ("CTX000", "CTX001"):
            continue
        for kind in ("bad", "good"):
            d = CORPUS / code / kind
            n = len([p for p in d.iterdir()]) if d.is_dir() else 0
            assert n >= 3, f"{code} needs at least three {kind} cases in corpus/{code}/{kind}/ (has {n})"
