"""The Go control-flow graph (one per function, built on demand by `GoFacts.cfg`).

Fact: `build_cfg(facts, fn)` returns the basic blocks of function node `fn` with
their successor edges, the shape of golang.org/x/tools/go/cfg that go vet's
lostcancel analyzer walks. A block ending in a call that never returns has no
successors; code after an infinite `for {}` is unreachable.

Which calls never return is one table here (`NORETURN_PKG_FUNCS`,
`NORETURN_METHODS`): go vet's ctrlflow analyzer learns these as "noReturn" facts
from types; without a type checker ctxlint matches the well-known ones by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxlint.languages.go import CASE_TYPES

if TYPE_CHECKING:
    from ctxlint.semantic.go.facts import GoFacts

#: Package functions after which control never reaches the next statement
#: (os.Exit, runtime.Goexit, syscall.Exit: their docs say they do not return).
NORETURN_PKG_FUNCS = frozenset({("os", "Exit"), ("runtime", "Goexit"), ("syscall", "Exit")})
#: Methods of log.Logger / testing.TB that never return (Fatal* = Print + os.Exit,
#: Panic* = Print + panic, FailNow/SkipNow/Skip* = runtime.Goexit; see their docs).
NORETURN_METHODS = frozenset({
    "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln",
    "FailNow", "SkipNow", "Skip", "Skipf",
})


def is_noreturn_call(facts: GoFacts, expr) -> bool:
    """Is `expr` a call that never returns (panic, os.Exit, log.Fatal*, t.FailNow, ...)?"""
    if expr is None or expr.type != "call_expression":
        return False
    f = expr.child_by_field_name("function")
    if f is None:
        return False
    if f.type == "identifier":
        return facts.text_of(f) == "panic"
    if f.type == "selector_expression":
        op, fld = f.child_by_field_name("operand"), f.child_by_field_name("field")
        if fld is None:
            return False
        name = facts.text_of(fld)
        if op is not None and op.type == "identifier" and (facts.imports.get(facts.text_of(op)), name) in NORETURN_PKG_FUNCS:
            return True
        return name in NORETURN_METHODS
    return False


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
        self._starts: list[int] | None = None
        self._elems: list = []
        self._scc: dict[int, int] | None = None

    def locate(self, node) -> tuple[Block, int] | None:
        """(block, index) of the element that is or contains `node` (a statement,
        or a part of one, of this function, not of a nested func literal).

        A binary search over the elements sorted by start offset (elements never
        overlap), built once per graph."""
        import bisect
        if self._starts is None:
            elems = sorted(((n.start_byte, n.end_byte, b, i) for b in self.blocks for i, n in enumerate(b.nodes)),
                           key=lambda x: (x[0], -x[1]))
            self._starts = [x[0] for x in elems]
            self._elems = elems
        s, e = node.start_byte, node.end_byte
        k = bisect.bisect_right(self._starts, s) - 1
        if k >= 0:
            start, end, b, i = self._elems[k]
            if start <= s and e <= end:
                return b, i
        return None

    def cyclic_component(self, block) -> int | None:
        """An id of the strongly connected component of `block` when it lies on a
        cycle (a loop), else None; Tarjan's algorithm, once per graph."""
        if self._scc is None:
            self._scc = _sccs(self.blocks)
        return self._scc.get(block.index)


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
            if is_noreturn_call(self.facts, s.named_children[0] if s.named_children else None):
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


def _sccs(blocks: list[Block]) -> dict[int, int]:
    """Block index -> component id for the blocks on a cycle (iterative Tarjan)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[Block] = []
    out: dict[int, int] = {}
    counter = 0
    for root in blocks:
        if root.index in index:
            continue
        work = [(root, 0)]
        while work:
            b, i = work.pop()
            if i == 0:
                index[b.index] = low[b.index] = counter
                counter += 1
                stack.append(b)
                on.add(b.index)
            if i < len(b.succs):
                work.append((b, i + 1))
                s = b.succs[i]
                if s.index not in index:
                    work.append((s, 0))
                elif s.index in on:
                    low[b.index] = min(low[b.index], index[s.index])
                continue
            if work:
                parent = work[-1][0]
                low[parent.index] = min(low[parent.index], low[b.index])
            if low[b.index] == index[b.index]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w.index)
                    comp.append(w)
                    if w is b:
                        break
                if len(comp) > 1 or b in b.succs:
                    for w in comp:
                        out[w.index] = b.index
    return out
