#!/usr/bin/env python3
"""Benchmark ctxlint's Go analysis against `go vet -lostcancel` on the same tree.

Recipe:

    apt-get install golang-go golang-google-grpc-dev golang-golang-x-net-dev
    python benchmarks/bench_go.py                    # grpc + x/net, one run each
    python benchmarks/bench_go.py --repeat 3         # medians of 3

Corpus: Debian's google.golang.org/grpc and golang.org/x/net trees under
/usr/share/gocode/src (every package there builds in GOPATH mode with the
Debian dependencies installed, so go vet checks every file, tests included).

Measured (wall clock):
  - ctxlint: `ctxlint check --no-cache --select CTX000,CTX1,CTX2 --jobs J TREE...`
    (tree-sitter parse, facts, control-flow graphs, the four Go rules);
  - go vet cold: `go vet -lostcancel ./...` per tree with a fresh, empty GOCACHE
    (GO111MODULE=off, GOPATH=/usr/share/gocode): compiles the export data of every
    dependency, as a CI job without a cache does;
  - go vet warm: the same again on the now-filled cache (a developer's machine);
and printed as Go files per second and as ratios ctxlint/go-vet (above 1 means
ctxlint is faster). go vet type-checks, which ctxlint does not do: the ratio is
the price of that, not a like-for-like comparison of analyses.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOCODE = Path("/usr/share/gocode/src")
TREES = ["google.golang.org/grpc", "golang.org/x/net"]


def timed(cmd: list[str], **kw) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, **kw)
    return time.perf_counter() - t0, proc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip-cold", action="store_true", help="skip the cold go vet run")
    args = ap.parse_args(argv)
    trees = [GOCODE / t for t in TREES if (GOCODE / t).is_dir()]
    if not trees:
        print("no Debian Go trees under /usr/share/gocode/src; install golang-google-grpc-dev golang-golang-x-net-dev")
        return 2
    files = sum(1 for t in trees for p in t.rglob("*.go") if p.is_file())
    exe = Path(sys.executable).parent / "ctxlint"
    ctxlint = [str(exe)] if exe.exists() else [sys.executable, "-m", "ctxlint"]
    cmd = [*ctxlint, "check", "--no-cache", "--output-format", "json", "--select", "CTX000,CTX1,CTX2",
           "--jobs", str(args.jobs), *map(str, trees)]
    runs = []
    for _ in range(args.repeat):
        secs, proc = timed(cmd)
        if proc.returncode not in (0, 1):
            print(proc.stderr[-2000:])
            return 2
        runs.append(secs)
    ours = statistics.median(runs)
    print(f"corpus: {', '.join(TREES)}: {files} Go files")
    print(f"ctxlint (--jobs {args.jobs}):  {ours:7.2f} s  {files / ours:8.1f} files/s")

    go = shutil.which("go")
    if go is None:
        print("go vet: `go` not installed; no ratio")
        return 0
    with tempfile.TemporaryDirectory() as td:
        env = {**os.environ, "GO111MODULE": "off", "GOPATH": str(GOCODE.parent), "GOCACHE": str(Path(td) / "cache"),
               "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local"}

        def vet_once() -> float:
            total = 0.0
            for t in trees:
                secs, _ = timed([go, "vet", "-lostcancel", "./..."], cwd=t, env=env)
                total += secs
            return total

        if not args.skip_cold:
            cold = vet_once()
            print(f"go vet cold:              {cold:7.2f} s  {files / cold:8.1f} files/s   ratio ctxlint/vet: {cold / ours:.2f}x")
        else:
            vet_once()  # fill the cache
        warm = statistics.median(vet_once() for _ in range(args.repeat))
        print(f"go vet warm:              {warm:7.2f} s  {files / warm:8.1f} files/s   ratio ctxlint/vet: {warm / ours:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
