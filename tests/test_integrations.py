"""The places users meet ctxlint, driven with the real tools: flake8 (subprocess),
pre-commit (`try-repo` in a temporary git repository) and Neovim (headless)."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT

BIN = Path(sys.executable).parent
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}

PY_BUG = """\
import asyncio
from fastapi import FastAPI
app = FastAPI()
async def log_usage(tenant: str) -> None:
    await asyncio.sleep(0)

@app.post("/usage")
async def handle(tenant: str) -> None:
    asyncio.create_task(log_usage(tenant))
"""
GO_BUG = """\
package svc

import (
	"context"
	"time"
)

func work(ctx context.Context) error { return ctx.Err() }

func Fetch(parent context.Context, fast bool) error {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	if fast {
		return work(ctx)
	}
	cancel()
	return nil
}
"""


def corpus_python_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*.py") if "__pycache__" not in p.parts)


# ------------------------------------------------------------------ flake8
def _flake8(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flake8", "--select", "CTX", "--format",
                           "%(path)s\t%(row)d\t%(col)d\t%(code)s", *args], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=600)


def test_flake8_reports_what_ctxlint_check_reports_on_the_corpus():
    files = [str(p.relative_to(ROOT)) for p in corpus_python_files()]
    assert len(files) >= 6
    fl = _flake8(["-j", "1", "--ctxlint-min-confidence", "low", *files], ROOT)
    assert fl.returncode in (0, 1), fl.stderr
    flake8_found = set()
    for line in fl.stdout.splitlines():
        path, row, col, code = line.split("\t")
        flake8_found.add((os.path.normpath(path), int(row), int(col), code))
    ck = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--no-cache", "--min-confidence", "low",
                         "--output-format", "json", *files],
                        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert ck.returncode in (0, 1), ck.stderr
    # Only Python files: the template project pass may add findings in templates the
    # Python files render, which flake8 (one Python file at a time) never sees.
    check_found = {(os.path.normpath(f["path"]), f["line"], f["col"], f["code"]) for f in json.loads(ck.stdout)
                   if f["path"].endswith(".py")}
    assert check_found, "the corpus must produce Python findings"
    assert flake8_found == check_found
    assert any(code == "CTX107" for *_, code in flake8_found)


def test_flake8_noqa_and_config(tmp_path: Path):
    (tmp_path / "a.py").write_text(PY_BUG)
    (tmp_path / "b.py").write_text(PY_BUG.replace("log_usage(tenant))\n", "log_usage(tenant))  # noqa: CTX107\n"))
    res = _flake8(["a.py", "b.py"], tmp_path)
    assert res.returncode == 1
    assert res.stdout.splitlines() == ["./a.py\t9\t5\tCTX107"] or res.stdout.splitlines() == ["a.py\t9\t5\tCTX107"]
    # flake8's own noqa handling: a bare noqa silences the plugin too.
    (tmp_path / "a.py").write_text(PY_BUG.replace("log_usage(tenant))\n", "log_usage(tenant))  # noqa\n"))
    assert _flake8(["a.py"], tmp_path).returncode == 0
    # CTX001 runs when flake8 selects it by its full code.
    (tmp_path / "c.py").write_text("VALUE = 1  # noqa: CTX107\n")
    assert _flake8(["c.py"], tmp_path).returncode == 0
    res = _flake8(["--select", "CTX107,CTX001", "c.py"], tmp_path)
    assert res.stdout.split("\t")[1:] == ["1", "12", "CTX001\n"], res.stdout
    # [tool.ctxlint] in the project's pyproject is honoured.
    (tmp_path / "a.py").write_text(PY_BUG)
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nper-file-ignores = { "a.py" = ["CTX107"] }\n')
    assert _flake8(["a.py"], tmp_path).returncode == 0


def test_flake8_plugin_does_not_parse_again(monkeypatch):
    """The checker uses flake8's tree: no ast.parse while it runs."""
    from ctxlint.flake8_plugin import CtxlintChecker
    tree = ast.parse(PY_BUG)
    calls = []
    real = ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: calls.append(1) or real(*a, **k))
    out = list(CtxlintChecker(tree, "svc.py", PY_BUG.splitlines(keepends=True)).run())
    assert [(r, c, m.split()[0]) for r, c, m, _ in out] == [(9, 4, "CTX107")]
    assert calls == []


