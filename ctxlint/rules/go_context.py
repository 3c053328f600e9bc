"""CTX1xx/CTX2xx (Go): cancel funcs that are lost, cancels deferred inside loops,
and contexts kept too long (package-level vars and struct fields).

The rules read `ctxlint.languages.go.GoFacts`: the cancel defs (the three
assignment forms of go vet's lostcancel), the per-function control-flow graph,
package-level vars and struct fields. Fixes are character-range edits into the
text the rule saw (the fix contract in DESIGN.md), written so that the result
stays gofmt-clean: whole lines are inserted with the indentation of the line
they follow, and a removed `defer` takes its whole line.
"""

from __future__ import annotations

from ctxlint.findings import SAFE, Edit, Fix
from ctxlint.languages.go import (
    CANCEL_CONSTRUCTORS,
    END,
    FUNC_TYPES,
    LOOP_TYPES,
    SWITCH_TYPES,
)
from ctxlint.rules import Rule

_CANCEL_TOKENS = ("WithCancel", "WithTimeout", "WithDeadline")


# ------------------------------------------------------------ CTX101 helpers
def _ident_role(facts, ident, element, def_list, def_decl=False) -> str:
    """How the identifier `ident` (inside CFG element `element`) touches the variable.

    Returns "use" (any read: call, argument, store, capture by a closure, return),
    "write" (assigned or re-declared in the same statement list as the def: the
    old cancel func is lost), or "none" (`_ = cancel`, a struct-literal key, a
    shadowing declaration in a nested block or func literal parameter).
    """
    if def_decl is not False:
        decl = visible_decl(facts, ident)
        if (decl.id if decl is not None else None) != def_decl:
            return "none"  # another variable of the same name
    p = ident.parent
    in_closure = False
    for a in facts.ancestors(ident):
        if a.id == element.id:
            break
        if a.type == "func_literal":
            in_closure = True
            break
    if p is None:
        return "use"
    pt = p.type
    if pt == "expression_list":
        gp = p.parent
        if gp is not None and gp.type in ("assignment_statement", "short_var_declaration"):
            if gp.child_by_field_name("left") == p:
                if in_closure:
                    return "use"
                if gp.type == "short_var_declaration" and gp.parent is not None and def_list is not None \
                        and gp.parent.id != def_list.id:
                    return "none"  # := in a nested block declares a new variable
                return "write"
            if gp.type == "assignment_statement" and gp.child_by_field_name("right") == p:
                left = gp.child_by_field_name("left")
                if left is not None and all(c.type == "identifier" and facts.text_of(c) == "_" for c in left.named_children):
                    return "none"  # `_ = cancel` silences the compiler, it does not cancel
        if gp is not None and gp.type == "range_clause" and gp.child_by_field_name("left") == p:
            return "write" if not in_closure else "use"
    elif pt == "var_spec":
        if any(n.id == ident.id for n in p.children_by_field_name("name")):
            if def_list is not None and p.parent is not None and p.parent.parent is not None \
                    and p.parent.parent.id != def_list.id:
                return "none"
            return "write"
    elif pt == "parameter_declaration" or pt == "literal_element" and p.parent is not None and p.parent.type == "keyed_element" \
            and p.parent.named_children and p.parent.named_children[0].id == p.id:
        return "none"
    return "use"


def _declares_name(facts, node, name: str) -> bool:
    """Does statement/initializer `node` declare `name` (`:=`, `var`, range `:=`)?"""
    t = node.type
    if t in ("short_var_declaration", "range_clause", "receive_statement"):
        if t != "short_var_declaration" and not any(c.type == ":=" for c in node.children):
            return False
        left = node.child_by_field_name("left")
        return left is not None and any(c.type == "identifier" and facts.text_of(c) == name for c in left.named_children)
    if t == "var_declaration":
        return any(facts.text_of(n) == name for spec in facts.walk(node) if spec.type == "var_spec"
                   for n in spec.children_by_field_name("name"))
    return False


def _params_declare(facts, fn, name: str) -> bool:
    for fld in ("receiver", "parameters", "result"):
        pl = fn.child_by_field_name(fld)
        if pl is not None and pl.type == "parameter_list" and any(
                facts.text_of(n) == name for pd in pl.named_children for n in pd.children_by_field_name("name")):
            return True
    return False


def visible_decl(facts, ident):
    """The node declaring the variable `ident` refers to, by Go's lexical scoping:
    the first earlier statement of an enclosing block that declares the name
    (`:=`, `var`), an if/for/switch/select-case initializer, or a function whose
    parameters or results do. None when it is declared outside every enclosing
    function (a package var). No type checker needed."""
    name = facts.text_of(ident)
    for a in facts.ancestors(ident):
        t = a.type
        if t == "statement_list":
            for st in a.named_children:
                if st.start_byte > ident.start_byte:
                    break
                if _declares_name(facts, st, name) and (st.end_byte <= ident.start_byte or facts.is_inside(ident, st)):
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


