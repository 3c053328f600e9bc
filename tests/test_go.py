"""Go analysis: the tree-sitter facts and control-flow graph, CTX101/CTX102/CTX201/
CTX202, CTX000, Go suppressions, the byte-range fixes (gofmt-clean, re-lint
clean), and the differential test against `go vet -lostcancel`."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT, SHARED_CASES

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.semantic.go import facts as go
from ctxlint.rules import select_rules
from ctxlint.semantic.go import facts as gofacts

RULES = select_rules([], [])
GO = shutil.which("go")
GOFMT = shutil.which("gofmt")


def lint(src: str, path: str = "x.go"):
    src = textwrap.dedent(src).lstrip("\n")
    return engine.lint_text(path, src, "go", RULES, Config())


def codes(src: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint(src)]


def apply_edits(text: str, edits) -> str:
    """Apply character-range edits, last first (the fix contract)."""
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: e.start] + e.text + text[e.end:]
    return text


# ------------------------------------------------------------------ facts
def test_context_import_names_and_dot_import():
    f = go.facts_for("x.go", 'package p\nimport (\n\tstdctx "context"\n\t_ "embed"\n)\n')
    assert f.context_names == {"stdctx"}
    f = go.facts_for("x.go", 'package p\nimport . "context"\n')
    assert f.context_dot_imported and not f.context_names


def _cfg(src: str):
    f = go.facts_for("x.go", textwrap.dedent(src).lstrip("\n"))
    fn = f.functions[0]
    return f, f.cfg(fn)


def _reaches_end(cfg) -> bool:
    seen, stack = set(), [cfg.blocks[0]]
    while stack:
        b = stack.pop()
        if b.index in seen:
            continue
        seen.add(b.index)
        if b.ret is not None:
            return True
        stack.extend(b.succs)
    return False


@pytest.mark.parametrize("body,returns", [
    ("for {\n\t\tx()\n\t}", False),                          # infinite loop
    ("for {\n\t\tbreak\n\t}", True),                          # broken out of
    ("for i := 0; i < 3; i++ {\n\t}", True),                  # bounded
    ("select {}", False),                                     # blocks forever
    ("select {\n\tcase <-ch:\n\t\tpanic(1)\n\t}", False),     # only case panics
    ("select {\n\tcase <-ch:\n\tdefault:\n\t\tpanic(1)\n\t}", True),
    ("L:\n\tfor {\n\t\tfor {\n\t\t\tbreak L\n\t\t}\n\t}", True),  # labelled break
    ("L:\n\tfor {\n\t\tfor {\n\t\t\tcontinue L\n\t\t}\n\t}", False),
    ("os.Exit(1)", False),
    ("log.Fatalf(\"x\")", False),
    ("t.FailNow()", False),
    ("runtime.Goexit()", False),
    ("goto L\nL:\n\tpanic(0)", False),
    ("switch x {\n\tcase 1:\n\t\tpanic(1)\n\tdefault:\n\t\tpanic(2)\n\t}", False),
    ("switch x {\n\tcase 1:\n\t\tpanic(1)\n\t}", True),     # no default: may skip all cases
    ("switch x {\n\tcase 1:\n\t\tfallthrough\n\tdefault:\n\t\tos.Exit(1)\n\t}", False),
])
def test_cfg_termination(body, returns):
    src = f'package p\nimport ("log"; "os"; "runtime"; "testing")\nfunc f(x int, ch chan int, t *testing.T) {{\n\t{body}\n}}\n'
    _, cfg = _cfg(src)
    assert _reaches_end(cfg) is returns


# ------------------------------------------------------------------ CTX101
def test_cause_variants_and_dot_import():
    src = """
        package p
        import (
        \t"context"
        \t"time"
        )
        func f(p context.Context) {
        \tctx, _ := context.WithCancelCause(p)
        \tctx, _ = context.WithTimeoutCause(ctx, time.Second, nil)
        \t_, c := context.WithDeadlineCause(ctx, time.Now(), nil)
        \tif ctx == nil {
        \t\tc()
        \t}
        }
    """
    assert codes(src) == [(7, "CTX101"), (8, "CTX101"), (9, "CTX101")]
    dot = 'package p\nimport . "context"\nfunc f(p Context) Context {\n\tctx, _ := WithCancel(p)\n\treturn ctx\n}\n'
    assert [(f.line, f.code) for f in engine.lint_text("x.go", dot, "go", RULES, Config())] == [(4, "CTX101")]


def test_main_main_is_exempt_from_paths_but_not_from_discard():
    src = """
        package main
        import "context"
        func main() {
        \tctx, cancel := context.WithCancel(context.Background())
        \tif ctx == nil {
        \t\tcancel()
        \t}
        \tctx2, _ := context.WithCancel(ctx)
        \t_ = ctx2
        }
    """
    assert codes(src) == [(8, "CTX101")]


def test_cancel_of_outer_or_package_variable_is_not_analysed():
    src = """
        package p
        import "context"
        var stop context.CancelFunc
        func start(p context.Context) context.Context {
        \tvar ctx context.Context
        \tctx, stop = context.WithCancel(p)
        \treturn ctx
        }
    """
    assert codes(src) == []


def test_shadowing_declaration_in_nested_block_is_not_an_overwrite():
    src = """
        package p
        import (
        \t"context"
        \t"time"
        )
        func f(p context.Context, slow bool) error {
        \tctx, cancel := context.WithCancel(p)
        \tdefer cancel()
        \tif slow {
        \t\tctx, cancel := context.WithTimeout(ctx, time.Second)
        \t\tdefer cancel()
        \t\treturn ctx.Err()
        \t}
        \treturn ctx.Err()
        }
    """
    assert codes(src) == []


def test_message_names_the_return_line():
    src = """
        package p
        import "context"
        func f(p context.Context, bad bool) error {
        \tctx, cancel := context.WithCancel(p)
        \tif bad {
        \t\treturn ctx.Err()
        \t}
        \tcancel()
        \treturn nil
        }
    """
    [f] = lint(src)
    assert f.code == "CTX101" and f.line == 4 and "line 6" in f.message
    assert f.col == 17  # the context.WithCancel call


def test_non_ascii_columns_and_offsets_are_characters():
    src = 'package p\nimport "context"\n// préfixe: ünïcödé\nfunc f(p context.Context) { /* é */ ctx, _ := context.WithCancel(p); _ = ctx }\n'
    [f] = engine.lint_text("x.go", src, "go", RULES, Config())
    line = src.splitlines()[3]
    assert f.col == line.index("context.WithCancel") + 1
    [rename] = [e for e in f.fix.edits if e.text == "cancel"] if f.fix else [None]
    if rename is not None:
        assert src[rename.start:rename.end] == "_"


# ------------------------------------------------------------------ CTX102
def test_defer_in_goroutine_or_of_outer_cancel_is_not_ctx102():
    src = """
        package p
        import "context"
        func f(p context.Context, xs []int) {
        \tctx, cancel := context.WithCancel(p)
        \tdefer cancel()
        \tfor range xs {
        \t\tdefer cancel()
        \t}
        \tfor range xs {
        \t\tc2, cancel2 := context.WithCancel(ctx)
        \t\tgo func() {
        \t\t\tdefer cancel2()
        \t\t\t<-c2.Done()
        \t\t}()
        \t}
        }
    """
    assert codes(src) == []


# ------------------------------------------------------------------ CTX201 / CTX202
def test_ctx201_declaration_and_store_reported_once():
    src = """
        package p
        import (
        \t"context"
        \t"sync"
        )
        var byID = map[string]context.Context{}
        var any1 sync.Map
        var base = context.TODO()
        func put(ctx context.Context, id string) {
        \tbyID[id] = ctx
        \tany1.LoadOrStore(id, ctx)
        \tv, _ := any1.Load(id)
        \t_ = v
        }
    """
    assert codes(src) == [(6, "CTX201"), (8, "CTX201"), (11, "CTX201")]


def test_ctx202_only_harmful_shapes():
    """A ctx field alone is not a finding; each harmful shape of issue 13 is, in
    maps and slices too; an embedded context (the type is a context) never is."""
    silent = """
        package p
        import "context"
        type S struct {
        \tcancel context.CancelFunc
        \thook   func(context.Context) error
        \tch     chan context.Context
        \tctxs   []context.Context
        \tp      *context.Context
        }
        type W struct {
        \tcontext.Context
        \tctx context.Context
        }
        func (w W) Get(ctx context.Context) error { return use(w.ctx) }
        func use(context.Context) error { return nil }
    """
    assert codes(silent) == []
    harmful = """
        package p
        import (
        \t"context"
        \t"net/http"
        )
        type S struct {
        \tctxs []context.Context
        \tbg   context.Context
        }
        func New() *S { return &S{bg: context.Background()} }
        func (s *S) ServeHTTP(w http.ResponseWriter, r *http.Request) {
        \ts.ctxs = append(s.ctxs, r.Context())
        }
        func (s *S) Run() error { return block(s.bg) }
        func block(context.Context) error { return nil }
    """
    got = lint(harmful)
    assert [(f.line, f.code) for f in got] == [(7, "CTX202"), (8, "CTX202")]
    assert "net/http cancels" in got[0].message and "always `context.Background()`" in got[1].message


def test_ctx202_context_implementation_and_lifetime_pair_are_silent():
    src = """
        package p
        import (
        \t"context"
        \t"time"
        )
        type detached struct{ parent context.Context }
        func (d detached) Deadline() (time.Time, bool) { return time.Time{}, false }
        func (d detached) Done() <-chan struct{}       { return nil }
        func (d detached) Err() error                  { return nil }
        func (d detached) Value(k any) any             { return d.parent.Value(k) }
        func (d detached) Use(ctx context.Context) error { return call(d.parent) }
        type L struct {
        \tctx    context.Context
        \tcancel context.CancelFunc
        }
        func NewL(p context.Context) *L {
        \tctx, cancel := context.WithCancel(p)
        \treturn &L{ctx: ctx, cancel: cancel}
        }
        func (l *L) Close() { l.cancel() }
        func call(context.Context) error { return nil }
    """
    assert codes(src) == []
    never = src.replace("func (l *L) Close() { l.cancel() }", "")
    found = lint(never)
    assert [(f.line, f.code) for f in found] == [(13, "CTX202")]
    assert "nothing in the package calls" in found[0].message


def test_ctx202_derived_and_cancelled_context_stored_by_a_method():
    src = """
        package p
        import "context"
        type S struct{ ctx context.Context }
        func (s *S) cycle(parent context.Context) {
        \tctx, cancel := context.WithCancel(parent)
        \tdefer cancel()
        \ts.ctx = ctx
        }
        func (s *S) keep(ctx context.Context) { s.ctx = ctx }
    """
    found = lint(src)
    assert [(f.line, f.code) for f in found] == [(3, "CTX202")]
    assert "cancels itself" in found[0].message
    # a method merely keeping the context it was given (a setter) is not demonstrably harmful
    assert "CTX202" not in {c for _, c in codes(src.replace("\tdefer cancel()\n", "\tgo wait(cancel)\n"))}


# ------------------------------------------------------------------ CTX000
def test_parse_error_at_first_error_node():
    # (the literal prefilter skips files no rule can fire on, so the text names context)
    src = "package p\n\nimport \"context\"\n\nfunc f(ctx context.Context) {\n\tx := \n}\n\nfunc g( {\n"
    found = engine.lint_text("x.go", src, "go", RULES, Config())
    assert [f.code for f in found] == ["CTX000"]
    assert found[0].line in (6, 7)


def test_valid_file_has_no_parse_error():
    text = (SHARED_CASES / "go" / "08_correct_router_none.go").read_text() if SHARED_CASES.is_dir() else \
        (CORPUS / "CTX101" / "good" / "noreturn_paths.go").read_text()
    assert not [f for f in engine.lint_text("x.go", text, "go", RULES, Config()) if f.code == "CTX000"]


# ------------------------------------------------------------------ suppression
@pytest.mark.parametrize("comment,kept", [
    ("//nolint:ctxlint", False),
    ("//nolint:ctxlint // the caller cancels the parent", False),
    ("// ctxlint:ignore CTX101", False),
    ("//nolint", False),
    ("// ctxlint:ignore CTX102", True),
    ("//nolint:errcheck", True),
])
def test_go_suppressions(comment, kept):
    src = f'package p\nimport "context"\nfunc f(p context.Context) context.Context {{\n\tctx, _ := context.WithCancel(p) {comment}\n\treturn ctx\n}}\n'
    found = engine.lint_text("x.go", src, "go", RULES, Config())
    assert bool(found) is kept


def test_linting_python_does_not_import_tree_sitter(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import asyncio\n\nasync def f():\n    asyncio.create_task(f())\n")
    code = ("import sys\nfrom ctxlint import engine\nfrom ctxlint.config import Config\nfrom ctxlint.rules import select_rules\n"
            f"engine.lint_paths([{str(f)!r}], Config(), select_rules([], []), jobs=1, use_cache=False)\n"
            "assert 'tree_sitter' not in sys.modules and 'tree_sitter_go' not in sys.modules, 'imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ------------------------------------------------------------------ fixes
def _go_cases() -> list[Path]:
    out = sorted(CORPUS.glob("CTX1*/bad/*.go"))
    if (SHARED_CASES / "go").is_dir():
        out += sorted((SHARED_CASES / "go").glob("*.go"))
    return out


def _parses_clean(text: str) -> bool:
    f = go.facts_for("x.go", text)
    return f.first_error is None


def _lint_file_text(text: str):
    return engine.lint_text("case.go", text, "go", RULES, Config())


FIX_CASES = [p for p in _go_cases() if any(f.fix for f in _lint_file_text(p.read_text()))]


@pytest.mark.parametrize("case", FIX_CASES, ids=[p.name for p in FIX_CASES])
def test_each_fix_is_gofmt_clean_and_removes_its_finding(case: Path, tmp_path):
    text = case.read_text()
    before = _lint_file_text(text)
    fixable = [f for f in before if f.fix is not None]
    assert fixable
    for f in fixable:
        assert f.fix.safety == "safe" and f.fix.edits
        new = apply_edits(text, f.fix.edits)
        assert _parses_clean(new), f"fix of {f.code} at line {f.line} breaks the parse:\n{new}"
        after = _lint_file_text(new)
        # The fixed finding is gone, and nothing new appears.
        assert len([g for g in after if g.code == f.code]) == len([g for g in before if g.code == f.code]) - 1, new
        assert {g.code for g in after} <= {g.code for g in before}
        if GOFMT:
            out = tmp_path / case.name
            out.write_text(new)
            res = subprocess.run([GOFMT, "-l", str(out)], check=False, capture_output=True, text=True)
            assert res.returncode == 0 and not res.stdout.strip(), f"gofmt -l flags the fix of line {f.line}:\n{new}"
    # All fixes of the file together (they never overlap).
    edits = [e for f in fixable for e in f.fix.edits]
    spans = sorted((e.start, e.end) for e in edits)
    assert all(a[1] <= b[0] or a == b for a, b in itertools.pairwise(spans)), "fix edits overlap"
    new = apply_edits(text, edits)
    assert _parses_clean(new)
    remaining = _lint_file_text(new)
    assert not [g for g in remaining if g.fix is not None]
    assert len(remaining) == len(before) - len(fixable)


def test_fix_examples():
    """The two fix shapes on small inputs, byte for byte."""
    src = textwrap.dedent("""\
        package p

        import "context"

        func f(p context.Context) error {
        \tctx, _ := context.WithCancel(p)
        \treturn ctx.Err()
        }
        """)
    [f] = _lint_file_text(src)
    assert apply_edits(src, f.fix.edits) == src.replace(
        "\tctx, _ := context.WithCancel(p)\n", "\tctx, cancel := context.WithCancel(p)\n\tdefer cancel()\n")
    loop = textwrap.dedent("""\
        package p

        import "context"

        func f(p context.Context, xs []int) error {
        \tfor _, x := range xs {
        \t\tctx, cancel := context.WithCancel(p)
        \t\tdefer cancel()
        \t\tif x == 0 {
        \t\t\tcontinue
        \t\t}
        \t\t_ = ctx
        \t}
        \treturn nil
        }
        """)
    [f] = _lint_file_text(loop)
    assert f.code == "CTX102"
    assert apply_edits(loop, f.fix.edits) == textwrap.dedent("""\
        package p

        import "context"

        func f(p context.Context, xs []int) error {
        \tfor _, x := range xs {
        \t\tctx, cancel := context.WithCancel(p)
        \t\tif x == 0 {
        \t\t\tcancel()
        \t\t\tcontinue
        \t\t}
        \t\t_ = ctx
        \t\tcancel()
        \t}
        \treturn nil
        }
        """)


def test_no_fix_when_return_still_uses_the_context():
    src = textwrap.dedent("""\
        package p

        import "context"

        func f(p context.Context, xs []int) error {
        \tfor _, x := range xs {
        \t\tctx, cancel := context.WithCancel(p)
        \t\tdefer cancel()
        \t\tif x > 0 {
        \t\t\treturn use(ctx)
        \t\t}
        \t}
        \treturn nil
        }

        func use(ctx context.Context) error { return ctx.Err() }
        """)
    [f] = _lint_file_text(src)
    assert f.code == "CTX102" and f.fix is None


# ------------------------------------------------------------------ go vet differential
#: Why ctxlint may report a CTX101 that go vet does not (by design, see DESIGN.md).
def _by_design_extra(finding, text: str) -> str | None:
    if "overwritten" in finding.message:
        return "cancel overwritten (loop iteration or reassignment) before use"
    if "is handed only to" in finding.message and "stops it" in finding.message:
        return "cancel armed on a timer (time/context.AfterFunc) that the function stops before returning"
    m = re.search(r"cancel function `(\w+)`", finding.message)
    if m and re.search(rf"^\s*_\s*=\s*{re.escape(m.group(1))}\s*$", text, re.MULTILINE):
        return f"`_ = {m.group(1)}` is not a use"
    return None


#: Why go vet may report a CTX101 that ctxlint does not (by design, see the rule's doc).
_BY_DESIGN_MISSES = {
    "test": "test code: the leak lasts one test run at most",
    "root": "a WithCancel child of a root context, unused before its cancel func is lost: nothing leaks",
    "guard": "created and called under the same unchanged guard (`if lock != nil`): the lost path cannot run",
}


def _by_design_miss(facts, line: int) -> str | None:
    from ctxlint.rules.go.ctx101_lost_cancel import _costs_nothing
    from ctxlint.semantic.go.cancel import lost_cancel_path, stable_guard

    if facts.is_test_code:
        return _BY_DESIGN_MISSES["test"]
    for d in facts.cancel_defs:
        if d.call.start_point[0] + 1 != line or d.fn is None or d.cancel.type != "identifier":
            continue
        name = facts.text_of(d.cancel)
        if name == "_":
            lost_at = None
        else:
            res = lost_cancel_path(facts, facts.cfg(d.fn), d, name)
            lost_at = res[1] if res else None
        if _costs_nothing(facts, d, lost_at):
            return _BY_DESIGN_MISSES["root"]
        if name != "_" and lost_at is None and stable_guard(facts, d) is not None:
            return _BY_DESIGN_MISSES["guard"]
    return None


_VET_LINE = re.compile(r"^(?:\./)?(case\d+)/([^:]+\.go):(\d+):(\d+): (.*)$")


def go_vet_lostcancel(files: list[Path], workdir: Path) -> dict[Path, list[tuple[int, str]]]:
    """Run `go vet -lostcancel` over each file, each its own package in one throw-away
    module under `workdir` (GOPATH/GOCACHE inside it, no network). Returns file ->
    [(line, message)]. Raises AssertionError when vet cannot type-check a file."""
    mod = workdir / "mod"
    mod.mkdir()
    (mod / "go.mod").write_text("module example.com/vetcases\n\ngo 1.21\n")
    names: dict[str, Path] = {}
    for i, f in enumerate(files):
        d = mod / f"case{i}"
        d.mkdir()
        shutil.copy(f, d / f.name)
        names[f"case{i}"] = f
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOPATH": str(workdir / "gopath"),
           "GOCACHE": str(workdir / "gocache"), "GOPROXY": "off", "GOSUMDB": "off",
           "GO111MODULE": "on", "GOTOOLCHAIN": "local", "GOWORK": "off"}
    res = subprocess.run([GO, "vet", "-lostcancel", "./..."], cwd=mod, env=env,
                         check=False, capture_output=True, text=True, timeout=600)
    out: dict[Path, list[tuple[int, str]]] = {f: [] for f in files}
    for line in res.stderr.splitlines():
        m = _VET_LINE.match(line.strip())
        if m:
            out[names[m.group(1)]].append((int(m.group(3)), m.group(5)))
        elif line.startswith("#") or not line.strip():
            continue
        else:
            raise AssertionError(f"go vet could not check the corpus: {line}\n{res.stderr[-2000:]}")
    assert res.returncode in (0, 1, 2), res.stderr
    return out


@pytest.mark.skipif(GO is None, reason="`go` is not installed (apt-get install golang-go); "
                    "the go vet lostcancel differential test needs it")
def test_differential_against_go_vet_lostcancel(tmp_path, capsys):
    files = sorted(CORPUS.glob("CTX*/*/*.go")) + [ROOT / "tests" / "fixtures" / "go_cfg_edges.go"]
    vet = go_vet_lostcancel(files, tmp_path)
    missed, extras, unexplained, by_design_misses = [], [], [], []
    vet_count = 0
    for f in files:
        text = f.read_text()
        facts = go.facts_for(str(f), text)
        with_lines = {d.call.start_point[0] + 1 for d in facts.cancel_defs}
        ours = [x for x in engine.lint_text(str(f), text, "go", RULES, Config()) if x.code == "CTX101"]
        our_lines = {x.line for x in ours}
        vet_lines = {ln for ln, _ in vet[f] if ln in with_lines}
        vet_count += len(vet_lines)
        for ln in sorted(vet_lines - our_lines):
            why = _by_design_miss(facts, ln)
            (by_design_misses if why else missed).append((f.name, ln, why) if why else (f.name, ln))
        for x in ours:
            if x.line in vet_lines:
                continue
            why = _by_design_extra(x, text)
            (extras if why else unexplained).append((f.name, x.line, why or x.message))
    with capsys.disabled():
        print(f"\n[go vet differential] {len(files)} files, go vet lostcancel diagnostics at WithX lines: "
              f"{vet_count}, missed by ctxlint: {len(missed)}, ctxlint-only: {len(extras) + len(unexplained)}")
        for name, line, why in extras + unexplained:
            print(f"  ctxlint-only {name}:{line}: {why}")
        for name, line, why in by_design_misses:
            print(f"  go-vet-only {name}:{line}: {why}")
    assert vet_count > 0, "the corpus must exercise go vet's lostcancel"
    assert not missed, f"go vet reports these, ctxlint does not: {missed}"
    assert not unexplained, f"ctxlint reports these beyond go vet without a by-design reason: {unexplained}"
    assert extras, "the corpus must show the by-design extras (`_ = cancel`, overwritten in a loop)"
    assert {why for _, _, why in by_design_misses} == set(_BY_DESIGN_MISSES.values()), \
        "the corpus must show each by-design miss (test code, an unused root child)"


@pytest.mark.skipif(GO is None, reason="`go` is not installed (apt-get install golang-go); "
                    "type-checking the fixed files needs it")
def test_fixed_files_type_check_and_pass_go_vet(tmp_path):
    """Apply every fix of every fixable case at once: the result compiles (go vet
    type-checks it), go vet's lostcancel has nothing to say, and gofmt is happy."""
    src_dir = tmp_path / "fixed"
    src_dir.mkdir()
    fixed = []
    for i, case in enumerate(FIX_CASES):
        text = case.read_text()
        edits = [e for f in _lint_file_text(text) if f.fix for e in f.fix.edits]
        out = src_dir / f"f{i}_{case.name}"
        out.write_text(apply_edits(text, edits))
        fixed.append(out)
    if GOFMT:
        res = subprocess.run([GOFMT, "-l", *map(str, fixed)], check=False, capture_output=True, text=True)
        assert not res.stdout.strip(), res.stdout
    vet_dir = tmp_path / "vet"
    vet_dir.mkdir()
    vet = go_vet_lostcancel(fixed, vet_dir)
    for f, diags in vet.items():
        text = f.read_text()
        left = {g.line for g in _lint_file_text(text) if g.code == "CTX101"}
        with_lines = {d.call.start_point[0] + 1 for d in go.facts_for("x.go", text).cancel_defs}
        vet_lines = {ln for ln, _ in diags if ln in with_lines}
        # go vet only still reports what ctxlint reports and could not fix safely.
        assert vet_lines <= left, (f.name, diags)
        assert not [g for g in _lint_file_text(text) if g.fix], f.name


