"""The output a ruff user expects (issue 35): each row of the issue's list, by the
command that shows it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from ctxlint.cli import main as cli_main

#: Two findings with a safe fix (CTX107) and one without (CTX105), reported at high
#: confidence (a route handler reaches them).
BUGGY = '''\
import asyncio

from fastapi import FastAPI
from opentelemetry import trace

app = FastAPI()
tracer = trace.get_tracer(__name__)


async def audit(x):
    await asyncio.sleep(0)


@app.post("/a")
async def a(x: str):
    asyncio.create_task(audit(x))
    asyncio.create_task(audit(x + "!"))
    span = tracer.start_span("a")
    return x
'''


def _ctxlint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ctxlint", *args], cwd=cwd, capture_output=True, text=True,
                          input=stdin, timeout=300)


def _buggy(tmp_path: Path) -> Path:
    p = tmp_path / "app.py"
    p.write_text(BUGGY)
    return p


def test_fix_summary_counts_what_was_found_and_fixed(tmp_path):
    _buggy(tmp_path)
    before = _ctxlint("check", "--no-cache", "--output-format", "json", "app.py", cwd=tmp_path)
    found = json.loads(before.stdout)
    fixable = sum(f["fixable"] and f["fix_safety"] == "safe" for f in found)
    assert fixable >= 2 and len(found) > fixable, found
    res = _ctxlint("check", "--no-cache", "--fix", "app.py", cwd=tmp_path)
    left = len(found) - fixable
    assert (f"Found {len(found)} findings in 1 file ({fixable} fixed, {left} remaining)."
            in res.stdout), res.stdout
    assert "Fixed" not in res.stdout


def test_statistics_prints_only_the_table(tmp_path):
    _buggy(tmp_path)
    res = _ctxlint("check", "--no-cache", "--statistics", "app.py", cwd=tmp_path)
    assert res.returncode == 1
    assert "app.py:" not in res.stdout, res.stdout
    assert "CTX107  task-reference-discarded [*]" in res.stdout
    assert "Found " in res.stdout


def test_fix_only_never_fails_on_leftovers(tmp_path):
    _buggy(tmp_path)
    res = _ctxlint("check", "--no-cache", "--fix-only", "app.py", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "app.py:" not in res.stdout  # leftovers are not reported
    assert "Fixed 2 findings." in res.stdout
    assert "add_done_callback" in (tmp_path / "app.py").read_text()


def test_diff_says_how_many_it_would_fix(tmp_path):
    _buggy(tmp_path)
    res = _ctxlint("check", "--no-cache", "--diff", "app.py", cwd=tmp_path)
    assert res.returncode == 1
    assert res.stdout.startswith("--- a/app.py")
    assert "Would fix 2 findings." in res.stderr
    assert (tmp_path / "app.py").read_text() == BUGGY


def test_dash_reads_standard_input(tmp_path):
    res = _ctxlint("check", "--no-cache", "-", cwd=tmp_path, stdin=BUGGY)
    assert res.returncode == 1, res.stderr
    assert "-:16:5: CTX107" in res.stdout
    named = _ctxlint("check", "--no-cache", "--stdin-filename", "svc.py", "-", cwd=tmp_path, stdin=BUGGY)
    assert "svc.py:16:5: CTX107" in named.stdout
    both = _ctxlint("check", "-", "other.py", cwd=tmp_path, stdin="")
    assert both.returncode == 2 and "cannot be combined" in both.stderr


def test_explain_takes_a_rule_name_and_suggests(capsys):
    assert cli_main(["explain", "cache-key-parts-untagged"]) == 0
    assert capsys.readouterr().out.startswith("# CTX504 cache-key-parts-untagged")
    assert cli_main(["explain", "cache-key-part-untaged"]) == 2
    assert "did you mean 'cache-key-parts-untagged'" in capsys.readouterr().err
    assert cli_main(["explain", "CTX5044"]) == 2
    assert "did you mean 'CTX504'" in capsys.readouterr().err


def test_show_settings_and_show_files(tmp_path):
    _buggy(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX105"]\n')
    (tmp_path / "notes.txt").write_text("not linted\n")
    res = _ctxlint("check", "--show-settings", ".", cwd=tmp_path)
    assert res.returncode == 0
    assert f"config file = {tmp_path / 'pyproject.toml'}" in res.stdout
    assert "ignore = ['CTX105']" in res.stdout
    rules = next(ln for ln in res.stdout.splitlines() if ln.startswith("rules = "))
    assert "CTX107" in rules and "CTX105" not in rules
    files = _ctxlint("check", "--show-files", ".", cwd=tmp_path)
    assert files.returncode == 0
    assert files.stdout.splitlines() == ["app.py  (python)"], files.stdout


def test_sarif_rule_descriptions_are_short(tmp_path):
    _buggy(tmp_path)
    res = _ctxlint("check", "--no-cache", "--output-format", "sarif", "app.py", cwd=tmp_path)
    rules = json.loads(res.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    from ctxlint.report.sarif_report import FULL_DESCRIPTION_MAX
    for r in rules:
        assert 0 < len(r["fullDescription"]["text"]) <= FULL_DESCRIPTION_MAX + 1, r["id"]
        assert "help" in r and len(r["help"]["markdown"]) > len(r["fullDescription"]["text"])


def test_sarif_help_uri_from_the_documentation_url(monkeypatch):
    from ctxlint.report import sarif_report

    class Meta:
        def get_all(self, key):
            return ["Source, https://example.org/src", "Documentation, https://example.org/ctxlint/rules"]

    monkeypatch.setattr("importlib.metadata.metadata", lambda name: Meta())
    assert sarif_report.help_uri("CTX504") == "https://example.org/ctxlint/rules#ctx504"


def test_baseline_survives_a_rewrapped_call_and_counts_what_it_hides(tmp_path):
    p = _buggy(tmp_path)
    assert _ctxlint("check", "--no-cache", "--write-baseline", "base.json", "app.py", cwd=tmp_path).returncode == 0
    # a formatter re-wraps the flagged calls (and a blank line moves every line down)
    p.write_text(BUGGY.replace('asyncio.create_task(audit(x + "!"))',
                               'asyncio.create_task(\n        audit(x + "!")\n    )').replace(
        "import asyncio\n", "import asyncio\n\n"))
    res = _ctxlint("check", "--no-cache", "--baseline", "base.json", "app.py", cwd=tmp_path)
    assert res.returncode == 0, res.stdout
    assert "hidden by the baseline" in res.stdout
    assert "3 findings hidden by the baseline." in res.stdout, res.stdout
    # a new finding is still new
    p.write_text(p.read_text() + "\n\n@app.post('/b')\nasync def b(x: str):\n    asyncio.create_task(audit(x))\n")
    res = _ctxlint("check", "--no-cache", "--baseline", "base.json", "app.py", cwd=tmp_path)
    assert res.returncode == 1 and res.stdout.count("CTX107") == 1, res.stdout


def test_ctx001_fix_drops_the_dead_codes(tmp_path):
    p = tmp_path / "m.py"
    p.write_text("import os\n\n\ndef f():\n    x = os.getcwd()  # noqa: CTX501, E501\n"
                 "    # noqa: CTX107\n    return x  # noqa: CTX103\n")
    res = _ctxlint("check", "--no-cache", "--select", "CTX001,CTX1,CTX5", "--fix", "m.py", cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert p.read_text() == "import os\n\n\ndef f():\n    x = os.getcwd()  # noqa: E501\n    return x\n"


def test_pre_commit_manifest_suggests_a_rev_that_exists():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "rev: v0.1.0" not in text and "rev: main" in text
    readme = (ROOT / "README.md").read_text()
    assert "rev: main" in readme


def test_readme_examples_name_files_the_repository_ships():
    import re
    readme = (ROOT / "README.md").read_text()
    for m in re.finditer(r"^ctxlint template-probe (\S+)", readme, re.M):
        assert (ROOT / m.group(1)).is_file(), m.group(1)
    quick = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert "pip install ." in quick and "pip install -e" not in quick


def test_terminal_gets_colour_and_a_code_frame(tmp_path, monkeypatch, capsys):
    p = _buggy(tmp_path)
    monkeypatch.setattr("ctxlint.cli._use_color", lambda: True)
    assert cli_main(["check", "--no-cache", str(p)]) == 1
    out = capsys.readouterr().out
    assert "\x1b[1;31mCTX107\x1b[0m" in out
    assert "16 |\x1b[0m     asyncio.create_task(audit(x))" in out
    monkeypatch.setattr("ctxlint.cli._use_color", lambda: False)
    assert cli_main(["check", "--no-cache", str(p)]) == 1
    assert "\x1b[" not in capsys.readouterr().out


def test_no_colour_for_pipes_and_no_color(monkeypatch):
    from ctxlint import cli
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli._use_color() is False
