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
    python scripts/fix_suites.py [--work DIR] [--venvs DIR] [--baseline-runs N] [PACKAGE ...]

`--fix` runs with `--min-confidence low` (latent findings' fixes too) on the
package's source only (`Package.fix`), never on its tests. The test dependencies of
each package must be importable by the Python that runs its suite: `--venvs DIR`
with one virtual environment per package (DIR/NAME/bin/python: `pip install
NAME==VERSION pytest pytest-asyncio ...`), else `--python`. A package whose sdist
cannot be downloaded (offline, no local index) gets a "not run" row; a suite whose
dependencies are missing says so on stderr. Exit status: 1 when a safe fix changed
an outcome, else 0.
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

    tests: the test paths inside the sdist (space-separated); src: the directory to
    put first on sys.path ("." or "src"); fix: the package source directories that
    `--fix` rewrites (never the tests: the suite judges the fixed code); env: extra
    environment; args: extra pytest arguments; timeout: seconds for one suite run.
    """

    name: str
    version: str
    tests: str = "tests"
    src: str = "."
    fix: tuple = ()
    env: dict = field(default_factory=dict)
    args: list = field(default_factory=list)
    timeout: int = 900
    conftest: str = ""


#: cashews' sdist ships its tests without tests/conftest.py; this one (ours) gives
#: them the `cache` fixture most of them take: a fresh in-memory cache.
_CASHEWS_CONFTEST = """\
import pytest


@pytest.fixture
async def cache():
    from cashews.wrapper import Cache
    c = Cache()
    c.setup("mem://")
    yield c
    await c.clear()
    await c.close()
"""


#: Packages where ctxlint's fixes fire (measured on these versions). aiohttp and
#: asgiref are the ones issue 12 names; janus and aiocache add dropped-task
#: fixes in library code and tests. The last seven are the ones issue 35 tried as a
#: new user would (none used while building ctxlint): their fixes broke cashews'
#: disable switch (CTX103 on a setter), aiomisc's services (CTX103, CTX206), and
#: moved an assert into `finally` in aiostream (CTX106).
PACKAGES = {
    "asgiref": Package("asgiref", "3.8.1", fix=("asgiref",)),
    "janus": Package("janus", "1.0.0", fix=("janus",)),
    "aiocache": Package("aiocache", "0.12.2", tests="tests/ut", fix=("aiocache",),
                        args=["-p", "no:warnings"]),
    "aiohttp": Package("aiohttp", "3.9.5", env={"AIOHTTP_NO_EXTENSIONS": "1"}, fix=("aiohttp",),
                       args=["-p", "no:warnings", "--ignore=tests/autobahn", "--ignore=tests/test_proxy_functional.py"],
                       timeout=1800),
    "cashews": Package("cashews", "7.6.0", fix=("cashews",), conftest=_CASHEWS_CONFTEST,
                       args=["-p", "no:warnings", "-p", "no:randomly", "-o", "asyncio_mode=auto"]),
    "aiomisc": Package("aiomisc", "18.0.37", fix=("aiomisc", "aiomisc_log", "aiomisc_worker"),
                       args=["-p", "no:warnings"], timeout=1800),
    "langsmith": Package("langsmith", "0.15.1", src="src", fix=("src/langsmith",),
                         tests=("tests/unit_tests/test_run_helpers.py tests/unit_tests/test_run_trees.py "
                                "tests/unit_tests/wrappers/test_openai_agents_api.py"),
                         args=["-p", "no:warnings"]),
    "mcp-agent": Package("mcp_agent", "0.2.6", src="src", fix=("src/mcp_agent",), args=["-p", "no:warnings"],
                         timeout=1800),
    "smolagents": Package("smolagents", "1.26.0", src="src", fix=("src/smolagents",),
                          args=["-p", "no:warnings"], timeout=1800),
    "aiotools": Package("aiotools", "2.2.4", src="src", fix=("src/aiotools",), args=["-p", "no:warnings"]),
    "aiostream": Package("aiostream", "0.8.1", fix=("aiostream",), args=["-p", "no:warnings"]),
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


def run_fix(pkg: Package, tree: Path, unsafe: bool) -> tuple[int, str]:
    """`ctxlint check --fix --min-confidence low` on the package source of `tree`
    (every finding's fix, latent ones too: the stricter test); returns (fixes applied,
    notices)."""
    targets = [str(tree / d) for d in (pkg.fix or (".",)) if (tree / d).exists()]
    argv = [sys.executable, "-m", "ctxlint", "check", "--fix", "--no-cache", "--exit-zero",
            "--min-confidence", "low", *(["--unsafe-fixes"] if unsafe else []), *targets]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    m = re.search(r"Fixed (\d+)|\((\d+) fixed", proc.stdout + proc.stderr)
    notes = "\n".join(ln for ln in proc.stderr.splitlines() if "fix not applied" in ln or "appeared" in ln)
    return (int(m.group(1) or m.group(2)) if m else 0), notes


def run_suite(pkg: Package, tree: Path, python: str, xml: Path) -> dict[str, str]:
    """Run the suite in `tree`; returns test id -> outcome."""
    env = dict(os.environ, **pkg.env)
    env["PYTHONPATH"] = str(tree / pkg.src) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    argv = [python, "-m", "pytest", *pkg.tests.split(), "-q", "-p", "no:cacheprovider", "-o", "addopts=",
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


def python_for(name: str, args) -> str:
    """The interpreter that runs `name`'s suite: `--venvs DIR` holds one virtual
    environment per package (DIR/NAME/bin/python, with the package's runtime and test
    dependencies), else `--python`."""
    if args.venvs:
        p = Path(args.venvs) / name / "bin" / "python"
        if p.is_file():
            return str(p)
    return args.python


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packages", nargs="*", default=list(PACKAGES))
    ap.add_argument("--work", default="/tmp/ctxlint-fix-suites")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the suites")
    ap.add_argument("--venvs", help="a folder with one virtual environment per package (NAME/bin/python)")
    ap.add_argument("--baseline-runs", type=int, default=2,
                    help="runs of the unchanged copy; a test whose outcome differs between them is flaky")
    args = ap.parse_args()
    work = Path(args.work)
    rows = []
    bad = 0
    for name in args.packages:
        pkg = PACKAGES[name]
        try:
            sdist = fetch(pkg, work)
        except (subprocess.CalledProcessError, IndexError, OSError) as exc:
            print(f"  {name}: cannot download the sdist (offline?): {exc}", file=sys.stderr)
            rows.append((f"{name}=={pkg.version}", "not run: sdist not available offline", "", "", "", "", "", ""))
            continue
        python = python_for(name, args)
        base = work / name
        trees = {v: unpack(sdist, base / v) for v in ("before", "safe", "unsafe")}
        for tree in trees.values():
            first = tree / pkg.tests.split()[0]
            conftest = (first if first.is_dir() else first.parent) / "conftest.py"
            if pkg.conftest and not conftest.exists():
                conftest.write_text(pkg.conftest, encoding="utf-8")
        fixed_safe, notes_safe = run_fix(pkg, trees["safe"], unsafe=False)
        fixed_unsafe, notes_unsafe = run_fix(pkg, trees["unsafe"], unsafe=True)
        before = run_suite(pkg, trees["before"], python, base / "before.xml")
        if set(before) == {"<suite>"}:
            print(f"  {name}: the suite did not run ({before['<suite>']}): its dependencies are missing "
                  f"from {python}?", file=sys.stderr)
        flaky: set[str] = set()
        for k in range(1, args.baseline_runs):
            again = run_suite(pkg, trees["before"], python, base / f"before{k}.xml")
            flaky |= set(changed(before, again, set()))
        safe = run_suite(pkg, trees["safe"], python, base / "safe.xml") if fixed_safe else before
        unsafe = run_suite(pkg, trees["unsafe"], python, base / "unsafe.xml") if fixed_unsafe else before
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