@pytest.mark.parametrize("tail,fixable", [
    ("\treturn ctx\n", False),                                        # the caller owns the context
    ("\treturn metadata(ctx)\n", True),                               # a result computed with it
    ("\tr = r.WithContext(ctx)\n\treturn r\n", False),                # derived request escapes
    ("\tgo work(ctx)\n\treturn nil\n", False),                        # a goroutine keeps using it
    ("\tholder.ctx = ctx\n\treturn nil\n", False),                    # stored
])
def test_discard_fix_only_when_the_context_stays_in_the_function(tail, fixable):
    src = ("package p\n\nimport \"context\"\n\ntype R struct{ ctx context.Context }\n\nvar holder R\n\n"
           "func (r *R) WithContext(ctx context.Context) *R { return &R{ctx} }\n\n"
           "func metadata(ctx context.Context) *R { return nil }\n\nfunc work(ctx context.Context) {}\n\n"
           "func f(p context.Context, r *R) interface{} {\n\tctx, _ := context.WithCancel(p)\n" + tail + "}\n")
    found = [f for f in _lint_file_text(src) if f.code == "CTX101"]
    assert len(found) == 1 and (found[0].fix is not None) is fixable


# ------------------------------------------------------------------ robustness and real input
def test_mangled_go_never_crashes():
    """Random deletions and insertions in real cases: lint returns findings, never raises."""
    import random
    rng = random.Random(7)
    texts = [p.read_text() for p in sorted(CORPUS.glob("CTX*/*/*.go"))[:12]]
    for text in texts:
        for _ in range(25):
            i = rng.randrange(len(text))
            j = min(len(text), i + rng.randrange(1, 40))
            mangled = text[:i] + rng.choice(["", "{", "}", "(", "func", "\n", "é", "for {", "defer cancel()"]) + text[j:]
            found = engine.lint_text("m.go", mangled, "go", RULES, Config())
            assert all(f.line >= 1 and f.col >= 1 for f in found)


