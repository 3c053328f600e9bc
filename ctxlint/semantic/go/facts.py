"""`GoFacts`: the per-file facts every Go rule reads (go/analysis's shared passes).

One tree-sitter query (run in C) builds a node-type index; everything else is
derived lazily, on first use, and cached for the file:

- `imports`, `context_names`: the local names of imports (renamed imports such as
  `stdctx "context"` included; a dot import makes the bare names count);
- `functions`: every function declaration, method and function literal with a body;
- `cfg(fn)`: a function's control-flow graph (`semantic.go.cfg`);
- `cancel_defs`: every `ctx, cancel := context.WithX(...)` in the three
  assignment forms, with its enclosing function;
- `package_vars`, `struct_fields`, `methods_of(type)`;
- `is_context_type(t)` / `is_context_value(e, fn)`: what a type node or an
  expression evidently is (no type checker);
- `visible_decl(ident)`: the declaration an identifier refers to (Go's lexical scoping).

Escape facts live in `semantic.go.escape`, ctx-in-scope facts in `semantic.go.ctx`.

Offsets: tree-sitter works on UTF-8 bytes; every offset handed to a `Finding` or
an `Edit` is converted to a character offset into the decoded text (`char_offset`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from ctxlint.config import Config
from ctxlint.findings import Finding, Fix
from ctxlint.languages.go import (
    FUNC_TYPES,
    INDEXED_TYPES,
    parse_error,
    query,
    recover,
)
from ctxlint.semantic.go.cfg import CFG, build_cfg, is_noreturn_call
from ctxlint.semantic.go.ctx import CANCEL_CONSTRUCTORS, CONTEXT_PRODUCERS


#: Import paths only test code imports (`GoFacts.is_test_code`): the standard library's
#: test driver and the test frameworks of the Go ecosystem (testify, ginkgo/gomega,
#: gocheck, quicktest, gotest.tools). "testing/fstest" and the like count as "testing/...".
TEST_IMPORTS = (
    "testing",
    "github.com/stretchr/testify",
    "github.com/onsi/ginkgo",
    "github.com/onsi/gomega",
    "gopkg.in/check.v1",
    "github.com/frankban/quicktest",
    "gotest.tools",
)


# ------------------------------------------------------------- cancel defs
@dataclass
class CancelDef:
    """One `context.WithX` call whose cancel func is bound by an assignment.

    stmt: the short_var_declaration / assignment_statement / var_spec node.
    call: the call_expression node (findings are reported here).
    func: the constructor's name ("WithTimeout").
    ctx: the node receiving the context (identifier, `_`, or another expression).
    cancel: the node receiving the cancel func.
    fn: the innermost enclosing function node (declaration, method or literal).
    form: ":=", "=" or "var".
    """

    stmt: object
    call: object
    func: str
    ctx: object
    cancel: object
    fn: object
    form: str

    @property
    def cancel_name(self) -> str | None:
        """The cancel variable's name, or None when the cancel func goes to a field or element."""
        return self.cancel.text.decode("utf-8", "replace") if self.cancel.type == "identifier" else None


# ------------------------------------------------------------------ scopes
def _declares_name(facts, node, name: str) -> bool:
    """Does statement/initializer `node` declare `name` (`:=`, `var`, range `:=`)?"""
    t = node.type
    if t in ("short_var_declaration", "range_clause", "receive_statement"):
        if t != "short_var_declaration" and not any(c.type == ":=" for c in node.children):
            return False
        left = node.child_by_field_name("left")
        return left is not None and any(c.type == "identifier" and facts.text_of(c) == name for c in left.named_children)
    if t in ("var_declaration", "const_declaration"):
        return any(facts.text_of(n) == name for spec in facts.walk(node) if spec.type in ("var_spec", "const_spec")
                   for n in spec.children_by_field_name("name"))
    return False


def _declared_names(facts, node) -> list[str]:
    """The names statement `node` declares (`:=`, `var`, `const`); see `_declares_name`."""
    t = node.type
    if t == "short_var_declaration":
        left = node.child_by_field_name("left")
        return [facts.text_of(c) for c in left.named_children if c.type == "identifier"] if left is not None else []
    if t in ("var_declaration", "const_declaration"):
        return [facts.text_of(n) for spec in facts.walk(node) if spec.type in ("var_spec", "const_spec")
                for n in spec.children_by_field_name("name")]
    return []


