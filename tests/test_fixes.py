"""Tests of `ctxlint check --fix` (ctxlint/fixers): golden codemod outputs, the fix
engine's safety rules (rounds, parse check, atomic writes, symlinks, files that
changed on disk, newline style), end-to-end fixes of every fixable corpus case,
the handed cases, and a property test that fixing never breaks a parsable file.

Golden files: tests/golden/<CODE>/<case>/{input.py, expected.py, fix.json}.
fix.json names the codemod, its data and the anchor (line + a text snippet on
that line, `nth` occurrence). Regenerate with CTXLINT_UPDATE_GOLDEN=1 and review
the diff.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import py_compile
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT, SHARED_CASES
from ctxlint import engine, fixers
from ctxlint.cli import main as cli_main
from ctxlint.config import Config
from ctxlint.findings import SAFE, UNSAFE, Edit, Finding, Fix
from ctxlint.rules import all_rules, select_rules

GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_CASES = sorted(p for p in GOLDEN.glob("CTX*/*") if (p / "fix.json").is_file())
#: Codes whose DESIGN.md catalogue entry has a fix.
FIXABLE_CODES = ("CTX101", "CTX102", "CTX103", "CTX104", "CTX106", "CTX107", "CTX110", "CTX301", "CTX303",
                 "CTX305", "CTX401", "CTX402", "CTX403", "CTX501", "CTX504", "CTX601")


# ---------------------------------------------------------------- golden files
def _golden_finding(case: Path, text: str) -> Finding:
    spec = json.loads((case / "fix.json").read_text())
    anchor = spec["anchor"]
    line_text = text.splitlines()[anchor["line"] - 1]
    raw, needle = line_text.encode(), anchor["text"].encode()
    col = -1
    for _ in range(anchor.get("nth", 1)):
        col = raw.index(needle, col + 1)
    data = {"line": anchor["line"], "col": col, **spec.get("data", {})}
    code = case.parent.name
    fix = Fix(f"golden {case.name}", spec.get("safety", SAFE), codemod=spec["codemod"], data=data)
    return Finding(code, "golden", str(case / "input.py"), anchor["line"], col + 1, anchor["line"], col + 2,
                   "golden", fix=fix)


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=[f"{c.parent.name}/{c.name}" for c in GOLDEN_CASES])
def test_golden(case: Path):
    text = (case / "input.py").read_text()
    finding = _golden_finding(case, text)
    out = fixers.fix_text(str(case / "input.py"), text, "python", [finding], unsafe=True, rules=[], config=Config())
    expected_file = case / "expected.py"
    if os.environ.get("CTXLINT_UPDATE_GOLDEN"):
        # Update mode writes the file it then compares to: never in CI, where it would always pass.
        assert not os.environ.get("CI"), "CTXLINT_UPDATE_GOLDEN is set in CI: it would rewrite the golden files"
        expected_file.write_text(out)
    assert out != text, "the codemod changed nothing"
    ast.parse(out)
    assert out == expected_file.read_text(), "".join(difflib.unified_diff(
        expected_file.read_text().splitlines(True), out.splitlines(True), "expected", "got"))


def test_golden_covers_every_codemod():
    from ctxlint.fixers.codemods import CODEMODS
    used = {json.loads((c / "fix.json").read_text())["codemod"] for c in GOLDEN_CASES}
    assert set(CODEMODS) <= used, f"codemods without a golden case: {sorted(set(CODEMODS) - used)}"


def test_unsafe_fix_needs_unsafe_flag():
    case = GOLDEN / "CTX501" / "hash_tuple"
    text = (case / "input.py").read_text()
    f = _golden_finding(case, text)
    assert f.fix.safety == UNSAFE
    assert fixers.fix_text("x.py", text, "python", [f], unsafe=False, rules=[], config=Config()) == text


def test_codemod_refuses_instead_of_guessing():
    text = "import contextvars\nv = contextvars.ContextVar('v')\n\ndef bind(x):\n    v.set(x)\n"
    f = Finding("CTX103", "n", "x.py", 5, 5, 5, 13, "m",
                fix=Fix("d", SAFE, codemod="contextvar_reset_finally", data={"line": 5, "col": 4}))
    notices: list[str] = []
    new, n, _ = fixers.fix_round("x.py", text, "python", [f], False, notices)
    assert (new, n) == (text, 0)
    assert notices and "no statement runs after" in notices[0]


def test_stale_anchor_is_a_notice_not_a_crash():
    f = Finding("CTX107", "n", "x.py", 1, 1, 1, 2, "m",
                fix=Fix("d", SAFE, codemod="keep_task_reference", data={"line": 40, "col": 3}))
    notices: list[str] = []
    assert fixers.fix_round("x.py", "x = 1\n", "python", [f], False, notices)[:2] == ("x = 1\n", 0)
    assert notices


def test_crlf_and_bom_survive_fix_text():
    case = GOLDEN / "CTX601" / "loss_item"
    text = (case / "input.py").read_text()
    f = _golden_finding(case, text)
    out = fixers.fix_text("x.py", text.replace("\n", "\r\n"), "python", [f], unsafe=False, rules=[], config=Config())
    assert out == (case / "expected.py").read_text().replace("\n", "\r\n")


# ---------------------------------------------------------------- engine
def test_edits_overlapping_go_to_the_next_round():
    text = "abcdef\n"
    f1 = Finding("CTX101", "n", "x.go", 1, 1, 1, 2, "m", fix=Fix("d", SAFE, edits=(Edit(0, 3, "XYZ"),)))
    f2 = Finding("CTX101", "n", "x.go", 1, 2, 1, 3, "m", fix=Fix("d", SAFE, edits=(Edit(2, 4, "Q"),)))
    notices: list[str] = []
    new, n, _ = fixers.fix_round("x.txt", text, "text", [f1, f2], False, notices)
    assert (new, n) == ("XYZdef\n", 1)


def test_identical_edits_apply_once():
    assert fixers.apply_edits("ab", [Edit(1, 1, "X"), Edit(1, 1, "X")]) == "aXb"
    with pytest.raises(ValueError):
        fixers.apply_edits("abc", [Edit(0, 2, "X"), Edit(1, 3, "Y")])


def test_edit_that_breaks_the_parse_is_dropped():
    text = "x = 1\n"
    f = Finding("CTX999", "n", "x.py", 1, 1, 1, 2, "m", fix=Fix("d", SAFE, edits=(Edit(0, 1, "def"),)))
    notices: list[str] = []
    assert fixers.fix_round("x.py", text, "python", [f], False, notices)[:2] == (text, 0)
    assert "does not parse" in notices[0]


def _write_case(tmp_path: Path, name: str = "handler.py") -> Path:
    src = GOLDEN / "CTX107" / "create_task_discarded" / "input.py"
    p = tmp_path / name
    p.write_bytes(src.read_bytes())
    return p


def _run(*args: str, cwd: Path | None = None) -> int:
    """`ctxlint check --no-cache --min-confidence low ARGS`: these tests are about how
    fixes apply, so every finding's fix is in play (latent ones too: the tier filter
    runs before fixing, issue 32), unless a test names its own tier."""
    old = os.getcwd()
    tier = [] if "--min-confidence" in args else ["--min-confidence", "low"]
    try:
        if cwd:
            os.chdir(cwd)
        return cli_main(["check", "--no-cache", *tier, *args])
    finally:
        os.chdir(old)


def test_fix_writes_atomically_and_keeps_mode_newlines_and_bom(tmp_path, capsys):
    p = _write_case(tmp_path)
    raw = p.read_bytes()
    p.write_bytes(b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n"))
    os.chmod(p, 0o640)
    assert _run("--fix", str(p)) == 0
    out = p.read_bytes()
    assert out.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in out and b"\n" not in out.replace(b"\r\n", b"")
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    assert b"task.add_done_callback(" not in out  # `task` is a parameter there: a free name is used
    assert b"task_1.add_done_callback(_background_tasks.discard)" in out
    assert not [x for x in tmp_path.iterdir() if x.name != p.name], "temporary files left behind"
    assert "(1 fixed, 0 remaining)" in capsys.readouterr().out


def test_diff_writes_nothing_and_exits_1(tmp_path, capsys):
    p = _write_case(tmp_path)
    before = p.read_bytes()
    assert _run("--diff", str(p)) == 1
    out = capsys.readouterr().out
    # An absolute path reads a/tmp/..., as `git diff --no-index` writes it (not a//tmp/...).
    assert out.startswith(f"--- a{p}\n+++ b{p}\n") and "+    _background_tasks.add(task_1)" in out
    assert p.read_bytes() == before
    assert _run("--fix", str(p)) == 0
    capsys.readouterr()
    assert _run("--diff", str(p)) == 0
    assert capsys.readouterr().out == ""


def test_fix_only_exit_status(tmp_path):
    p = _write_case(tmp_path)
    assert _run("--fix-only", str(p)) == 0


def test_symlink_out_of_tree_is_refused(tmp_path, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = _write_case(outside)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(target)
    before = target.read_bytes()
    assert _run("--fix", str(tree)) == 1
    assert target.read_bytes() == before
    assert "outside the checked tree" in capsys.readouterr().err
    assert (tree / "link.py").is_symlink()


def test_symlink_inside_tree_writes_the_target(tmp_path):
    target = _write_case(tmp_path, "real.py")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "link.py").symlink_to(target)
    assert _run("--fix", str(sub / "link.py"), str(tmp_path)) == 0
    assert (sub / "link.py").is_symlink()
    assert b"_background_tasks.add(" in target.read_bytes()


def test_file_changed_since_lint_is_refused(tmp_path):
    p = _write_case(tmp_path)
    cfg = Config(root=tmp_path)
    rules = select_rules([], [])
    result = engine.lint_paths([str(p)], cfg, rules, jobs=1, use_cache=False)
    assert any(f.fixable for f in result.findings)
    p.write_text("# edited meanwhile\n" + p.read_text())
    edited = p.read_bytes()
    outcome = fixers.run_fixes(result, cfg, rules, unsafe=False, write=True)
    assert p.read_bytes() == edited
    assert outcome.fixed == 0 and any("changed on disk" in n for n in outcome.notices)


def test_check_without_fix_does_not_import_libcst(tmp_path):
    p = _write_case(tmp_path)
    code = ("import sys; from ctxlint.cli import main; rc = main(['check', '--no-cache', sys.argv[1]]);"
            "print('libcst' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.strip().splitlines()[-1] == "False", proc.stdout + proc.stderr


def test_fixable_means_fix_applies(tmp_path):
    """`fixable` means `--fix --unsafe-fixes` applies the fix to the file as it is
    (issue 35): CTX401 offers no fix where its codemod would decline (no miss path, no
    value kept elsewhere), and `confirm_fixes` (what SARIF and GitHub output run) gives
    a codemod fix the edits it makes and the description of what it writes."""
    declines = tmp_path / "declines.py"
    declines.write_text((CORPUS / "CTX401" / "bad" / "entries_written_from_another_table.py").read_text())
    bounded = tmp_path / "bounded.py"
    bounded.write_text((FIX_CASES / "FC401_bounded_history.py").read_text())
    rows = engine.lint_paths([str(tmp_path)], Config(), select_rules([], []), jobs=1, use_cache=False).findings
    by_file = {Path(f.path).name: f for f in rows if f.code == "CTX401"}
    assert by_file["declines.py"].fix is None
    confirmed = {Path(f.path).name: f for f in fixers.confirm_fixes(rows) if f.code == "CTX401"}
    fix = confirmed["bounded.py"].fix
    assert fix is not None and fix.edits and "_BoundedDict" in fix.description, fix


def test_diff_headers_of_relative_paths(tmp_path, capsys):
    _write_case(tmp_path)
    assert _run("--diff", "handler.py", cwd=tmp_path) == 1
    assert capsys.readouterr().out.startswith("--- a/handler.py\n+++ b/handler.py\n")


def test_fix_keeps_each_lines_own_ending_in_a_mixed_file(tmp_path, capsys):
    # 5 CRLF + 3 LF lines: untouched lines keep their own ending; the lines the
    # fix inserts take the ending of the line they replace or follow.
    raw = (b"import asyncio\r\n\r\nasync def handler(req):\n    asyncio.create_task(log(req))\r\n"
           b"    return 1\n\nasync def log(r):\r\n    pass\r\n")
    p = tmp_path / "ct.py"
    p.write_bytes(raw)
    assert _run("--fix", str(p)) == 0
    out = p.read_bytes()
    assert out == (b"import asyncio\r\n\r\n_background_tasks: set = set()\r\n\r\nasync def handler(req):\n"
                   b"    task = asyncio.create_task(log(req))\r\n    _background_tasks.add(task)\r\n"
                   b"    task.add_done_callback(_background_tasks.discard)\r\n    return 1\n\n"
                   b"async def log(r):\r\n    pass\r\n"), out


def test_restore_newlines_units():
    mixed = "a\r\nb\nc\r\nd\n"
    assert fixers.restore_newlines("a\nX\nb\nc\nd\n", mixed) == "a\r\nX\r\nb\nc\r\nd\n"
    assert fixers.restore_newlines("a\nc\nd\n", mixed) == "a\r\nc\r\nd\n"
    assert fixers.restore_newlines("a\nB\nc\nd", mixed) == "a\r\nB\nc\r\nd"
    assert fixers.restore_newlines("a\nb\n", "a\r\nb\r\n") == "a\r\nb\r\n"
    assert fixers.restore_newlines("a\nb\n", "a\rb\r") == "a\rb\r"
    assert fixers.restore_newlines("a\nb\n", "a\nb\n") == "a\nb\n"


def test_write_atomic_writes_through_symlinks_keeps_mode_and_refuses_outside(tmp_path):
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    real = tree / "real.py"
    real.write_bytes(b"old\n")
    os.chmod(real, 0o751)
    (tree / "link.py").symlink_to(real)
    assert fixers.write_atomic(tree / "link.py", b"new\n", [tree.resolve()]) == real.resolve()
    assert (tree / "link.py").is_symlink() and real.read_bytes() == b"new\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o751
    away = outside / "away.py"
    away.write_bytes(b"keep\n")
    (tree / "out.py").symlink_to(away)
    with pytest.raises(fixers.OutsideTree):
        fixers.write_atomic(tree / "out.py", b"x", [tree.resolve()])
    assert away.read_bytes() == b"keep\n"
    with pytest.raises(fixers.FileChangedError):
        fixers.write_atomic(real, b"x", expect=b"something else")
    assert real.read_bytes() == b"new\n"
    fresh = tree / "new.json"
    fixers.write_atomic(fresh, b"{}")
    assert fresh.read_bytes() == b"{}" and stat.S_IMODE(fresh.stat().st_mode) & 0o044  # umask, not mkstemp's 0600
    assert sorted(x.name for x in tree.iterdir()) == ["link.py", "new.json", "out.py", "real.py"]


def test_encode_like_keeps_a_coding_cookie_and_bom():
    raw = "# -*- coding: latin-1 -*-\nX = 'é'\n".encode("latin-1")
    assert fixers.encode_like("# -*- coding: latin-1 -*-\nX = 'é'  # noqa\n", raw, "python") == \
        "# -*- coding: latin-1 -*-\nX = 'é'  # noqa\n".encode("latin-1")
    assert fixers.encode_like("x\n", b"\xef\xbb\xbfy\r\n", "python") == b"\xef\xbb\xbfx\r\n"


# ---------------------------------------------------------------- corpus end to end
def _bad_cases() -> list[Path]:
    out = []
    for code in FIXABLE_CODES:
        d = CORPUS / code / "bad"
        if d.is_dir():
            out.extend(sorted(p for p in d.iterdir() if not p.name.startswith(".") and p.name != "__pycache__"))
        else:
            out.append(CORPUS / code / "bad")  # placeholder: skipped below with its reason
    return out


BAD_CASES = _bad_cases()
#: Cases where the codemod's output is right but the rule still reports it (the
#: rule's gap, named here so it is visible; strict: an XPASS fails and asks for removal).
RULE_GAPS: dict[str, str] = {}
#: Bad corpus cases that get no fix, and why. Every other bad case of a fixable
#: code must be fixed; a case listed here must be left unchanged. Either change
#: fails the test, so a fix that starts or stops applying is a visible decision.
NO_FIX: dict[str, str] = {
    "CTX104/bad/helper_attach_token_dropped_in_signal.py": "the token comes back from a helper: the codemod "
                                                           "rewrites an attach() call only",
    "CTX104/bad/lambda_activator_in_thread_worker.py": "the token comes back from a lambda: the codemod rewrites "
                                                       "an attach() call only",
    "CTX104/bad/tuple_helper_span_and_token_unpacked.py": "the token is one item of a helper's tuple: no codemod",
    "CTX107/bad/decorator_schedules_coroutine_result_dropped.py": "the task comes back from a decorator's wrapper: "
                                                                  "only the plain create_task statement gets a fix",
    "CTX107/bad/heartbeat_helper_two_levels_local.py": "the task comes back from a helper: only the plain "
                                                       "create_task statement gets a fix",
    "CTX103/bad/helper_returns_token_dropped_by_consumer.py": "the token comes back from a helper the caller "
                                                              "drops: no statement of the set to wrap",
    "CTX402/bad/memoize_factory_on_per_job_reader.py": "the cache is applied by the project's own decorator: no codemod",
    "CTX402/bad/wraps_delegating_to_cached_inner.py": "the cache is applied by the project's own decorator: no codemod",
    "CTX103/bad/cell_token_overwritten_every_pull.py": "the token lives in a closure cell: no block to wrap",
    "CTX103/bad/token_stack_in_contextvar_popped_not_reset.py": "the reset belongs in __exit__, a different method from the set: no block to wrap",
    "CTX106/bad/release_in_try_else_after_yield.py": "the yield already sits in a try: the codemod does not restructure handlers",
    "CTX107/bad/ensure_future_of_task_kept_nowhere.py": "only the plain statement gets a fix",
    "CTX107/bad/unread_task_frame_awaits_other_work.py": "only the plain statement gets a fix",
    "CTX107/bad/task_local_only_queried.py": "only the plain statement gets a fix",
    "CTX303/bad/tool_factory_given_request_text_pkg": "a prompt class's template gets no codemod",
    "CTX103/bad/setter_helper_caller_never_resets.py": "the reset belongs in the caller: the setter has no block to wrap",
    "CTX303/bad/unbound_str_format_of_prompt_file.py": "the codemod rewrites the bound `fmt.format()` spelling only",
    "CTX103/bad/exit_resets_only_on_success.py": "the reset belongs in __exit__'s own structure: the author's choice",
    "CTX104/bad/exit_detaches_only_on_success.py": "the detach belongs in __exit__'s own structure: the author's choice",
    "CTX403/bad/param_hooks_guarded_by_input_flag.py": "the registration ends its block: no finally to remove it in",
    "CTX106/bad/reraising_handler_skips_pool_return.py": "the cleanup follows an enclosing try, not the yield's block",
    "CTX106/bad/atomic_write_mkstemp_scratch_left.py": "the cleanup follows an enclosing with, not the yield's block",
    "CTX104/bad/token_cleared_without_reset_on_close.py": "the token is kept on self: where to detach is the class's choice",
    "CTX401/bad/entries_written_from_another_table.py":
        "the codemod declines: no lookup of the container has a miss path, so a bound would lose entries",
    # a value the storing method returns (or takes as a parameter) is not known to be kept by
    # anyone else (issue 35: mcp-agent's configured logger, returned and dropped), so no
    # WeakValueDictionary; and no lookup has a miss path, so no bound either
    "CTX401/bad/key_minted_per_instance.py": "no fix: the value is only returned, and no lookup has a miss path",
    "CTX401/bad/port_apps_routes_unregistered.py": "no fix: the value is only returned, and no lookup has a miss path",
    "CTX401/bad/review23_partial_adapter.py": "no fix: the value is only returned, and no lookup has a miss path",
    "CTX103/bad/token_in_cell_reset_by_unused_closure.py": "the token lives in a closure cell: no block to wrap",
    "CTX107/bad/ensure_future_of_coroutine_name.py": "only the plain statement gets a fix",
    "CTX103/bad/enter_without_exit_reset.py": "the rule offers no fix (the value is set in a start hook)",
    "CTX103/bad/token_never_reset.py": "the rule offers no fix",
    "CTX103/bad/underscore_bound_token_never_reset.py": "the rule offers no fix (a token bound to a local nothing reads)",
    "CTX103/bad/unread_token_await_before_finally.py": "the rule offers no fix (a token bound to a local nothing reads)",
    "CTX103/bad/token_pairs_kept_not_returned.py": "the rule offers no fix (tokens kept in a list)",
    "CTX103/bad/dispatch_push_and_replace.py": "each set ends its branch: nothing follows it to wrap",
    "CTX103/bad/enter_saves_previous_but_exit_drops_it.py":
        "the fix declines: the set() is in __enter__, its value must outlive the method",
    "CTX103/bad/walrus_reset_not_finally.py": "the rule offers no fix",
    "CTX104/bad/restore_by_second_attach.py": "the rule offers no fix",
    "CTX103/bad/exit_walks_names_but_misses_token.py": "no fix inside __enter__: the reset belongs in __exit__",
    "CTX104/bad/token_list_walked_without_detach.py": "the tokens are kept in lists: no single detach to wrap",
    "CTX103/bad/enter_applies_captured_pairs.py": "no fix inside __enter__: the undo belongs in __exit__",
    "CTX103/bad/snapshot_applied_in_enter.py": "no fix inside __enter__: the undo belongs in __exit__",
    "CTX104/bad/token_handed_to_scope_that_never_detaches.py": "the token is kept by a class that never detaches it",
    "CTX104/bad/token_stack_in_contextvar_never_detached.py": "the token is pushed on a ContextVar stack whose pop never detaches it",
    "CTX104/bad/stream_wrapper_detaches_on_exhaustion_only.py": "the token is kept by an iterator class: an early-exit detach is a design change",
    "CTX104/bad/stream_close_forgets_detach.py": "the token is kept by an iterator class: an early-exit detach is a design change",
    "CTX103/bad/exit_helper_forgets_registry_not_var.py": "no fix inside __enter__: the undo belongs in __exit__",
    "CTX107/bad/comprehension_of_tasks.py": "the rule offers no fix",
    "CTX107/bad/hidden_discards.py": "no fix for hidden discards (only a plain statement is rewritten)",
    "CTX110/bad/handler_claims_generator_releases.py": "no fix: the handler needs a release of its own",
    "CTX110/bad/upstream_never_closed.py": "no fix: there is no release statement to move",
    "CTX301/bad/base_class_env.py": "the rule offers no fix",
    "CTX303/bad/formatter_file_prompt.py": "the rule offers no fix",
    "CTX303/bad/langchain_db_prompt.py": "the rule offers no fix",
    "CTX303/bad/chat_messages_from_config.py": "the rule offers no fix (a LangChain prompt template)",
    "CTX303/bad/llama_index_prompt.py": "the rule offers no fix",
    "CTX303/bad/few_shot_examples_filled_from_file.py": "the rule offers no fix (a LangChain prompt template)",
    "CTX401/bad/engine_stream_registry.py": "the fix declines: no lookup has a miss path, values not held elsewhere",
    "CTX401/bad/group_table_filled_with_sibling.py": "the fix declines: list values cannot be held weakly, no miss path",
    "CTX401/bad/key_domain_near_misses.py": "the fix declines: no lookup has a miss path, values not held elsewhere",
    "CTX401/bad/owner_outlives_its_entry.py": "the rule offers no fix for a set",
    "CTX401/bad/undo_pop_leaves_history_growing.py": "no fix: each entry grows by appends, and a bound on the keys would leave every entry growing",
    "CTX402/bad/unbounded_rope_cache.py": "no fix for unbounded growth: the bound is the author's choice",
    "CTX402/bad/functools_cache_property.py": "a property has no setter: the instance cannot rebind it",
    "CTX402/bad/property_over_cache_per_call.py": "a property has no setter: the instance cannot rebind it",
    "CTX104/bad/consumer_token_other_object_pkg": "the token is kept on self: where to detach is the class's choice",
    "CTX104/bad/token_helper_given_object_releases_nothing.py": "the token is kept on self: where to detach is the class's choice",
    "CTX401/bad/defaultdict_entry_per_request.py": "no fix for a defaultdict: the codemod bounds plain dicts",
    "CTX401/bad/per_user_list_grows_per_call.py": "each entry grows: a bound on the keys would not stop it",
    "CTX403/bad/bound_method_on_callers_model.py": "the rule offers no fix",
    "CTX501/bad/embedding_cache_user.py": "the rule offers no fix",
    "CTX501/bad/memo_keyed_by_task_name.py": "the key is a bound local read in several places: the codemod declines",
    "CTX501/bad/module_cache_beside_instance_namespace.py":
        "the key is also passed to client.open(): a tuple key would change its type, so the codemod declines",
    "CTX501/bad/setter_switched_adapter.py": "the rule offers no fix",
    "CTX501/bad/entry_filter_other_field.py": "the key is a loop variable: no single definition to extend",
    "CTX501/bad/pin_listing_rekeyed.py": "no fix for a `*Key(...)` constructor: its fields are the class's",
    "CTX501/bad/salt_dropped_guard_elsewhere.py":
        "the key is also used as a value (returned, formatted): a tuple key would change its type, so the codemod declines",
    "CTX501/bad/value_records_other_scope.py": "the key is a parameter: the caller builds it",
    "CTX501/bad/value_scope_never_checked.py": "the key is a parameter: the caller builds it",
    "CTX501/bad/tuple_scope_tag_never_checked.py": "the key is a parameter: the caller builds it",
    "CTX501/bad/refresh_walk_overwrites_entries.py":
        "the key is a loop variable over the cache's own keys: no single definition to extend",
    "CTX501/bad/walk_reads_untagged_inserts.py": "the keys are parameters or loop variables: no single definition",
    "CTX501/bad/inherited_namespace_module_cache.py":
        "the key is a parameter: no single definition to extend",
    "CTX501/bad/inherited_namespace_switched.py": "the key is a parameter: no single definition to extend",
    "CTX501/bad/key_copied_from_parts.py":
        "the key is also used as a value (returned and compared): a tuple key would change its type",
    "CTX501/bad/scan_mixed_with_prompt.py":
        "the key is also used as a value: a tuple key would change its type",
}
BAD_PARAMS = [pytest.param(c, marks=pytest.mark.xfail(reason=RULE_GAPS[str(c.relative_to(CORPUS))], strict=True))
              if str(c.relative_to(CORPUS)) in RULE_GAPS else c for c in BAD_CASES]


def _lint(path: Path):
    cfg = Config(root=path if path.is_dir() else path.parent)
    res = engine.lint_paths([str(path)], cfg, select_rules([], []), jobs=1, use_cache=False)
    return res.findings


def _files(root: Path) -> list[Path]:
    return [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())


def _parses(p: Path) -> bool:
    return fixers.parses(p.read_text(encoding="utf-8"), engine.language_of(p) or "python")


def _changed_lines(before: str, after: str) -> list[tuple[int, int]]:
    """Original line ranges (1-based, inclusive) that the rewrite replaced or inserted at."""
    out = []
    sm = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for op, i1, i2, _, _ in sm.get_opcodes():
        if op != "equal":
            out.append((i1 + 1, max(i1 + 1, i2)))
    return out


def _allowed_regions(text: str, language: str, lines: list[int]) -> list[tuple[int, int]]:
    """Where a fix for findings at `lines` may edit: the class (Python) or function
    around each finding, +-3 lines at module level, and every line outside the
    top-level definitions (imports, module-level helpers and containers)."""
    if language not in ("python", "go"):  # templates: only the lines around the finding
        return [(ln - 3, ln + 3) for ln in lines]
    regions = fixers._regions(text, language)
    tops: list[tuple[int, int]] = []
    if language == "python":
        body = ast.parse(text).body
        tops = [(n.lineno - len(getattr(n, "decorator_list", [])), n.end_lineno) for n in body
                if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
        regions = regions + [(n.lineno, n.end_lineno) for n in ast.walk(ast.parse(text))
                             if isinstance(n, ast.ClassDef)]
    else:
        tops = [r for r in regions]
    allowed = []
    for ln in lines:
        inside = [r for r in regions if r[0] <= ln <= r[1]]
        allowed.append(max(inside, key=lambda r: r[1] - r[0]) if inside else (ln - 3, ln + 3))
    n = len(text.splitlines())
    prev = 0
    for a, b in sorted(tops) + [(n + 2, n + 2)]:
        allowed.append((prev, a))
        prev = b
    return allowed


@pytest.mark.parametrize("case", BAD_PARAMS, ids=[str(c.relative_to(CORPUS)) for c in BAD_CASES])
def test_corpus_fix_end_to_end(case: Path, tmp_path: Path):
    code = case.parent.parent.name if case.parent.name == "bad" else case.parent.name
    if code not in all_rules():
        pytest.skip(f"rule {code} is not registered yet")
    if not case.exists():
        pytest.skip(f"corpus/{code}/bad/ has no cases yet")
    work = tmp_path / case.name
    (shutil.copytree if case.is_dir() else shutil.copy2)(case, work)
    before = {p: p.read_text(encoding="utf-8") for p in _files(work)}
    findings = _lint(work)
    fixable = [f for f in findings if fixers.wanted(f, unsafe=True)]
    rel = str(case.relative_to(CORPUS))
    assert _run("--fix", "--unsafe-fixes", "--exit-zero", str(work)) == 0
    after = {p: p.read_text(encoding="utf-8") for p in _files(work)}
    if rel in NO_FIX:
        assert not any(f.code == code for f in fixable) or after == before, (
            f"{rel} is declared in NO_FIX ({NO_FIX[rel]}) but is now fixed: remove it from NO_FIX")
        return
    assert any(f.code == code for f in fixable), f"{code} offers no fix for {rel}: declare it in NO_FIX with the reason"
    assert after != before, f"--fix changed nothing in {rel}: declare it in NO_FIX with the reason"
    for p, text in after.items():
        if fixers.parses(before[p], engine.language_of(p) or "python"):
            assert _parses(p), f"{p.name} no longer parses:\n{text}"
        if p.suffix == ".go" and text != before[p] and shutil.which("gofmt"):
            proc = subprocess.run(["gofmt", "-l", "-e", str(p)], capture_output=True, text=True)
            assert proc.returncode == 0 and not proc.stdout.strip(), f"{p.name} is not gofmt-clean:\n{proc.stderr}"
    left = _lint(work)
    still = [f for f in left if fixers.wanted(f, unsafe=True)]
    assert not still, f"fixable findings left: {[(f.line, f.code, f.message) for f in still]}"
    assert sum(f.code == code for f in left) < sum(f.code == code for f in findings), f"the {code} finding is still there"
    # Idempotence: a second --fix changes nothing.
    assert _run("--fix", "--unsafe-fixes", "--exit-zero", str(work)) == 0
    assert {p: p.read_text(encoding="utf-8") for p in _files(work)} == after
    # The rewrite stays near the findings it fixes.
    for p, text in after.items():
        if text == before[p]:
            continue
        lines = [f.line for f in fixable if Path(f.path).resolve() == p.resolve()]
        allowed = _allowed_regions(before[p], engine.language_of(p) or "jinja", lines)
        for lo, hi in _changed_lines(before[p], text):
            assert any(a <= lo and hi <= b + 1 for a, b in allowed), (
                f"{p.name}: lines {lo}-{hi} changed, far from the findings at {lines}")


# ---------------------------------------------------------------- handed cases
SCORER = SHARED_CASES.parent / "tools" / "score_cases.py"


@pytest.mark.skipif(not SCORER.is_file(), reason="../shared/cases is not beside this checkout")
def test_shared_cases_fix_leaves_nothing_fixable(tmp_path):
    work = tmp_path / "cases"
    shutil.copytree(SHARED_CASES, work)
    for p in [work, *work.rglob("*")]:  # the shared cases are read-only, and --fix leaves such files alone
        p.chmod(p.stat().st_mode | 0o200)
    before = {p: p.read_text(encoding="utf-8", errors="replace") for p in _files(work)}
    assert _run("--fix", "--unsafe-fixes", "--exit-zero", "--quiet", str(work)) == 0
    for p in _files(work):
        if p.suffix == ".py" and p.read_text(encoding="utf-8", errors="replace") != before[p]:
            py_compile.compile(str(p), doraise=True, cfile=str(tmp_path / "x.pyc"))
    # Nothing fixable is left: a second run changes no file (a finding whose
    # fix declines stays reported, with its notice).
    fixed = {p: p.read_text(encoding="utf-8", errors="replace") for p in _files(work)}
    assert _run("--fix", "--unsafe-fixes", "--exit-zero", "--quiet", str(work)) == 0
    again = {p: p.read_text(encoding="utf-8", errors="replace") for p in _files(work)}
    assert again == fixed, [str(p) for p in again if again[p] != fixed.get(p)]
    # Fixing adds no finding the cases do not expect (extras the unfixed cases already
    # show belong to open issues, not to the fixes).
    extras = []
    for tree in (SHARED_CASES, work):
        proc = subprocess.run([sys.executable, str(SCORER), "--ctxlint", f"{sys.executable} -m ctxlint", str(tree)],
                              capture_output=True, text=True, cwd=ROOT)
        m = re.search(r"missed: (\d+)\s+extra: (\d+)", proc.stdout)
        assert m, proc.stdout + proc.stderr
        extras.append(int(m.group(2)))
    assert extras[1] <= extras[0], proc.stdout


# ---------------------------------------------------------------- property test
def _fixable_codes_present() -> bool:
    return any(r.fix_safety for r in all_rules().values() if r.language == "python")


@pytest.mark.slow  # hypothesmith: `pytest -m slow` (and .ci/run) runs it
@pytest.mark.skipif(not _fixable_codes_present(), reason="no Python rule with a fix is registered")
def test_fix_never_breaks_a_parsable_module():
    """hypothesmith modules salted with the shapes the codemods rewrite: fixing
    never raises, never turns parsable code into unparsable code, and is idempotent."""
    pytest.importorskip("hypothesis")
    hypothesmith = pytest.importorskip("hypothesmith")
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    snippets = [p.read_text() for p in sorted(GOLDEN.glob("CTX*/*/input.py"))]
    rules = select_rules([], [])
    cfg = Config()

    @settings(max_examples=25, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(hypothesmith.from_grammar(), st.sampled_from(snippets), st.booleans())
    def check(generated: str, snippet: str, before: bool):
        src = (generated + "\n" + snippet) if before else (snippet + "\n" + generated)
        src = src.replace("\r\n", "\n").replace("\r", "\n")
        try:
            ast.parse(src)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        findings = engine.lint_text("gen.py", src, "python", rules, cfg)
        out, _, left, notices = fixers.fix_source("gen.py", src, "python", findings, rules, cfg, unsafe=True)
        ast.parse(out)
        # Fixing the fixed text again changes nothing (idempotence), except for
        # findings the first run reported as new (those are shown, never fixed unasked).
        appeared = {(int(m.group(1)), m.group(2)) for m in
                    (re.search(r":(\d+):\d+: (CTX\d+) appeared after fixing", n) for n in notices) if m}
        again = engine.lint_text("gen.py", out, "python", rules, cfg)
        assert {(f.line, f.code) for f in again if fixers.wanted(f, True)} <= appeared
        if not appeared:
            assert fixers.fix_text("gen.py", out, "python", again, unsafe=True, rules=rules, config=cfg) == out

    check()


def test_stdin_fix_prints_the_fixed_source(tmp_path):
    src = (GOLDEN / "CTX107" / "create_task_discarded" / "input.py").read_bytes()
    proc = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--fix", "--min-confidence", "low",
                           "--stdin-filename", "h.py"],
                          input=src, capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (GOLDEN / "CTX107" / "create_task_discarded" / "expected.py").read_bytes()


# ---------------------------------------------------------------- behaviour harness
#: The team's shared harness where it is beside this checkout, else ctxlint's own
#: (scripts/check_fix_behaviour.py: same contract and output), so CI runs the cases too.
SHARED_HARNESS = SHARED_CASES.parent / "tools" / "check_fix_behaviour.py"
HARNESS = SHARED_HARNESS if SHARED_HARNESS.is_file() else ROOT / "scripts" / "check_fix_behaviour.py"
#: The handed fix cases: ../shared/cases/fix, else the snapshot in tests/handed_cases/fix.
HANDED_FIX = SHARED_CASES / "fix" if (SHARED_CASES / "fix").is_dir() else ROOT / "tests" / "handed_cases" / "fix"
FIX_CASES = Path(__file__).resolve().parent / "fix_cases"


def _harness(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(HARNESS), "--ctxlint", f"{sys.executable} -m ctxlint", "--unsafe",
                           *map(str, paths)], capture_output=True, text=True, cwd=ROOT, timeout=900)


def test_fix_behaviour_harness_on_own_cases():
    """Every codemod's own fix case (tests/fix_cases) keeps its behaviour under
    `--fix --unsafe-fixes`, converges in one run and keeps comments; each case
    declares in its header whether it must be rewritten (`# fix: kept`) or left alone
    (`# fix: same`)."""
    proc = _harness(FIX_CASES)
    assert "broken: 0" in proc.stdout, proc.stdout + proc.stderr
    for case in sorted(FIX_CASES.glob("*.py")):
        want = re.search(r"^# fix: (kept|same)", case.read_text(), re.M)
        assert want, f"{case.name} has no `# fix: kept|same` header"
        assert re.search(rf"^{want.group(1)}\s+\S*{re.escape(case.name)}$", proc.stdout, re.M), (
            f"{case.name}: expected {want.group(1)}\n{proc.stdout}")


def test_fix_behaviour_harness_on_shared_cases():
    """The handed fix cases: F02, F04-F08 rewritten with the same behaviour (F07: the
    cleanup's comments kept; F08: a key with no scope part unchanged); F01 and F03
    (correct code) and F09 (setters for the caller: no fix may touch them) unchanged."""
    proc = _harness(HANDED_FIX)
    assert "broken: 0" in proc.stdout, proc.stdout + proc.stderr
    for name, want in (("F01", "same"), ("F02", "kept"), ("F03", "same"), ("F04", "kept"), ("F05", "kept"),
                       ("F06", "kept"), ("F07", "kept"), ("F08", "kept"), ("F09", "same")):
        if not any(HANDED_FIX.glob(f"{name}_*.py")):
            continue
        assert re.search(rf"^{want}\s+\S*/{name}_", proc.stdout, re.M), f"{name}: expected {want}\n{proc.stdout}"


def test_rounds_fix_only_reported_findings_and_count_them():
    """F06's two identical statements are both fixed in one run; a finding that a
    fix makes appear is reported (notice) and left unfixed; the count is the fixes applied."""
    text = (HANDED_FIX / "F06_identical_statements.py").read_text()
    rules = select_rules([], [])
    found = engine.lint_text("f.py", text, "python", rules, Config())
    new, n, left, notices = fixers.fix_source("f.py", text, "python", found, rules, Config(), unsafe=False)
    assert n == sum(fixers.wanted(f, False) for f in found) == 2
    assert not [f for f in left if fixers.wanted(f, False)]


# ---------------------------------------------------------------- --add-noqa in templates
JINJA_LINES = [
    "<p>{{ user.__class__ }}</p>",
    "{% if x %}",
    "{%- for m in msgs -%}",
    "a {{ x.__class__ -}}",
    "{% set a = x.__init__ %}",
    "  {{ y.__class__ }}   ",
    "{{ x.__class__ }}{# note #}",
]


@pytest.mark.parametrize("first", JINJA_LINES)
def test_add_noqa_in_jinja_keeps_the_rendered_output(first: str):
    """The suppression comment never changes what the template renders, under
    every trim_blocks/lstrip_blocks setting: rendered before and after."""
    from jinja2 import Environment

    from ctxlint import baseline
    tail = {"{% if x %}": "\n  yes\n{% endif %}\nend\n", "{%- for m in msgs -%}": "\n{{ m }}\n{%- endfor -%}\nend\n"}
    text = first + tail.get(first, "\n   next line\n  {%- if x %}z{% endif %}\n")
    new, n = baseline.add_noqa_text(text, "jinja", {1: ["CTX302"]})
    assert n == 1 and "ctxlint: ignore CTX302" in new.splitlines()[0]
    ctx = {"x": 1, "y": 2, "msgs": [1, 2], "user": "u"}
    for trim in (False, True):
        for lstrip in (False, True):
            env = Environment(trim_blocks=trim, lstrip_blocks=lstrip)
            assert env.from_string(new).render(**ctx) == env.from_string(text).render(**ctx), (trim, lstrip, new)


def test_add_noqa_in_jinja_declines_when_no_form_is_neutral(tmp_path):
    """A line whose every comment form changes the output gets none, and a notice says so."""
    from ctxlint import baseline
    # Inside `{% raw %}` a comment is text: every form would be rendered.
    tpl = tmp_path / "t.j2"
    tpl.write_text("{% raw %}\n{{ x.__class__ }}\n{% endraw %}\n")
    f = Finding("CTX302", "n", str(tpl), 2, 4, 2, 5, "m")
    out = baseline.add_noqa([f], roots=[str(tmp_path)])
    assert tpl.read_text() == "{% raw %}\n{{ x.__class__ }}\n{% endraw %}\n"
    assert out.skipped == [f]


# ---------------------------------------------------------------- windows and the diff
def _apply_unified(old: str, diff: str) -> str:
    """Apply a unified diff of one file (as `--diff` prints it) to `old`."""
    src = old.split("\n")
    src = [ln + "\n" for ln in src[:-1]] + ([src[-1]] if src[-1] else [])
    out: list[str] = []
    pos = 0
    lines = diff.splitlines(keepends=True)
    k = 0
    while k < len(lines):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", lines[k])
        k += 1
        if not m:
            continue
        start = int(m.group(1)) - (0 if m.group(2) == "0" else 1)
        out.extend(src[pos:start])
        pos = start
        while k < len(lines) and not lines[k].startswith("@@"):
            tag, body = lines[k][0], lines[k][1:]
            if tag in " -":
                assert src[pos] == body, (pos, src[pos], body)
                pos += 1
            if tag in " +":
                out.append(body)
            k += 1
    out.extend(src[pos:])
    return "".join(out)


def test_line_map_diff_reproduces_every_round():
    """The diff built from the rounds' edits turns the original into the result."""
    import random
    rnd = random.Random(7)
    for _ in range(300):
        text = "".join(f"l{i}\n" for i in range(rnd.randint(1, 14)))
        lm, cur = fixers.LineMap(text), text
        for _ in range(rnd.randint(1, 3)):
            pts = sorted(rnd.sample(range(len(cur)), min(len(cur), 2 * rnd.randint(1, 3))))
            edits = [Edit(pts[k], pts[k + 1], rnd.choice(["", "X", "Y\n", "\nZ\n", "Q\nR"]))
                     for k in range(0, len(pts) - 1, 2)]
            lm.apply(fixers._Text(cur, "text"), edits)
            cur = fixers.apply_edits(cur, edits)
        if cur.endswith("\n"):
            assert _apply_unified(text, lm.unified("f", cur)) == cur


def test_window_codemod_sees_names_outside_the_window():
    """A fix made on a window never reuses a name the rest of the file binds, and
    finds a module-level helper that lies outside the window (whole-module retry)."""
    pad = "".join(f"def pad_{i}():\n    return {i}\n\n\n" for i in range(30))
    text = ("import asyncio\n\n\n" + pad + "async def go():\n    asyncio.create_task(go())\n    await asyncio.sleep(0)\n"
            "\n\ndef _background_tasks():\n    return 1\n")
    rules = select_rules([], [])
    found = [f for f in engine.lint_text("w.py", text, "python", rules, Config()) if f.code == "CTX107"]
    assert found
    new, n, _, _ = fixers.fix_source("w.py", text, "python", found, rules, Config(), unsafe=False)
    assert n == 1 and "_background_tasks_1: set = set()" in new and "def _background_tasks():" in new
    ast.parse(new)
    with_set = text.replace("def _background_tasks():\n    return 1\n", "_running_tasks = set()\n")
    found = [f for f in engine.lint_text("w.py", with_set, "python", rules, Config()) if f.code == "CTX107"]
    new, n, _, _ = fixers.fix_source("w.py", with_set, "python", found, rules, Config(), unsafe=False)
    assert n == 1 and "_running_tasks.add(task)" in new and "_background_tasks" not in new


def test_ctx401_fix_adds_no_dependency_the_project_lacks(tmp_path):
    """cachetools only where the project's own dependencies name it; else the
    standard-library bounded dict."""
    from ctxlint.fixers.python_codemods import project_depends_on
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["httpx"]\n'
                                             '[project.optional-dependencies]\ntest = ["cachetools"]\n')
    (tmp_path / "m.py").write_text("")
    assert not project_depends_on(str(tmp_path / "m.py"), "cachetools")
    (tmp_path / "requirements.txt").write_text("cachetools>=5\n")
    assert project_depends_on(str(tmp_path / "m.py"), "cachetools")
    case = GOLDEN / "CTX401" / "lru_registry"
    text = (case / "input.py").read_text()
    f = _golden_finding(case, text)
    out = fixers.fix_text(str(tmp_path / "m.py"), text, "python", [f], unsafe=True, rules=[], config=Config())
    assert "from cachetools import LRUCache" in out and "LRUCache(maxsize=64)" in out


