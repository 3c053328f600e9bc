#!/usr/bin/env python3
"""Peer parity: what ruff finds on the kinds ctxlint shares with it, and ctxlint does not.

Two ruff rules look for a bug ctxlint has a rule for:
    B019   `functools.lru_cache`/`cache` on a method (the cache holds `self`)  -> CTX402
    RUF006 the result of `asyncio.create_task`/`ensure_future` dropped          -> CTX107
Issue 33 asks that every such ruff finding a reader judges `true` is reported by ctxlint
at some confidence. This script runs both tools over the projects of the ecosystem check
(`scripts/ecosystem.py`'s pinned `PROJECTS`, fetched into its `.ecosystem/`; `--dest`
points at another copy) and lists each ruff finding with no ctxlint finding of the mapped
code at the same place, with the reader's verdict where `VERDICTS` has one.

Recipe:

    pip install ruff                        # the `bench` extra has it
    python scripts/ecosystem.py fetch       # or: --dest /path/to/an/existing/.ecosystem
    python scripts/peer_parity.py           # gap list + counts per rule
    python scripts/peer_parity.py --projects vllm,sglang --json out.json

ctxlint runs with `--min-confidence low` when the installed ctxlint knows that option
(latent findings count: "at some confidence"), else with its defaults. A ruff finding is
matched by a ctxlint finding of the mapped code in the same file, on the same line
(RUF006: the call) or on a line of the same decorated def (B019: ruff reports the
decorator, ctxlint the decorator or the def).

Exit status: 0 when no gap is left without a verdict of `false`/`harmless`, else 1.

Measured (issue 33, both tiers, the ecosystem check's fetched PyPI projects):
    B019 -> CTX402: ruff 208, reported by ctxlint 17, gaps 191 (mostly `@lru_cache` on
        methods of model/processor classes; CTX402 is issue 33's other half)
    RUF006 -> CTX107: ruff 544, reported by ctxlint 383, gaps 161, nearly all tasks whose
        coroutine handles its own errors, started by a shutdown/signal hook, or closing a
        discarded object (CTX107's containment, silent at every tier); two reviewed below.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from ecosystem import DEST, PROJECTS  # noqa: E402  (the pinned projects: one list for both checks)

#: ruff code -> the ctxlint code that reports the same kind.
PEER_CODES: dict[str, str] = {"B019": "CTX402", "RUF006": "CTX107"}

#: "project:path:line:ruff code" -> (verdict, reason). A reader's judgement of each gap:
#: `true` (ctxlint should report it), `harmless` (the pattern, no harm here), `false`
#: (ruff misreads the code). Filled in from the runs recorded in the closing notes.
VERDICTS: dict[str, tuple[str, str]] = {
    # RUF006: both coroutines catch every exception of their awaited work (CTX107's
    # `tasks.handles_own_errors` containment), and each task awaits I/O that the socket or
    # scheduler client keeps alive: nothing is lost when nobody awaits it.
    "vllm:vllm/distributed/kv_transfer/kv_connector/v1/mooncake/mooncake_connector.py:2652:RUF006": (
        "harmless", "receive_kv_from_single_worker wraps its socket work in try/except and settles "
                    "its requests itself; the task awaits the zmq socket"),
    "sglang:sglang/multimodal_gen/runtime/entrypoints/openai/mesh_api.py:237:RUF006": (
        "harmless", "_dispatch_job_async catches Exception and records the failure in MESH_STORE; "
                    "the job's state is polled through the store, not the task"),
}


def _ctxlint_supports_low() -> bool:
    proc = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--help"], capture_output=True, text=True)
    return "--min-confidence" in proc.stdout


def run_ruff(root: Path) -> list[dict]:
    """ruff's B019/RUF006 findings under `root` as {path, line, code} (paths relative)."""
    ruff = shutil.which("ruff")
    if ruff is None:
        raise SystemExit("ruff is not installed (pip install ruff)")
    proc = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--select", ",".join(PEER_CODES),
                           "--output-format", "json", "--exit-zero", str(root)], capture_output=True, text=True)
    out = []
    for f in json.loads(proc.stdout or "[]"):
        if f.get("code") in PEER_CODES:  # (not ruff's own `invalid-syntax` reports)
            out.append({"path": os.path.relpath(f["filename"], root), "line": f["location"]["row"],
                        "code": f["code"]})
    return out