def test_deeply_nested_go_does_not_crash():
    body = "if x {\n" * 400 + "}\n" * 400
    src = f'package p\nimport "context"\nfunc f(x bool, p context.Context) {{\n{body}}}\n'
    assert engine.lint_text("deep.go", src, "go", RULES, Config()) == []
    # Deep nesting does not stop the analysis: a discarded cancel above it is still found.
    src = f'package p\nimport "context"\nfunc f(x bool, p context.Context) {{\nctx, _ := context.WithCancel(p)\n{body}_ = ctx\n}}\n'
    assert [(f.line, f.code) for f in engine.lint_text("deep.go", src, "go", RULES, Config())] == [(4, "CTX101")]


GATEWAY = Path("/usr/share/gocode/src/github.com/grpc-ecosystem/grpc-gateway/runtime")


@pytest.mark.skipif(not GATEWAY.is_dir(), reason="Debian's golang-github-grpc-ecosystem-grpc-gateway-dev is not installed")
def test_real_go_package_no_crash_no_parse_error():
    res = engine.lint_paths([str(GATEWAY)], Config(root=GATEWAY), RULES, jobs=1, use_cache=False)
    assert not res.internal_errors, res.notices
    assert res.files >= 10
    assert not [f for f in res.findings if f.code == "CTX000"]
    # go vet -lostcancel reports this one too (the timeout's cancel func is discarded).
    assert ("context.go", 111, "CTX101") in {(Path(f.path).name, f.line, f.code) for f in res.findings}


