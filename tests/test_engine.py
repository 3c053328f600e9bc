"""Engine, CLI, config, discovery, cache and bad-input behaviour (issue 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlint import engine
from ctxlint.cli import main
from ctxlint.config import Config, ConfigError, load_config
from ctxlint.rules import select_rules

BAD = """import asyncio


async def work():
    return 1


async def handler():
    asyncio.create_task(work())
"""


def run_cli(args, cwd: Path, capsys) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    if args and args[0] == "check" and "--min-confidence" not in args:
        args = [*args, "--min-confidence", "low"]  # these tests are about detection, both tiers
    try:
        rc = main(args)
    finally:
        os.chdir(old)
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(BAD)
    (tmp_path / "ok.py").write_text("x = 1\n")
    return tmp_path


def test_exit_codes_and_text_format(proj, capsys):
    rc, out, _ = run_cli(["check", "app.py", "--no-cache"], proj, capsys)
    assert rc == 1
    assert out.splitlines()[0].startswith("app.py:9:5: CTX107")
    assert "Found 1 finding" in out
    rc, out, _ = run_cli(["check", "ok.py", "--no-cache"], proj, capsys)
    assert rc == 0


def test_json_contract(proj, capsys):
    rc, out, _ = run_cli(["check", ".", "--no-cache", "--output-format", "json"], proj, capsys)
    data = json.loads(out)
    assert rc == 1 and len(data) == 1
    item = data[0]
    assert set(item) >= {"code", "name", "path", "line", "col", "end_line", "end_col", "message", "fixable"}
    assert (item["code"], item["name"], item["line"], item["col"]) == ("CTX107", "task-reference-discarded", 9, 5)
    assert item["path"] == "app.py" or item["path"].endswith("/app.py")
    assert item["fixable"] is True and item["fix_safety"] == "safe"


def test_select_ignore_and_unknown_code(proj, capsys):
    rc, out, _ = run_cli(["check", ".", "--no-cache", "--ignore", "CTX1"], proj, capsys)
    assert rc == 0
    rc, out, _ = run_cli(["check", ".", "--no-cache", "--select", "CTX107"], proj, capsys)
    assert rc == 1
    rc, _, err = run_cli(["check", ".", "--select", "CTX999"], proj, capsys)
    assert rc == 2 and "CTX999" in err and len(err.strip().splitlines()) == 1


def test_missing_path_is_usage_error(proj, capsys):
    rc, _, err = run_cli(["check", "nope/"], proj, capsys)
    assert rc == 2 and "nope/" in err


def test_config_unknown_key_and_bad_value(proj, capsys):
    (proj / "pyproject.toml").write_text("[tool.ctxlint]\nselekt = ['CTX1']\n")
    rc, _, err = run_cli(["check", "."], proj, capsys)
    assert rc == 2 and "selekt" in err
    (proj / "pyproject.toml").write_text("[tool.ctxlint]\nmax-file-size = 'big'\n")
    rc, _, err = run_cli(["check", "."], proj, capsys)
    assert rc == 2 and "max-file-size" in err
    (proj / "pyproject.toml").write_text("[tool.ctxlint\n")
    with pytest.raises(ConfigError):
        load_config(str(proj / "pyproject.toml"))


def test_config_ignore_and_per_file_ignores(proj, capsys):
    (proj / "pyproject.toml").write_text('[tool.ctxlint]\nper-file-ignores = { "app.py" = ["CTX107"] }\n')
    rc, _, _ = run_cli(["check", ".", "--no-cache"], proj, capsys)
    assert rc == 0
    (proj / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX107"]\n')
    rc, _, _ = run_cli(["check", ".", "--no-cache"], proj, capsys)
    assert rc == 0


def test_scope_ids_config(tmp_path):
    (tmp_path / "ctxlint.toml").write_text('extend-scope-ids = ["workspace_slug"]\n')
    cfg = load_config(None, str(tmp_path))
    assert "workspace_slug" in cfg.scope_ids and "tenant_id" in cfg.scope_ids
    (tmp_path / "ctxlint.toml").write_text('scope-ids = ["only_this"]\n')
    assert load_config(None, str(tmp_path)).scope_ids == ["only_this"]


def test_discovery_gitignore_default_excludes_and_explicit_file(proj, capsys):
    (proj / ".gitignore").write_text("generated/\n")
    for d in ("generated", ".venv", "node_modules", "build"):
        (proj / d).mkdir()
        (proj / d / "x.py").write_text(BAD)
    files = {Path(f.display).relative_to(proj).as_posix() for f in engine.discover([str(proj)], Config(root=proj))}
    assert files == {"app.py", "ok.py"}
    # A file named on the command line is always checked.
    rc, out, _ = run_cli(["check", "generated/x.py", "--no-cache"], proj, capsys)
    assert rc == 1 and "generated/x.py:9:5" in out
    rc, out, _ = run_cli(["check", ".", "--no-cache", "--exclude", "app.py"], proj, capsys)
    assert rc == 0


def test_bad_input_never_crashes(tmp_path, capsys):
    # The prefilter skips analysis of files no rule wants, never the syntax check.
    (tmp_path / "syntax.py").write_text("def f(:\n    pass\n")
    (tmp_path / "latin1.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    (tmp_path / "cookie.py").write_bytes("# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n".encode("latin-1"))
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "crlf.py").write_bytes(BAD.replace("\n", "\r\n").encode())
    (tmp_path / "huge.py").write_text("x = 1\n" * 100)
    (tmp_path / "ctxlint.toml").write_text("max-file-size = 300\n")
    rc, out, err = run_cli(["check", ".", "--no-cache", "--output-format", "json"], tmp_path, capsys)
    data = {(Path(d["path"]).name, d["code"], d["line"]) for d in json.loads(out)}
    assert ("syntax.py", "CTX000", 1) in data
    assert ("latin1.py", "CTX000", 1) in data
    assert ("binary.py", "CTX000", 1) in data
    assert ("crlf.py", "CTX107", 9) in data
    assert not any(n in ("cookie.py", "empty.py") for n, _, _ in data)
    assert "huge.py: skipped" in err and "Traceback" not in err
    assert rc == 1


def test_syntax_error_reported_even_when_no_rule_wants_the_file(tmp_path, capsys):
    (tmp_path / "s.py").write_text("x = 1\ndef f(:\n")
    (tmp_path / "b.go").write_text("package main\nfunc main() {\n")
    (tmp_path / "t.j2").write_text("{% if x %}\n")
    rc, out, _ = run_cli(["check", ".", "--no-cache", "--output-format", "json", "--select", "CTX107"], tmp_path, capsys)
    got = {(Path(d["path"]).name, d["code"]) for d in json.loads(out)}
    assert rc == 1 and got == {("s.py", "CTX000"), ("b.go", "CTX000"), ("t.j2", "CTX000")}
    # Deselecting CTX000 turns the check off.
    rc, _, _ = run_cli(["check", ".", "--no-cache", "--select", "CTX107", "--ignore", "CTX000"], tmp_path, capsys)
    assert rc == 0


def test_cache_rerun_parses_nothing(proj):
    cfg = Config(root=proj)
    rules = select_rules([], [])
    first = engine.lint_paths([str(proj)], cfg, rules, jobs=1)
    assert first.parsed >= 1 and first.cached == 0
    second = engine.lint_paths([str(proj)], cfg, rules, jobs=1)
    assert second.parsed == 0 and second.cached == first.files
    assert [f.to_json() for f in second.findings] == [f.to_json() for f in first.findings]
    # A changed file is re-linted; changing the config invalidates everything.
    (proj / "ok.py").write_text(BAD + "\n# changed\n")
    third = engine.lint_paths([str(proj)], cfg, rules, jobs=1)
    # app.py's latent finding asked whether another module of the project reaches its
    # handler from an entry point (evidence across modules): a changed module re-lints it
    assert third.parsed == 2 and len(third.findings) == 2
    other = engine.lint_paths([str(proj)], Config(root=proj, scope_ids=["x"]), rules, jobs=1)
    assert other.cached == 0


def test_process_pool_matches_serial(tmp_path):
    for i in range(60):
        (tmp_path / f"m{i}.py").write_text(BAD if i % 3 == 0 else "y = 2\n")
    cfg = Config(root=tmp_path)
    rules = select_rules([], [])
    serial = engine.lint_paths([str(tmp_path)], cfg, rules, jobs=1, use_cache=False)
    pooled = engine.lint_paths([str(tmp_path)], cfg, rules, jobs=2, use_cache=False)
    assert [f.to_json() for f in serial.findings] == [f.to_json() for f in pooled.findings]
    assert len(serial.findings) == 20


@pytest.mark.parametrize("comment,suppressed", [
    ("  # noqa", True),
    ("  # noqa: CTX107", True),
    ("  # noqa: CTX1", True),
    ("  # NOQA:CTX107,CTX501", True),
    ("  # ctxlint: ignore[CTX107]", True),
    ("  # noqa: CTX501", False),
    ("  # ctxlint: ignore[CTX501]", False),
])
def test_python_suppressions(tmp_path, comment, suppressed):
    src = BAD.replace("asyncio.create_task(work())", "asyncio.create_task(work())" + comment)
    out = engine.lint_text("a.py", src, "python", select_rules([], []), Config(root=tmp_path))
    assert (out == []) is suppressed


def test_ignore_file_comment(tmp_path):
    src = "# ctxlint: ignore-file\n" + BAD
    assert engine.lint_text("a.py", src, "python", select_rules([], []), Config(root=tmp_path)) == []


def test_unused_noqa_off_by_default_on_when_selected(tmp_path):
    src = "x = 1  # noqa: CTX107\n"
    cfg = Config(root=tmp_path)
    assert engine.lint_text("a.py", src, "python", select_rules([], []), cfg) == []
    out = engine.lint_text("a.py", src, "python", select_rules(["CTX107", "CTX001"], []), cfg)
    assert [(f.code, f.line) for f in out] == [("CTX001", 1)]
    # A noqa for another linter's code is not ours to report.
    assert engine.lint_text("a.py", "x = 1  # noqa: E501\n", "python", select_rules(["CTX1", "CTX001"], []), cfg) == []


def test_rules_and_explain(capsys, tmp_path):
    rc, out, _ = run_cli(["rules"], tmp_path, capsys)
    assert rc == 0 and "CTX107" in out and "task-reference-discarded" in out
    rc, out, _ = run_cli(["rules", "--output-format", "json"], tmp_path, capsys)
    assert {"code": "CTX107"}.items() <= next(r for r in json.loads(out) if r["code"] == "CTX107").items()
    rc, out, _ = run_cli(["explain", "ctx107"], tmp_path, capsys)
    for heading in ("## What it does", "## Why is this bad", "## Example", "## Use instead", "## Fix safety", "## Source"):
        assert heading in out
    assert "Flagged (from the corpus)" in out and "Not flagged" in out
    rc, _, err = run_cli(["explain", "CTX999"], tmp_path, capsys)
    assert rc == 2


def test_every_rule_doc_has_the_headings():
    from ctxlint.rules import all_rules
    for code, rule in all_rules().items():
        assert rule.name and rule.summary, code
        for heading in ("## What it does", "## Why is this bad", "## Example", "## Use instead", "## Fix safety", "## Source"):
            assert heading in rule.doc, f"{code} doc lacks {heading}"


def test_python_dash_m_and_version():
    proc = subprocess.run([sys.executable, "-m", "ctxlint", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("ctxlint ")


def test_single_file_check_does_not_import_heavy_modules(tmp_path):
    """Start-up matters for pre-commit: checking one Python file must not import
    libcst, astroid, jinja2, tree_sitter or torch."""
    f = tmp_path / "a.py"
    f.write_text(BAD)
    code = ("import sys; from ctxlint.cli import main; rc = main(['check', %r, '--no-cache', '-q']); "
            "bad = [m for m in ('libcst', 'astroid', 'jinja2', 'tree_sitter', 'torch', 'pygls') if m in sys.modules]; "
            "print(bad)") % str(f)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_root_gitignore_applies_to_a_subdirectory(tmp_path, capsys):
    """`ctxlint check sub/` honours the repository root's .gitignore, as git does."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("sup/a.py\n")
    (tmp_path / "sup").mkdir()
    (tmp_path / "sup" / "a.py").write_text(BAD)
    (tmp_path / "sup" / "b.py").write_text(BAD + "\n")
    rc, out, _ = run_cli(["check", "sup", "--no-cache"], tmp_path, capsys)
    assert "sup/b.py:9:5" in out and "sup/a.py" not in out