def test_own_harness_reports_kept_same_and_broken(tmp_path: Path):
    """scripts/check_fix_behaviour.py (what CI runs without ../shared) tells a kept
    rewrite from an untouched file, and flags a behaviour change as broken."""
    own = ROOT / "scripts" / "check_fix_behaviour.py"
    ok = subprocess.run([sys.executable, str(own), "--unsafe", str(FIX_CASES / "FC107_task_reference.py"),
                         str(FIX_CASES / "FC303_own_literal.py")], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert re.search(r"^kept\s+\S*FC107_task_reference\.py$", ok.stdout, re.M)
    assert re.search(r"^same\s+\S*FC303_own_literal\.py$", ok.stdout, re.M)
    # A case whose behaviour() reads its own source: any rewrite changes the value.
    case = tmp_path / "reads_itself.py"
    case.write_text("import asyncio\n\n\nasync def work():\n    return 1\n\n\nasync def main():\n"
                    "    asyncio.create_task(work())\n    await asyncio.sleep(0)\n\n\n"
                    "def behaviour():\n    asyncio.run(main())\n    return len(open(__file__).read())\n")
    bad = subprocess.run([sys.executable, str(own), str(case)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1 and "BROKEN" in bad.stdout, bad.stdout + bad.stderr


# ---------------------------------------------------------------- issue 35: fixes a hook can leave on
_EXECUTOR_CASE = '''\
import asyncio
import logging
from contextvars import ContextVar

from opentelemetry import trace

tracer = trace.get_tracer(__name__)
tenant_id: ContextVar[str] = ContextVar("tenant_id")
log = logging.getLogger(__name__)


def tokenize(text: str) -> list[int]:
    trace.get_current_span().set_attribute("tenant", tenant_id.get())
    return [ord(c) for c in text]


async def handle(text: str, tenant: str) -> list[int]:
    token = tenant_id.set(tenant)
    try:
        with tracer.start_as_current_span("tokenize"):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(None, tokenize, text)
    finally:
        tenant_id.reset(token)
'''


def test_ctx206_fix_is_unsafe_sorted_and_wrapped(tmp_path):
    """CTX206's fix changes what the job sees (aiomisc: a ContextVar unset in the worker
    now has the caller's value), so plain `--fix` leaves it; with `--unsafe-fixes` its
    `import contextvars` lands where isort puts it and no line passes the project's
    line length (aiomisc's 80 columns, once a 103-character line)."""
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 66\n")
    p = tmp_path / "svc.py"
    p.write_text(_EXECUTOR_CASE)
    assert _run("--fix", "--min-confidence", "low", "--exit-zero", "--select", "CTX206", str(p)) == 0
    assert p.read_text() == _EXECUTOR_CASE
    assert _run("--fix", "--unsafe-fixes", "--min-confidence", "low", "--exit-zero", "--select", "CTX206",
                str(p)) == 0
    text = p.read_text()
    assert "contextvars.copy_context().run, tokenize, text" in text, text
    assert text.splitlines()[:4] == ["import asyncio", "import contextvars", "import logging",
                                     "from contextvars import ContextVar"], text
    changed = [ln for ln in text.splitlines() if ln not in _EXECUTOR_CASE.splitlines()]
    assert changed and max(len(ln) for ln in changed) <= 66, text
    ast.parse(text)


def test_import_slot_follows_isort_sections_and_order():
    from ctxlint.fixers.style import import_slot
    block = [("import", "asyncio", True), ("import", "os", False), ("from", "typing", False),
             ("import", "jinja2", True), ("from", "jinja2", False), ("from", ".local", True)]
    assert import_slot(block, "import", "contextvars") == (1, "join")
    assert import_slot(block, "from", "jinja2.sandbox") == (5, "join")
    assert import_slot([("import", "jinja2", True)], "import", "contextvars") == (0, "new_before")
    assert import_slot([("import", "os", True)], "from", "jinja2.sandbox") == (1, "new_after")
    # force-sort-within-sections style (a `from` line before an `import` line): by module alone
    mixed = [("import", "asyncio", True), ("from", "datetime", False), ("import", "threading", False)]
    assert import_slot(mixed, "from", "collections") == (1, "join")
    assert import_slot(mixed, "import", "time") == (3, "join")


def test_ctx301_fix_is_unsafe_and_its_import_sorted(tmp_path):
    """CTX301's sandbox raises SecurityError on templates that read underscore
    attributes or mutate what they are given: an unsafe fix. Its import is isort-sorted
    (smolagents' own `ruff check` failed on it)."""
    p = tmp_path / "render.py"
    src = ("import json\nimport os\n\nfrom jinja2 import Template\n\n\n"
           "def render(request):\n    return Template(request.body).render(data=json.dumps(os.environ.get('X')))\n")
    p.write_text(src)
    assert _run("--fix", "--min-confidence", "low", "--exit-zero", "--select", "CTX301", str(p)) == 0
    assert p.read_text() == src
    assert _run("--fix", "--unsafe-fixes", "--min-confidence", "low", "--exit-zero", "--select", "CTX301",
                str(p)) == 0
    head = p.read_text().split("\n\n\n")[0].splitlines()
    assert head == ["import json", "import os", "", "from jinja2.sandbox import ImmutableSandboxedEnvironment"], head


def test_line_length_reads_the_project_settings(tmp_path):
    from ctxlint.fixers.style import DEFAULT_LINE_LENGTH, line_length
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "setup.cfg").write_text("[flake8]\nmax-line-length = 79\n")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "pyproject.toml").write_text("[tool.black]\nline-length = 100\n")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "pyproject.toml").write_text("[project]\nname = 'c'\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "pyproject.toml").write_text("not [ toml")
    assert line_length(tmp_path / "a" / "x.py") == 79
    assert line_length(tmp_path / "b" / "x.py") == 100
    assert line_length(tmp_path / "c" / "x.py") == DEFAULT_LINE_LENGTH
    assert line_length(tmp_path / "d" / "x.py") in (DEFAULT_LINE_LENGTH, 79, 100)  # malformed: skipped, never raises
    assert line_length(None) == DEFAULT_LINE_LENGTH


def test_sarif_carries_fixes_for_every_fixable_result(tmp_path, capsys):
    """Every SARIF result whose finding is fixable has a `fixes` entry (a Python codemod's
    edits are recorded when the finding is confirmed), as the README promises."""
    shutil.copytree(FIX_CASES, tmp_path / "cases")
    assert _run("--output-format", "sarif", "--min-confidence", "low", "--exit-zero", str(tmp_path / "cases")) == 0
    log = json.loads(capsys.readouterr().out)
    results = log["runs"][0]["results"]
    fixable = [r for r in results if r.get("properties", {}).get("fixable")]
    assert len(fixable) >= 8
    assert all(r.get("fixes") for r in fixable), [r["ruleId"] for r in fixable if not r.get("fixes")]


def _declined(root: Path) -> list[str]:
    """The findings a lint of `root` marks fixable (every tier) whose fix `--fix
    --unsafe-fixes` would decline on the file as it is (`confirm_fixes` runs each one)."""
    res = engine.lint_paths([str(root)], Config(root=root), select_rules([], []), jobs=1, use_cache=False)
    confirmed = fixers.confirm_fixes(res.findings)
    # a fix whose rule leaves the decision to its codemod ("confirm") is run by every
    # report before it is called fixable (`cli.run_check`)
    return [f"{f.path}:{f.line}: {f.code}" for f, g in zip(res.findings, confirmed)
            if f.fix is not None and g.fix is None and not f.fix.data.get("confirm")]


@pytest.mark.parametrize("where", ["fix_cases", "corpus", "shared"])
def test_no_finding_marked_fixable_is_declined(where, tmp_path):
    """`fixable` means one thing everywhere (issue 35): no finding of the fix cases,
    the corpus or the handed cases that a report marks fixable is then declined by
    `--fix --unsafe-fixes` (4 were: CTX401 "run the same command again")."""
    src = {"fix_cases": FIX_CASES, "corpus": CORPUS, "shared": SHARED_CASES}[where]
    if not src.is_dir():
        pytest.skip(f"{src} is not beside this checkout")
    work = tmp_path / where
    shutil.copytree(src, work)
    assert _declined(work) == []
