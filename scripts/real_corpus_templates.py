#!/usr/bin/env python3
"""Real template corpus: PyPI packages that ship Jinja templates and the code that renders them.

    python scripts/real_corpus_templates.py fetch        # pip download + unpack into realcorpus/templates/
    python scripts/real_corpus_templates.py run          # ctxlint CTX3xx over each package, counts per code
    python scripts/real_corpus_templates.py run --show   # ... and every finding, for review

`fetch` runs `pip download --no-deps --only-binary=:all:` for each pinned package
and unpacks the wheel's Python files and template files (.j2/.jinja/.jinja2/.html/
.htm/.xml/.txt/.md/.tpl) under realcorpus/templates/<name>/ (git-ignored). `run` lints
each package directory with `ctxlint check --select CTX3,CTX000 --no-cache
--output-format json`, so loader directories resolved from the packages' own
`FileSystemLoader`/`PackageLoader` calls are linted as Jinja too, and prints per
package the files, template files and findings per code. Exit 1 when ctxlint crashed
or printed something other than the JSON contract.

PACKAGES is the tuning set. HELD_OUT (haystack-ai, llama-index-core) belongs to the
blind precision review and is fetched or run only with `--held-out`: never tune the
rules on it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEST = ROOT / "realcorpus" / "templates"
CTXLINT = [sys.executable, "-m", "ctxlint"]

#: name -> pinned requirement; each ships Jinja templates and renders them (or renders
#: user/model-supplied template text): LangChain prompt classes (f-string and jinja2
#: PromptTemplate), Outlines' prompt templates, Banks (a prompt language on Jinja),
#: pdoc and nbconvert (HTML page templates through FileSystemLoader/PackageLoader),
#: pytest-html (HTML report), MkDocs (HTML themes). This is the TUNING set.
PACKAGES: dict[str, str] = {
    "langchain-core": "langchain-core==1.8.1",
    "outlines": "outlines==1.3.3",
    "banks": "banks==2.5.1",
    "pdoc": "pdoc==16.0.0",
    "nbconvert": "nbconvert==7.17.2",
    "pytest-html": "pytest-html==4.2.0",
    "mkdocs": "mkdocs==1.6.1",
}
#: Kept apart for the blind precision review (the team's measuring set): never tune
#: rules on these. Fetched and run only when named on the command line with
#: `--held-out` (Haystack's PromptBuilder/ChatPromptBuilder, LlamaIndex prompt templates).
HELD_OUT: dict[str, str] = {
    "haystack-ai": "haystack-ai==3.4.1",
    "llama-index-core": "llama-index-core==0.14.25",
}
KEEP = (".py", ".j2", ".jinja", ".jinja2", ".html", ".htm", ".xml", ".txt", ".md", ".tpl", ".json")


def fetch(names: list[str]) -> int:
    wheels = DEST / "_wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    (DEST / "ctxlint.toml").write_text("# default settings for the real template corpus\n")
    rc = 0
    for name in names:
        target = DEST / name
        if target.is_dir() and any(target.iterdir()):
            print(f"{name}: already unpacked")
            continue
        stem = name.replace("-", "_").lower() + "-"
        have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem)]
        if not have:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "-d", str(wheels), PACKAGES[name]]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{name}: pip download failed:\n{r.stderr[-1500:]}")
                rc = 1
                continue
            have = [w for w in wheels.glob("*.whl") if w.name.lower().startswith(stem)]
        with zipfile.ZipFile(have[0]) as zf:
            n = 0
            for info in zf.infolist():
                if info.is_dir() or not info.filename.lower().endswith(KEEP) or ".dist-info/" in info.filename:
                    continue
                out = target / info.filename
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(zf.read(info))
                n += 1
        print(f"{name}: {have[0].name}: {n} files")
    return rc


def run(names: list[str], show: bool) -> int:
    total: Counter = Counter()
    rc = 0
    for name in names:
        target = DEST / name
        if not target.is_dir():
            print(f"{name}: not fetched (run `fetch` first)")
            rc = 1
            continue
        py = sum(1 for _ in target.rglob("*.py"))
        tpl = sum(1 for p in target.rglob("*") if p.suffix.lower() in (".j2", ".jinja", ".jinja2", ".html", ".htm", ".xml", ".tpl"))
        t0 = time.perf_counter()
        proc = subprocess.run([*CTXLINT, "check", "--select", "CTX3,CTX000", "--no-cache", "--output-format", "json",
                               str(target)], capture_output=True, text=True, cwd=DEST)
        dt = time.perf_counter() - t0
        if proc.returncode not in (0, 1):
            print(f"{name}: ctxlint exited {proc.returncode}\n{proc.stderr[-2000:]}")
            rc = 1
            continue
        try:
            findings = json.loads(proc.stdout or "[]")
        except json.JSONDecodeError:
            print(f"{name}: not JSON:\n{proc.stdout[:1000]}")
            rc = 1
            continue
        counts = Counter(f["code"] for f in findings)
        total.update(counts)
        summary = ", ".join(f"{c} {n}" for c, n in sorted(counts.items())) or "no findings"
        print(f"{name}: {py} .py, {tpl} template files, {dt:.1f}s: {summary}")
        if proc.stderr.strip():
            for line in proc.stderr.strip().splitlines()[:5]:
                print(f"    stderr: {line}")
        if show:
            for f in findings:
                rel = Path(f["path"]).resolve().relative_to(target.resolve())
                print(f"    {rel}:{f['line']}:{f['col']}: {f['code']} {f['message'][:160]}")
    print("total: " + (", ".join(f"{c} {n}" for c, n in sorted(total.items())) or "no findings"))
    return rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=("fetch", "run"))
    ap.add_argument("names", nargs="*", help="packages (default: all of PACKAGES)")
    ap.add_argument("--show", action="store_true", help="print every finding")
    ap.add_argument("--held-out", action="store_true",
                    help="allow the held-out measuring packages (HELD_OUT); never tune on them")
    args = ap.parse_args()
    if args.held_out:
        PACKAGES.update(HELD_OUT)
    names = args.names or [n for n in PACKAGES if n not in HELD_OUT]
    unknown = [n for n in names if n not in PACKAGES]
    if unknown:
        ap.error(f"unknown package(s): {', '.join(unknown)}")
    return fetch(names) if args.command == "fetch" else run(names, args.show)


if __name__ == "__main__":
    sys.exit(main())