def test_flake8_entry_point_is_registered():
    from importlib.metadata import entry_points
    eps = [ep for ep in entry_points(group="flake8.extension") if ep.name == "CTX"]
    assert eps and eps[0].value == "ctxlint.flake8_plugin:CtxlintChecker"


# --------------------------------------------------------------- pre-commit
def _git(args: list[str], cwd: Path) -> None:
    env = {**ENV, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, timeout=60)


@pytest.fixture
def user_repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of ctxlint")
    repo = tmp_path / "user"
    repo.mkdir()
    (repo / "handler.py").write_text(PY_BUG)
    (repo / "fetch.go").write_text(GO_BUG)
    (repo / "notes.txt").write_text("asyncio.create_task(x)\n")  # not a hook file type
    _git(["init", "-q"], repo)
    _git(["add", "."], repo)
    _git(["commit", "-q", "-m", "init"], repo)
    return repo


def _try_repo(hook: str, repo: Path) -> subprocess.CompletedProcess:
    env = {**ENV, "PRE_COMMIT_HOME": str(repo.parent / "pre-commit-home"), "PRE_COMMIT_COLOR": "never"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_pre_commit_hook_fails_with_the_findings(user_repo: Path):
    res = _try_repo("ctxlint", user_repo)
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "handler.py:9:5: CTX107" in out
    assert "fetch.go:11:17: CTX101" in out
    assert "notes.txt" not in out.split("Using config:")[-1].split("=" * 79)[-1]
    assert (user_repo / "handler.py").read_text() == PY_BUG


@pytest.mark.slow
def test_pre_commit_fix_hook_rewrites_the_file(user_repo: Path):
    res = _try_repo("ctxlint-fix", user_repo)
    out = res.stdout + res.stderr
    assert res.returncode == 1, out  # files were modified: pre-commit fails the hook
    fixed_go = (user_repo / "fetch.go").read_text()
    assert "\tdefer cancel()\n" in fixed_go
    fixed_py = (user_repo / "handler.py").read_text()
    assert fixed_py != PY_BUG and "add_done_callback" in fixed_py
    compile(fixed_py, "handler.py", "exec")
    # Nothing left for the check hook to report.
    check = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--no-cache", "handler.py", "fetch.go",
                            "--select", "CTX101,CTX107"], cwd=user_repo, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout


