#!/usr/bin/env python3
"""Benchmark ctxlint against ruff on projects no rule was tuned on, per project, as ratios.

`benchmarks/bench.py` measures the corpus the rules were developed against; this one
measures code nobody tuned for (issue 36): seven pinned projects that neither the
ecosystem check (scripts/ecosystem.py, tests/ecosystem/) nor the tuned benchmark uses,
except llama-cpp-python (in the ecosystem check's blind "measuring" set only; its
vendored llama.cpp holds the 1,664-line gguf_writer.py that issue 36 found).

Recipe:

    pip install -e '.[bench]'                     # ruff
    python benchmarks/bench_untuned.py fetch      # pip download the sdists, clone aphrodite
    python benchmarks/bench_untuned.py            # measure; --repeat N, --only NAME, --no-files

`fetch` runs `pip download --no-deps --no-binary :all: NAME==VERSION` for each PyPI
project and unpacks the sdist into benchcorpus/untuned/NAME/ (git-ignored);
aphrodite-engine's sdist does not download without building its CUDA extensions, so
its source is a git snapshot of the pinned commit (`git clone` + `git checkout`;
give `--aphrodite DIR` to copy an existing checkout instead).

Measured for each project, paired in the same minutes, each the median of --repeat runs:
  - ctxlint cold: `ctxlint check --no-cache --jobs 2 --quiet --exit-zero DIR`
  - ctxlint warm: the same without `--no-cache`, on an unchanged tree (cache hit)
  - ruff ALL:     `ruff check --no-cache --isolated --select ALL --exit-zero DIR`
  - ruff 3 rules: `ruff check --no-cache --isolated --select B019,RUF006,S701 --exit-zero DIR`
and the ratios cold/ruff-ALL and warm/ruff-3 (targets: both <= 1.0). Then, unless
--no-files, one profiled pass (`CTXLINT_PROFILE=1`, one process, see
ctxlint/profiling.py) gives every file's time: the slowest files with the rule or
semantic fact that cost each most, and, among files of 200 lines or more, the largest
time per line over the median time per line (target: <= 10x).

The machine has 2 CPUs: every wall time grows with the load, so the load average is
printed with each project; measure on an idle machine and repeat.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "benchcorpus" / "untuned"
BIN = Path(sys.executable).parent

#: name -> pip requirement (an sdist), pinned.
PYPI: dict[str, str] = {
    "llama-cpp-python": "llama-cpp-python==0.3.36",
    "pydantic": "pydantic==2.14.4",
    "pytorch-lightning": "pytorch-lightning==2.6.6",
    "optimum-habana": "optimum-habana==1.21.2",
    "guidellm": "guidellm==0.8.1",
    "jinja2": "jinja2==3.1.6",
}
#: name -> (git URL, pinned commit).
GIT: dict[str, tuple[str, str]] = {
    "aphrodite-engine": ("https://github.com/aphrodite-engine/aphrodite-engine",
                         "b42eeec22c42d9a485bab4a8784b26abccf44515"),
}
NAMES = ["aphrodite-engine", *PYPI]


def fetch(names: list[str], aphrodite: str | None) -> None:
    sdists = DEST / "_sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    for name in names:
        target = DEST / name
        if target.is_dir() and any(target.iterdir()):
            print(f"{name}: already there")
            continue
        if name in GIT:
            url, commit = GIT[name]
            if aphrodite:
                shutil.copytree(aphrodite, target, ignore=shutil.ignore_patterns(".git"))
            else:
                subprocess.run(["git", "clone", "--filter=blob:none", "--no-checkout", url, str(target)], check=True)
                subprocess.run(["git", "-C", str(target), "checkout", "-q", commit], check=True)
                shutil.rmtree(target / ".git")
            print(f"{name}: {commit[:12]}")
            continue
        req = PYPI[name]
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        "-d", str(sdists), req], check=True)
        stem = req.split("==")[0].replace("-", "_").lower()
        ver = req.split("==")[1]
        tgz = next(p for p in sdists.glob("*.tar.gz") if p.name.lower() == f"{stem}-{ver}.tar.gz")
        target.mkdir(parents=True)
        with tarfile.open(tgz) as tf:
            tf.extractall(target, filter="data")
        print(f"{name}: {tgz.name}")


def run_time(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Run `cmd`: (wall seconds, CPU seconds of it and every process it waited for)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def measure(name: str, repeat: int) -> dict[str, tuple[float, float]]:
    """Paired medians for one project (see the module docstring): label -> (wall, CPU)."""
    d = DEST / name
    ruff = shutil.which("ruff", path=str(BIN)) or shutil.which("ruff")
    ctx = [str(BIN / "ctxlint"), "check", ".", "--jobs", "2", "--quiet", "--exit-zero"]
    cache = d / ".ctxlint_cache"
    shutil.rmtree(cache, ignore_errors=True)
    run_time(ctx, d)  # fill the cache for the warm runs
    xs: dict[str, list[tuple[float, float]]] = {"ctxlint cold": [], "ctxlint warm": [], "ruff ALL": [],
                                                 "ruff 3 rules": []}
    for _ in range(repeat):  # interleaved, so that a change of load hits both tools alike
        xs["ctxlint cold"].append(run_time([*ctx, "--no-cache"], d))
        xs["ctxlint warm"].append(run_time(ctx, d))
        if ruff:
            xs["ruff ALL"].append(run_time([ruff, "check", "--no-cache", "--isolated", "--select", "ALL",
                                            "--exit-zero", "."], d))
            xs["ruff 3 rules"].append(run_time([ruff, "check", "--no-cache", "--isolated", "--select",
                                                "B019,RUF006,S701", "--exit-zero", "."], d))
    shutil.rmtree(cache, ignore_errors=True)
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in xs.items() if v}


def profile_files(name: str) -> tuple[list, list]:
    """One profiled, in-process pass over the project: (files, totals) where files are
    (seconds, path, lines, costliest label, its self seconds) and totals (label, self s)."""
    os.environ["CTXLINT_PROFILE"] = "1"
    from ctxlint import engine, profiling
    from ctxlint.config import load_config
    from ctxlint.rules import select_rules
    d = DEST / name
    config = load_config(None, str(d))
    rules = select_rules(config.select, config.ignore, config.extend_select)
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            engine.lint_paths([str(d)], config, rules, jobs=1, use_cache=False)
        files = list(profiling._files)
        totals = sorted(((k, v[2]) for k, v in profiling._totals.items()), key=lambda kv: -kv[1])
    finally:
        profiling.disable()
        del os.environ["CTXLINT_PROFILE"]
    return files, totals


def count(name: str) -> tuple[int, int]:
    files = [p for p in (DEST / name).rglob("*.py")]
    return len(files), sum(p.read_bytes().count(b"\n") for p in files)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", nargs="?", default="run", choices=("run", "fetch"))
    ap.add_argument("--only", action="append", choices=NAMES, help="a project to measure (repeatable)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-files", action="store_true", help="skip the profiled per-file pass")
    ap.add_argument("--slowest", type=int, default=3, help="slowest files to list per project")
    ap.add_argument("--aphrodite", help="an aphrodite-engine checkout at the pinned commit, copied by fetch")
    args = ap.parse_args()
    names = args.only or NAMES
    if args.command == "fetch":
        fetch(names, args.aphrodite)
        return 0
    missing = [n for n in names if not (DEST / n).is_dir()]
    if missing:
        print(f"missing: {', '.join(missing)}; run: python benchmarks/bench_untuned.py fetch")
        return 2
    # bytecode as an installed package has it (see bench.py)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "ctxlint")], check=False)
    print(f"{os.cpu_count()} CPUs; ruff: {subprocess.run(['ruff', '--version'], capture_output=True, text=True).stdout.strip()}")
    print("wall seconds, median of --repeat paired runs (CPU seconds, user+sys of every process, in brackets)")
    print(f"{'project':18} {'files':>5} {'lines':>7} {'load':>5} {'cold':>13} {'ruff ALL':>13} {'ratio':>11} "
          f"{'warm':>11} {'ruff 3':>11} {'ratio':>11}")

    def pair(x: tuple[float, float], w: int) -> str:
        return f"{x[0]:{w - 7}.2f} ({x[1]:5.2f})"

    def ratio(a: tuple[float, float], b: tuple[float, float] | None) -> str:
        return f"{a[0] / b[0]:4.2f} ({a[1] / b[1]:4.2f})" if b and b[0] and b[1] else "-"

    for n in names:
        nf, nl = count(n)
        load = os.getloadavg()[0]
        r = measure(n, args.repeat)
        cold, warm = r["ctxlint cold"], r["ctxlint warm"]
        ra, r3 = r.get("ruff ALL"), r.get("ruff 3 rules")
        print(f"{n:18} {nf:5d} {nl:7d} {load:5.2f} {pair(cold, 13)} {pair(ra, 13) if ra else '-':>13} "
              f"{ratio(cold, ra):>11} {pair(warm, 11)} {pair(r3, 11) if r3 else '-':>11} {ratio(warm, r3):>11}",
              flush=True)
    if args.no_files:
        return 0
    print("\nslowest files (one process, profiled; costliest rule or fact by self time)")
    for n in names:
        files, totals = profile_files(n)
        big = [(dt / lines, dt, path, lines, label, own) for dt, path, lines, label, own in files if lines >= 200]
        med = statistics.median(x[0] for x in big) if big else 0.0
        worst = max(big, default=None)
        top = ", ".join(f"{k} {v:.2f} s" for k, v in totals[:3])
        print(f"{n}: {sum(f[0] for f in files):.2f} s in {len(files)} files; top: {top}")
        if worst and med:
            print(f"  files >= 200 lines: median {med * 1e6:.1f} us/line; worst {worst[0] / med:.1f}x median "
                  f"[<= 10x: {'met' if worst[0] / med <= 10 else 'missed'}]")
        for dt, path, lines, label, own in sorted(files, reverse=True)[:args.slowest]:
            rel = os.path.relpath(path, DEST / n)
            print(f"  {dt * 1000:7.0f} ms {lines:6d} lines  {rel}  ({label}: {own * 1000:.0f} ms)")
        if worst and med and worst[0] / med > 10:
            _, dt, path, lines, label, own = worst
            print(f"  worst per line: {os.path.relpath(path, DEST / n)} {dt * 1000:.0f} ms, {lines} lines "
                  f"({label}: {own * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