def _element_event(facts, element, name: str, named_result: bool, def_list, def_decl):
    """("use"|"write"|None, node) for one CFG element."""
    if named_result and element.type == "return_statement" and not any(
            c.type == "expression_list" for c in element.named_children):
        return "use", element  # a naked return hands the named result to the caller
    write = None
    for ident in facts.identifiers(element, name):
        role = _ident_role(facts, ident, element, def_list, def_decl)
        if role == "use":
            return "use", ident
        if role == "write" and write is None:
            write = ident
    return ("write", write) if write is not None else (None, None)


def lost_cancel_path(facts, cfg, d, name: str):
    """Search `cfg` from the cancel def `d` for a path on which `name` is never used.

    The go vet lostcancel algorithm (a depth-first search from the defining
    block, pruned at blocks that use the variable), with two additions: a path
    that reaches a write of the variable (the def itself again in a loop, or
    another assignment) before a use loses the cancel func too.

    Returns ("return", node_or_END) / ("write", node) or None when every path uses it.
    """
    fn = d.fn
    named_result = name in facts.named_results(fn)
    def_list = _stmt_list_of(d)
    decl = visible_decl(facts, d.cancel)
    def_decl = decl.id if decl is not None else None
    loc = cfg.locate(d.stmt)
    if loc is None:
        return None
    block, idx = loc
    for el in block.nodes[idx + 1:]:
        ev, node = _element_event(facts, el, name, named_result, def_list, def_decl)
        if ev == "use":
            return None
        if ev == "write":
            return "write", node
    if block.ret is not None:
        return "return", block.ret
    memo: dict[int, tuple] = {}

    def block_event(b):
        if b.index not in memo:
            res = (None, None)
            for el in b.nodes:
                ev, node = _element_event(facts, el, name, named_result, def_list, def_decl)
                if ev is not None:
                    res = (ev, node)
                    break
            memo[b.index] = res
        return memo[b.index]

    seen: set[int] = set()
    stack = list(reversed(block.succs))
    first_write = None
    while stack:
        b = stack.pop()
        if b.index in seen:
            continue
        seen.add(b.index)
        ev, node = block_event(b)
        if ev == "use":
            continue
        if ev == "write":
            if first_write is None:
                first_write = node
            continue
        if b.ret is not None:
            return "return", b.ret
        stack.extend(reversed(b.succs))
    if first_write is not None:
        return "write", first_write
    return None


def _stmt_list_of(d):
    """The statement_list holding the def's statement (var_spec -> its var_declaration)."""
    node = d.stmt
    if node.type == "var_spec":
        node = node.parent
        if node is not None and node.type == "var_spec_list":
            node = node.parent
    return node.parent if node is not None else None


def _statement_of(d):
    """The statement node of a def (var_declaration for the `var` form)."""
    node = d.stmt
    if node.type == "var_spec":
        p = node.parent
        if p is None or p.type != "var_declaration":
            return None
        return p
    return node


def _in_loop(facts, node, fn) -> bool:
    for a in facts.ancestors(node):
        if a.id == fn.id or a.type in FUNC_TYPES:
            return False
        if a.type in LOOP_TYPES:
            return True
    return False


def _mentions(facts, node, names: set[str]) -> bool:
    return any(n.type == "identifier" and facts.text_of(n) in names for n in facts.walk(node))


def _carries(facts, e, tainted: set[str]) -> bool:
    """Does expression `e` evaluate to something holding a tainted context: the name
    itself, a literal or address built from it, or a context-deriving call
    (`x.WithContext(ctx)`, `metadata.NewOutgoingContext(ctx, md)`, `context.WithValue`)?
    Other calls return results computed with the context, not the context."""
    t = e.type
    if t == "identifier":
        return facts.text_of(e) in tainted
    if t in ("composite_literal", "unary_expression", "parenthesized_expression"):
        return _mentions(facts, e, tainted)
    if t == "call_expression":
        f = e.child_by_field_name("function")
        if f is not None and f.type == "selector_expression":
            fld = f.child_by_field_name("field")
            if fld is not None and ("Context" in facts.text_of(fld) or facts.context_func(f)):
                return _mentions(facts, e, tainted)
    return False