def test_no_files_warns_and_unknown_suffix_is_not_linted(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("asyncio.create_task(x)\n")
    rc, out, err = run_cli(["check", "notes.txt", "--no-cache"], tmp_path, capsys)
    assert rc == 0 and "no Python, Go or template files" in err
    (tmp_path / "tool").write_text("#!/usr/bin/env python3\n" + BAD)
    rc, out, err = run_cli(["check", "tool", "--no-cache"], tmp_path, capsys)
    assert rc == 1 and "tool:10:5: CTX107" in out


def test_unknown_config_key_suggests_the_close_one(tmp_path, capsys):
    (tmp_path / "ctxlint.toml").write_text("selct = ['CTX1']\n")
    rc, _, err = run_cli(["check", "."], tmp_path, capsys)
    assert rc == 2 and "did you mean 'select'" in err


def test_ignored_directory_named_explicitly_is_checked(tmp_path, capsys):
    """Like a named file, a directory the user names is checked even if .gitignore lists it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("vendor/\n")
    (tmp_path / "vendor" / "pkg").mkdir(parents=True)
    (tmp_path / "vendor" / "pkg" / "m.py").write_text(BAD)
    rc, out, _ = run_cli(["check", "vendor/pkg", "--no-cache"], tmp_path, capsys)
    assert rc == 1 and "vendor/pkg/m.py:9:5" in out
    rc, out, _ = run_cli(["check", ".", "--no-cache"], tmp_path, capsys)
    assert rc == 0


def test_odd_config_and_cache_never_crash(tmp_path, capsys):
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text("tool = 1\n")  # not ours: defaults apply
    rc, _, err = run_cli(["check", "."], tmp_path, capsys)
    assert rc == 1 and "Traceback" not in err and "internal error" not in err
    (tmp_path / "pyproject.toml").write_text("version = 1.0.0\n")
    rc, _, err = run_cli(["check", "."], tmp_path, capsys)
    assert rc == 2 and "invalid TOML" in err
    (tmp_path / "pyproject.toml").unlink()
    # A cache entry of the wrong shape is a miss, not a crash.
    rc, _, _ = run_cli(["check", "."], tmp_path, capsys)
    assert rc == 1
    cache_file = next((tmp_path / ".ctxlint_cache").glob("findings-*.json"))
    data = json.loads(cache_file.read_text())
    cache_file.write_text(json.dumps({k: [{"bad": 1}] for k in data}))
    rc, out, err = run_cli(["check", "."], tmp_path, capsys)
    assert rc == 1 and "CTX107" in out and "Traceback" not in err


def test_cache_key_includes_language(tmp_path, capsys):
    for name in ("t.py", "t.j2"):
        (tmp_path / name).write_text("{{ x.__class__ }}\n")
    first = run_cli(["check", ".", "--output-format", "json"], tmp_path, capsys)
    second = run_cli(["check", ".", "--output-format", "json"], tmp_path, capsys)
    assert json.loads(first[1]) == json.loads(second[1])
    assert any(d["code"] == "CTX302" for d in json.loads(second[1]))


def test_cache_key_includes_the_path(tmp_path, capsys):
    """A Go file's findings depend on where it is (`_test.go` is test code): the same
    bytes under two names are two cache entries, on the first run and on the cached one."""
    src = ('package p\n\nimport (\n\t"context"\n\t"time"\n)\n\n'
           'func Ctx() context.Context {\n\tctx, _ := context.WithTimeout(context.Background(), time.Second)\n'
           '\treturn ctx\n}\n')
    for name in ("a.go", "a_test.go"):
        (tmp_path / name).write_text(src)
    for _ in range(2):
        rc, out, _ = run_cli(["check", ".", "--output-format", "json"], tmp_path, capsys)
        assert [(d["path"].rsplit("/", 1)[-1], d["code"]) for d in json.loads(out)] == [("a.go", "CTX101")]


def test_deep_code_gives_a_notice_not_silence(tmp_path, capsys):
    """A rule that hits the recursion limit is skipped with a notice, never silently."""
    terms = " + ".join(["p"] * 2000)
    (tmp_path / "deep.py").write_text(
        "import hashlib\n_cache = {}\ndef key(tenant_id, p, llm):\n"
        f"    k = hashlib.sha256(({terms}).encode()).hexdigest()\n"
        "    _cache[k] = llm(p, tenant_id)\n    return _cache[k]\n")
    rc, out, err = run_cli(["check", ".", "--no-cache"], tmp_path, capsys)
    assert "Traceback" not in err
    # The notice names the file and the rule that could not analyse it.
    assert "deep.py: CTX501 skipped: the code is nested too deeply to analyse" in err, err
    assert rc == 0 and "All checks passed (1 file)." in out


def test_segment_is_linear_and_handles_unicode():
    import ast as _ast
    from ctxlint.semantic.python.facts import PythonFacts
    src = "s = 'héllo'; t = (1,\n  2)\n"
    tree = _ast.parse(src)
    facts = PythonFacts("a.py", src, tree, Config())
    nodes = facts.nodes(_ast.Constant) + facts.nodes(_ast.Tuple)
    for n in nodes:
        assert facts.segment(n) == _ast.get_source_segment(src, n)


def test_quiet_prints_findings_only(proj, capsys):
    rc, out, err = run_cli(["check", ".", "--no-cache", "-q", "--statistics"], proj, capsys)
    assert rc == 1 and out.splitlines() == [l for l in out.splitlines() if l.startswith("app.py:9:5: CTX107")]
    assert len(out.splitlines()) == 1
    rc, out, _ = run_cli(["check", "ok.py", "--no-cache", "-q"], proj, capsys)
    assert rc == 0 and out == ""


def test_config_code_lists_accept_a_comma_separated_string_and_reject_other_types(tmp_path):
    """`select = "CTX103,CTX107"` reads as the CLI's `--select CTX103,CTX107`; a lone
    string elsewhere is a one-element list; a number is an error naming the key."""
    from ctxlint.config import ConfigError, load_config
    (tmp_path / "pyproject.toml").write_text(
        '[tool.ctxlint]\nselect = "CTX103, CTX107"\nignore = "CTX107"\nexclude = "build/"\n'
        'per-file-ignores = { "tests/*" = "CTX5,CTX1" }\n', encoding="utf-8")
    cfg = load_config(None, str(tmp_path))
    assert cfg.select == ["CTX103", "CTX107"] and cfg.ignore == ["CTX107"] and cfg.exclude == ["build/"]
    assert cfg.per_file_ignores == {"tests/*": ["CTX5", "CTX1"]}
    (tmp_path / "pyproject.toml").write_text("[tool.ctxlint]\nselect = 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'select' must be a list of strings"):
        load_config(None, str(tmp_path))


def test_the_readme_quick_start_example_reports_its_three_bugs():
    """README "Quick start": `ctxlint check examples/` reports a ContextVar reset
    outside `finally`, a dropped task and an `lru_cache` on a method, and exits 1."""
    from pathlib import Path

    from ctxlint.engine import lint_paths
    from ctxlint.rules import select_rules
    root = Path(__file__).resolve().parent.parent / "examples"
    res = lint_paths([str(root)], load_config(None, str(root)), select_rules(["CTX"], []), use_cache=False, jobs=1)
    assert sorted(f.code for f in res.findings) == ["CTX103", "CTX107", "CTX402"]


def test_explain_is_concise_by_default_and_whole_with_full(capsys, tmp_path):
    """`explain` cuts each exemption paragraph ("Not flagged: ...") to its lead clause and
    shows one corpus example of each kind; `--full` prints the doc as written."""
    from ctxlint.cli import concise_doc
    from ctxlint.rules import get_rule
    rc, short, _ = run_cli(["explain", "CTX107"], tmp_path, capsys)
    rc2, full, _ = run_cli(["explain", "CTX107", "--full"], tmp_path, capsys)
    assert rc == rc2 == 0
    assert len(short.split()) < 0.6 * len(full.split())
    assert get_rule("CTX107").doc.strip() in full
    assert "--full" in short and "Not flagged: a task whose coroutine ends the event loop it runs on" in short
    for heading in ("## What it does", "## Why is this bad", "## Example", "## Use instead", "## Fix safety", "## Source"):
        assert heading in short
    doc = "## What it does\nFlags x.\n\nNot flagged: a thing (with `a(b)` inside): because. More.\n\n## Why is this bad\nY.\n"
    text, cut = concise_doc(doc)
    assert cut == 1 and "Not flagged: a thing…" in text and "## Why is this bad\nY." in text


def test_syntax_only_check_matches_the_parser():
    """A file no rule wants is checked by compiling it, with the parser's verdict: code the
    compiler refuses though the parser accepts it (`return` at module level) is CTX000
    with the interpreter's message on both paths (issue 37: Python will not run it)."""
    from ctxlint.engine import _syntax_only
    from ctxlint.languages.python import parse
    cfg = Config()
    [ret] = _syntax_only("a.py", "return 1\n", "python", cfg)
    assert ret.code == "CTX000" and "'return' outside function" in ret.message
    assert parse("a.py", "return 1\n")[1] == ret
    assert _syntax_only("a.py", "x = 1\n", "python", cfg) == []
    bad = _syntax_only("a.py", "def f(:\n    pass\n", "python", cfg)
    assert [f.code for f in bad] == ["CTX000"] and bad[0].line == 1
    nul = _syntax_only("a.py", "x = 1\x00\n", "python", cfg)
    assert [f.code for f in nul] == ["CTX000"]


def test_gitignore_that_keeps_only_files_with_a_suffix_walks_directories(tmp_path):
    """`*`, `!*/`, `!*.*` (axonhub, trpc-agent-go): git walks every directory and keeps
    `pkg/a.go`; pathspec alone ranks `*` over `!*/` for a directory and hid them all."""
    from ctxlint.config import Config
    (tmp_path / ".gitignore").write_text("*\n!*/\n!*.*\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.go").write_text("package pkg\n")
    (tmp_path / "pkg" / "NOSUFFIX").write_text("x\n")
    files = engine.discover([str(tmp_path)], Config(root=tmp_path), [])
    assert [Path(f.display).name for f in files] == ["a.go"]