def test_inner_variable_of_the_same_name_is_not_a_use_of_the_outer():
    """A `cancel` redeclared in a loop body (or a func literal parameter) is another
    variable: calling it does not use the outer cancel func (go vet knows by types)."""
    src = textwrap.dedent("""\
        package p

        import "context"

        func f(p context.Context, n int) {
        \tpctx, cancel := context.WithCancel(p)
        \tfor i := 0; i < n; i++ {
        \t\tctx, cancel := context.WithCancel(pctx)
        \t\tdefer cancel()
        \t\t_ = ctx
        \t}
        \tgo func(cancel func()) {
        \t\tcancel()
        \t}(nil)
        }
        """)
    assert [(f.line, f.code) for f in _lint_file_text(src)] == [(6, "CTX101"), (9, "CTX102")]


def test_control_flow_edges_agree_with_go_vet():
    """goto loops, labelled break out of select, type switch without default,
    t.Cleanup(cancel), a cancel sent in a select case (evaluated on entry), return
    from a range loop, deferred conditional cancel, panic paths, immediately
    called closures, loop-carried cancels: the WithX lines go vet -lostcancel
    reports for tests/fixtures/go_cfg_edges.go (recorded with Go 1.19)."""
    text = (ROOT / "tests" / "fixtures" / "go_cfg_edges.go").read_text()
    found = sorted(f.line for f in engine.lint_text("edges.go", text, "go", RULES, Config()) if f.code == "CTX101")
    assert found == [15, 31, 45, 69, 80, 125, 131]


