#!/usr/bin/env python3
"""Run ctxlint's Go rules over real Go servers from Debian's /usr/share/gocode.

Recipe (reproduces the numbers in the closing notes of the Go issue):

    apt-get install golang-go golang-google-grpc-dev golang-golang-x-net-dev \\
        golang-github-grpc-ecosystem-grpc-gateway-dev golang-github-nats-io-nats-server-dev
    python scripts/real_corpus_go.py                 # counts per tree and per code
    python scripts/real_corpus_go.py --set measuring --all   # etcd, moby, containerd (issue 13's measuring set)
    python scripts/real_corpus_go.py --sample 25     # also print 25 findings with their source line
    python scripts/real_corpus_go.py --vet           # also run `go vet -lostcancel` (GOPATH mode)
                                                     # and list its diagnostics ctxlint lacks
    python scripts/real_corpus_go.py --mutants 60 grpc x-net   # mutation differential vs go vet

For every tree of TREES that is installed it runs
`ctxlint check --no-cache --output-format json --select CTX000,CTX1,CTX2` (the Go
rules only touch .go files; Python files in the trees are not linted), counts Go
files and lines, and times the run. It exits 1 when ctxlint crashed (exit status
other than 0/1, a traceback, an internal-error notice) or reported CTX000 on a file
that `gofmt -e` parses (a tree-sitter false parse error). CTX000 on a file gofmt
also rejects (deliberately broken test data) is listed, not failed.

`--vet` runs `go vet -lostcancel` over each tree in GOPATH mode
(GO111MODULE=off, GOPATH=/usr/share/gocode, a temporary GOCACHE, no network);
packages whose dependencies Debian does not ship are skipped by vet with an
error, which is reported and ignored.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOCODE = Path("/usr/share/gocode/src")
#: tree name -> path under /usr/share/gocode/src (Debian package in the comment).
TREES: dict[str, str] = {
    "grpc": "google.golang.org/grpc",                          # golang-google-grpc-dev
    "x-net": "golang.org/x/net",                               # golang-golang-x-net-dev
    "grpc-gateway": "github.com/grpc-ecosystem/grpc-gateway",  # golang-github-grpc-ecosystem-grpc-gateway-dev
    "nats-server": "github.com/nats-io/nats-server",           # golang-github-nats-io-nats-server-dev
    "nats.go": "github.com/nats-io/nats.go",                   # (dependency of nats-server)
}
#: The measuring set of issue 13 (never tuned on): about 2,800 files.
MEASURING: dict[str, str] = {
    "etcd": "go.etcd.io/etcd",                                 # golang-etcd-server-dev (3.4)
    "moby": "github.com/docker/docker",                        # golang-github-docker-docker-dev (20.10)
    "containerd": "github.com/containerd/containerd",          # golang-github-containerd-containerd-dev (1.6)
}
#: The tuning set of issue 13 (rules are tightened on these only).
TUNING = ("grpc", "x-net", "nats-server")
TREES.update(MEASURING)
SELECT = "CTX000,CTX1,CTX2"
GO_CODES = ("CTX000", "CTX101", "CTX102", "CTX201", "CTX202", "CTX206")


def ctxlint_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "ctxlint"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "ctxlint"]


def go_files(tree: Path) -> list[Path]:
    return sorted(p for p in tree.rglob("*.go") if p.is_file())


def gofmt_parses(path: Path) -> bool | None:
    gofmt = shutil.which("gofmt")
    if gofmt is None:
        return None
    return subprocess.run([gofmt, "-e", "-l", str(path)], check=False, capture_output=True).returncode == 0


def run_tree(name: str, tree: Path) -> tuple[dict, list[dict], list[str]]:
    files = go_files(tree)
    lines = 0
    for f in files:
        try:
            lines += f.read_bytes().count(b"\n")
        except OSError:
            pass
    t0 = time.perf_counter()
    proc = subprocess.run([*ctxlint_cmd(), "check", "--no-cache", "--output-format", "json",
                           "--select", SELECT, str(tree)], check=False, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    problems: list[str] = []
    if proc.returncode not in (0, 1):
        problems.append(f"{name}: ctxlint exited {proc.returncode}: {proc.stderr[-1500:]}")
    if "Traceback" in proc.stderr or "internal error" in proc.stderr:
        problems.append(f"{name}: ctxlint reported an internal error:\n{proc.stderr[-1500:]}")
    try:
        findings = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError:
        problems.append(f"{name}: output is not JSON: {proc.stdout[:500]}")
        findings = []
    findings = [f for f in findings if f["path"].endswith(".go")]
    for f in findings:
        if f["code"] == "CTX000":
            ok = gofmt_parses(Path(f["path"]))
            if ok:
                problems.append(f"{name}: CTX000 on a file gofmt parses: {f['path']}:{f['line']}: {f['message']}")
            else:
                print(f"  (CTX000 on a file gofmt also rejects: {f['path']}:{f['line']})")
    stats = {"tree": name, "files": len(files), "lines": lines, "seconds": round(elapsed, 2),
             "findings": len(findings), **{c: sum(1 for f in findings if f["code"] == c) for c in GO_CODES}}
    return stats, findings, problems


_VET = re.compile(r"^(?P<path>[^:\s]+\.go):(?P<line>\d+):\d+: (?P<msg>.*)$")


def run_vet(tree: Path) -> tuple[list[tuple[str, int, str]], float, int]:
    """go vet -lostcancel over one tree in GOPATH mode. Returns (diagnostics, seconds, errors)."""
    go = shutil.which("go")
    if go is None:
        return [], 0.0, 0
    with tempfile.TemporaryDirectory() as td:
        env = {**os.environ, "GO111MODULE": "off", "GOPATH": str(GOCODE.parent), "GOCACHE": str(Path(td) / "cache"),
               "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local"}
        t0 = time.perf_counter()
        proc = subprocess.run([go, "vet", "-lostcancel", "./..."], cwd=tree, env=env, check=False, capture_output=True, text=True)
        elapsed = time.perf_counter() - t0
    out, errors = [], 0
    for line in proc.stderr.splitlines():
        m = _VET.match(line.strip().removeprefix("vet: "))
        if m and ("cancel" in m.group("msg")) and not line.startswith("vet: "):
            p = Path(m.group("path"))
            out.append((str((tree / p).resolve() if not p.is_absolute() else p), int(m.group("line")), m.group("msg")))
        elif line.strip() and not line.startswith("#"):
            errors += 1
    return out, elapsed, errors


def mutants(trees: list[Path], limit: int) -> int:
    """Mutation differential on real code: in up to `limit` files (seeded choice),
    replace every `defer cancel()` and every plain `cancel()` statement of a
    context.WithX cancel func by `if false { cancel() }` (still compiles, still a
    reference for go vet, but no longer on every path), then run go vet -lostcancel on the mutated packages
    (GOPATH overlay: a temp dir first, /usr/share/gocode second) and compare its
    diagnostics at WithX lines with ctxlint's CTX101 findings on the same files.
    Returns the number of disagreements."""
    sys.path.insert(0, str(ROOT))
    from ctxlint import engine
    from ctxlint.config import Config
    from ctxlint.semantic.go import facts as golang
    from ctxlint.rules import select_rules

    rules = [r for r in select_rules(["CTX101"], [])]
    candidates = []
    for tree in trees:
        for f in go_files(tree):
            text = f.read_text(encoding="utf-8", errors="replace")
            if "defer" in text and "context.With" in text:
                candidates.append(f)
    random.Random(11).shuffle(candidates)
    go = shutil.which("go")
    if go is None:
        print("mutants: `go` not installed")
        return 0
    chosen: dict[Path, str] = {}
    sites = 0
    for f in candidates:
        if len(chosen) >= limit:
            break
        text = f.read_text(encoding="utf-8")
        facts = golang.facts_for(str(f), text)
        names = {(d.fn.id, facts.text_of(d.cancel)) for d in facts.cancel_defs
                 if d.fn is not None and d.cancel.type == "identifier"}
        edits = []
        stmts = [*facts.nodes("defer_statement"),
                 *(c.parent for c in facts.nodes("call_expression")
                   if c.parent is not None and c.parent.type == "expression_statement")]
        for defer in stmts:
            call = next((c for c in defer.named_children if c.type == "call_expression"), None)
            fn_node = call.child_by_field_name("function") if call is not None else None
            args = call.child_by_field_name("arguments") if call is not None else None
            if fn_node is None or fn_node.type != "identifier" or args is None or args.named_child_count:
                continue
            fn = facts.enclosing_function(defer)
            name = facts.text_of(fn_node)
            if fn is None or (fn.id, name) not in names:
                continue
            edits.append((facts.char_offset(defer.start_byte), facts.char_offset(defer.end_byte), f"if false {{ {name}() }}"))
        if not edits:
            continue
        for a, b, t in sorted(edits, reverse=True):
            text = text[:a] + t + text[b:]
        chosen[f] = text
        sites += len(edits)
    with tempfile.TemporaryDirectory() as td:
        overlay = Path(td) / "gopath"
        pkgs = set()
        # Whole repositories go into the overlay: Go allows internal packages and
        # resolves imports only within one GOPATH root.
        for tree in trees:
            if any(f.is_relative_to(tree) for f in chosen):
                shutil.copytree(tree, overlay / "src" / tree.relative_to(GOCODE), symlinks=False,
                                ignore=shutil.ignore_patterns(".git"))
        for f, text in chosen.items():
            rel = f.parent.relative_to(GOCODE)
            (overlay / "src" / rel / f.name).write_text(text)
            pkgs.add(str(rel))
        env = {**os.environ, "GO111MODULE": "off", "GOPATH": f"{overlay}:{GOCODE.parent}",
               "GOCACHE": str(Path(td) / "cache"), "GOFLAGS": "", "GOPROXY": "off", "GOTOOLCHAIN": "local"}
        vet: set[tuple[str, int]] = set()
        ok_pkgs: set[str] = set()
        for pkg in sorted(pkgs):
            proc = subprocess.run([go, "vet", "-lostcancel", f"./{pkg}"], cwd=overlay / "src", env=env,
                                  check=False, capture_output=True, text=True)
            diags, clean = set(), True
            for line in proc.stderr.splitlines():
                m = _VET.match(line.strip())
                if line.startswith("#") or not line.strip():
                    continue
                if m and "cancel" in m.group("msg") and "cannot find package" not in line:
                    if "not used on all paths" in m.group("msg") or "should be called" in m.group("msg"):
                        p = Path(m.group("path"))
                        rel = (Path(pkg) / p.name) if not p.is_absolute() else p
                        diags.add((str(rel), int(m.group("line"))))
                elif line.startswith(("\t", " ")):
                    continue
                else:
                    clean = False
            if clean:
                ok_pkgs.add(pkg)
                vet |= diags
        failed_pkgs = len(pkgs) - len(ok_pkgs)
        chosen = {f: t for f, t in chosen.items() if str(f.parent.relative_to(GOCODE)) in ok_pkgs}
        sites = sum(t.count("if false {") for t in chosen.values())
        ours: set[tuple[str, int]] = set()
        why: dict[tuple[str, int], str] = {}
        vetted_files = set()
        for f, text in chosen.items():
            rel = str(f.relative_to(GOCODE))
            vetted_files.add(rel)
            for x in engine.lint_text(rel, text, "go", rules, Config()):
                if x.code == "CTX101":
                    ours.add((rel, x.line))
                    if "overwritten" in x.message:
                        why[(rel, x.line)] = "by design: overwritten before use (go vet counts the assignment as a use)"
        vet = {v for v in vet if v[0] in vetted_files}
        missed, extra = sorted(vet - ours), sorted(ours - vet)
        print(f"mutants: {len(chosen)} files, {sites} `defer cancel()`/`cancel()` sites turned into `if false {{ cancel() }}`, "
              f"{len(ok_pkgs)} packages vetted ({failed_pkgs} skipped: go vet could not build them); go vet: {len(vet)} diagnostics, "
              f"ctxlint: {len(ours)}; go vet only: {len(missed)}, ctxlint only: {len(extra)}")
        for m in missed:
            print(f"  go vet only: {m[0]}:{m[1]}")
        for m in extra:
            print(f"  ctxlint only: {m[0]}:{m[1]}  {why.get(m, 'UNEXPLAINED')}")
        return len(missed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=0, help="print N random findings (seeded) with their source line")
    ap.add_argument("--all", action="store_true", help="print every finding")
    ap.add_argument("--vet", action="store_true", help="compare with go vet -lostcancel")
    ap.add_argument("--mutants", type=int, default=0,
                    help="mutation differential vs go vet on N real files (see `mutants`)")
    ap.add_argument("--set", choices=("tuning", "measuring", "all"), default="all",
                    help="tuning (grpc, x-net, nats-server) or measuring (etcd, moby, containerd) trees")
    ap.add_argument("--json", metavar="FILE", help="also write every finding (with its line text) as JSON lines")
    ap.add_argument("trees", nargs="*", help=f"subset of {', '.join(TREES)}")
    args = ap.parse_args(argv)
    chosen = {"tuning": list(TUNING), "measuring": list(MEASURING), "all": list(TREES)}[args.set]
    names = args.trees or chosen
    total = Counter()
    all_findings: list[dict] = []
    problems: list[str] = []
    for name in names:
        tree = GOCODE / TREES[name]
        if not tree.is_dir():
            print(f"{name}: {tree} not installed; skipped")
            continue
        stats, findings, probs = run_tree(name, tree)
        problems += probs
        all_findings += findings
        print(json.dumps(stats))
        for k in ("files", "lines", "findings", *GO_CODES):
            total[k] += stats[k]
        total["seconds"] += stats["seconds"]
        if args.vet:
            diags, secs, errors = run_vet(tree)
            ours = {(str(Path(f["path"]).resolve()), f["line"]) for f in findings if f["code"] == "CTX101"}
            at_with = [d for d in diags if "not used on all paths" in d[2] or "should be called" in d[2]]
            missed = [d for d in at_with if (d[0], d[1]) not in ours]
            print(f"  go vet -lostcancel: {len(at_with)} diagnostics at WithX lines in {secs:.1f}s "
                  f"({errors} vet error lines: packages with missing deps); missed by ctxlint: {len(missed)}")
            for d in missed:
                print(f"    missed {d[0]}:{d[1]}: {d[2]}")
    print("TOTAL " + json.dumps(dict(total)))
    if args.mutants:
        disagreements = mutants([GOCODE / TREES[n] for n in names if (GOCODE / TREES[n]).is_dir()], args.mutants)
        if disagreements:
            problems.append(f"mutation differential: go vet reports {disagreements} lost cancels ctxlint misses")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            for f in all_findings:
                try:
                    src = Path(f["path"]).read_text(encoding="utf-8", errors="replace").splitlines()[f["line"] - 1]
                except (OSError, IndexError):
                    src = ""
                fh.write(json.dumps({"code": f["code"], "path": f["path"].replace(str(GOCODE) + "/", ""),
                                     "line": f["line"], "line_text": src.strip(), "message": f["message"]}) + "\n")
    shown = all_findings if args.all else random.Random(4).sample(all_findings, min(args.sample, len(all_findings)))
    for f in sorted(shown, key=lambda f: (f["code"], f["path"], f["line"])):
        try:
            src = Path(f["path"]).read_text(encoding="utf-8", errors="replace").splitlines()[f["line"] - 1].strip()
        except (OSError, IndexError):
            src = ""
        print(f"{f['code']} {f['path'].replace(str(GOCODE) + '/', '')}:{f['line']}: {f['message'][:100]}\n    | {src[:140]}")
    for p in problems:
        print("PROBLEM", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
