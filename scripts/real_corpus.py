#!/usr/bin/env python3
"""Fetch real LLM-serving packages from PyPI and run ctxlint over them.

Recipe (committed so anyone can reproduce the numbers in the closing notes):

    python scripts/real_corpus.py fetch            # pip download + unpack into realcorpus/
    python scripts/real_corpus.py run              # ctxlint over every package, JSON summary
    python scripts/real_corpus.py run --sample 30  # also print 30 findings to review

`fetch` runs `pip download --no-deps` for each package of PACKAGES (wheels only;
pure-Python wheels, and vllm's platform wheel keeping only its .py files) and
unpacks each into realcorpus/<name>/ (git-ignored). `run` lints every package
with `ctxlint check --no-cache --output-format json`, counts files and lines,
times the run, and fails (exit 1) if ctxlint crashed, printed a traceback,
reported an internal error, or reported CTX000 on a file that `ast.parse` accepts.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "realcorpus"

#: name -> pip requirement. Versions pinned so that reviews are reproducible.
PACKAGES: dict[str, str] = {
    "sglang": "sglang==0.5.23",
    "peft": "peft==0.21.2",
    "transformers": "transformers==5.24.0",
    "langchain-core": "langchain-core==1.8.4",
    "openai": "openai==3.57.0",
    "vllm": "vllm==0.33.0",
}
#: Suffixes kept from each wheel (vllm ships compiled kernels: drop them).
KEEP = (".py", ".go", ".j2", ".jinja", ".jinja2")


def fetch(names: list[str]) -> None:
    wheels = DEST / "_wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for name in names:
        req = PACKAGES[name]
        target = DEST / name
        if target.is_dir() and any(target.iterdir()):
            print(f"{name}: already unpacked")
            continue
        have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(name.replace("-", "_").lower() + "-")]
        if not have:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "-d", str(wheels), req]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                # Fall back to the newest wheel if the pinned version is not served.
                cmd[-1] = req.split("==")[0]
                r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{name}: pip download failed:\n{r.stderr[-800:]}")
                continue
            have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(name.replace("-", "_").lower() + "-")]
        whl = sorted(have)[-1]
        target.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(whl) as zf:
            for info in zf.infolist():
                if info.filename.endswith(KEEP) and ".dist-info/" not in info.filename:
                    zf.extract(info, target)
        print(f"{name}: {whl.name} -> {target}")


def count_lines(files: list[Path]) -> int:
    n = 0
    for f in files:
        try:
            n += f.read_bytes().count(b"\n")
        except OSError:
            pass
    return n


def run(names: list[str], sample: int, ctxlint: list[str], extra: list[str]) -> int:
    total_files = total_lines = 0
    totals: Counter = Counter()
    all_findings: list[dict] = []
    failures = []
    for name in names:
        d = DEST / name
        if not d.is_dir():
            print(f"{name}: not fetched (run `fetch` first)")
            continue
        files = [p for p in d.rglob("*") if p.suffix in KEEP and p.is_file()]
        lines = count_lines(files)
        t0 = time.perf_counter()
        proc = subprocess.run([*ctxlint, "check", str(d), "--no-cache", "--output-format", "json", *extra],
                              capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if proc.returncode not in (0, 1) or "Traceback" in proc.stderr or "internal error" in proc.stderr:
            failures.append(f"{name}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
        try:
            findings = json.loads(proc.stdout or "[]")
        except json.JSONDecodeError:
            failures.append(f"{name}: output is not JSON: {proc.stdout[:300]}")
            findings = []
        per = Counter(f["code"] for f in findings)
        for f in findings:
            if f["code"] == "CTX000" and f["path"].endswith(".py"):
                try:
                    ast.parse(Path(f["path"]).read_bytes())
                    failures.append(f"{name}: CTX000 on a file ast.parse accepts: {f['path']}: {f['message']}")
                except (SyntaxError, ValueError):
                    pass
        totals.update(per)
        all_findings.extend(findings)
        total_files += len(files)
        total_lines += lines
        print(f"{name:16} files={len(files):6} lines={lines:8} seconds={dt:6.2f} findings={len(findings):5} "
              + " ".join(f"{c}={n}" for c, n in sorted(per.items())))
    print(f"{'TOTAL':16} files={total_files:6} lines={total_lines:8} findings={sum(totals.values()):5} "
          + " ".join(f"{c}={n}" for c, n in sorted(totals.items())))
    if sample and all_findings:
        rng = random.Random(0)
        by_code: dict[str, list] = {}
        for f in all_findings:
            by_code.setdefault(f["code"], []).append(f)
        picked = []
        # Round-robin over codes so every rule gets reviewed.
        while len(picked) < sample and any(by_code.values()):
            for code in sorted(by_code):
                if by_code[code] and len(picked) < sample:
                    picked.append(by_code[code].pop(rng.randrange(len(by_code[code]))))
        print("\n# sample for review")
        for f in picked:
            print(f"{f['path']}:{f['line']}:{f['col']}: {f['code']} {f['message']}")
    for msg in failures:
        print("FAIL", msg)
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("fetch", "run"))
    ap.add_argument("names", nargs="*", default=list(PACKAGES))
    ap.add_argument("--sample", type=int, default=0, help="print N findings (round-robin over codes) to review")
    ap.add_argument("--ctxlint", default=f"{sys.executable} -m ctxlint")
    ap.add_argument("--select", default=None)
    args = ap.parse_args()
    if args.action == "fetch":
        fetch(args.names)
        return 0
    extra = ["--select", args.select] if args.select else []
    return run(args.names, args.sample, args.ctxlint.split(), extra)


if __name__ == "__main__":
    sys.exit(main())
