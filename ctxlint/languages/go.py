"""Go: parse once with tree-sitter, compute per-file facts lazily, run rules.

`GoFacts` is the shared analysis every Go rule reads (the go/analysis model: an
analyzer declares the facts it needs, and facts such as the control-flow graph
are computed once per file and reused). One tree-sitter query (run in C) builds a
node-type index; everything else is derived lazily and cached:

- `context_names`: the local names of the "context" import (renamed imports such
  as `stdctx "context"` included; a dot import makes the bare names count);
- `functions`: every function declaration, method and function literal with a body;
- `cfg(fn)`: a per-function control-flow graph of basic blocks (the shape of
  golang.org/x/tools/go/cfg, which go vet's lostcancel analyzer walks);
- `cancel_defs`: every `ctx, cancel := context.WithX(...)` in the three
  assignment forms, with its enclosing function;
- `package_vars` and `struct_fields`.

`tree_sitter` and `tree_sitter_go` are imported inside functions only, so linting
a Python file never imports them.

Offsets: tree-sitter works on UTF-8 bytes; every offset handed to a `Finding` or
an `Edit` is converted to a character offset into the decoded text (`char_offset`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from ctxlint.config import Config
from ctxlint.findings import Finding, Fix

SUFFIXES = (".go",)

FUNC_TYPES = ("function_declaration", "method_declaration", "func_literal")
LOOP_TYPES = ("for_statement",)
SWITCH_TYPES = ("expression_switch_statement", "type_switch_statement", "select_statement")
CASE_TYPES = ("expression_case", "default_case", "type_case", "communication_case")

#: context constructors that return a cancel func as their second result.
CANCEL_CONSTRUCTORS = frozenset({
    "WithCancel", "WithTimeout", "WithDeadline",
    "WithCancelCause", "WithTimeoutCause", "WithDeadlineCause",
})
#: context functions whose (first) result is a context.Context.
CONTEXT_PRODUCERS = CANCEL_CONSTRUCTORS | {"Background", "TODO", "WithValue", "WithoutCancel"}

#: Calls after which control never reaches the next statement (go vet's ctrlflow
#: analyzer learns these as "noReturn" facts; without types we match by name).
_NORETURN_PKG_FUNCS = frozenset({("os", "Exit"), ("runtime", "Goexit"), ("syscall", "Exit")})
_NORETURN_METHODS = frozenset({
    "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln",
    "FailNow", "SkipNow", "Skip", "Skipf",
})

_PARSER = None
_QUERIES: dict[tuple[str, ...], object] = {}

#: Node types indexed in the first (and usually only) query over a file.
INDEXED_TYPES = frozenset({
    "package_clause", "import_spec", "call_expression", "defer_statement", "field_declaration",
    "assignment_statement", "function_declaration", "method_declaration", "func_literal",
})


def _parser():
    """The tree-sitter parser for Go, created on first use (imports tree_sitter lazily)."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter_go
        from tree_sitter import Language, Parser

        _PARSER = Parser(Language(tree_sitter_go.language()))
    return _PARSER


def _query(types: tuple[str, ...]):
    """A QueryCursor capturing every node of `types` (each under its own name)."""
    if types not in _QUERIES:
        from tree_sitter import Query

        _QUERIES[types] = Query(_parser().language, " ".join(f"({t}) @{t}" for t in types))
    from tree_sitter import QueryCursor

    return QueryCursor(_QUERIES[types])


def parse_bytes(src: bytes):
    """Parse Go source bytes; returns the tree-sitter `Tree` (never raises on bad input)."""
    return _parser().parse(src)


# --------------------------------------------------------------------- CFG
END = "end"  # Block.ret marker: control falls off the end of the function body


class Block:
    """A basic block: `nodes` (statements, or the header parts of a compound
    statement: if/for conditions, switch tags, case values, select
    communications) executed in order, then `succs`.

    `ret` is the return_statement node ending the block, `END` when the block
    falls off the end of the function, or None. A block ending in a no-return call
    (panic, os.Exit, log.Fatal, t.FailNow, runtime.Goexit) has no successors and
    no `ret`.
    """

    __slots__ = ("index", "nodes", "ret", "succs")

    def __init__(self, index: int):
        self.index = index
        self.nodes: list = []
        self.succs: list[Block] = []
        self.ret = None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Block {self.index} n={len(self.nodes)} succs={[s.index for s in self.succs]} ret={self.ret is not None}>"


