"""The rule manifest (`ctxlint/rules/_manifest.py`) and lazy rule loading.

The engine selects and prefilters rules from the manifest and imports a rule
module only for a file that can trigger it (`ctxlint.rules.RuleRef`). The rule
classes stay the one source of truth: the manifest is generated from them, and
these tests fail when the two disagree.

IF A TEST HERE FAILS after you changed a rule's code, name, language, summary,
`tokens`, `default` or `fix_safety`, or added, renamed or removed a rule module,
regenerate the manifest (then re-run the tests):

    python -m ctxlint.rules --write-manifest
"""

from __future__ import annotations

import difflib
import json
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import ROOT

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import (
    MANIFEST_FIELDS,
    REGENERATE,
    RuleRef,
    all_rules,
    get_rule,
    manifest_rows,
    render_manifest,
    rule_index,
    select_rules,
)

MANIFEST = ROOT / "ctxlint" / "rules" / "_manifest.py"
COMBINED = ("code", "name", "language", "summary", "tokens", "fix_safety", "default")


def _stale_rows(have_text: str) -> list[str]:
    """Lines saying which rows of the committed manifest differ from the classes."""
    ns: dict = {}
    exec(compile(have_text, str(MANIFEST), "exec"), ns)  # the committed file, as data
    have = {(r[0], r[1]): r for r in ns.get("RULES", ())}
    want = {(r[0], r[1]): r for r in manifest_rows()}
    out = []
    for key in sorted(set(have) | set(want)):
        a, b = have.get(key), want.get(key)
        if a is None:
            out.append(f"  {key[0]} ({key[1]}): missing from the manifest")
        elif b is None:
            out.append(f"  {key[0]} ({key[1]}): in the manifest, but no rule class defines it")
        elif a != b:
            diff = [f"{f}: {x!r} -> {y!r}" for f, x, y in zip(MANIFEST_FIELDS, a, b, strict=True) if x != y]
            out.append(f"  {key[0]} ({key[1]}): " + "; ".join(diff))
    return out


def test_manifest_is_up_to_date():
    have = MANIFEST.read_text(encoding="utf-8")
    want = render_manifest()
    if have != want:
        rows = _stale_rows(have) or ["  (formatting only)"]
        diff = "".join(difflib.unified_diff(have.splitlines(True), want.splitlines(True),
                                            "ctxlint/rules/_manifest.py", "generated", n=0))
        raise AssertionError(
            f"ctxlint/rules/_manifest.py is out of date with the rule classes. Regenerate it:\n\n"
            f"    {REGENERATE}\n\nWhat differs:\n" + "\n".join(rows) + "\n\n" + diff[:4000])


