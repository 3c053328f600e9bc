"""The handed cases in ../shared/cases, scored with the shared score_cases.py script."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT, SHARED_CASES

SCORER = SHARED_CASES.parent / "tools" / "score_cases.py"


@pytest.mark.skipif(not SCORER.is_file(), reason="../shared/cases is not beside this checkout")
def test_shared_cases_full_recall_no_extra():
    cmd = f"{sys.executable} -m ctxlint"
    proc = subprocess.run([sys.executable, str(SCORER), "--ctxlint", cmd, str(SHARED_CASES)],
                          capture_output=True, text=True, cwd=ROOT)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr
    m = re.search(r"missed: (\d+)\s+extra: (\d+)", summary)
    assert m, proc.stdout + proc.stderr
    assert (int(m.group(1)), int(m.group(2))) == (0, 0), proc.stdout