class CFG:
    """A function's control-flow graph: `blocks[0]` is the entry; `body` the body node.

    Built from the tree-sitter tree by `build_cfg`: if/else, expression and type
    switches (with fallthrough), select (a select without default blocks until a
    case runs; `select {}` never continues), for and range loops with labelled
    and unlabelled break/continue, goto, return, and no-return calls. A `for`
    without a condition has no edge to the statement after it, so code after an
    infinite loop is unreachable, as in go/cfg.
    """

    def __init__(self, blocks: list[Block], body):
        self.blocks = blocks
        self.body = body

    def locate(self, node) -> tuple[Block, int] | None:
        """(block, index) of the element that is or contains `node` (a statement,
        or a part of one, of this function, not of a nested func literal)."""
        s, e = node.start_byte, node.end_byte
        for b in self.blocks:
            for i, n in enumerate(b.nodes):
                if n.start_byte <= s and e <= n.end_byte:
                    return b, i
        return None


class _Target:
    __slots__ = ("brk", "cont", "label")

    def __init__(self, label, brk, cont):
        self.label, self.brk, self.cont = label, brk, cont


class _CFGBuilder:
    def __init__(self, facts: GoFacts):
        self.facts = facts
        self.blocks: list[Block] = []
        self.targets: list[_Target] = []
        self.labels: dict[str, Block] = {}
        self.fallthrough: Block | None = None
        self.cur = self.new()

    def new(self) -> Block:
        b = Block(len(self.blocks))
        self.blocks.append(b)
        return b

    def jump(self, to: Block) -> None:
        self.cur.succs.append(to)

    def dead(self) -> None:
        """Start an unreachable block (after return/break/goto/no-return)."""
        self.cur = self.new()

    def label_block(self, name: str) -> Block:
        if name not in self.labels:
            self.labels[name] = self.new()
        return self.labels[name]

    # statements -----------------------------------------------------------
    def stmts(self, node) -> None:
        if node is None:
            return
        for c in node.named_children:
            if c.type in ("statement_list", "block"):
                self.stmts(c)
            elif c.type != "comment":
                self.stmt(c)

    def stmt(self, s, label: str | None = None) -> None:
        t = s.type
        if t in ("block", "statement_list"):
            self.stmts(s)
        elif t == "labeled_statement":
            name_node = s.child_by_field_name("label")
            name = self.facts.text_of(name_node) if name_node is not None else ""
            lb = self.label_block(name)
            self.jump(lb)
            self.cur = lb
            inner = [c for c in s.named_children if c.type not in ("label_name", "comment")]
            if inner:
                self.stmt(inner[0], label=name)
        elif t == "if_statement":
            self._if(s)
        elif t == "for_statement":
            self._for(s, label)
        elif t in ("expression_switch_statement", "type_switch_statement"):
            self._switch(s, label)
        elif t == "select_statement":
            self._select(s, label)
        elif t == "return_statement":
            self.cur.nodes.append(s)
            self.cur.ret = s
            self.dead()
        elif t == "break_statement":
            tgt = self._target(s, want_continue=False)
            if tgt is not None:
                self.jump(tgt)
            self.dead()
        elif t == "continue_statement":
            tgt = self._target(s, want_continue=True)
            if tgt is not None:
                self.jump(tgt)
            self.dead()
        elif t == "goto_statement":
            ln = s.named_children[0] if s.named_children else None
            if ln is not None:
                self.jump(self.label_block(self.facts.text_of(ln)))
            self.dead()
        elif t == "fallthrough_statement":
            if self.fallthrough is not None:
                self.jump(self.fallthrough)
            self.dead()
        elif t == "expression_statement":
            self.cur.nodes.append(s)
            if self.facts.is_noreturn_call(s.named_children[0] if s.named_children else None):
                self.dead()
        elif t == "comment":
            return
        else:
            self.cur.nodes.append(s)

    def _target(self, s, want_continue: bool) -> Block | None:
        ln = next((c for c in s.named_children if c.type == "label_name"), None)
        name = self.facts.text_of(ln) if ln is not None else None
        for tg in reversed(self.targets):
            if name is not None and tg.label != name:
                continue
            if want_continue:
                if tg.cont is not None:
                    return tg.cont
                if name is not None:
                    return None
                continue
            return tg.brk
        return None

    def _if(self, s) -> None:
        init = s.child_by_field_name("initializer")
        if init is not None:
            self.cur.nodes.append(init)
        cond = s.child_by_field_name("condition")
        if cond is not None:
            self.cur.nodes.append(cond)
        head = self.cur
        then, done = self.new(), self.new()
        head.succs.append(then)
        self.cur = then
        self.stmts(s.child_by_field_name("consequence"))
        self.jump(done)
        alt = s.child_by_field_name("alternative")
        if alt is not None:
            els = self.new()
            head.succs.append(els)
            self.cur = els
            if alt.type == "if_statement":
                self._if(alt)
            else:
                self.stmts(alt)
            self.jump(done)
        else:
            head.succs.append(done)
        self.cur = done

    def _for(self, s, label: str | None) -> None:
        cond = update = rng = None
        for c in s.named_children:
            if c.type == "for_clause":
                init = c.child_by_field_name("initializer")
                if init is not None:
                    self.cur.nodes.append(init)
                cond = c.child_by_field_name("condition")
                update = c.child_by_field_name("update")
            elif c.type == "range_clause":
                rng = c
            elif c.type not in ("block", "comment"):
                cond = c
        head, body, post, done = self.new(), self.new(), self.new(), self.new()
        self.jump(head)
        if cond is not None:
            head.nodes.append(cond)
        if rng is not None:
            head.nodes.append(rng)
        head.succs.append(body)
        if cond is not None or rng is not None:
            head.succs.append(done)
        self.targets.append(_Target(label, done, post))
        self.cur = body
        self.stmts(s.child_by_field_name("body"))
        self.jump(post)
        self.targets.pop()
        if update is not None:
            post.nodes.append(update)
        post.succs.append(head)
        self.cur = done

    def _switch(self, s, label: str | None) -> None:
        for fld in ("initializer", "value"):
            n = s.child_by_field_name(fld)
            if n is not None:
                self.cur.nodes.append(n)
        cases = [c for c in s.named_children if c.type in CASE_TYPES]
        self._cases(cases, label, has_default=any(c.type == "default_case" for c in cases))

    def _select(self, s, label: str | None) -> None:
        cases = [c for c in s.named_children if c.type in CASE_TYPES]
        # The spec evaluates every case's channel and send value on entering the
        # select, before one is chosen: the communications belong to the head.
        for c in cases:
            comm = c.child_by_field_name("communication")
            if comm is not None:
                self.cur.nodes.append(comm)
        self._cases(cases, label, has_default=True)

    def _cases(self, cases, label, has_default: bool) -> None:
        head, done = self.cur, self.new()
        blocks = [self.new() for _ in cases]
        for b in blocks:
            head.succs.append(b)
        if not has_default:
            head.succs.append(done)
        self.targets.append(_Target(label, done, None))
        saved = self.fallthrough
        for i, (case, b) in enumerate(zip(cases, blocks)):
            self.cur = b
            self.fallthrough = blocks[i + 1] if i + 1 < len(blocks) else None
            val = case.child_by_field_name("value")
            if val is not None:
                b.nodes.append(val)
            for c in case.named_children:
                if c.type == "statement_list":
                    self.stmts(c)
            self.jump(done)
        self.fallthrough = saved
        self.targets.pop()
        self.cur = done


