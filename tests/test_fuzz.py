"""A bounded fuzz run in the suite: the harness of scripts/fuzz.py on a fixed seed.

About 200 inputs (hypothesmith-generated modules and mutants of the corpus:
truncations, invalid bytes, BOM/CRLF mixes, deep nesting...) go through
`python -m ctxlint check` and `--fix` twice, in one batch. The run asserts: no
exit 2, no traceback, strict JSON output, and `--fix` leaves every file that
parsed parseable and is idempotent. The long campaign is `python scripts/fuzz.py
--modules 10000`.
"""

from __future__ import annotations


import pytest

from conftest import load_script

pytest.importorskip("hypothesmith")  # a test extra ([test]); CI installs it


fuzz = load_script("fuzz")


def test_mutations_are_deterministic_and_cover_every_kind():
    a = fuzz.mutants(40, seed=3)
    assert a == fuzz.mutants(40, seed=3)
    assert a != fuzz.mutants(40, seed=4)
    suffixes = {s for s, _ in fuzz.mutants(200, seed=3)}
    assert {".py", ".go"} <= suffixes
    rng = fuzz.random.Random(0)
    src = b"def f(x):\n    return x\n"
    outs = {fuzz.mutate(src, "python", rng) for _ in range(200)}
    assert any(o.startswith(b"\xef\xbb\xbf") and b"\r" in o for o in outs), "no BOM/CRLF mutant"
    assert any(b"\xff" in o or b"\xc3" in o or b"\x80" in o for o in outs), "no invalid-byte mutant"
    assert any(o.count(b"[") >= 50 or o.count(b"f(") >= 50 or o.count(b"if x:") >= 50 for o in outs), "no deep mutant"
    assert any(len(o) < len(src) for o in outs), "no truncation"


def test_strict_json_rejects_what_strict_parsers_reject():
    assert fuzz._strict_json(b'[{"path": "a\\\\xff.py"}]') == [{"path": "a\\xff.py"}]
    for bad in (b'[NaN]', b'["\\udcff"]', b'["\xff"]', b"[1,"):
        with pytest.raises(ValueError):
            fuzz._strict_json(bad)


@pytest.mark.slow  # minutes: `pytest -m slow` (and .ci/run) runs it
def test_bounded_fuzz_run_finds_no_crash(tmp_path):
    items = fuzz.generated(100, seed=20260101) + fuzz.mutants(100, seed=20260101)
    assert len(items) >= 190
    res = fuzz.run_batch(items, tmp_path, jobs=1)
    assert res.files == len(items)
    assert res.findings > 0, "the fuzz inputs produced no finding at all: the harness is not linting them"
    assert res.problems == [], "\n".join(res.problems[:20])
