"""Adoption on legacy code through the real CLI: `--write-baseline`/`--baseline`,
`--add-noqa`, `CTX001 unused-noqa`, and the progress bar on stderr (TTY only)."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlint import baseline
from ctxlint.findings import Finding

PY_BUG = """\
import asyncio


async def log_usage(tenant: str) -> None:
    await asyncio.sleep(0)


async def handle(tenant: str) -> None:
    asyncio.create_task(log_usage(tenant))
"""
GO_BUG = """\
package svc

import (
	"context"
	"time"
)

func Fetch(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, time.Second) //nolint:errcheck // reviewed
	if ctx.Err() != nil {
		return ctx.Err()
	}
	cancel()
	return nil
}
"""
JINJA_BUG = """\
<p>{{ user.name }}</p>
<p>{{ user.__class__.__mro__ }}</p>
"""


def ctxlint(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    tier = ["--min-confidence", "low"] if args[:1] == ("check",) and "--min-confidence" not in args else []
    return subprocess.run([sys.executable, "-m", "ctxlint", *args, *tier, "--no-cache"], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def codes(res: subprocess.CompletedProcess) -> list[tuple[str, int, str]]:
    return sorted((f["path"], f["line"], f["code"]) for f in json.loads(res.stdout))


# ---------------------------------------------------------------- baseline
def test_baseline_reports_only_new_findings_and_survives_moves(tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "svc.py").write_text(PY_BUG)
    # Writing a baseline is an adoption step, not a lint failure: exit 0 and say what was recorded.
    wrote = ctxlint("check", "src", "--write-baseline", "ctxlint-baseline.json", cwd=tmp_path)
    assert wrote.returncode == 0 and "Wrote 1 finding to baseline" in wrote.stderr
    doc = json.loads((tmp_path / "ctxlint-baseline.json").read_text())
    assert doc["tool"] == "ctxlint" and len(doc["findings"]) == 1
    assert doc["findings"][0]["path"] == "src/svc.py" and doc["findings"][0]["code"] == "CTX107"

    res = ctxlint("check", "src", "--baseline", "ctxlint-baseline.json", "--output-format", "json", cwd=tmp_path)
    assert res.returncode == 0 and codes(res) == []

    # Move the code down and re-indent the flagged line: still known.
    moved = PY_BUG.replace("import asyncio\n", "import asyncio\nimport logging\n\nLOG = logging.getLogger(__name__)\n")
    moved = moved.replace("    asyncio.create_task(log_usage(tenant))",
                          "    if tenant:\n        asyncio.create_task(log_usage(tenant))")
    (src / "svc.py").write_text(moved)
    res = ctxlint("check", "src", "--baseline", "ctxlint-baseline.json", "--output-format", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stdout

    # A second, identical flagged line is new (baselines match by count).
    (src / "svc.py").write_text(moved + "\n\nasync def again(tenant: str) -> None:\n    asyncio.create_task(log_usage(tenant))\n")
    res = ctxlint("check", "src", "--baseline", "ctxlint-baseline.json", "--output-format", "json", cwd=tmp_path)
    assert res.returncode == 1 and len(codes(res)) == 1

    # The baseline also works from another directory (paths are relative to it) ...
    (src / "svc.py").write_text(moved)
    res = ctxlint("check", ".", "--baseline", "../ctxlint-baseline.json", cwd=src)
    assert res.returncode == 0, res.stdout
    # ... and a changed flagged line is new.
    (src / "svc.py").write_text(moved.replace("log_usage(tenant))", "log_usage(tenant.strip()))"))
    res = ctxlint("check", ".", "--baseline", "../ctxlint-baseline.json", "--output-format", "json", cwd=src)
    assert res.returncode == 1 and codes(res) == [("svc.py", 13, "CTX107")]


def test_bad_baseline_is_a_usage_error(tmp_path: Path):
    (tmp_path / "a.py").write_text(PY_BUG)
    (tmp_path / "b.json").write_text("[1, 2]")
    res = ctxlint("check", "a.py", "--baseline", "b.json", cwd=tmp_path)
    assert res.returncode == 2 and "not a ctxlint baseline" in res.stderr
    res = ctxlint("check", "a.py", "--baseline", "missing.json", cwd=tmp_path)
    assert res.returncode == 2 and "cannot read baseline" in res.stderr


def test_fingerprint_ignores_whitespace_and_line_number():
    a = Finding("CTX107", "x", "p.py", 3, 1, 3, 2, "m")
    b = Finding("CTX107", "x", "p.py", 30, 9, 30, 2, "m")
    assert baseline.fingerprint(a, ["", "", "foo( x,  y )"]) == baseline.fingerprint(b, [""] * 29 + ["\t  foo( x, y )  "])
    assert baseline.fingerprint(a, ["", "", "foo(x)"]) != baseline.fingerprint(a, ["", "", "foo(y)"])
    c = Finding("CTX501", "x", "p.py", 3, 1, 3, 2, "m")
    assert baseline.fingerprint(a, ["", "", "foo(x)"]) != baseline.fingerprint(c, ["", "", "foo(x)"])


# ---------------------------------------------------------------- add-noqa
def test_add_noqa_python_merges_and_keeps_crlf(tmp_path: Path):
    text = PY_BUG.replace("log_usage(tenant))\n", "log_usage(tenant))  # noqa: E501\n")
    text += "\n\nasync def other(tenant: str) -> None:\n    asyncio.ensure_future(log_usage(tenant))\n"
    (tmp_path / "svc.py").write_bytes(text.replace("\n", "\r\n").encode())
    res = ctxlint("check", "svc.py", "--add-noqa", cwd=tmp_path)
    assert res.returncode == 0 and "Added 2 suppression comments" in res.stderr
    raw = (tmp_path / "svc.py").read_bytes()
    assert raw.count(b"\r\n") == text.count("\n") and b"\n" not in raw.replace(b"\r\n", b"")
    new = raw.decode().replace("\r\n", "\n")
    assert "asyncio.create_task(log_usage(tenant))  # noqa: E501, CTX107\n" in new
    assert "asyncio.ensure_future(log_usage(tenant))  # noqa: CTX107\n" in new
    assert ctxlint("check", "svc.py", cwd=tmp_path).returncode == 0
    # The comments added are all used: CTX001 finds nothing stale.
    assert ctxlint("check", "svc.py", "--extend-select", "CTX001", cwd=tmp_path).returncode == 0
    # Running it again adds nothing.
    assert "Added 0 suppression comments" in ctxlint("check", "svc.py", "--add-noqa", cwd=tmp_path).stderr


def test_add_noqa_go_and_jinja(tmp_path: Path):
    (tmp_path / "fetch.go").write_text(GO_BUG)
    (tmp_path / "page.j2").write_text(JINJA_BUG)
    before = codes(ctxlint("check", ".", "--output-format", "json", cwd=tmp_path))
    assert [c[2] for c in before] == ["CTX101", "CTX302"], before
    res = ctxlint("check", ".", "--add-noqa", cwd=tmp_path)
    assert "Added 2 suppression comments" in res.stderr
    go = (tmp_path / "fetch.go").read_text().splitlines()
    assert go[8].endswith("//nolint:errcheck,ctxlint // reviewed")
    j2 = (tmp_path / "page.j2").read_text().splitlines()
    # no space before the comment, and `+#}` keeps the newline under trim_blocks: the render is unchanged
    assert j2[1] == "<p>{{ user.__class__.__mro__ }}</p>{# ctxlint: ignore CTX302 +#}"
    assert ctxlint("check", ".", cwd=tmp_path).returncode == 0


def test_add_noqa_never_edits_inside_a_string(tmp_path: Path):
    src = ('import asyncio\n\nasync def f(log):\n    asyncio.create_task(log("""first\nsecond"""))\n')
    (tmp_path / "s.py").write_text(src)
    assert ctxlint("check", "s.py", "--output-format", "json", cwd=tmp_path).returncode == 1
    res = ctxlint("check", "s.py", "--add-noqa", cwd=tmp_path)
    assert "Added 0 suppression comments" in res.stderr
    assert (tmp_path / "s.py").read_text() == src
    # The finding it could not suppress is still reported: exit 1, no "All checks passed".
    assert res.returncode == 1 and "Skipped 1 finding" in res.stderr, res.stderr
    assert "s.py:4:5: CTX107" in res.stdout and "All checks passed" not in res.stdout


def test_add_noqa_reports_only_the_findings_it_could_not_suppress(tmp_path: Path):
    src = ('import asyncio\n\nasync def f(log):\n    asyncio.create_task(log("""first\nsecond"""))\n'
           '    asyncio.create_task(log("x"))\n')
    (tmp_path / "s.py").write_text(src)
    res = ctxlint("check", "s.py", "--add-noqa", "--output-format", "json", cwd=tmp_path)
    assert res.returncode == 1 and "Added 1 suppression comment." in res.stderr
    assert codes(res) == [("s.py", 4, "CTX107")]
    assert (tmp_path / "s.py").read_text().splitlines()[5] == '    asyncio.create_task(log("x"))  # noqa: CTX107'


def test_add_noqa_honours_a_pep263_coding_cookie(tmp_path: Path):
    src = '# -*- coding: latin-1 -*-\nimport asyncio\nX = "é"\n\nasync def f(g):\n    asyncio.create_task(g())\n'
    (tmp_path / "lat.py").write_bytes(src.encode("latin-1"))
    res = ctxlint("check", "lat.py", "--add-noqa", cwd=tmp_path)
    assert res.returncode == 0 and "Added 1 suppression comment." in res.stderr, res.stderr
    want = src.replace("create_task(g())", "create_task(g())  # noqa: CTX107").encode("latin-1")
    assert (tmp_path / "lat.py").read_bytes() == want  # still latin-1, not re-encoded as UTF-8
    assert ctxlint("check", "lat.py", cwd=tmp_path).returncode == 0


def test_add_noqa_writes_through_a_symlink_and_keeps_mode_and_mixed_endings(tmp_path: Path):
    real = tmp_path / "real.py"
    raw = PY_BUG.replace("\n", "\r\n", 3).encode()  # 3 CRLF lines, then LF
    real.write_bytes(raw)
    os.chmod(real, 0o640)
    (tmp_path / "link.py").symlink_to(real)
    res = ctxlint("check", "link.py", "--add-noqa", cwd=tmp_path)
    assert res.returncode == 0 and "Added 1 suppression comment." in res.stderr, res.stderr
    assert (tmp_path / "link.py").is_symlink()
    assert (os.stat(real).st_mode & 0o777) == 0o640
    want = raw.replace(b"log_usage(tenant))\n", b"log_usage(tenant))  # noqa: CTX107\n")
    assert want != raw and real.read_bytes() == want


def test_add_noqa_with_stdin_is_a_usage_error(tmp_path: Path):
    (tmp_path / "svc.py").write_text("x = 1\n")
    res = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--stdin-filename", "svc.py", "--add-noqa"],
                         input=PY_BUG, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "--stdin-filename" in res.stderr
    assert (tmp_path / "svc.py").read_text() == "x = 1\n"


def test_add_noqa_refuses_a_symlink_out_of_the_tree(tmp_path: Path):
    outside, tree = tmp_path / "outside", tmp_path / "tree"
    outside.mkdir()
    tree.mkdir()
    (outside / "svc.py").write_text(PY_BUG)
    (tree / "link.py").symlink_to(outside / "svc.py")
    res = ctxlint("check", ".", "--add-noqa", cwd=tree)
    assert res.returncode == 1 and "outside the checked tree" in res.stderr, res.stderr
    assert (outside / "svc.py").read_text() == PY_BUG and (tree / "link.py").is_symlink()
    assert "link.py:9:5: CTX107" in res.stdout


def test_add_noqa_text_units():
    new, n = baseline.add_noqa_text("x = 1\ny = 2  # noqa\n", "python", {1: ["CTX501"], 2: ["CTX501"]})
    assert (new, n) == ("x = 1  # noqa: CTX501\ny = 2  # noqa\n", 1)
    new, n = baseline.add_noqa_text("a := 1 //nolint\n", "go", {1: ["CTX101"]})
    assert n == 0
    new, n = baseline.add_noqa_text("s := `raw\nstill raw`\n", "go", {1: ["CTX101"], 2: ["CTX101"]})
    assert new == "s := `raw\nstill raw` //nolint:ctxlint\n" and n == 1
    new, n = baseline.add_noqa_text("{{ a\n  .b }}\n{# ctxlint: ignore CTX302 #}x\n", "jinja",
                                    {1: ["CTX304"], 3: ["CTX304"]})
    assert new == "{{ a\n  .b }}\n{# ctxlint: ignore CTX302, CTX304 #}x\n" and n == 1


# ---------------------------------------------------------------- CTX001
def test_unused_noqa_is_off_by_default_and_reported_when_selected(tmp_path: Path):
    src = PY_BUG.replace("log_usage(tenant))\n", "log_usage(tenant))  # noqa: CTX107\n")
    src += "\nVALUE = 1  # noqa: CTX107\nOTHER = 2  # noqa: E501\n"
    (tmp_path / "a.py").write_text(src)
    (tmp_path / "t.j2").write_text("<p>{{ user.name }}</p> {# ctxlint: ignore CTX302 #}\n")
    assert ctxlint("check", ".", cwd=tmp_path).returncode == 0
    res = ctxlint("check", ".", "--extend-select", "CTX001", "--output-format", "json", cwd=tmp_path)
    found = codes(res)
    assert res.returncode == 1
    assert found == [("a.py", 11, "CTX001"), ("t.j2", 1, "CTX001")], found
    msgs = [f["message"] for f in json.loads(res.stdout)]
    assert msgs[0] == "unused suppression for CTX107"
    # A prefix select does not turn on the off-by-default rule.
    assert ctxlint("check", ".", "--select", "CTX0,CTX1", cwd=tmp_path).returncode == 0


# ---------------------------------------------------------------- progress
@pytest.fixture(scope="module")
def many_files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("many")
    for i in range(230):
        (d / f"m{i:03}.py").write_text(f"VALUE_{i} = {i}\n")
    return d


def test_progress_is_silent_when_stderr_is_not_a_tty(many_files: Path):
    res = ctxlint("check", ".", "-j", "1", cwd=many_files)
    assert res.returncode == 0
    assert res.stderr == ""
    assert "All checks passed (230 files)" in res.stdout


def test_progress_bar_on_a_tty(many_files: Path):
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "ctxlint", "check", ".", "--no-cache", "-j", "1"],
                                cwd=many_files, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                                env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"})
        os.close(slave)
        chunks = []
        while True:
            r, _, _ = select.select([master], [], [], 60)
            if not r:
                break
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        out, _ = proc.communicate(timeout=60)
    finally:
        os.close(master)
    tty_text = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0
    assert "linting" in tty_text
    assert b"linting" not in out