def build_cfg(facts: GoFacts, fn) -> CFG | None:
    """Build the control-flow graph of one function node (None when it has no body)."""
    body = fn.child_by_field_name("body")
    if body is None:
        return None
    b = _CFGBuilder(facts)
    b.stmts(body)
    b.cur.ret = END
    return CFG(b.blocks, body)


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
        return self.cancel.text.decode("utf-8", "replace") if self.cancel.type == "identifier" else None


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

    def __init__(self, path: str, text: str, src: bytes, tree, config: Config):
        self.path = path
        self.text = text
        self.src = src
        self.tree = tree
        self.root = tree.root_node
        self.config = config
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
        captures = _query(tuple(types)).captures(self.root)
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
        return self.text.split("\n")

    def line_start_char(self, row: int) -> int:
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
        p = node.parent
        while p is not None:
            yield p
            p = p.parent

    def enclosing_function(self, node):
        """The innermost function declaration, method or func literal containing `node`."""
        for a in self.ancestors(node):
            if a.type in FUNC_TYPES:
                return a
        return None

    @staticmethod
    def is_inside(node, outer) -> bool:
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
        for pc in self.nodes("package_clause"):
            for c in pc.named_children:
                if c.type == "package_identifier":
                    return self.text_of(c)
        return ""

    @cached_property
    def first_error(self):
        """The first ERROR or MISSING node in document order, or None."""
        if not self.root.has_error:
            return None
        stack = [self.root]
        while stack:
            n = stack.pop()
            if n.type == "ERROR" or n.is_missing:
                return n
            if n.has_error:
                stack.extend(reversed(n.children))
        return None

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
    def context_names(self) -> frozenset[str]:
        """Local package names of the "context" import (e.g. {"context"}, {"stdctx"})."""
        return frozenset(k for k, v in self.imports.items() if v == "context" and not k.startswith("."))

    @cached_property
    def context_dot_imported(self) -> bool:
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
        """Is `expr` a call that never returns (panic, os.Exit, log.Fatal*, t.FailNow, ...)?"""
        if expr is None or expr.type != "call_expression":
            return False
        f = expr.child_by_field_name("function")
        if f is None:
            return False
        if f.type == "identifier":
            return self.text_of(f) == "panic"
        if f.type == "selector_expression":
            op, fld = f.child_by_field_name("operand"), f.child_by_field_name("field")
            if fld is None:
                return False
            name = self.text_of(fld)
            if op is not None and op.type == "identifier" and (self.imports.get(self.text_of(op)), name) in _NORETURN_PKG_FUNCS:
                return True
            return name in _NORETURN_METHODS
        return False

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

    # ------------------------------------------------------------ functions
    @cached_property
    def functions(self) -> list:
        """Function declarations, methods and func literals that have a body."""
        return [f for f in self.nodes(*FUNC_TYPES) if f.child_by_field_name("body") is not None]

    def cfg(self, fn) -> CFG | None:
        """The control-flow graph of function node `fn` (cached)."""
        return self.memo(f"cfg:{fn.id}", lambda: build_cfg(self, fn))  # type: ignore[return-value]

    def is_main_main(self, fn) -> bool:
        if fn.type != "function_declaration" or self.package_name != "main":
            return False
        name = fn.child_by_field_name("name")
        return name is not None and self.text_of(name) == "main"

    def named_results(self, fn) -> set[str]:
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

    # ------------------------------------------------------------ findings
    def finding(self, rule, node, message: str, fix: Fix | None = None, end=None) -> Finding:
        """A Finding for `rule` at `node`'s range (1-based lines and character columns)."""
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
        )