GOLDEN_GO = ROOT / "tests" / "fixtures" / "go_fix"
GOLDEN_CASES = sorted(GOLDEN_GO.glob("*.expected.go"))


@pytest.mark.parametrize("expected", GOLDEN_CASES, ids=[p.name for p in GOLDEN_CASES])
def test_go_fix_golden(expected: Path):
    """Applying every fix of a corpus case gives the reviewed file byte for byte
    (tests/fixtures/go_fix/<CODE>_<case>.expected.go)."""
    code, stem = expected.name.removesuffix(".expected.go").split("_", 1)
    case = CORPUS / code / "bad" / f"{stem}.go"
    text = case.read_text()
    edits = [e for f in _lint_file_text(text) if f.fix for e in f.fix.edits]
    assert apply_edits(text, edits) == expected.read_text()
    # idempotence: the fixed file has nothing left to fix
    assert not [f for f in _lint_file_text(expected.read_text()) if f.fix]


def test_discard_fix_inside_a_loop_cancels_per_iteration():
    """In a loop, `defer cancel()` would be CTX102: the fix calls cancel() where the
    iteration's block is left instead."""
    src = textwrap.dedent("""\
        package p

        import "context"

        func run(p context.Context, xs []int) int {
        \tn := 0
        \tfor _, x := range xs {
        \t\tctx, _ := context.WithCancel(p)
        \t\tif ctx.Err() != nil || x == 0 {
        \t\t\tcontinue
        \t\t}
        \t\tn++
        \t}
        \treturn n
        }
        """)
    [f] = _lint_file_text(src)
    fixed = apply_edits(src, f.fix.edits)
    assert fixed == src.replace("ctx, _ :=", "ctx, cancel :=").replace(
        "\t\t\tcontinue\n", "\t\t\tcancel()\n\t\t\tcontinue\n").replace("\t\tn++\n", "\t\tn++\n\t\tcancel()\n")
    assert _lint_file_text(fixed) == []


