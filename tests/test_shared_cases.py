"""The handed cases (../shared/cases, else the snapshot in tests/handed_cases), one test
per case file: ctxlint must report exactly the file's `expect:` findings.

A case that belongs to an issue still open is a strict xfail naming the issue, so the
suite stays green while the rule is missing and turns red the day the rule finds it
(then the entry is deleted from `OPEN`). The whole set is also scored with the shared
`score_cases.py` when it is beside this checkout.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SHARED_CASES

SNAPSHOT = ROOT / "tests" / "handed_cases"
CASES_DIR = SHARED_CASES if SHARED_CASES.is_dir() else SNAPSHOT
SCORER = SHARED_CASES.parent / "tools" / "score_cases.py"
SUFFIXES = {".py", ".go", ".j2", ".jinja", ".jinja2", ".txt", ".tmpl"}
EXPECT = re.compile(r"expect:\s*(none|(\d+)\s+(CTX\d{3})(\s+\[low\])?)", re.IGNORECASE)

#: case path (relative to the cases folder) -> the open issue it belongs to.
OPEN: dict[str, str] = {
}


def _case_files() -> list[Path]:
    if not CASES_DIR.is_dir():
        return []
    return sorted(f for f in CASES_DIR.rglob("*") if f.is_file() and f.suffix in SUFFIXES)


def _expected(path: Path) -> set[tuple[int, str]] | None:
    """The (line, code) pairs a case declares, or None when it declares nothing."""
    tiers = _expected_tiers(path)
    return None if tiers is None else set(tiers)


def _expected_tiers(path: Path) -> dict[tuple[int, str], str] | None:
    """(line, code) -> "high" (plain `expect:`: must be reported by default) or "any"
    (`[low]`: the harm depends on what the file does not show; either tier)."""
    declared, out = False, {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:40]:
        for m in EXPECT.finditer(line):
            declared = True
            if m.group(1).lower() != "none":
                out[(int(m.group(2)), m.group(3).upper())] = "any" if m.group(4) else "high"
    return out if declared else None


CASES = [c for c in _case_files() if _expected(c) is not None]


@pytest.fixture(scope="module")
def found() -> dict[str, dict[tuple[int, str], str]]:
    """path -> (line, code) -> the best confidence reported, over both tiers."""
    proc = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--no-cache", "--exit-zero",
                           "--min-confidence", "low", "--output-format", "json", *map(str, CASES)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, dict[tuple[int, str], str]] = {}
    for f in json.loads(proc.stdout):
        seen = out.setdefault(str(Path(f["path"]).resolve()), {})
        key = (f["line"], f["code"])
        if seen.get(key) != "high":
            seen[key] = f.get("confidence", "high")
    return out


def _param(case: Path):
    rel = case.relative_to(CASES_DIR).as_posix()
    marks = [pytest.mark.xfail(strict=True, reason=f"open: {OPEN[rel]}")] if rel in OPEN else []
    return pytest.param(case, id=rel, marks=marks)


@pytest.mark.skipif(not CASES, reason="no handed cases beside this checkout or in tests/handed_cases")
@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_handed_case(case: Path, found):
    """Exactly the declared findings at any tier (a `_fixed` twin is silent even at
    low), and each plain expectation at high confidence (the default output)."""
    got = found.get(str(case.resolve()), {})
    want = _expected_tiers(case)
    assert set(got) == set(want)
    assert {k for k, tier in want.items() if tier == "high" and got.get(k) != "high"} == set()


def test_open_entries_name_existing_cases():
    """A stale OPEN entry (renamed or deleted case) would silently stop guarding anything."""
    rels = {c.relative_to(CASES_DIR).as_posix() for c in CASES}
    assert not set(OPEN) - rels


@pytest.mark.skipif(not SCORER.is_file() or OPEN != {}, reason="../shared/tools is not beside this checkout, or cases are open")
def test_shared_scorer_full_recall_no_extra():
    proc = subprocess.run([sys.executable, str(SCORER), "--ctxlint", f"{sys.executable} -m ctxlint", str(SHARED_CASES)],
                          capture_output=True, text=True, cwd=ROOT)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr
    m = re.search(r"missed: (\d+)\s+extra: (\d+)", summary)
    assert m, proc.stdout + proc.stderr
    assert (int(m.group(1)), int(m.group(2))) == (0, 0), proc.stdout
