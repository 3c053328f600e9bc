#!/usr/bin/env python3
"""Does `ctxlint check --fix` keep a module's behaviour? (ctxlint's own harness)

A fix case is a Python module defining `behaviour()`, which runs the module's code
and returns a plain, JSON-serialisable value (or raises); it may define
`comment_kept(text) -> bool`, a check on the rewritten source. For each case this
script:

  1. copies the case into a fresh temporary folder and runs `behaviour()` there in a
     new interpreter (so no state leaks between the runs);
  2. runs `ctxlint check --fix [--unsafe-fixes] --no-cache` on the copy;
  3. requires that the copy still compiles, that a second `--fix` run changes nothing
     (one run converges), that `behaviour()` returns the same value or raises the same
     exception type, and that `comment_kept(text)` holds where the case defines it.

One line per case: `kept` (rewritten, same behaviour), `same` (left unchanged),
`BROKEN` (with the reasons) or `ERROR` (ctxlint exited 2); then
`fix cases: N  kept: K  same: S  broken: B`. The output format is that of the team's
shared harness (`../shared/tools/check_fix_behaviour.py`), so the test suite can run
either; this one lives in the repository so CI, which has no `../shared`, runs it.

Usage: check_fix_behaviour.py [--ctxlint CMD] [--unsafe] CASE_OR_DIR...
Exit status: 0 when nothing is broken, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("fix_case", sys.argv[1])
mod = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(mod)
    value = mod.behaviour()
    out = {"value": json.loads(json.dumps(value, default=repr))}
except BaseException as exc:  # the exception type is part of the behaviour
    out = {"raises": type(exc).__name__}
if sys.argv[2] == "1" and hasattr(mod, "comment_kept"):
    out["comment_kept"] = bool(mod.comment_kept(open(sys.argv[1], encoding="utf-8").read()))
print(json.dumps(out))
"""


def run_case(path: Path, comments: bool = False) -> dict:
    """behaviour() of the module at `path`, in a new interpreter whose cwd is its folder."""
    proc = subprocess.run([sys.executable, "-c", _RUN, str(path), "1" if comments else "0"],
                          capture_output=True, text=True, cwd=path.parent, timeout=300)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"error": (proc.stderr or proc.stdout).strip()[-300:]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ctxlint", default=f"{sys.executable} -m ctxlint")
    ap.add_argument("--unsafe", action="store_true")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    cases: list[Path] = []
    for p in map(Path, args.paths):
        cases.extend(sorted(p.glob("*.py")) if p.is_dir() else [p])
    # both tiers, as the shared harness does: latent findings' fixes must keep behaviour too
    cmd = [*shlex.split(args.ctxlint), "check", "--fix", "--min-confidence", "low", "--no-cache", "--exit-zero", "--quiet"]
    if args.unsafe:
        cmd.append("--unsafe-fixes")
    kept = same = broken = 0
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="ctxlint-fixcase-") as tmp:
            work = Path(tmp) / case.name
            shutil.copy2(case, work)
            original = work.read_text(encoding="utf-8")
            before = run_case(work)
            proc = subprocess.run([*cmd, str(work)], capture_output=True, text=True, cwd=tmp)
            if proc.returncode == 2:
                print(f"ERROR  {case}: ctxlint exited 2: {proc.stderr.strip()[:200]}")
                broken += 1
                continue
            fixed = work.read_text(encoding="utf-8")
            if fixed == original:
                print(f"same   {case}")
                same += 1
                continue
            problems = []
            try:
                compile(fixed, str(work), "exec")
            except SyntaxError as exc:
                problems.append(f"does not compile: {exc.msg} (line {exc.lineno})")
            subprocess.run([*cmd, str(work)], capture_output=True, text=True, cwd=tmp)
            if work.read_text(encoding="utf-8") != fixed:
                problems.append("a second --fix run changed the file again")
                work.write_text(fixed, encoding="utf-8")
            after = run_case(work, comments=True)
            if after.pop("comment_kept", True) is False:
                problems.append("comment_kept() is false")
            if after != before:
                problems.append(f"behaviour {before} -> {after}")
            if problems:
                print(f"BROKEN {case}: " + "; ".join(problems))
                broken += 1
            else:
                print(f"kept   {case}")
                kept += 1
    print(f"fix cases: {len(cases)}  kept: {kept}  same: {same}  broken: {broken}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
