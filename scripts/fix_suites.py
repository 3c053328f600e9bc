#!/usr/bin/env python3
"""Run real test suites before and after `ctxlint check --fix` (issue 12).

For each pinned package the script downloads the sdist (`pip download
--no-binary :all: --no-deps NAME==VERSION`), unpacks three copies of it and
  1. leaves one as it is ("before"),
  2. runs `ctxlint check --fix` on another ("safe"),
  3. runs `ctxlint check --fix --unsafe-fixes` on the third ("unsafe"),
then runs the package's own test suite in each copy (pytest, the copy first on
`sys.path`, junit XML) and compares the outcomes test by test. It prints one row
per package:

    package   tests  fixed(safe)  changed(safe)  fixed(unsafe)  changed(unsafe)

"changed" counts the tests whose outcome (passed / failed / error / skipped)
differs from the "before" run, plus tests that appear or vanish; with
`--baseline-runs 2` a test whose outcome differs between two runs of the
unchanged copy is flaky and left out of the comparison. The target is 0 changed
with safe fixes; with unsafe fixes only changes the fix's label announces.

Usage:
    python scripts/fix_suites.py [--work DIR] [--baseline-runs N] [PACKAGE ...]

The test dependencies of each package must be importable by the Python that
runs the script (`--python`; e.g. a venv with `pip install pytest pytest-asyncio`
plus the package's runtime dependencies). Exit status: 1 when a safe fix
changed an outcome, else 0.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Package:
    """A pinned package and how its suite runs.

    tests: the test path inside the sdist; src: the directory to put first on
    sys.path ("." or "src"); env: extra environment; args: extra pytest arguments;
    timeout: seconds for one suite run.
    """

    name: str
    version: str
    tests: str = "tests"
    src: str = "."
    env: dict = field(default_factory=dict)
    args: list = field(default_factory=list)
    timeout: int = 900


#: Packages where ctxlint's fixes fire (measured on these versions). aiohttp and
#: asgiref are the ones issue 12 names; janus and aiocache add dropped-task
#: fixes in library code and tests.
PACKAGES = {
    "asgiref": Package("asgiref", "3.8.1"),
    "janus": Package("janus", "1.0.0"),
    "aiocache": Package("aiocache", "0.12.2", tests="tests/ut",
                        args=["-p", "no:warnings"]),
    "aiohttp": Package("aiohttp", "3.9.5", env={"AIOHTTP_NO_EXTENSIONS": "1"},
                       args=["-p", "no:warnings", "--ignore=tests/autobahn", "--ignore=tests/test_proxy_functional.py"],
                       timeout=1800),
}


def fetch(pkg: Package, work: Path) -> Path:
    """The sdist of `pkg` under work/sdists (downloaded once)."""
    dest = work / "sdists"
    dest.mkdir(parents=True, exist_ok=True)
    have = [p for p in dest.iterdir() if p.name.lower().replace("_", "-").startswith(
        f"{pkg.name}-{pkg.version}".lower().replace("_", "-"))]
    if not have:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-binary", ":all:", "--no-deps",
                        f"{pkg.name}=={pkg.version}", "-d", str(dest)], check=True)
        have = [p for p in dest.iterdir() if p.name.lower().replace("_", "-").startswith(
            f"{pkg.name}-{pkg.version}".lower().replace("_", "-"))]
    return have[0]


def unpack(sdist: Path, into: Path) -> Path:
    """Unpack `sdist` into `into` (replaced); returns the package's top directory."""
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    with tarfile.open(sdist) as tf:
        tf.extractall(into, filter="data")
    (top,) = [p for p in into.iterdir() if p.is_dir()]
    return top


def run_fix(tree: Path, unsafe: bool) -> tuple[int, str]:
    """`ctxlint check --fix` on `tree`; returns (fixes applied, notices)."""
    argv = [sys.executable, "-m", "ctxlint", "check", "--fix", "--no-cache", "--exit-zero", str(tree)]
    if unsafe:
        argv.insert(-1, "--unsafe-fixes")
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    m = re.search(r"Fixed (\d+)", proc.stdout + proc.stderr)
    notes = "\n".join(ln for ln in proc.stderr.splitlines() if "fix not applied" in ln or "appeared" in ln)
    return (int(m.group(1)) if m else 0), notes


def run_suite(pkg: Package, tree: Path, python: str, xml: Path) -> dict[str, str]:
    """Run the suite in `tree`; returns test id -> outcome."""
    env = dict(os.environ, **pkg.env)
    env["PYTHONPATH"] = str(tree / pkg.src) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    argv = [python, "-m", "pytest", pkg.tests, "-q", "-p", "no:cacheprovider", "-o", "addopts=",
            "--continue-on-collection-errors", f"--junitxml={xml}", *pkg.args]
    try:
        subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=pkg.timeout)
    except subprocess.TimeoutExpired:
        return {"<suite>": "timeout"}
    if not xml.is_file():
        return {"<suite>": "no report"}
    out: dict[str, str] = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        tid = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        outcome = ("failed" if "failure" in kinds else "error" if "error" in kinds
                   else "skipped" if "skipped" in kinds else "passed")
        out[tid] = outcome
    return out


def changed(before: dict[str, str], after: dict[str, str], flaky: set[str]) -> list[str]:
    """Test ids whose outcome differs (or that appear or vanish), flaky ones left out."""
    ids = (set(before) | set(after)) - flaky
    return sorted(t for t in ids if before.get(t) != after.get(t))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="*", default=list(PACKAGES))
    ap.add_argument("--work", default="/tmp/ctxlint-fix-suites")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the suites")
    ap.add_argument("--baseline-runs", type=int, default=1)
    args = ap.parse_args()
    work = Path(args.work)
    rows = []
    bad = 0
    for name in args.packages:
        pkg = PACKAGES[name]
        sdist = fetch(pkg, work)
        base = work / name
        trees = {v: unpack(sdist, base / v) for v in ("before", "safe", "unsafe")}
        fixed_safe, notes_safe = run_fix(trees["safe"], unsafe=False)
        fixed_unsafe, notes_unsafe = run_fix(trees["unsafe"], unsafe=True)
        before = run_suite(pkg, trees["before"], args.python, base / "before.xml")
        flaky: set[str] = set()
        for k in range(1, args.baseline_runs):
            again = run_suite(pkg, trees["before"], args.python, base / f"before{k}.xml")
            flaky |= set(changed(before, again, set()))
        safe = run_suite(pkg, trees["safe"], args.python, base / "safe.xml")
        unsafe = run_suite(pkg, trees["unsafe"], args.python, base / "unsafe.xml")
        ch_safe, ch_unsafe = changed(before, safe, flaky), changed(before, unsafe, flaky)
        bad += len(ch_safe)
        rows.append((f"{name}=={pkg.version}", len(before), sum(v == "passed" for v in before.values()),
                     fixed_safe, len(ch_safe), fixed_unsafe, len(ch_unsafe), len(flaky)))
        for t in ch_safe:
            print(f"  {name} safe:   {t}: {before.get(t)} -> {safe.get(t)}", file=sys.stderr)
        for t in ch_unsafe:
            print(f"  {name} unsafe: {t}: {before.get(t)} -> {unsafe.get(t)}", file=sys.stderr)
        for note in (notes_safe + "\n" + notes_unsafe).strip().splitlines()[:20]:
            print(f"  {name} notice: {note}", file=sys.stderr)
    head = ("package", "tests", "passed", "fixed(safe)", "changed(safe)", "fixed(unsafe)", "changed(unsafe)", "flaky")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