def ctx_escapes(facts, d, include_go: bool) -> bool:
    """Could the derived context outlive the function (so `defer cancel()` would cut
    short its new owner)? Tracks names assigned from the context (`req =
    req.WithContext(ctx)`) and looks, after the def, for: a return of one of them
    (bare, addressed or inside a composite literal), a store into a field, map or
    slice element, a channel send, a func literal that is not called on the spot,
    and (with `include_go`) a `go` statement."""
    if d.ctx.type != "identifier":
        return True  # stored straight into a field or element
    name = facts.text_of(d.ctx)
    if name == "_":
        return False
    body = d.fn.child_by_field_name("body")
    if body is None:
        return False
    after = [n for n in facts.walk(body) if n.start_byte >= d.stmt.end_byte]
    tainted = {name}
    for _ in range(2):  # a second pass for assignments made earlier in a loop
        for n in after:
            if n.type in ("short_var_declaration", "assignment_statement"):
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is not None and right is not None and any(
                        _carries(facts, e, tainted) for e in right.named_children):
                    tainted.update(facts.text_of(c) for c in left.named_children if c.type == "identifier")
    tainted.discard("_")
    for n in after:
        t = n.type
        if t == "return_statement":
            for e in (c for el in n.named_children if el.type == "expression_list" for c in el.named_children):
                if _carries(facts, e, tainted):
                    return True
        elif t == "go_statement" and include_go and _mentions(facts, n, tainted):
            return True
        elif t == "send_statement":
            v = n.child_by_field_name("value")
            if v is not None and _carries(facts, v, tainted):
                return True
        elif t == "assignment_statement":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and any(
                    _carries(facts, e, tainted) for e in right.named_children) and any(
                    c.type in ("selector_expression", "index_expression") for c in left.named_children):
                return True
        elif t == "func_literal":
            p = n.parent
            called = p is not None and p.type == "call_expression" and p.child_by_field_name("function") == n
            if not called and _mentions(facts, n, tainted):
                return True
    return False


def _free_name(facts, fn, taken: set[str], base: str = "cancel") -> str:
    """A name not used anywhere in `fn` nor chosen by an earlier fix in it (`taken`)."""
    for cand in (base, *(f"{base}{i}" for i in range(2, 100))):
        if cand not in taken and not any(True for _ in facts.identifiers(fn, cand)):
            taken.add(cand)
            return cand
    return base + "_"


def _eol(facts, row: int) -> int:
    """Character offset of the end of 0-based line `row` (before its newline)."""
    return facts.line_start_char(row) + len(facts.line_text(row))


def _insert_after_line(facts, stmt, text: str) -> Edit:
    return Edit(_eol(facts, stmt.end_point[0]), _eol(facts, stmt.end_point[0]), "\n" + facts.indent_of(stmt) + text)


def _break_target(facts, node):
    """The statement a break/continue leaves: labelled, or the innermost for (continue)
    or for/switch/select (break)."""
    label = next((c for c in node.named_children if c.type == "label_name"), None)
    want = LOOP_TYPES if node.type == "continue_statement" else LOOP_TYPES + SWITCH_TYPES
    if label is not None:
        name = facts.text_of(label)
        for a in facts.ancestors(node):
            if a.type in FUNC_TYPES:
                return None
            if a.type == "labeled_statement":
                ln = a.child_by_field_name("label")
                if ln is not None and facts.text_of(ln) == name:
                    inner = [c for c in a.named_children if c.type not in ("label_name", "comment")]
                    return inner[0] if inner else None
        return None
    for a in facts.ancestors(node):
        if a.type in FUNC_TYPES:
            return None
        if a.type in want:
            return a
    return None


def _terminates(facts, stmt) -> bool:
    t = stmt.type
    if t in ("return_statement", "break_statement", "continue_statement", "goto_statement", "fallthrough_statement"):
        return True
    if t == "expression_statement" and stmt.named_children:
        return facts.is_noreturn_call(stmt.named_children[0])
    return False


def _assigned_names(facts, nodes) -> set[str]:
    out: set[str] = set()
    for top in nodes:
        for n in facts.walk(top, into_funcs=False):
            if n.type in ("short_var_declaration", "assignment_statement", "range_clause", "receive_statement"):
                left = n.child_by_field_name("left")
                if left is not None:
                    out.update(facts.text_of(c) for c in left.named_children if c.type == "identifier")
            elif n.type == "var_spec":
                out.update(facts.text_of(c) for c in n.children_by_field_name("name"))
    return out


def _return_is_safe(facts, ret, derived: set[str], ctx_name: str | None) -> bool:
    """May `cancel()` run before this return's expressions are evaluated?

    Yes when no call in them can reach the per-iteration context: a call that
    mentions a name assigned after the context was made (the context, a stream
    or request built from it) is unsafe, unless it is a package-level function
    (`fmt.Errorf("...: %w", err)`) whose arguments do not mention the context.
    """
    for n in facts.walk(ret, into_funcs=True):
        if n.type == "func_literal":
            return False
        if n.type != "call_expression":
            continue
        f = n.child_by_field_name("function")
        names = {facts.text_of(i) for i in facts.walk(n) if i.type == "identifier"}
        pkg_func = (f is not None and f.type == "selector_expression"
                    and (op := f.child_by_field_name("operand")) is not None and op.type == "identifier"
                    and facts.text_of(op) in facts.imports and facts.text_of(op) not in derived)
        if pkg_func:
            if ctx_name and ctx_name in names:
                return False
            continue
        if names & derived:
            return False
    return True


