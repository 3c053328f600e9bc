"""The layout the design promises (issue 11): one rule per module, parsing alone in
`languages/`, shared analyses in `semantic/`, and no import cycles among ctxlint's
modules (module-level and function-level imports; `if TYPE_CHECKING:` blocks are
annotations only and do not count)."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

from conftest import ROOT

PKG = ROOT / "ctxlint"


def _modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = p
    return out


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
            typing_only.update(id(x) for x in ast.walk(n))
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for n in ast.walk(tree):
        if id(n) in typing_only:
            continue
        if isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                parts = pkg.split(".")
                base = ".".join(parts[:len(parts) - n.level + 1] + ([base] if base else []))
            cands = [base, *(f"{base}.{a.name}" for a in n.names)]
        elif isinstance(n, ast.Import):
            cands = [a.name for a in n.names]
        else:
            continue
        out.update(c for c in cands if c in mods and c != name)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    mods = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        graph[name] |= _imports(name, path, mods)
    assert _cycles(graph) == []


def test_languages_parse_only():
    """languages/ never imports the semantic layer, the rules or the engine."""
    mods = _modules()
    for name, path in mods.items():
        if name.startswith("ctxlint.languages"):
            bad = {m for m in _imports(name, path, mods)
                   if m.startswith(("ctxlint.semantic", "ctxlint.rules", "ctxlint.engine", "ctxlint.fixers"))}
            assert not bad, (name, bad)


def test_one_rule_per_module_named_after_its_code():
    from ctxlint.rules import all_rules
    per_module: dict[str, list[str]] = defaultdict(list)
    for code, rule in all_rules().items():
        for part in getattr(rule, "parts", {}).values() or [rule]:
            per_module[type(part).__module__].append(code)
    for module, codes in per_module.items():
        assert len(codes) == 1, (module, codes)
        leaf = module.rsplit(".", 1)[-1]
        assert re.fullmatch(rf"{codes[0].lower()}_[a-z0-9_]+", leaf), module
        assert module.split(".")[2] in ("python", "go", "jinja", "common"), module


def test_readme_rule_table_matches_the_registry():
    """README "Rules" says `ctxlint rules` prints its table: every code, name, language
    and summary there is the registry's (a code with no fix reads "—")."""
    import re

    from ctxlint.rules import all_rules
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.groups() for m in re.finditer(
        r"^\| (CTX\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (.*) \|$", readme, re.M)}
    rules = all_rules()
    assert set(rows) == set(rules)
    for code, rule in rules.items():
        _, name, lang, fix, summary = (x.strip() for x in rows[code])
        assert (name, lang) == (rule.name, rule.language), code
        assert summary.replace(" (off by default)", "") == rule.summary, code
        assert (fix == "—") == (rule.fix_safety is None), code