def _list_declarations(facts, stmts) -> dict[str, object]:
    """name -> the first statement of statement list `stmts` that declares it (cached
    per list: scoping lookups stay linear in the size of a function)."""
    def build():
        out: dict[str, object] = {}
        for st in stmts.named_children:
            for n in _declared_names(facts, st):
                out.setdefault(n, st)
        return out
    return facts.memo(f"decls:{stmts.id}", build)


def _params_declare(facts, fn, name: str) -> bool:
    for fld in ("receiver", "parameters", "result"):
        pl = fn.child_by_field_name(fld)
        if pl is not None and pl.type == "parameter_list" and any(
                facts.text_of(n) == name for pd in pl.named_children for n in pd.children_by_field_name("name")):
            return True
    return False


def _visible_decl(facts, ident):
    """The node declaring the variable `ident` refers to, by Go's lexical scoping:
    the first earlier statement of an enclosing block that declares the name
    (`:=`, `var`), an if/for/switch/select-case initializer, or a function whose
    parameters or results do. None when it is declared outside every enclosing
    function (a package var). No type checker needed."""
    name = facts.text_of(ident)
    for a in facts.ancestors(ident):
        t = a.type
        if t == "statement_list":
            st = _list_declarations(facts, a).get(name)
            if st is not None and st.start_byte <= ident.start_byte \
                    and (st.end_byte <= ident.start_byte or facts.is_inside(ident, st)):
                return st
        elif t in ("if_statement", "expression_switch_statement", "type_switch_statement"):
            init = a.child_by_field_name("initializer")
            if init is not None and _declares_name(facts, init, name):
                return init
        elif t == "for_statement":
            for c in a.named_children:
                init = c.child_by_field_name("initializer") if c.type == "for_clause" else (c if c.type == "range_clause" else None)
                if init is not None and _declares_name(facts, init, name):
                    return init
        elif t == "communication_case":
            comm = a.child_by_field_name("communication")
            if comm is not None and _declares_name(facts, comm, name):
                return comm
        elif t in FUNC_TYPES:
            if _params_declare(facts, a, name):
                return a
            if t != "func_literal":
                return None
    return None



