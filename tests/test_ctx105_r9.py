"""CTX105's message for a span a `with` block starts but only another method ends
(round-9 blind review: "never ended by any method" was false where `end()` ends it)."""
from pathlib import Path

from ctxlint.config import Config
from ctxlint.engine import lint_text
from ctxlint.rules import get_rule

CASE = Path(__file__).resolve().parent.parent / "corpus" / "CTX105" / "bad" / "started_for_with_ended_only_by_end.py"


def test_message_names_the_method_that_ends_it():
    (f,) = [f for f in lint_text("step.py", CASE.read_text(), "python", [get_rule("CTX105")], Config())]
    assert f.line == 14
    assert "ended only by `Step.end()` (line 17)" in f.message and "never ended by any method" not in f.message


def test_exit_that_runs_end_is_fine():
    src = CASE.read_text().replace("        self.name = None\n", "        self.end()\n")
    assert lint_text("step.py", src, "python", [get_rule("CTX105")], Config()) == []