def test_pre_commit_manifest_is_valid():
    res = subprocess.run([sys.executable, "-m", "pre_commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                         capture_output=True, text=True, timeout=120, env=ENV)
    assert res.returncode == 0, res.stdout + res.stderr
    import yaml  # pre-commit depends on PyYAML
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"ctxlint", "ctxlint-fix"}
    for h in hooks.values():
        assert h["language"] == "python"
        assert {"python", "go", "jinja"} <= set(h["types_or"])
    assert "--fix" in hooks["ctxlint-fix"]["entry"].split()


# ------------------------------------------------------------------ neovim
def test_neovim_receives_diagnostics():
    if shutil.which("nvim") is None:
        pytest.skip("neovim is not installed")
    res = subprocess.run(["bash", str(ROOT / "scripts" / "nvim_smoke.sh")], env=ENV,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "9:5 CTX107 task-reference-discarded" in res.stdout


# ------------------------------------------------- the GPU machine's environment
#: Packages the GPU smoke machine lacks (scripts/gpu_smoke.sh): the linter's parsers
#: and language server. The sandbox and its tests must run without them.
GPU_MACHINE_LACKS = ("libcst", "tree_sitter", "tree_sitter_go", "pygls", "lsprotocol", "astroid")

BLOCKER = f'''
import sys

BLOCKED = {set(GPU_MACHINE_LACKS)!r}


class _Blocker:
    """Meta-path finder that makes the blocked packages unimportable, as on the GPU machine."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked: the GPU machine lacks it)", name=name)
        return None


sys.meta_path.insert(0, _Blocker())
'''


@pytest.fixture
def gpu_machine_env(tmp_path) -> dict:
    """Environment whose interpreters (the sandbox's spawned child included: site
    imports `sitecustomize` at start-up) cannot import GPU_MACHINE_LACKS, running
    ctxlint from the source tree without pytest plugins, as scripts/gpu_smoke.sh does."""
    d = tmp_path / "blocker"
    d.mkdir()
    (d / "sitecustomize.py").write_text(BLOCKER)
    env = {**ENV, "PYTHONPATH": f"{d}{os.pathsep}{ROOT}", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "PYTHONDONTWRITEBYTECODE": "1"}
    probe = subprocess.run([sys.executable, "-c", "import libcst"], env=env, capture_output=True, text=True)
    assert probe.returncode != 0 and "blocked" in probe.stderr, "the meta-path blocker is not active"
    return env


def test_sandbox_command_runs_without_the_linters_parsers(gpu_machine_env):
    """`python -m ctxlint sandbox` needs only the standard library and torch."""
    import importlib.util
    spec = f"{CORPUS / 'kvcache' / 'prefix_no_tenant_fixed.py'}:make_manager"
    out = subprocess.run([sys.executable, "-m", "ctxlint", "sandbox", spec, "--json", "--timeout", "60"],
                         env=gpu_machine_env, capture_output=True, text=True, cwd=ROOT, timeout=240)
    if importlib.util.find_spec("torch") is None:
        # Without torch the command still starts, and says how to install it.
        assert out.returncode == 2 and "pip install" in out.stderr, out.stderr[-2000:]
        return
    assert "blocked" not in out.stderr, out.stderr[-2000:]
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout)
    assert report["passed"] is True and [c["id"] for c in report["checks"]] == list("ABCDEFG")


def test_gpu_tests_collect_and_run_without_the_linters_parsers(gpu_machine_env):
    """`pytest -m gpu tests/test_sandbox.py` (what the smoke script runs) imports none of them."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "gpu", "-rs",
                          "tests/test_sandbox.py"], env=gpu_machine_env, capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-3000:]
    assert "blocked" not in text and "error" not in text.lower().split("short test summary")[0], text[-3000:]
    # The three GPU tests were collected (they pass on a GPU, skip without one).
    import re
    counts = {k: int(n) for n, k in re.findall(r"(\d+) (passed|skipped|failed)", text)}
    assert counts.get("passed", 0) + counts.get("skipped", 0) >= 3 and not counts.get("failed"), text[-3000:]


def test_gpu_smoke_script_installs_nothing_and_writes_its_report(tmp_path):
    """scripts/gpu_smoke.sh runs from the source tree: no pip, PYTHONPATH set, summary in $SMOKE_REPORT."""
    script = (ROOT / "scripts" / "gpu_smoke.sh").read_text()
    assert "pip install" not in script and "-m pip" not in script
    assert 'export PYTHONPATH="$ROOT' in script and "SMOKE_REPORT" in script
    report = tmp_path / "smoke.txt"
    # With a python that lacks torch the script stops at once, says why, and still writes the report.
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text("#!/bin/sh\nexit 1\n")
    (fake / "python3").chmod(0o755)
    # A copy outside the checkout, so a developer's `.venv/bin/python` (a fallback
    # candidate of the script) with torch in it does not make the run go ahead.
    copy = tmp_path / "repo" / "scripts"
    copy.mkdir(parents=True)
    (copy / "gpu_smoke.sh").write_text(script)
    out = subprocess.run(["bash", str(copy / "gpu_smoke.sh")], capture_output=True, text=True,
                         env={**os.environ, "PATH": f"{fake}{os.pathsep}/usr/bin:/bin", "SMOKE_REPORT": str(report),
                              "PYTHON": ""}, timeout=60)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "no python with torch" in report.read_text()