# ------------------------------------------------------------------ facts
class GoFacts:
    """Per-file facts for Go rules.

    Args:
        path: the path to report in findings.
        text: the decoded, LF-normalised source.
        src: `text` encoded as UTF-8 (what tree-sitter parsed).
        tree: the tree-sitter `Tree`.
        config: the resolved `Config`.

    Every property is computed on first use and cached; rules use these instead of
    walking the tree themselves (`nodes(type)` is the node-type index, built by one
    tree-sitter query over the file).
    """

    language = "go"

    def __init__(self, path: str, text: str, src: bytes, tree, config: Config, recovered=None):
        self.path = path
        self.text = text
        self.src = src
        self.tree = tree
        self.root = tree.root_node
        self.config = config
        #: `languages.go.Recovered`: what of the file did not parse (None: parsed as a whole)
        self.recovered = recovered
        self._memo: dict[str, object] = {}
        self._by_type: dict[str, list] = {}

    # ------------------------------------------------------------ basics
    def nodes(self, *types: str) -> list:
        """All nodes of the given tree-sitter types, in document (pre-)order.

        The index is built by one tree-sitter query (run in C) for every type in
        INDEXED_TYPES on first use; a type outside that set costs one more query.
        """
        missing = [t for t in types if t not in self._by_type]
        if missing:
            if not self._by_type:
                missing = sorted(set(missing) | INDEXED_TYPES)
            self._index(missing)
        if len(types) == 1:
            return self._by_type[types[0]]
        out: list = []
        for t in types:
            out.extend(self._by_type[t])
        out.sort(key=lambda n: (n.start_byte, -n.end_byte))
        return out

    def _index(self, types: list[str]) -> None:
        captures = query(tuple(types)).captures(self.root)
        for t in types:
            found = captures.get(t, [])
            found.sort(key=lambda n: (n.start_byte, -n.end_byte))
            self._by_type[t] = found

    def memo(self, key: str, compute: Callable[[], object]):
        """Cache a derived fact under `key`."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def text_of(self, node) -> str:
        """The source text of `node` (decoded from the UTF-8 bytes tree-sitter saw)."""
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    @cached_property
    def _ascii(self) -> bool:
        return self.text.isascii()

    @cached_property
    def _line_starts(self) -> tuple[list[int], list[int]]:
        """Per line: (byte offset, char offset) of its first character."""
        bstarts, cstarts = [0], [0]
        b = c = 0
        for ln in self.text.splitlines(keepends=True):
            b += len(ln.encode("utf-8"))
            c += len(ln)
            bstarts.append(b)
            cstarts.append(c)
        return bstarts, cstarts

    def char_offset(self, byte_offset: int) -> int:
        """Character offset into `text` of a UTF-8 byte offset into `src`."""
        if self._ascii:
            return byte_offset
        return len(self.src[:byte_offset].decode("utf-8", "ignore"))

    def char_col(self, point) -> int:
        """0-based character column of a tree-sitter (row, byte column) point."""
        row, bcol = point
        if self._ascii:
            return bcol
        bstarts = self._line_starts[0]
        start = bstarts[row] if row < len(bstarts) else len(self.src)
        return len(self.src[start:start + bcol].decode("utf-8", "ignore"))

    def line_text(self, row: int) -> str:
        """The text of 0-based line `row`, without its newline."""
        lines = self.lines
        return lines[row] if 0 <= row < len(lines) else ""

    @cached_property
    def lines(self) -> list[str]:
        """The decoded text split into lines (without newlines)."""
        return self.text.split("\n")

    def line_start_char(self, row: int) -> int:
        """Character offset of the first character of 0-based line `row`."""
        return self._line_starts[1][row]

    def indent_of(self, node) -> str:
        """Leading whitespace of the line `node` starts on."""
        line = self.line_text(node.start_point[0])
        return line[: len(line) - len(line.lstrip(" \t"))]

    def starts_line(self, node) -> bool:
        """Is `node` the first thing on its line (only whitespace before it)?"""
        line = self.line_text(node.start_point[0])
        return not line[: self.char_col(node.start_point)].strip()

    def ends_line(self, node) -> bool:
        """Is `node` the last thing on its line (only whitespace after it)?"""
        row = node.end_point[0]
        line = self.line_text(row)
        return not line[self.char_col(node.end_point):].strip()

    # ------------------------------------------------------------ structure
    @staticmethod
    def ancestors(node) -> Iterator:
        """The parents of `node`, innermost first."""
        p = node.parent
        while p is not None:
            yield p
            p = p.parent

    def enclosing_function(self, node):
        """The innermost function declaration, method or func literal containing `node`.

        Found by byte range among the file's functions (`_functions`, sorted by start),
        not by walking `.parent`: tree-sitter's `parent` descends from the root, so a walk
        up from a node `d` levels deep costs O(d²) (10,000 nested loops: 12 s for one call,
        issue 37 #10)."""
        import bisect
        funcs, starts = self._functions
        i = bisect.bisect_right(starts, node.start_byte) - 1
        while i >= 0:
            f = funcs[i]
            if f.start_byte <= node.start_byte and node.end_byte <= f.end_byte and f != node:
                return f
            i -= 1
        return None

    @cached_property
    def _functions(self) -> tuple[list, list]:
        """(function nodes sorted by start byte, their start bytes)."""
        funcs = sorted(self.nodes(*FUNC_TYPES), key=lambda n: (n.start_byte, -n.end_byte))
        return funcs, [f.start_byte for f in funcs]

    @staticmethod
    def is_inside(node, outer) -> bool:
        """Does `node`'s byte range lie within `outer`'s?"""
        return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte

    def walk(self, node, into_funcs: bool = True) -> Iterator:
        """Named nodes of a subtree in document order (optionally not entering func literals)."""
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            if n is not node and not into_funcs and n.type == "func_literal":
                continue
            stack.extend(reversed(n.named_children))

    def identifiers(self, node, name: str) -> Iterator:
        """`identifier` nodes named `name` under `node` (a cheap byte search first)."""
        if name.encode() not in self.src[node.start_byte:node.end_byte]:
            return
        for n in self.walk(node):
            if n.type == "identifier" and self.text_of(n) == name:
                yield n

    @cached_property
    def package_name(self) -> str:
        """The name in the file's `package` clause ('' when absent)."""
        for pc in self.nodes("package_clause"):
            for c in pc.named_children:
                if c.type == "package_identifier":
                    return self.text_of(c)
        return ""

    @cached_property
    def first_error(self):
        """The first ERROR or MISSING node that `languages.go.recover` could not
        confine to a function body (what CTX000 reports), or None."""
        return self.recovered.error if self.recovered is not None else None

    @property
    def unchecked(self) -> list[tuple[int, str]]:
        """(1-based line, label) of each declaration left out because its text does not
        parse (syntax the grammar does not know, or a broken body): no rule saw it.
        The label names it ("function `f`")."""
        rec = self.recovered
        return [(row + 1, name) for _, _, row, name in rec.skipped] if rec is not None else []

    # ------------------------------------------------------------ imports
    @cached_property
    def imports(self) -> dict[str, str]:
        """Local name -> import path ("." for dot imports keyed by path)."""
        out: dict[str, str] = {}
        for spec in self.nodes("import_spec"):
            p = spec.child_by_field_name("path")
            if p is None:
                continue
            path = self.text_of(p).strip('"`')
            name = spec.child_by_field_name("name")
            if name is None:
                out[path.rsplit("/", 1)[-1]] = path
            elif name.type == "dot":
                out["." + path] = path
            elif name.type != "blank_identifier":
                out[self.text_of(name)] = path
        return out

    @cached_property
    def is_test_code(self) -> bool:
        """Is this file test code: a `_test.go` file, a fuzz harness (`//go:build gofuzz`,
        go-fuzz's convention), or a test helper that imports a test driver (`TEST_IMPORTS`:
        "testing", testify, ginkgo/gomega, gocheck, quicktest, gotest.tools)?

        A leak in test code lasts one test binary's run at most, and a test has no request
        to propagate; the Go rules about long-lived servers (CTX101, CTX102, CTX201, CTX202,
        CTX206) do not check it. Production code that imports "testing" (`testing.Testing()`)
        is rare enough to accept the miss; go vet's lostcancel still covers tests.
        """
        if self.path.endswith("_test.go"):
            return True
        pkg = next((c for c in self.root.named_children if c.type == "package_clause"), None)
        head = self.src[:pkg.start_byte] if pkg is not None else b""
        for line in head.decode("utf-8", "replace").splitlines():
            s = line.strip()
            if (s.startswith("//go:build") or s.startswith("// +build")) and "gofuzz" in s and "!gofuzz" not in s:
                return True
        return any(p == t or p.startswith(t + "/") for p in self.imports.values() for t in TEST_IMPORTS)

    @cached_property
    def context_names(self) -> frozenset[str]:
        """Local package names of the "context" import (e.g. {"context"}, {"stdctx"})."""
        return frozenset(k for k, v in self.imports.items() if v == "context" and not k.startswith("."))

    @cached_property
    def context_dot_imported(self) -> bool:
        """Is "context" dot-imported (so bare `Background()`, `Context` name its API)?"""
        return ".context" in self.imports

    def context_func(self, fn_node) -> str | None:
        """If `fn_node` (a call's function) names a function of package context, its name."""
        if fn_node is None:
            return None
        if fn_node.type == "selector_expression":
            op = fn_node.child_by_field_name("operand")
            fld = fn_node.child_by_field_name("field")
            if op is not None and fld is not None and op.type == "identifier" and self.text_of(op) in self.context_names:
                return self.text_of(fld)
        elif fn_node.type == "identifier" and self.context_dot_imported:
            return self.text_of(fn_node)
        return None

    def is_noreturn_call(self, expr) -> bool:
        """Is `expr` a call that never returns (see `semantic.go.cfg.is_noreturn_call`)?"""
        return is_noreturn_call(self, expr)

    # ------------------------------------------------------------ types
    def is_context_type(self, t) -> bool:
        """Does type node `t` hold a context.Context (itself, or in a map, slice,
        array or pointer)? Function types, channel types, `context.CancelFunc`
        and nested struct types (their own fields are checked) do not count."""
        if t is None:
            return False
        ty = t.type
        if ty == "qualified_type":
            pkg = t.child_by_field_name("package")
            name = t.child_by_field_name("name")
            return (pkg is not None and name is not None and self.text_of(pkg) in self.context_names
                    and self.text_of(name) == "Context")
        if ty == "type_identifier":
            return self.context_dot_imported and self.text_of(t) == "Context"
        if ty == "map_type":
            return self.is_context_type(t.child_by_field_name("key")) or self.is_context_type(t.child_by_field_name("value"))
        if ty in ("slice_type", "array_type", "implicit_length_array_type"):
            return self.is_context_type(t.child_by_field_name("element"))
        if ty in ("pointer_type", "parenthesized_type"):
            return any(self.is_context_type(c) for c in t.named_children)
        if ty == "generic_type":
            args = t.child_by_field_name("type_arguments")
            return args is not None and any(self.is_context_type(c) for c in self.walk(args) if c is not args)
        if ty == "type_elem":
            return any(self.is_context_type(c) for c in t.named_children)
        return False

    def is_context_value(self, expr, fn=None) -> bool:
        """Is expression `expr` evidently a context.Context (no type checker)?

        Calls to context.Background/TODO/WithValue/WithoutCancel/WithX (first
        result), `x.Context()` (http.Request, gRPC streams), a composite literal of
        a context-holding type, or an identifier bound in `fn` to one of these or
        declared with a context type.
        """
        if expr is None:
            return False
        t = expr.type
        if t == "parenthesized_expression":
            return any(self.is_context_value(c, fn) for c in expr.named_children)
        if t == "call_expression":
            f = expr.child_by_field_name("function")
            name = self.context_func(f)
            if name in CONTEXT_PRODUCERS:
                return True
            if f is not None and f.type == "selector_expression":
                fld = f.child_by_field_name("field")
                args = expr.child_by_field_name("arguments")
                if fld is not None and self.text_of(fld) == "Context" and args is not None and args.named_child_count == 0:
                    return True
            return False
        if t == "composite_literal":
            return self.is_context_type(expr.child_by_field_name("type"))
        if t == "identifier" and fn is not None:
            name = self.text_of(expr)
            return bool(self.memo(f"ctxident:{fn.id}:{name}", lambda: self._identifier_is_context(name, fn)))
        return False

    def _identifier_is_context(self, name: str, fn) -> bool:
        for n in self.walk(fn, into_funcs=True):
            ty = n.type
            if ty == "parameter_declaration":
                if any(c.type == "identifier" and self.text_of(c) == name for c in n.children_by_field_name("name")) \
                        and self.is_context_type(n.child_by_field_name("type")):
                    return True
            elif ty in ("short_var_declaration", "assignment_statement"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is None or right is None:
                    continue
                lefts, rights = left.named_children, right.named_children
                for i, l in enumerate(lefts):
                    if l.type == "identifier" and self.text_of(l) == name:
                        if len(rights) == len(lefts) and self.is_context_value(rights[i], None):
                            return True
                        if len(rights) == 1 and i == 0 and self.is_context_value(rights[0], None):
                            return True
            elif ty == "var_spec":
                names = [c for c in n.children_by_field_name("name")]
                if any(self.text_of(c) == name for c in names):
                    if self.is_context_type(n.child_by_field_name("type")):
                        return True
                    val = n.child_by_field_name("value")
                    if val is not None and val.named_children and self.is_context_value(val.named_children[0], None):
                        return True
        return False

    def visible_decl(self, ident):
        """The node declaring the variable `ident` refers to, by Go's lexical scoping
        (see `_visible_decl`), or None for a package-level name."""
        return _visible_decl(self, ident)

    # ------------------------------------------------------------ functions
    @cached_property
    def functions(self) -> list:
        """Function declarations, methods and func literals that have a body."""
        return [f for f in self.nodes(*FUNC_TYPES) if f.child_by_field_name("body") is not None]

    def cfg(self, fn) -> CFG | None:
        """The control-flow graph of function node `fn` (cached)."""
        return self.memo(f"cfg:{fn.id}", lambda: build_cfg(self, fn))  # type: ignore[return-value]

    def is_main_main(self, fn) -> bool:
        """Is `fn` the `main` function of package main?"""
        if fn.type != "function_declaration" or self.package_name != "main":
            return False
        name = fn.child_by_field_name("name")
        return name is not None and self.text_of(name) == "main"

    def named_results(self, fn) -> set[str]:
        """Names of `fn`'s named results."""
        res = fn.child_by_field_name("result")
        out: set[str] = set()
        if res is not None and res.type == "parameter_list":
            for p in res.named_children:
                for n in p.children_by_field_name("name"):
                    out.add(self.text_of(n))
        return out

    def declares(self, fn, name: str) -> bool:
        """Is `name` declared in `fn` itself (parameter, result, receiver, `:=`, var,
        range `:=`), not counting nested func literals?"""
        for fld in ("receiver", "parameters", "result"):
            pl = fn.child_by_field_name(fld)
            if pl is not None and pl.type == "parameter_list":
                for p in pl.named_children:
                    if any(self.text_of(n) == name for n in p.children_by_field_name("name")):
                        return True
        body = fn.child_by_field_name("body")
        if body is None:
            return False
        for n in self.walk(body, into_funcs=False):
            ty = n.type
            if ty == "short_var_declaration" or (ty == "range_clause" and any(c.type == ":=" for c in n.children)):
                left = n.child_by_field_name("left")
                if left is not None and any(c.type == "identifier" and self.text_of(c) == name for c in left.named_children):
                    return True
            elif ty in ("var_spec", "const_spec"):
                if any(self.text_of(c) == name for c in n.children_by_field_name("name")):
                    return True
            elif ty == "receive_statement" and any(c.type == ":=" for c in n.children):
                left = n.child_by_field_name("left")
                if left is not None and any(self.text_of(c) == name for c in left.named_children):
                    return True
        return False

    @cached_property
    def cancel_defs(self) -> list[CancelDef]:
        """Every context.WithX call whose two results are bound by `:=`, `=` or `var`."""
        out: list[CancelDef] = []
        for call in self.nodes("call_expression"):
            name = self.context_func(call.child_by_field_name("function"))
            if name not in CANCEL_CONSTRUCTORS:
                continue
            parent = call.parent
            if parent is None or parent.type != "expression_list" or parent.named_child_count != 1:
                continue
            stmt = parent.parent
            if stmt is None:
                continue
            if stmt.type in ("short_var_declaration", "assignment_statement"):
                if stmt.child_by_field_name("right") != parent:
                    continue
                op = stmt.child_by_field_name("operator")
                if stmt.type == "assignment_statement" and op is not None and self.text_of(op) != "=":
                    continue
                left = stmt.child_by_field_name("left")
                targets = left.named_children if left is not None else []
                form = ":=" if stmt.type == "short_var_declaration" else "="
            elif stmt.type == "var_spec":
                targets = list(stmt.children_by_field_name("name"))
                form = "var"
            else:
                continue
            if len(targets) != 2:
                continue
            fn = self.enclosing_function(stmt)
            out.append(CancelDef(stmt, call, name, targets[0], targets[1], fn, form))
        return out

    # ------------------------------------------------------------ package scope
    @cached_property
    def package_vars(self) -> list:
        """var_spec nodes of package-level `var` declarations."""
        out = []
        for decl in self.root.named_children:
            if decl.type != "var_declaration":
                continue
            for c in decl.named_children:
                if c.type == "var_spec":
                    out.append(c)
                elif c.type == "var_spec_list":
                    out.extend(s for s in c.named_children if s.type == "var_spec")
        return out

    @cached_property
    def package_var_names(self) -> dict[str, object]:
        """Package-level var name -> its var_spec node."""
        out: dict[str, object] = {}
        for spec in self.package_vars:
            for n in spec.children_by_field_name("name"):
                out[self.text_of(n)] = spec
        return out

    @cached_property
    def struct_fields(self) -> list:
        """field_declaration nodes of every struct type (named, anonymous, local)."""
        return [f for f in self.nodes("field_declaration")
                if f.parent is not None and f.parent.type == "field_declaration_list"
                and f.parent.parent is not None and f.parent.parent.type == "struct_type"]

    @cached_property
    def struct_types(self) -> dict[str, object]:
        """Name -> struct_type node of every named struct type declared in the file."""
        out: dict[str, object] = {}
        for f in self.struct_fields:
            st = f.parent.parent
            spec = st.parent
            if spec is not None and spec.type == "type_spec":
                n = spec.child_by_field_name("name")
                if n is not None:
                    out.setdefault(self.text_of(n), st)
        return out

    def receiver(self, fn) -> tuple[str | None, str | None]:
        """(receiver name, receiver base type name) of a method declaration
        (`func (s *Server) ...` -> ("s", "Server")); (None, None) otherwise."""
        if fn is None or fn.type != "method_declaration":
            return None, None
        pl = fn.child_by_field_name("receiver")
        p = next((c for c in pl.named_children if c.type == "parameter_declaration"), None) if pl is not None else None
        if p is None:
            return None, None
        name = next((self.text_of(c) for c in p.children_by_field_name("name")), None)
        t = p.child_by_field_name("type")
        while t is not None and t.type in ("pointer_type", "generic_type", "parenthesized_type"):
            t = t.child_by_field_name("type") or (t.named_children[0] if t.named_children else None)
        return name, (self.text_of(t) if t is not None and t.type == "type_identifier" else None)

    @cached_property
    def methods_by_type(self) -> dict[str, list]:
        """Receiver base type name -> its method declarations in this file."""
        out: dict[str, list] = {}
        for m in self.nodes("method_declaration"):
            _, t = self.receiver(m)
            if t is not None:
                out.setdefault(t, []).append(m)
        return out

    # ------------------------------------------------------------ findings
    def finding(self, rule, node, message: str, fix: Fix | None = None, end=None,
                confidence: str = "high", trace=()) -> Finding:
        """A Finding for `rule` at `node`'s range (1-based lines and character columns).

        Args:
            confidence: "high" (manifest) or "low" (latent), see `ctxlint.findings.HIGH`.
            trace: the evidence, as `TraceStep`s or `(node_or_line, message)` pairs
                (a tree-sitter node of this file, or a 1-based line number).
        """
        end_node = end or node
        return Finding(
            code=rule.code,
            name=rule.name,
            path=self.path,
            line=node.start_point[0] + 1,
            col=self.char_col(node.start_point) + 1,
            end_line=end_node.end_point[0] + 1,
            end_col=self.char_col(end_node.end_point) + 1,
            message=message,
            fix=fix,
            confidence=confidence,
            trace=tuple(self.step(*t) if isinstance(t, tuple) else t for t in trace),
        )

    def step(self, where, message: str):
        """A `TraceStep` of this file at `where` (a tree-sitter node or a 1-based line)."""
        from ctxlint.findings import TraceStep
        if isinstance(where, int):
            return TraceStep(self.path, where, 1, message)
        return TraceStep(self.path, where.start_point[0] + 1, self.char_col(where.start_point) + 1, message)


# ------------------------------------------------------------------ entry
def facts_for(path: str, text: str, config: Config | None = None) -> GoFacts:
    """Parse `text` and return its `GoFacts` (tests and tools use this).

    The tree is `languages.go.recover`'s: syntax newer than the grammar is read
    through a same-length repair, and a declaration that still does not parse is
    left out (`GoFacts.unchecked`, `GoFacts.first_error`)."""
    src = text.encode("utf-8", "surrogatepass")
    rec = recover(src)
    return GoFacts(path, text, src, rec.tree, config or Config(), recovered=rec)


def lint(path: str, text: str, rules: list, config: Config, tree=None) -> list[Finding]:
    """Lint one Go source with the given (already prefiltered) rules.

    What tree-sitter cannot parse is isolated (`languages.go.recover`): a function
    whose body holds an ERROR node is left out, with a notice (`note_unchecked`), and
    the rest is linted. An error not confined to a function body (an unbalanced
    bracket, a broken clause) is CTX000 at its first node, the rest is still linted;
    when the isolation fails, the file yields CTX000 only. Never raises on bad input.
    """
    if not rules:
        return []
    facts = facts_for(path, text, config)
    err = parse_error(facts)
    rec = facts.recovered
    if rec is not None and not rec.clean:
        return [err] if err is not None else []
    from ctxlint.findings import note_unchecked
    for line, name in facts.unchecked:
        note_unchecked(line, f"{name} not checked: it has syntax the Go parser does not know (or a syntax error)")
    from ctxlint.rules import run_checks
    found = run_checks(facts, rules)
    return [err, *found] if err is not None else found