# ------------------------------------------------------------------ CTX102 escape
@pytest.mark.parametrize("tail,reported,fixable", [
    ("streams = append(streams, s)", False, False),  # a stream built from the ctx, kept and read after the loop
    ("kept[i] = s", False, False),                   # ... or stored in an element
    ("go s.Recv()", False, False),                   # ... or handed to a goroutine
    ("ch <- s", False, False),                       # ... or sent to a consumer
    ("out <- k", True, True),                        # a string sent on is plain data
    ("errs = append(errs, err)", True, True),        # an error does not keep the context
    ("n += len(k)", True, True),                     # plain data
])
def test_ctx102_silent_only_when_the_context_escapes_the_loop(tail, reported, fixable):
    src = f"""
        package p
        import "context"
        type Stream interface{{ Recv() (string, error) }}
        type C interface{{ Watch(ctx context.Context, k string) (Stream, error) }}
        func f(ctx context.Context, c C, keys []string, ch chan Stream, out chan string) {{
        \tvar streams []Stream
        \tvar errs []error
        \tkept := make([]Stream, len(keys))
        \tn := 0
        \tfor i, k := range keys {{
        \t\twctx, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\ts, err := c.Watch(wctx, k)
        \t\t_, _, _, _ = i, s, err, n
        \t\t{tail}
        \t}}
        \tfor _, x := range streams {{
        \t\t_, _ = x.Recv()
        \t}}
        \t_, _ = kept[0].Recv()
        \t_ = errs
        }}
    """
    found = [f for f in lint(src) if f.code == "CTX102"]
    assert bool(found) is reported
    if found:
        assert (found[0].fix is not None) is fixable