def end_of_scope_cancel_edits(facts, anchor, name: str, ctx_name: str | None, fn) -> list[Edit] | None:
    """Edits that call `name()` wherever control leaves the statement list of
    `anchor` after it: before each return, before each break/continue/fallthrough
    that leaves the list, and after its last statement.

    Returns None (no safe fix) when the list is not a plain statement list, holds a
    goto, or a return whose expressions may still use the context (see
    `_return_is_safe`), or when an exit does not start its own line.
    """
    region = anchor.parent
    if region is None or region.type != "statement_list":
        return None
    stmts = [c for c in region.named_children if c.type != "comment"]
    try:
        i = next(k for k, s in enumerate(stmts) if s.id == anchor.id)
    except StopIteration:
        return None
    after = stmts[i + 1:]
    derived = _assigned_names(facts, stmts[: i + 1]) | _assigned_names(facts, after)
    derived.discard("_")
    exits = []
    for top in after:
        for n in facts.walk(top, into_funcs=False):
            t = n.type
            if t == "goto_statement":
                return None
            if t == "return_statement":
                if not _return_is_safe(facts, n, derived, ctx_name):
                    return None
                exits.append(n)
            elif t in ("break_statement", "continue_statement"):
                target = _break_target(facts, n)
                if target is None:
                    return None
                if not facts.is_inside(target, region):
                    exits.append(n)
            elif t == "fallthrough_statement":
                case = n.parent.parent if n.parent is not None else None
                if n.parent is not None and n.parent.id == region.id or case is not None and not facts.is_inside(case, region):
                    exits.append(n)
    def calls_it(st) -> bool:
        return st is not None and st.type == "expression_statement" and facts.text_of(st).replace(" ", "") == f"{name}()"

    edits = []
    for x in exits:
        if not facts.starts_line(x) or x.parent is None or x.parent.type != "statement_list":
            return None
        prev = x.prev_named_sibling
        while prev is not None and prev.type == "comment":
            prev = prev.prev_named_sibling
        if calls_it(prev):
            continue  # already cancelled right before leaving
        start = facts.line_start_char(x.start_point[0])
        edits.append(Edit(start, start, facts.indent_of(x) + f"{name}()\n"))
    last = stmts[-1]
    if not _terminates(facts, last) and not calls_it(last):
        if not facts.ends_line(last) and facts.text_of(last).count("\n") == 0 and not _only_comment_after(facts, last):
            return None
        edits.append(Edit(_eol(facts, last.end_point[0]), _eol(facts, last.end_point[0]),
                          "\n" + facts.indent_of(anchor) + f"{name}()"))
    return edits


def _only_comment_after(facts, node) -> bool:
    rest = facts.line_text(node.end_point[0])[facts.char_col(node.end_point):].strip()
    return rest.startswith("//")


def _ctx_type_prefix(facts) -> str:
    names = sorted(facts.context_names)
    return f"{names[0]}." if names else ""


# ----------------------------------------------------------------- CTX101
class LostCancel(Rule):
    code = "CTX101"
    name = "lost-cancel"
    language = "go"
    summary = "Cancel func of context.WithCancel/WithTimeout/WithDeadline discarded or not called on every path."
    tokens = _CANCEL_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Finds the cancel func returned by `context.WithCancel`, `WithTimeout`,
`WithDeadline` and their `...Cause` variants (the `:=`, `=` and `var` forms,
renamed imports of "context" included) that is discarded with `_`, or that some
path through the function's control-flow graph carries to a return (or the end
of the function) without using it. A path through `panic`, `os.Exit`,
`log.Fatal*`, `t.FailNow`/`Fatal*` or `runtime.Goexit`, or into an infinite
loop, never returns and is not reported. Any escape of the cancel func counts as
a use (returned, stored, passed to a call, captured by a closure), as in go vet.
Unlike go vet, `_ = cancel` is not a use, and a cancel func overwritten (by a
later assignment, or by the next iteration of a loop) before it was called is
reported. Function literals are analysed as their own functions; `main.main` is
exempt from the path check (returning from it ends the process).

## Why is this bad
Until it is cancelled, a derived context stays registered with its parent and a
`WithTimeout`/`WithDeadline` context keeps its timer. In a gateway, router or
KV-cache sync loop every request leaks one context (and its goroutines waiting on
`Done()`) until the parent — often `context.Background()` — ends, which is never.

## Example
```go
func (r *Router) Route(parent context.Context, prompt string) (string, error) {
	ctx, _ := context.WithTimeout(parent, r.budget)
	return r.forward(ctx, prompt)
}
```

## Use instead
```go
func (r *Router) Route(parent context.Context, prompt string) (string, error) {
	ctx, cancel := context.WithTimeout(parent, r.budget)
	defer cancel()
	return r.forward(ctx, prompt)
}
```