def test_check_manifest_command_reports_staleness(tmp_path):
    """`python -m ctxlint.rules --check-manifest` exits 0 on the committed tree (1 when stale)."""
    proc = subprocess.run([sys.executable, "-m", "ctxlint.rules", "--check-manifest"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_rule_refs_describe_the_rules_exactly():
    """Every registered code has a RuleRef, and what it answers without importing
    equals what the imported rule says (LanguageDispatch's combined values for CTX206)."""
    rules = all_rules()
    index = rule_index()
    assert list(index) == list(rules), "codes differ: " + REGENERATE
    for code, rule in rules.items():
        ref = index[code]
        for attr in COMBINED:
            assert getattr(ref, attr) == getattr(rule, attr), (code, attr, REGENERATE)
        assert ref.rule is rule
        assert ref.doc == rule.doc  # read through to the imported rule


def test_select_rules_is_the_same_selection_as_the_classes(monkeypatch):
    """select_rules over the manifest picks what it picks over the imported classes."""
    import ctxlint.rules as registry
    cases = [([], [], []), (["CTX1"], ["CTX107"], []), (["ALL"], [], []), ([], ["CTX5"], ["CTX001"]),
             (["CTX206", "CTX001"], [], []), (["CTX2"], ["CTX20"], ["CTX206"])]
    lazy = [[r.code for r in select_rules(*c)] for c in cases]
    monkeypatch.setattr(registry, "rule_index", all_rules)
    assert lazy == [[r.code for r in select_rules(*c)] for c in cases]


def test_lazy_rules_find_what_imported_rules_find():
    """The engine with RuleRefs (lazy) and with the imported rule objects reports the
    same findings on the corpus cases of a Go+Python code (CTX206), a Python+Jinja
    code (CTX302) and two Python codes."""
    codes = ["CTX000", "CTX107", "CTX206", "CTX302", "CTX401"]
    lazy = select_rules(codes, [])
    assert all(isinstance(r, RuleRef) for r in lazy)
    real = [all_rules()[c] for c in codes]
    paths = [str(ROOT / "corpus" / c) for c in codes[1:]]
    cfg = Config(root=ROOT)
    key = lambda res: sorted((f.path, f.line, f.col, f.code, f.message) for f in res.findings)  # noqa: E731
    a = engine.lint_paths(paths, cfg, lazy, jobs=1, use_cache=False)
    b = engine.lint_paths(paths, cfg, real, jobs=1, use_cache=False)
    assert key(a) == key(b)
    assert {f.code for f in a.findings} >= {"CTX107", "CTX206", "CTX302", "CTX401"}


def test_stale_modules_are_found_by_size_and_content(tmp_path):
    """A rule module whose size differs, or whose content differs and which was
    written after the manifest, is stale; a new module (not in SOURCES) is too."""
    import os

    from ctxlint.rules import _manifest, _stale_modules
    sources = dict(_manifest.SOURCES)
    mod = "ctxlint.rules.python.ctx107_task_reference_discarded"
    stamp = tmp_path / "manifest.py"
    stamp.write_text("")
    os.utime(stamp, ns=(0, 0))  # every source is newer than this manifest: all are hashed
    assert mod not in _stale_modules(sources, str(stamp))
    size, digest = sources[mod]
    assert mod in _stale_modules({**sources, mod: (size + 1, digest)}, str(stamp))
    assert mod in _stale_modules({**sources, mod: (size, "0" * 16)}, str(stamp))
    later = 2**62  # a manifest written after every source: same size means current (no read)
    os.utime(stamp, ns=(later, later))
    assert mod not in _stale_modules({**sources, mod: (size, "0" * 16)}, str(stamp))
    # A source a few seconds newer than the manifest was written with it (a checkout):
    # trusted; one modified well after it is read.
    src = os.path.join(os.path.dirname(_manifest.__file__), "python", mod.rsplit(".", 1)[1] + ".py")
    t = os.stat(src).st_mtime_ns
    os.utime(stamp, ns=(t - 5 * 10**9, t - 5 * 10**9))
    changed = {**sources, mod: (size, "0" * 16)}
    assert mod not in _stale_modules(changed, str(stamp))
    os.utime(stamp, ns=(t - 60 * 10**9, t - 60 * 10**9))
    assert mod in _stale_modules(changed, str(stamp))
    del sources[mod]
    assert mod in _stale_modules(sources, str(stamp))


def test_a_stale_manifest_never_loses_a_rule(monkeypatch):
    """A rule edited after the manifest was generated (here: CTX107's tokens as the
    manifest records them are wrong) is described by its class, not by the manifest."""
    import ctxlint.rules as registry
    from ctxlint.rules import _manifest
    mod = "ctxlint.rules.python.ctx107_task_reference_discarded"
    rows = [(*r[:4], ("no-such-token",), *r[5:]) if r[0] == "CTX107" else r for r in _manifest.RULES]
    size, digest = _manifest.SOURCES[mod]
    monkeypatch.setattr(_manifest, "RULES", tuple(rows))
    monkeypatch.setattr(_manifest, "SOURCES", {**_manifest.SOURCES, mod: (size + 1, digest)})
    monkeypatch.setattr(registry, "_INDEX", {})
    ref = registry.rule_index()["CTX107"]
    assert ref.tokens == all_rules()["CTX107"].tokens != ("no-such-token",)
    src = "import asyncio\n\nasync def f(c):\n    asyncio.create_task(c)\n"
    assert [f.code for f in engine.lint_text("t.py", src, "python", [ref], Config())] == ["CTX107"]


def test_a_changed_semantic_module_refreshes_every_rule(monkeypatch):
    """CTX501's tokens live in `semantic.python.keys` (KEY_TOKENS): when a semantic
    module differs from the manifest, every rule is described by its class."""
    import ctxlint.rules as registry
    from ctxlint.rules import _manifest
    mod = "ctxlint.semantic.python.keys"
    assert mod in _manifest.SOURCES
    rows = [(*r[:4], ("no-such-token",), *r[5:]) if r[0] == "CTX501" else r for r in _manifest.RULES]
    size, digest = _manifest.SOURCES[mod]
    monkeypatch.setattr(_manifest, "RULES", tuple(rows))
    monkeypatch.setattr(_manifest, "SOURCES", {**_manifest.SOURCES, mod: (size + 1, digest)})
    monkeypatch.setattr(registry, "_INDEX", {})
    assert registry.rule_index()["CTX501"].tokens == all_rules()["CTX501"].tokens != ("no-such-token",)


def test_rule_ref_pickles_to_the_same_ref():
    ref = rule_index()["CTX107"]
    assert pickle.loads(pickle.dumps(ref)) is ref
    assert repr(ref) == "<CTX107 task-reference-discarded>"


def test_get_rule_returns_the_imported_rule():
    assert get_rule("ctx107") is all_rules()["CTX107"]
    assert get_rule("CTX206").parts.keys() == {"go", "python"}
    assert get_rule("CTX999") is None


def _run(code: str, cwd: Path) -> dict:
    """Run `code` in a fresh interpreter; its last stdout line is JSON."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_check_of_one_file_imports_only_the_rules_it_can_trigger(tmp_path):
    """`ctxlint check one.py` in a fresh process imports the rule modules whose
    tokens the file contains (and their analyses), no Go or template rule, and none
    of the heavy libraries a one-file text report does not use."""
    (tmp_path / "one.py").write_text(textwrap.dedent("""\
        import asyncio

        async def handler(coro):
            asyncio.create_task(coro)
    """))
    got = _run("""
        import sys
        before = set(sys.modules)
        import io, contextlib
        from ctxlint.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            rc = main(["check", "one.py", "--no-cache", "--min-confidence", "low"])
        new = sorted(set(sys.modules) - before)
        import json
        print(json.dumps({"rc": rc, "mods": new}))
    """, tmp_path)
    mods = set(got["mods"])
    assert got["rc"] == 1  # the discarded task is found: CTX107 ran
    rule_mods = {m for m in mods if m.startswith("ctxlint.rules.") and m.count(".") == 3}
    assert "ctxlint.rules.python.ctx107_task_reference_discarded" in rule_mods
    # Python rules whose tokens the file lacks, and every Go and Jinja rule, stay unimported.
    assert not {m for m in rule_mods if ".go." in m or ".jinja." in m}, rule_mods
    assert "ctxlint.rules.python.ctx103_contextvar_not_reset" not in rule_mods
    assert len(rule_mods) < 8, rule_mods
    heavy = {"jinja2", "tree_sitter", "libcst", "rich", "pathspec", "pygls", "json", "hashlib",
             "ctxlint.semantic.go.facts", "ctxlint.semantic.jinja.call_sites", "ctxlint.fixers",
             "ctxlint.report.sarif_report"}
    assert not (mods & heavy), mods & heavy


def test_for_language_imports_one_part(tmp_path):
    """CTX206 has a Go and a Python half: a Python file imports the Python half only."""
    got = _run("""
        import json, sys
        from ctxlint.rules import rule_index
        part = rule_index()["CTX206"].for_language("python")
        print(json.dumps({"lang": part.language, "mods": sorted(sys.modules)}))
    """, tmp_path)
    assert got["lang"] == "python"
    assert "ctxlint.rules.python.ctx206_context_not_propagated" in got["mods"]
    assert "ctxlint.rules.go.ctx206_context_not_propagated_go" not in got["mods"]
