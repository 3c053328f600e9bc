"""Shared test helpers: corpus case discovery and expectation parsing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_script(name: str):
    """Import `scripts/<name>.py` (not a package) as the module `ctxlint_<name>`, once."""
    import importlib.util
    import sys
    mod = sys.modules.get(f"ctxlint_{name}")
    if mod is None:
        spec = importlib.util.spec_from_file_location(f"ctxlint_{name}", ROOT / "scripts" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[f"ctxlint_{name}"] = mod  # dataclasses look the module up
        spec.loader.exec_module(mod)
    return mod
CORPUS = ROOT / "corpus"
SHARED_CASES = ROOT.parent / "shared" / "cases"
EXPECT = re.compile(r"expect:\s*(none|(\d+)\s+(CTX\d{3}))", re.IGNORECASE)
CASE_SUFFIXES = {".py", ".go", ".j2", ".jinja", ".jinja2", ".txt", ".tmpl", ".html", ".md"}


def expectations(path: Path) -> set[tuple[str, int, str]] | None:
    """(file, line, code) expected in a case file or every file of a case folder; None if undeclared."""
    files = [path] if path.is_file() else sorted(f for f in path.rglob("*") if f.is_file() and f.suffix in CASE_SUFFIXES)
    declared = False
    out: set[tuple[str, int, str]] = set()
    for f in files:
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines()[:40]:
            for m in EXPECT.finditer(line):
                declared = True
                if m.group(1).lower() != "none":
                    out.add((str(f.resolve()), int(m.group(2)), m.group(3).upper()))
    return out if declared else None


def corpus_cases() -> list[Path]:
    """Every case under corpus/CTX*/{bad,good}/: a file, or a folder for cross-file cases."""
    cases = []
    for rule_dir in sorted(CORPUS.glob("CTX*")):
        for kind in ("bad", "good"):
            d = rule_dir / kind
            if d.is_dir():
                cases.extend(sorted(p for p in d.iterdir() if not p.name.startswith(".") and p.name != "__pycache__"))
    return cases


@pytest.fixture(scope="session")
def default_rules():
    from ctxlint.rules import select_rules
    return select_rules([], [])