## Fix safety
Safe. The fix renames `_` to `cancel` (or a free name) and inserts
`defer cancel()` on the next line; when the cancel func exists but is missed on
some path, it inserts `defer cancel()` after the assignment — only when every
other reference is a direct call (a cancel func handed to a goroutine, a struct
or a caller is an ownership transfer that a defer would break). Inside a loop
the fix calls `cancel()` wherever the iteration's block is left instead of
deferring (see CTX102). Calling a cancel func twice is harmless.

## Source
go vet's `lostcancel` analyzer (golang.org/x/tools/go/analysis/passes/lostcancel);
the `context` package docs ("Failing to call the CancelFunc leaks the child and its
children until the parent is canceled"); ollama/ollama#9431, grpc/grpc-go#2985.
"""

    def check(self, facts):
        taken: dict[int, set[str]] = {}
        for d in facts.cancel_defs:
            if d.fn is None or d.cancel.type != "identifier":
                continue
            name = facts.text_of(d.cancel)
            if name == "_":
                yield facts.finding(self, d.call, (
                    f"the cancel function returned by context.{d.func} is discarded with `_`; "
                    "the context and its timer live until the parent is cancelled (context leak)"),
                    fix=self._fix_discarded(facts, d, taken.setdefault(d.fn.id, set())))
                continue
            if facts.is_main_main(d.fn):
                continue
            if d.form == "=" and not facts.declares(d.fn, name):
                continue  # a package var or a variable captured from an outer function
            cfg = facts.cfg(d.fn)
            if cfg is None:
                continue
            res = lost_cancel_path(facts, cfg, d, name)
            if res is None:
                continue
            kind, node = res
            if kind == "return":
                if node == END:
                    where = f"the end of the function on line {cfg.body.end_point[0] + 1}"
                else:
                    where = f"the return on line {node.start_point[0] + 1}"
                msg = (f"the cancel function `{name}` returned by context.{d.func} is not called on every path: "
                       f"{where} can be reached without calling it (possible context leak)")
            elif facts.is_inside(node, d.stmt):
                msg = (f"the cancel function `{name}` returned by context.{d.func} is overwritten by the next "
                       "iteration of the loop before it is called (context leak)")
            else:
                msg = (f"the cancel function `{name}` returned by context.{d.func} is overwritten on line "
                       f"{node.start_point[0] + 1} before it is called (context leak)")
            yield facts.finding(self, d.call, msg, fix=self._fix_missed(facts, d, name))

    # fixes ------------------------------------------------------------------
    def _fix_discarded(self, facts, d, taken: set[str]) -> Fix | None:
        stmt = _statement_of(d)
        if stmt is None or stmt.parent is None or stmt.parent.type != "statement_list":
            return None
        if d.stmt.type == "var_spec" and d.stmt.parent.type != "var_declaration":
            return None
        if not facts.starts_line(stmt) or not (facts.ends_line(stmt) or _only_comment_after(facts, stmt)):
            return None
        if ctx_escapes(facts, d, include_go=True):
            return None  # the context outlives the call: its owner must get the cancel func
        name = _free_name(facts, d.fn, taken)
        edits = [Edit(facts.char_offset(d.cancel.start_byte), facts.char_offset(d.cancel.end_byte), name)]
        if d.form == "=":
            functype = "CancelCauseFunc" if d.func.endswith("Cause") else "CancelFunc"
            start = facts.line_start_char(stmt.start_point[0])
            edits.append(Edit(start, start, facts.indent_of(stmt) + f"var {name} {_ctx_type_prefix(facts)}{functype}\n"))
        call = f"{name}(nil)" if d.func == "WithCancelCause" else f"{name}()"
        if _in_loop(facts, stmt, d.fn):
            more = end_of_scope_cancel_edits(facts, stmt, name, _ctx_name(facts, d), d.fn)
            if more is None or d.func == "WithCancelCause":
                return None
            edits.extend(more)
            desc = f"name the cancel func `{name}` and call it wherever the loop iteration's block is left"
        else:
            edits.append(_insert_after_line(facts, stmt, f"defer {call}"))
            desc = f"name the cancel func `{name}` and `defer {call}`"
        return Fix(description=desc, safety=SAFE, edits=tuple(edits),
                   data=_def_data(facts, d))

    def _fix_missed(self, facts, d, name: str) -> Fix | None:
        stmt = _statement_of(d)
        if stmt is None or stmt.parent is None or stmt.parent.type != "statement_list":
            return None
        if not facts.starts_line(stmt) or not (facts.ends_line(stmt) or _only_comment_after(facts, stmt)):
            return None
        if d.func == "WithCancelCause" or ctx_escapes(facts, d, include_go=False):
            return None
        # Every other reference must be a plain call in this very function: a cancel
        # func that escapes has an owner, and deferring it would cut that owner short.
        for ident in facts.identifiers(d.fn, name):
            if facts.is_inside(ident, d.stmt):
                continue
            p = ident.parent
            if p is not None and p.type == "var_spec":
                continue  # its declaration
            if p is not None and p.type == "expression_list" and _ident_role(facts, ident, p, None) == "none":
                continue  # `_ = cancel`
            if p is None or p.type != "call_expression" or p.child_by_field_name("function") != ident:
                return None
            if facts.enclosing_function(ident).id != d.fn.id:
                return None
            gp = p.parent
            if gp is None or gp.type not in ("expression_statement", "defer_statement"):
                return None
        if _in_loop(facts, stmt, d.fn):
            edits = end_of_scope_cancel_edits(facts, stmt, name, _ctx_name(facts, d), d.fn)
            if edits is None:
                return None
            desc = f"call `{name}()` wherever the loop iteration's block is left"
        else:
            edits = [_insert_after_line(facts, stmt, f"defer {name}()")]
            desc = f"`defer {name}()` right after the context is created"
        return Fix(description=desc, safety=SAFE, edits=tuple(edits),
                   data=_def_data(facts, d))


def _def_data(facts, d) -> dict:
    """What a fixer needs beyond the edits: the WithX call, the assignment and the
    cancel target (`_` or the name), 1-based lines and 0-based character columns."""
    stmt = _statement_of(d) or d.stmt
    return {"line": d.call.start_point[0] + 1, "col": facts.char_col(d.call.start_point),
            "stmt_line": stmt.start_point[0] + 1, "stmt_col": facts.char_col(stmt.start_point),
            "cancel_line": d.cancel.start_point[0] + 1, "cancel_col": facts.char_col(d.cancel.start_point),
            "cancel": facts.text_of(d.cancel), "form": d.form, "func": d.func}


def _ctx_name(facts, d) -> str | None:
    return facts.text_of(d.ctx) if d.ctx.type == "identifier" and facts.text_of(d.ctx) != "_" else None


# ----------------------------------------------------------------- CTX102
class DeferCancelInLoop(Rule):
    code = "CTX102"
    name = "defer-cancel-in-loop"
    language = "go"
    summary = "`defer cancel()` of a per-iteration context inside a loop: contexts pile up until the function returns."
    tokens = _CANCEL_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Finds `defer cancel()` (or a deferred func literal that calls it) directly inside
a `for`/`range` body — not inside a func literal in it — where `cancel` comes
from a `context.WithX` call made in the same loop.

## Why is this bad
A deferred call runs when the *function* returns, not at the end of the
iteration. A retry loop, a stream pump or a per-peer broadcast therefore keeps
every iteration's context, its timer and its goroutines alive until the whole
function ends: a long-lived loop leaks without bound, and a retry loop with a
zero backoff exhausts memory.

## Example
```go
for attempt := 0; attempt < s.MaxRetries; attempt++ {
	tryCtx, cancel := context.WithTimeout(ctx, s.PerTry)
	defer cancel()
	if err := p.PushBlocks(tryCtx, blocks); err == nil {
		return nil
	}
}
```

## Use instead
```go
for attempt := 0; attempt < s.MaxRetries; attempt++ {
	tryCtx, cancel := context.WithTimeout(ctx, s.PerTry)
	err := p.PushBlocks(tryCtx, blocks)
	cancel()
	if err == nil {
		return nil
	}
}
```
or move the body into a function (or func literal) whose `defer` runs per iteration.

## Fix safety
Safe. The fix removes the `defer` and calls `cancel()` at the end of the block
and before every return, break, continue or fallthrough that leaves it. It is
offered only when no return expression can still use the per-iteration context
(a call mentioning it, or a value built after it), and there is no goto.

## Source
staticcheck SA9001 (defers in range loops may not run when you expect them to);
grpc-ecosystem/go-grpc-middleware#748; the Go spec on defer statements.
"""

    def check(self, facts):
        if not facts.cancel_defs:
            return
        for defer in facts.nodes("defer_statement"):
            call = next((c for c in defer.named_children if c.type == "call_expression"), None)
            if call is None:
                continue
            name = self._cancel_name(facts, call)
            if name is None:
                continue
            fn = facts.enclosing_function(defer)
            loop = None
            for a in facts.ancestors(defer):
                if fn is not None and a.id == fn.id:
                    break
                if a.type in LOOP_TYPES:
                    loop = a
                    break
            if loop is None:
                continue
            body = loop.child_by_field_name("body")
            d = next((d for d in facts.cancel_defs
                      if d.cancel.type == "identifier" and facts.text_of(d.cancel) == name
                      and d.fn is not None and fn is not None and d.fn.id == fn.id
                      and body is not None and facts.is_inside(d.stmt, body)
                      and d.stmt.start_byte < defer.start_byte), None)
            if d is None:
                continue
            yield facts.finding(self, defer, (
                f"`defer {name}()` inside a loop runs only when the function returns: every iteration's "
                f"context.{d.func} context stays alive until then; call {name}() at the end of the iteration"),
                fix=self._fix(facts, defer, call, d, name))

    def _cancel_name(self, facts, call) -> str | None:
        f = call.child_by_field_name("function")
        if f is None:
            return None
        if f.type == "identifier":
            return facts.text_of(f)
        if f.type == "func_literal":
            body = f.child_by_field_name("body")
            names = set()
            for n in facts.walk(body, into_funcs=False) if body is not None else ():
                if n.type == "call_expression":
                    g = n.child_by_field_name("function")
                    if g is not None and g.type == "identifier":
                        names.add(facts.text_of(g))
            for d in facts.cancel_defs:
                if d.cancel.type == "identifier" and facts.text_of(d.cancel) in names:
                    return facts.text_of(d.cancel)
        return None

    def _fix(self, facts, defer, call, d, name: str) -> Fix | None:
        f = call.child_by_field_name("function")
        if f is None or d.func == "WithCancelCause":
            return None
        if f.type == "func_literal":
            # `defer func() { cancel() }()` is `defer cancel()` spelled long.
            body = f.child_by_field_name("body")
            stmts = [n for n in facts.walk(body) if n.type.endswith("_statement") or n.type == "short_var_declaration"] \
                if body is not None else []
            if len(stmts) != 1 or facts.text_of(stmts[0]).replace(" ", "") != f"{name}()":
                return None
        elif f.type != "identifier":
            return None
        stmt = _statement_of(d)
        if stmt is None or defer.parent is None or stmt.parent is None or stmt.parent.id != defer.parent.id:
            return None
        if not facts.starts_line(defer) or not facts.ends_line(defer):
            return None
        row, end_row = defer.start_point[0], defer.end_point[0]
        edits = [Edit(facts.line_start_char(row), facts.line_start_char(end_row + 1), "")]
        more = end_of_scope_cancel_edits(facts, defer, name, _ctx_name(facts, d), d.fn)
        if more is None:
            return None
        edits.extend(more)
        return Fix(description=f"call `{name}()` at the end of each iteration instead of deferring it",
                   safety=SAFE, edits=tuple(edits),
                   data={"line": defer.start_point[0] + 1, "col": facts.char_col(defer.start_point)})


# ----------------------------------------------------------------- CTX201
_STORE_METHODS = {"Store": 1, "LoadOrStore": 1, "Swap": 1, "CompareAndSwap": 2}


class ContextInGlobal(Rule):
    code = "CTX201"
    name = "context-in-global"
    language = "go"
    summary = "A context.Context kept in a package-level var, map, slice or sync.Map."
    tokens = ("context",)
    doc = """\
## What it does
Finds package-level variables whose type is or holds `context.Context` (a map,
slice, array or pointer of contexts), or whose value is evidently a context
(`var base = context.Background()`), and — when the variable's type does not say
so (`sync.Map`, `map[string]any`) — stores of a context into a package-level
map, slice or `sync.Map` (`Store`, `LoadOrStore`, `Swap`, `CompareAndSwap`,
`m[k] = ctx`, `s = append(s, ctx)`). Each context is reported once: at the
declaration when its type holds a context, otherwise at the store.
`context.CancelFunc` values and function types taking a context are not findings.

## Why is this bad
A context is request-scoped: its values, deadline and cancellation belong to one
call. Kept in a global, it outlives the request (with its values: user ids,
tenant tokens, spans), it is shared across requests and tenants, and every entry
that a terminal path forgets to delete leaks the request it came from.

## Example
```go
var reqContexts = map[*http.Request]context.Context{}
```

## Use instead
Pass the context as the first parameter of each call
(`func Do(ctx context.Context, ...)`), or derive it on the request:
`r = r.WithContext(ctx)`. Keep cancel funcs, not contexts, when a later call must
stop the work.

## Fix safety
No fix: where the context should travel instead is a design decision.

## Source
The `context` package docs ("Do not store Contexts inside a struct type; instead,
pass a Context explicitly to each function that needs it"); Go blog "Contexts and
structs"; distribution/distribution#2242.
"""

    def check(self, facts):
        reported: set[int] = set()
        for spec in facts.package_vars:
            names = [n for n in spec.children_by_field_name("name")]
            typ = spec.child_by_field_name("type")
            value = spec.child_by_field_name("value")
            vals = value.named_children if value is not None else []
            for i, n in enumerate(names):
                if facts.text_of(n) == "_":
                    continue
                held = facts.is_context_type(typ)
                if not held and typ is None:
                    v = vals[i] if len(vals) == len(names) else None
                    held = facts.is_context_value(v)
                if held:
                    reported.add(spec.id)
                    yield facts.finding(self, n, (
                        f"package-level `{facts.text_of(n)}` holds a context.Context: a request's context (its values, "
                        "deadline and cancellation) outlives the request and is shared across requests"))
        if not facts.package_var_names:
            return
        yield from self._stores(facts, reported)

    def _global(self, facts, ident, reported) -> object | None:
        """The var_spec of a package-level var `ident` names (not shadowed locally), if not reported."""
        if ident is None or ident.type != "identifier":
            return None
        name = facts.text_of(ident)
        spec = facts.package_var_names.get(name)
        if spec is None or spec.id in reported:
            return None
        fn = facts.enclosing_function(ident)
        while fn is not None:
            if facts.memo(f"declares:{fn.id}:{name}", lambda fn=fn: facts.declares(fn, name)):
                return None
            fn = facts.enclosing_function(fn)
        return spec

    def _stores(self, facts, reported):
        for call in facts.nodes("call_expression"):
            f = call.child_by_field_name("function")
            if f is None or f.type != "selector_expression":
                continue
            fld = f.child_by_field_name("field")
            idx = _STORE_METHODS.get(facts.text_of(fld)) if fld is not None else None
            if idx is None:
                continue
            if self._global(facts, f.child_by_field_name("operand"), reported) is None:
                continue
            args = call.child_by_field_name("arguments")
            argv = [a for a in args.named_children if a.type != "comment"] if args is not None else []
            if len(argv) > idx and facts.is_context_value(argv[idx], facts.enclosing_function(call)):
                yield facts.finding(self, call, (
                    f"a context.Context is stored in package-level `{facts.text_of(f.child_by_field_name('operand'))}`: "
                    "it outlives the request it belongs to and is shared across requests"))
        for st in facts.nodes("assignment_statement"):
            left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
            if left is None or right is None:
                continue
            lefts, rights = left.named_children, right.named_children
            if len(lefts) != len(rights):
                continue
            fn = facts.enclosing_function(st)
            for l, r in zip(lefts, rights):
                target = l.child_by_field_name("operand") if l.type == "index_expression" else l
                if self._global(facts, target, reported) is None:
                    continue
                value = r
                if r.type == "call_expression":
                    g = r.child_by_field_name("function")
                    if g is not None and g.type == "identifier" and facts.text_of(g) == "append":
                        args = r.child_by_field_name("arguments")
                        value = next((a for a in (args.named_children[1:] if args is not None else [])
                                      if facts.is_context_value(a, fn)), None)
                if value is not None and facts.is_context_value(value, fn):
                    yield facts.finding(self, st, (
                        f"a context.Context is stored in package-level `{facts.text_of(target)}`: "
                        "it outlives the request it belongs to and is shared across requests"))


# ----------------------------------------------------------------- CTX202
class ContextInStruct(Rule):
    code = "CTX202"
    name = "context-in-struct"
    language = "go"
    summary = "A struct field of type context.Context (named, embedded, or in a map/slice/pointer)."
    tokens = ("Context",)
    doc = """\
## What it does
Finds struct fields whose type is or holds `context.Context`: a named field, an
embedded `context.Context`, or a map, slice, array or pointer of contexts, in
named, anonymous and function-local struct types. `context.CancelFunc` fields
and fields of function types that take a context are not findings.

## Why is this bad
A context stored in a struct outlives the call it was made for: methods use a
context that may already be cancelled (every later call fails with
`context.Canceled`) or one that is never cancelled (its values and timers are
kept for the life of the struct), and the caller can no longer set a deadline
per call.

## Example
```go
type Batcher struct {
	ctx     context.Context
	pending []Request
}
```

## Use instead
```go
type Batcher struct {
	cancel  context.CancelFunc // stop the loop
	pending []Request
}

func (b *Batcher) Flush(ctx context.Context) error { ... }
```

## Fix safety
No fix: threading the context through the methods is a design change.

## Source
The `context` package docs ("Do not store Contexts inside a struct type");
Go blog "Contexts and structs" (2021); containedctx linter;
harmony-one/harmony#4445.
"""

    def check(self, facts):
        for field in facts.struct_fields:
            typ = field.child_by_field_name("type")
            if not facts.is_context_type(typ):
                continue
            names = [facts.text_of(n) for n in field.children_by_field_name("name")]
            struct = _struct_name(facts, field)
            what = f"field{'s' if len(names) > 1 else ''} `{'`, `'.join(names)}`" if names else "embedded field"
            yield facts.finding(self, field, (
                f"{what} of {struct} hold{'s' if len(names) <= 1 else ''} a context.Context: it outlives the call it "
                "belongs to (used after it is cancelled, or keeping its values alive); pass ctx to each method"))


def _struct_name(facts, field) -> str:
    for a in facts.ancestors(field):
        if a.type == "type_spec":
            n = a.child_by_field_name("name")
            if n is not None:
                return f"struct `{facts.text_of(n)}`"
        if a.type in FUNC_TYPES:
            break
    return "an anonymous struct"


__all__ = [
    "CANCEL_CONSTRUCTORS",
    "ContextInGlobal",
    "ContextInStruct",
    "DeferCancelInLoop",
    "LostCancel",
    "end_of_scope_cancel_edits",
    "lost_cancel_path",
]
