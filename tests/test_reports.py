"""`--output-format sarif` (validated against the OASIS SARIF 2.1.0 JSON schema with
jsonschema) and `--output-format github` (workflow commands), through the real CLI."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from ctxlint.findings import Edit, Finding, Fix
from ctxlint.report import ReportContext
from ctxlint.report import github_report, sarif_report

SCHEMA = Path(__file__).parent / "data" / "sarif" / "sarif-schema-2.1.0.json"

GO_SRC = """\
package svc

import (
	"context"
	"time"
)

func work(ctx context.Context) error { return ctx.Err() }

// Fetch leaks its timer when fast: the early return skips cancel().
func Fetch(parent context.Context, fast bool) error {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	if fast {
		return work(ctx)
	}
	cancel()
	return nil
}
"""
PY_SRC = """\
import asyncio


async def log_usage(tenant: str) -> None:
    await asyncio.sleep(0)


async def handle(tenant: str, prompt: str) -> str:
    # Übersetzung: the task below is dropped — nobody keeps it.
    asyncio.create_task(log_usage(tenant))
    return prompt
"""


def ctxlint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    if args[:1] == ("check",) and "--min-confidence" not in args:
        args = (*args, "--min-confidence", "low")  # report-format tests: both tiers
    return subprocess.run([sys.executable, "-m", "ctxlint", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, input=stdin)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "fetch.go").write_text(GO_SRC)
    (tmp_path / "svc" / "handler.py").write_text(PY_SRC, encoding="utf-8")
    return tmp_path


def sarif_of(project: Path) -> dict:
    res = ctxlint("check", "svc", "--no-cache", "--output-format", "sarif", cwd=project)
    assert res.returncode == 1, res.stderr
    return json.loads(res.stdout)


def test_sarif_validates_against_the_oasis_schema(project: Path):
    log = sarif_of(project)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    # The schema catches shape errors: prove the validator is live on a broken log.
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(broken)


def test_sarif_rules_results_and_help(project: Path):
    run = sarif_of(project)["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert set(rules) == {"CTX101", "CTX107"}
    assert rules["CTX107"]["name"] == "task-reference-discarded"
    assert "## Why is this bad" in rules["CTX107"]["help"]["markdown"]
    assert rules["CTX107"]["shortDescription"]["text"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert run["tool"]["driver"]["rules"][by_rule["CTX107"]["ruleIndex"]]["id"] == "CTX107"
    loc = by_rule["CTX107"]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "svc/handler.py", "uriBaseId": "%SRCROOT%"}
    assert (loc["region"]["startLine"], loc["region"]["startColumn"]) == (10, 5)
    go = by_rule["CTX101"]["locations"][0]["physicalLocation"]
    assert go["artifactLocation"]["uri"] == "svc/fetch.go" and go["region"]["startLine"] == 12
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    # The fingerprint survives moving the flagged code down.
    fp = by_rule["CTX101"]["partialFingerprints"]
    (project / "svc" / "fetch.go").write_text(GO_SRC.replace("// Fetch", "\n\n// Fetch"))
    moved = {r["ruleId"]: r for r in sarif_of(project)["runs"][0]["results"]}
    assert moved["CTX101"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 14
    assert moved["CTX101"]["partialFingerprints"] == fp


def _apply_replacements(text: str, replacements: list[dict]) -> str:
    lines = text.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)

    def off(line: int, col: int) -> int:  # ASCII file: UTF-16 columns are characters
        return starts[line - 1] + col - 1
    spans = []
    for r in replacements:
        reg = r["deletedRegion"]
        spans.append((off(reg["startLine"], reg["startColumn"]), off(reg["endLine"], reg["endColumn"]),
                      r.get("insertedContent", {}).get("text", "")))
    for s, e, t in sorted(spans, reverse=True):
        text = text[:s] + t + text[e:]
    return text


def test_sarif_fix_objects_match_ctxlint_fix(project: Path, tmp_path_factory):
    run = sarif_of(project)["runs"][0]
    go = [r for r in run["results"] if r["ruleId"] == "CTX101"][0]
    (fix,) = go["fixes"]
    assert fix["description"]["text"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "svc/fetch.go"
    via_sarif = _apply_replacements(GO_SRC, change["replacements"])
    # The same edits applied by `ctxlint check --fix` on a copy.
    other = tmp_path_factory.mktemp("fixcopy")
    shutil.copy(project / "svc" / "fetch.go", other / "fetch.go")
    ctxlint("check", "fetch.go", "--no-cache", "--fix", cwd=other)
    assert via_sarif == (other / "fetch.go").read_text()
    assert "defer cancel()" in via_sarif
    # A Python codemod fix is run for the report (issue 35): every fixable result has `fixes`.
    py = [r for r in run["results"] if r["ruleId"] == "CTX107"][0]
    assert py["fixes"] and py["fixes"][0]["artifactChanges"][0]["replacements"]
    assert py["properties"]["fixSafety"] == "safe"


def test_sarif_columns_are_utf16(tmp_path: Path):
    src = 'import asyncio\n\nasync def f():\n    x = "😀"; asyncio.create_task(f())\n'
    (tmp_path / "emoji.py").write_text(src, encoding="utf-8")
    run = json.loads(ctxlint("check", "emoji.py", "--no-cache", "--output-format", "sarif",
                             cwd=tmp_path).stdout)["runs"][0]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    # `asyncio` starts after 4 spaces, `x = "`, a surrogate pair (2 units), `"; `.
    assert region["startColumn"] == len('    x = "') + 2 + len('"; ') + 1


def test_sarif_with_no_findings_is_valid(tmp_path: Path):
    (tmp_path / "ok.py").write_text("x = 1\n")
    res = ctxlint("check", "ok.py", "--no-cache", "--output-format", "sarif", cwd=tmp_path)
    assert res.returncode == 0
    log = json.loads(res.stdout)
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(log)
    assert log["runs"][0]["results"] == []


# ------------------------------------------------------------------ github
COMMAND = re.compile(r"^::(error|warning|notice) (?P<props>[^:]*)::(?P<msg>.*)$")


def test_github_workflow_commands(project: Path):
    res = ctxlint("check", "svc", "--no-cache", "--output-format", "github", cwd=project)
    assert res.returncode == 1
    lines = res.stdout.strip().splitlines()
    assert len(lines) == 2
    parsed = []
    for ln in lines:
        m = COMMAND.match(ln)
        assert m, ln
        props = dict(kv.split("=", 1) for kv in m.group("props").split(","))
        parsed.append((props, m.group("msg")))
    go_props, go_msg = next(p for p in parsed if p[0]["file"] == "svc/fetch.go")
    assert go_props == {"file": "svc/fetch.go", "line": "12", "col": "17", "endLine": "12",
                        "endColumn": "57", "title": "CTX101 lost-cancel"}
    assert "cancel" in go_msg
    py_props, _ = next(p for p in parsed if p[0]["file"] == "svc/handler.py")
    assert py_props["line"] == "10" and py_props["title"] == "CTX107 task-reference-discarded"


def test_github_escaping():
    f = Finding("CTX501", "cache-key-missing-scope", "src/a,b:c.py", 3, 5, 4, 2,
                "key 100% shared\nacross tenants: a, b\r", fix=Fix("add the id", "unsafe", (Edit(0, 0, "x"),)))
    f2 = Finding("CTX001", "unused-noqa", "./x.py", 1, 1, 1, 9, "unused suppression for CTX107")
    out = github_report.render([f, f2], ReportContext()).splitlines()
    assert out[0] == ("::warning file=src/a%2Cb%3Ac.py,line=3,col=5,endLine=4,endColumn=2,"
                      "title=CTX501 cache-key-missing-scope::key 100%25 shared%0Aacross tenants: a, b%0D"
                      " (fix available: add the id, unsafe)")
    assert out[1].startswith("::notice file=x.py,line=1,col=1,")
    low = Finding("CTX107", "task-reference-discarded", "y.py", 2, 1, 2, 5, "m", confidence="low")
    parse = Finding("CTX000", "parse-error", "z.py", 1, 1, 1, 2, "bad")
    assert [line.split(" ", 1)[0] for line in github_report.render([low, parse], ReportContext()).splitlines()] \
        == ["::notice", "::error"]  # as SARIF: latent a note, a file not analysed an error
    assert github_report.render([], ReportContext()) == ""


def test_sarif_render_without_readable_file_uses_char_offsets():
    f = Finding("CTX302", "template-dunder-access", "missing/t.j2", 1, 4, 1, 20, "dunder",
                fix=Fix("drop it", "safe", (Edit(3, 19, ""),)))
    from ctxlint.rules import all_rules
    log = json.loads(sarif_report.render([f], ReportContext(rules=all_rules())))
    rep = log["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert rep == {"deletedRegion": {"charOffset": 3, "charLength": 16}}
    jsonschema.Draft4Validator(json.loads(SCHEMA.read_text())).validate(log)
