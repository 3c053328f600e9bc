"""Regressions from the fresh review of stop 30's changes (each file under
tests/data/stop30_review is one reviewer's repro)."""
from pathlib import Path

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules

DATA = Path(__file__).parent / "data" / "stop30_review"


def _codes(name: str, select: list[str]) -> list[tuple[int, str]]:
    text = (DATA / name).read_text()
    return [(f.line, f.code) for f in engine.lint_text(name, text, "python", select_rules(select, []), Config())]


def test_ctx203_helper_is_not_matched_to_another_class_method_of_the_same_name():
    # Handler.for_key is called with the header; Upstream.for_key only with a constant
    assert _codes("c203.py", ["CTX203"]) == []


def test_ctx406_hook_list_bounded_or_emptied():
    assert _codes("h406a.py", ["CTX406"]) == []  # deque(maxlen=4)
    assert _codes("h406b.py", ["CTX406"]) == []  # self.captured[:] = []
    assert _codes("h406c.py", ["CTX406"]) == []  # annotated rebinding in reset()
    unbounded = (DATA / "h406a.py").read_text().replace("collections.deque(maxlen=4)", "[]")
    got = engine.lint_text("u.py", unbounded, "python", select_rules(["CTX406"], []), Config())
    assert [(f.line, f.code) for f in got] == [(11, "CTX406")]


def test_ctx501_flush_by_one_scope_setter_does_not_cover_another_scope():
    # set_tenant() empties the cache, use() switches the adapter without emptying it
    assert [c for _l, c in _codes("c501b.py", ["CTX501"])] == ["CTX501"]


def test_ctx601_per_step_store_check_runs_the_training_test_once_per_method(monkeypatch):
    # 3,000 attribute appends in one method outside any loop: the method's training test
    # (a walk of the whole method) runs once, not once per append (that was quadratic)
    import ctxlint.rules.python.ctx601_grad_history_accumulation as m
    calls = []
    real = m.loop_trains
    monkeypatch.setattr(m, "loop_trains", lambda facts, node: calls.append(node) or real(facts, node))
    body = "".join(f"        self.a.append(x{i})\n" for i in range(3000))
    src = "# backward\nclass A:\n    def m(self, x):\n" + body
    engine.lint_text("big.py", src, "python", select_rules(["CTX601"], []), Config())
    assert len([c for c in calls if getattr(c, "name", None) == "m"]) == 1


def test_explain_cut_leaves_no_space_before_punctuation(capsys):
    from ctxlint.cli import main
    main(["explain", "CTX106"])
    out = capsys.readouterr().out
    assert " ," not in out and " ." not in out.replace("...", "")