def run_ctxlint(root: Path, low: bool) -> list[dict]:
    """ctxlint's CTX402/CTX107 findings under `root` as {path, line, code}."""
    cmd = [sys.executable, "-m", "ctxlint", "check", "--no-cache", "--exit-zero", "--output-format", "json",
           "--select", ",".join(PEER_CODES.values()), str(root)]
    if low:
        cmd[4:4] = ["--min-confidence", "low"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = []
    for f in json.loads(proc.stdout or "[]"):
        out.append({"path": os.path.relpath(f["path"], root), "line": f["line"], "code": f["code"]})
    return out


def _def_span(path: Path, line: int) -> tuple[int, int]:
    """(first decorator line, def line) of the def whose decorator list holds `line`,
    else (line, line)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return line, line
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.decorator_list:
            first = min(d.lineno for d in n.decorator_list)
            if first <= line <= n.lineno:
                return first, n.lineno
    return line, line


def gaps(root: Path, ruff: list[dict], ours: list[dict]) -> list[dict]:
    """The ruff findings with no ctxlint finding of the mapped code at the same place."""
    have: dict[tuple[str, str], set[int]] = {}
    for f in ours:
        have.setdefault((f["path"], f["code"]), set()).add(f["line"])
    out = []
    for f in ruff:
        lines = have.get((f["path"], PEER_CODES[f["code"]]), set())
        if f["code"] == "B019":
            lo, hi = _def_span(root / f["path"], f["line"])
            hit = any(lo <= x <= hi for x in lines)
        else:
            hit = f["line"] in lines
        if not hit:
            out.append(f)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", type=Path, default=DEST, help="folder of the fetched projects (default: .ecosystem/)")
    ap.add_argument("--projects", default="", help="comma-separated names (default: every fetched PyPI project)")
    ap.add_argument("--json", type=Path, help="write every ruff finding, matched or not, here")
    args = ap.parse_args(argv)
    wanted = {n for n in args.projects.split(",") if n}
    projects = [p for p in PROJECTS if p.kind == "pypi" and (not wanted or p.name in wanted)]
    low = _ctxlint_supports_low()
    print(f"ctxlint confidence: {'low and high (--min-confidence low)' if low else 'default'}")
    total = {c: 0 for c in PEER_CODES}
    missed = {c: 0 for c in PEER_CODES}
    unjudged = 0
    report = []
    for p in projects:
        root = args.dest / p.name
        if not root.is_dir():
            print(f"{p.name}: not fetched under {args.dest}")
            continue
        ruff = run_ruff(root)
        if not ruff:
            continue
        ours = run_ctxlint(root, low)
        left = gaps(root, ruff, ours)
        for f in ruff:
            total[f["code"]] += 1
        for f in left:
            missed[f["code"]] += 1
            k = f"{p.name}:{f['path']}:{f['line']}:{f['code']}"
            verdict, reason = VERDICTS.get(k, ("?", "not reviewed"))
            if verdict not in ("false", "harmless"):
                unjudged += verdict == "?"
            line = (root / f["path"]).read_text(encoding="utf-8", errors="replace").splitlines()[f["line"] - 1].strip()
            print(f"GAP {k} [{verdict}] {line[:90]}" + (f"  -- {reason}" if verdict != "?" else ""))
        report.extend({"project": p.name, **f, "matched": f not in left} for f in ruff)
    for c, ours in PEER_CODES.items():
        print(f"{c} -> {ours}: ruff {total[c]}, reported by ctxlint {total[c] - missed[c]}, gaps {missed[c]}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    open_gaps = sum(1 for r in report if not r["matched"] and VERDICTS.get(
        f"{r['project']}:{r['path']}:{r['line']}:{r['code']}", ("?",))[0] not in ("false", "harmless"))
    return 1 if open_gaps else 0


if __name__ == "__main__":
    sys.exit(main())