def test_ctx102_message_counts_static_iterations_and_skips_test_files():
    src = """
        package p
        import "context"
        func f(ctx context.Context, call func(context.Context) error) {
        \tconst tries = 3
        \tfor i := 0; i < tries; i++ {
        \t\tc, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\t_ = call(c)
        \t}
        \tfor _, d := range []int{1, 2} {
        \t\tc, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\t_ = call(c)
        \t\t_ = d
        \t}
        }
    """
    found = [f for f in lint(src) if f.code == "CTX102"]
    assert [f.line for f in found] == [7, 12]
    assert "the 3 context.WithCancel contexts" in found[0].message
    assert "the 2 context.WithCancel contexts" in found[1].message
    assert not [f for f in lint(src, path="x_test.go") if f.code == "CTX102"]


def _fix_all(src: str, path: str = "x.go") -> str:
    from ctxlint.fixers import fix_text
    text = textwrap.dedent(src).lstrip("\n")
    return fix_text(path, text, "go", engine.lint_text(path, text, "go", RULES, Config()), unsafe=False)


def test_ctx102_fix_renames_a_reused_cancel_and_fixes_all_in_one_run():
    """issue 12: one cancel variable reused by two WithX calls gets a name per
    context (else `cancel()` at the end would end the second and leak the first),
    and one --fix run applies every fixable finding (three loops in one function)."""
    src = (CORPUS / "CTX102" / "bad" / "bounded_retries.go").read_text()
    fixed = _fix_all(src)
    assert fixed == (GOLDEN_GO / "rounds" / "CTX102_bounded_retries.expected.go").read_text()
    after = engine.lint_text("x.go", fixed, "go", RULES, Config())
    assert not [f for f in after if f.code in ("CTX101", "CTX102")]
    three = """
        package p
        import "context"
        func f(ctx context.Context, xs []int, use func(context.Context)) {
        \tfor range xs {
        \t\ta, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\tuse(a)
        \t}
        \tfor range xs {
        \t\tb, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\tuse(b)
        \t}
        \tfor range xs {
        \t\tc, cancel := context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\tuse(c)
        \t}
        }
    """
    fixed = _fix_all(three)
    assert "defer cancel()" not in fixed and fixed.count("\t\tcancel()\n") == 3


def test_ctx102_fix_declines_when_the_reused_cancel_cannot_be_renamed():
    src = """
        package p
        import "context"
        func f(ctx context.Context, xs []int, use func(context.Context) error) error {
        \tvar cancel context.CancelFunc
        \tfor range xs {
        \t\tvar a, b context.Context
        \t\ta, cancel = context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\t_ = use(a)
        \t\tb, cancel = context.WithCancel(ctx)
        \t\tdefer cancel()
        \t\t_ = use(b)
        \t}
        \treturn nil
        }
    """
    found = [f for f in lint(src) if f.code == "CTX102"]
    assert [f.line for f in found] == [8, 11]
    assert found[0].fix is None  # `=` form: renaming would need a new declaration


# ------------------------------------------------------------------ CTX201 message
def test_ctx201_root_context_message_says_what_is_true():
    found = lint('package p\nimport "context"\nvar testCtx = context.Background()\n')
    assert [f.code for f in found] == ["CTX201"]
    assert "root context" in found[0].message and "outlives the request" not in found[0].message


# ------------------------------------------------------------------ CTX206 (Go)
def test_ctx206_exemptions():
    src = """
        package p
        import (
        \t"context"
        \t"net/http"
        )
        type B interface{ Do(ctx context.Context) error }
        func H(b B) http.HandlerFunc {
        \treturn func(w http.ResponseWriter, r *http.Request) {
        \t\t_ = b.Do(context.Background())
        \t}
        }
        func M(ctx context.Context, b B) error {
        \tdefer b.Do(context.Background())
        \tif err := b.Do(ctx); err != nil {
        \t\t_ = b.Do(context.TODO())
        \t\treturn err
        \t}
        \tcb := func() { _ = b.Do(context.Background()) }
        \tgo b.Do(context.Background())
        \t_ = cb
        \t<-ctx.Done()
        \treturn b.Do(context.Background())
        }
        func N(ctx context.Context, b B) error {
        \t// nolint:contextcheck // the flush must outlive the request
        \treturn b.Do(context.Background())
        }
        func client(req *http.Request, b B) error { return b.Do(context.Background()) }
    """
    assert [(f.line, f.code) for f in lint(src) if f.confidence == "high"] == [(9, "CTX206")]
    # a documented detachment makes the finding latent, not silent (issue 34)
    assert [(f.line, f.code) for f in lint(src) if f.confidence == "low"] == [(26, "CTX206")]
    assert not [f for f in lint(src, path="h_test.go") if f.code == "CTX206"]


