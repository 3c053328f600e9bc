#!/usr/bin/env python3
"""Benchmark ctxlint against its peers on the same corpus, in one run, as ratios.

Recipe:

    python scripts/real_corpus.py fetch transformers openai langchain-core
    pip install -e '.[bench]'          # ruff, pylint
    python benchmarks/bench.py         # add --skip-pylint to leave out the 4-minute pylint run

Corpus: the wheels of transformers 5.24.0, openai 3.57.0 and langchain-core 1.8.4,
unpacked by scripts/real_corpus.py into realcorpus/ (5,177 .py files, 1.54M lines).

Measured, each as the median of --repeat runs (pylint once):
  - ctxlint cold: `ctxlint check --no-cache --jobs 2`
  - ctxlint warm: `ctxlint check --jobs 2` on an unchanged tree (cache hit)
  - ruff ALL: `ruff check --no-cache --isolated --select ALL`
  - ruff 3 rules: `ruff check --no-cache --isolated --select B019,RUF006,S701`
  - pylint: `pylint --disable=all --enable=W0135,W0603,R1732 -j 2`
  - start-up: `ctxlint check ONE_FILE.py` vs `ruff check ONE_FILE.py` vs `python -c pass`
  - peak memory (max RSS of the ctxlint process tree's largest process, MB)
and printed with the targets of issue 2: cold/ruff-ALL <= 1.0, pylint/cold >= 20,
warm/ruff-3 <= 2.0, single file < 100 ms, peak < 500 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = [ROOT / "realcorpus" / n for n in ("transformers", "openai", "langchain-core")]
BIN = Path(sys.executable).parent


def timed(cmd: list[str], cwd: Path = ROOT) -> tuple[float, int]:
    """Run `cmd`; return (wall seconds, max RSS of any waited-for child in KiB so far)."""
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def median_time(cmd: list[str], repeat: int, before=None) -> float:
    xs = []
    for _ in range(repeat):
        if before:
            before()
        xs.append(timed(cmd)[0])
    return statistics.median(xs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-pylint", action="store_true")
    args = ap.parse_args()
    missing = [str(c) for c in CORPUS if not c.is_dir()]
    if missing:
        print("corpus missing; run: python scripts/real_corpus.py fetch transformers openai langchain-core")
        return 2
    # Bytecode as an installed package has it (pip compiles on install); this
    # environment may set PYTHONDONTWRITEBYTECODE, which would make every start
    # recompile ctxlint's sources.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "ctxlint")], check=False)
    files = [p for c in CORPUS for p in c.rglob("*.py")]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(f"corpus: {len(files)} files, {lines} lines, {os.cpu_count()} CPUs")
    ctx = [str(BIN / "ctxlint"), "check", *map(str, CORPUS), "--jobs", "2", "--quiet"]
    ruff = shutil.which("ruff", path=str(BIN)) or shutil.which("ruff")
    pylint = shutil.which("pylint", path=str(BIN)) or shutil.which("pylint")
    cache_dir = ROOT / ".ctxlint_cache"

    def clear_cache():
        shutil.rmtree(cache_dir, ignore_errors=True)

    res: dict[str, float] = {}
    res["ctxlint cold"] = median_time([*ctx, "--no-cache"], args.repeat)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    clear_cache()
    timed(ctx)  # fill the cache
    res["ctxlint warm"] = median_time(ctx, args.repeat)
    if ruff:
        res["ruff ALL"] = median_time([ruff, "check", "--no-cache", "--isolated", "--select", "ALL", "--exit-zero",
                                       *map(str, CORPUS)], args.repeat)
        res["ruff 3 rules"] = median_time([ruff, "check", "--no-cache", "--isolated", "--select",
                                           "B019,RUF006,S701", "--exit-zero", *map(str, CORPUS)], args.repeat)
    if pylint and not args.skip_pylint:
        res["pylint 3 checks"] = timed([pylint, "--disable=all", "--enable=W0135,W0603,R1732", "-j", "2",
                                        "--exit-zero", *map(str, CORPUS)])[0]
    one = CORPUS[1] / "openai" / "_client.py"
    if not one.is_file():
        one = files[0]
    res["ctxlint one file"] = median_time([str(BIN / "ctxlint"), "check", str(one), "--no-cache"], 15)
    res["python -c pass"] = median_time([sys.executable, "-c", "pass"], 15)
    if ruff:
        res["ruff one file"] = median_time([ruff, "check", "--no-cache", "--isolated", str(one)], 15)
    for k, v in res.items():
        print(f"{k:18} {v:8.3f} s")
    print(f"{'ctxlint peak RSS':18} {peak_kib / 1024:8.1f} MB (largest process)")
    print("ratios (targets in brackets):")
    if "ruff ALL" in res:
        print(f"  ctxlint cold / ruff ALL      = {res['ctxlint cold'] / res['ruff ALL']:.2f}  [<= 1.0]")
        print(f"  ctxlint warm / ruff 3 rules  = {res['ctxlint warm'] / res['ruff 3 rules']:.2f}  [<= 2.0]")
    if "pylint 3 checks" in res:
        print(f"  pylint / ctxlint cold        = {res['pylint 3 checks'] / res['ctxlint cold']:.1f}  [>= 20]")
    print(f"  ctxlint one file             = {res['ctxlint one file'] * 1000:.0f} ms  [< 100 ms]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
