"""`PythonFacts.is_test_code` and the rules that skip it: pytest's discovery names and
a test-driver import (never a directory's name). Growth rules skip test code; a
ContextVar left set (CTX103) still counts there, since it bleeds into the next test."""

from __future__ import annotations

import ast

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import all_rules
from ctxlint.semantic.python.facts import PythonFacts

RULES = list(all_rules().values())

FAKE = """\
class FakeStore:
    def __init__(self):
        self.rows = {}

    def put(self, request_id, row):
        self.rows[request_id] = row


STORE = FakeStore()


def save(request_id, row):
    STORE.put(request_id, row)
"""


def _facts(path: str, src: str = "x = 1\n") -> PythonFacts:
    return PythonFacts(path, src, ast.parse(src), Config())


def test_is_test_code_by_path_and_import():
    for path in ("test_store.py", "pkg/store_test.py", "conftest.py", "tests/unit/test_fakes.py"):
        assert _facts(path).is_test_code, path
    # A directory's name decides nothing: a checkout may live under any `tests` folder
    # (CI lints the handed cases from tests/handed_cases/).
    for path in ("store.py", "pkg/testing_utils.py", "contest.py", "tests/handed_cases/py/L06_registry.py",
                 "pkg/tests/fakes.py"):
        assert not _facts(path).is_test_code, path
    assert _facts("fakes.py", "import pytest\n").is_test_code
    assert _facts("fakes.py", "from unittest import mock\n").is_test_code


def test_growth_rules_skip_test_code_only():
    codes = lambda path: [f.code for f in engine.lint_text(path, FAKE, "python", RULES, Config())]  # noqa: E731
    assert "CTX401" in codes("store.py")
    assert "CTX401" in codes("tests/store.py")
    assert "CTX401" not in codes("test_store.py")