# ------------------------------------------------------------------ entry
def parse_error(facts: GoFacts) -> Finding | None:
    """CTX000 at the first ERROR or MISSING node, or None when the tree is clean."""
    n = facts.first_error
    if n is None:
        return None
    line = n.start_point[0] + 1
    col = facts.char_col(n.start_point) + 1
    if n.is_missing:
        msg = f"cannot parse Go: missing `{n.type}`"
    else:
        snippet = facts.text_of(n).strip().splitlines()
        first = snippet[0][:40] if snippet else ""
        msg = f"cannot parse Go: unexpected `{first}`" if first else "cannot parse Go: syntax error"
    end_line = n.end_point[0] + 1
    end_col = facts.char_col(n.end_point) + 1
    if (end_line, end_col) == (line, col):
        end_col = col + 1
    return Finding("CTX000", "parse-error", facts.path, line, col, end_line, end_col, msg)


def facts_for(path: str, text: str, config: Config | None = None) -> GoFacts:
    """Parse `text` and return its `GoFacts` (tests and tools use this)."""
    src = text.encode("utf-8", "surrogatepass")
    return GoFacts(path, text, src, parse_bytes(src), config or Config())


def run_rules(facts: GoFacts, rules: Iterable) -> list[Finding]:
    """Run the rules over the shared facts (see `ctxlint.rules.run_checks`)."""
    from ctxlint.rules import run_checks
    return run_checks(facts, rules)


def lint(path: str, text: str, rules: list, config: Config, tree=None) -> list[Finding]:
    """Lint one Go source with the given (already prefiltered) rules.

    A file with tree-sitter ERROR/MISSING nodes yields only CTX000 at the first
    one (rules would run on a broken tree). Never raises on bad input.
    """
    if not rules:
        return []
    facts = facts_for(path, text, config)
    err = parse_error(facts)
    if err is not None:
        return [err]
    return run_rules(facts, rules)