def test_ctx206_without_cancel_suggested_only_from_go_1_21(tmp_path):
    src = textwrap.dedent("""
        package p
        import "context"
        type B interface{ Do(ctx context.Context) error }
        func F(ctx context.Context, b B) error { return b.Do(context.TODO()) }
        func G(ctx context.Context, b B) { go b.Do(context.Background()) }
    """).lstrip("\n")
    for version, suggested, goroutine in (("1.17", False, False), ("1.21", True, True)):
        d = tmp_path / version
        d.mkdir()
        (d / "go.mod").write_text(f"module example.com/p\n\ngo {version}\n")
        (d / "p.go").write_text(src)
        found = [f for f in engine.lint_text(str(d / "p.go"), src, "go", RULES, Config()) if f.code == "CTX206"]
        assert found[0].line == 4
        assert ("context.WithoutCancel(ctx)" in found[0].message) is suggested
        assert (len(found) == 2) is goroutine  # before 1.21 a goroutine has no better choice


# ------------------------------------------------------------------ layout
def test_languages_go_is_parsing_only():
    """issue 11: ctxlint/languages/go.py parses; the facts live in semantic/go."""
    text = (ROOT / "ctxlint" / "languages" / "go.py").read_text()
    assert "class GoFacts" not in text and "class CFG" not in text and "def build_cfg" not in text
    assert isinstance(go.facts_for("x.go", "package p\n"), gofacts.GoFacts)
    assert not (ROOT / "ctxlint" / "rules" / "go_context.py").exists()
    mods = sorted(p.name for p in (ROOT / "ctxlint" / "rules" / "go").glob("ctx*.py"))
    assert mods == ["ctx101_lost_cancel.py", "ctx102_defer_cancel_in_loop.py", "ctx201_context_in_global.py",
                    "ctx202_context_in_struct.py", "ctx206_context_not_propagated_go.py",
                    "ctx207_request_context_outlives_handler.py"]


def test_ctx101_loop_fix_declines_when_the_context_outlives_its_iteration():
    """issue 12: a per-iteration cancel would end a stream kept after the loop."""
    src = """
        package p
        import "context"
        type S interface{ Recv() error }
        type C interface{ Open(ctx context.Context) (S, error) }
        func f(ctx context.Context, c C, n []int) []S {
        \tvar out []S
        \tfor range n {
        \t\tsctx, _ := context.WithCancel(ctx)
        \t\ts, err := c.Open(sctx)
        \t\tif err != nil {
        \t\t\tcontinue
        \t\t}
        \t\tout = append(out, s)
        \t}
        \treturn out
        }
    """
    found = [f for f in lint(src) if f.code == "CTX101"]
    assert [f.line for f in found] == [8] and found[0].fix is None
    assert lint(src.replace("out = append(out, s)", "_ = s.Recv()"))[0].fix is not None


def test_never_done_parents_follow_the_context_package():
    """`semantic.go.ctx.never_done`: WithoutCancel (Go 1.21, so not in the go vet
    corpus, which runs Go 1.19) has a nil Done(), under a renamed import; a WithValue of
    a caller's context does not, so its child's lost cancel func is still reported."""
    src = textwrap.dedent("""\
        package p

        import stdctx "context"

        func use(stdctx.Context) {}

        func f(parent stdctx.Context, early bool) {
        	a, ca := stdctx.WithCancel(stdctx.WithoutCancel(parent))
        	if early {
        		return
        	}
        	defer ca()
        	use(a)
        }

        func g(parent stdctx.Context, early bool) {
        	b, cb := stdctx.WithCancel(stdctx.WithValue(parent, 1, 2))
        	if early {
        		return
        	}
        	defer cb()
        	use(b)
        }
        """)
    found = sorted(f.line for f in lint(src) if f.code == "CTX101")
    assert found == [17], found


def test_test_code_is_not_checked_by_the_go_server_rules():
    """`GoFacts.is_test_code`: a `_test.go` file, a gofuzz harness and a helper that
    imports a test driver are test code; the same bytes elsewhere are not (and the
    engine's cache keys on the path, so the second lint is not served the first's)."""
    body = textwrap.dedent("""\
        package p

        import (
        	"context"
        	"time"
        )

        func Ctx() context.Context {
        	ctx, _ := context.WithTimeout(context.Background(), time.Second)
        	return ctx
        }
        """)
    assert [f.line for f in lint(body) if f.code == "CTX101"] == [9]
    assert not [f for f in lint(body, path="x_test.go") if f.code == "CTX101"]
    fuzz = "//go:build gofuzz\n// +build gofuzz\n\n" + body
    assert not [f for f in lint(fuzz) if f.code == "CTX101"]
    notfuzz = "//go:build !gofuzz\n\n" + body
    assert [f.code for f in lint(notfuzz)] == ["CTX101"]
    helper = body.replace('\t"time"\n', '\t"time"\n\n\t"github.com/stretchr/testify/require"\n')
    helper += "\nvar _ = require.NoError\n"
    assert not [f for f in lint(helper) if f.code == "CTX101"]
