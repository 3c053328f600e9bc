"""Cancel-func facts for Go: where the cancel func of each `context.WithX` goes.

- `lost_cancel_path(facts, cfg, d, name)`: a control-flow path from the cancel
  def `d` on which its cancel func is never used (go vet's lostcancel search),
  or on which it is overwritten first;
- `ident_role(...)`: whether one mention of the variable is a use, a write, or
  neither (`_ = cancel`, a shadowing declaration);
- `statement_of(d)`, `stmt_list_of(d)`: the statement holding a def and the
  statement list around it; `in_loop(facts, node, fn)`.

A "use" is any read: a call, an argument, a store, a capture by a closure, a return.
"""

from __future__ import annotations

from ctxlint.languages.go import FUNC_TYPES, LOOP_TYPES


def ident_role(facts, ident, element, def_list, def_decl=False) -> str:
    """How the identifier `ident` (inside CFG element `element`) touches the variable.

    Returns "use" (any read: call, argument, store, capture by a closure, return),
    "write" (assigned or re-declared in the same statement list as the def: the
    old cancel func is lost), or "none" (`_ = cancel`, a struct-literal key, a
    shadowing declaration in a nested block or func literal parameter).
    """
    if def_decl is not False:
        decl = facts.visible_decl(ident)
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


def _element_event(facts, element, name: str, named_result: bool, def_list, def_decl):
    """("use"|"write"|None, node) for one CFG element."""
    if named_result and element.type == "return_statement" and not any(
            c.type == "expression_list" for c in element.named_children):
        return "use", element  # a naked return hands the named result to the caller
    write = None
    for ident in facts.identifiers(element, name):
        role = ident_role(facts, ident, element, def_list, def_decl)
        if role == "use":
            return "use", ident
        if role == "write" and write is None:
            write = ident
    return ("write", write) if write is not None else (None, None)


#: Functions that call a func value later unless the handle they return stops them
#: (the `time` and `context` packages' docs): (package, function) -> how the handle
#: stops the call: "Stop" (a method of the returned *time.Timer) or "call" (the
#: returned `stop func() bool` of context.AfterFunc).
DEFERRED_CALLERS = {("time", "AfterFunc"): "Stop", ("context", "AfterFunc"): "call"}


def stopped_handles(facts, d, name: str) -> dict[str, tuple]:
    """Handles of deferred calls of the cancel func `name` of def `d` that the function
    stops: `t := time.AfterFunc(dur, cancel)` with a `t.Stop()` in `d.fn`, or
    `stop := context.AfterFunc(ctx, cancel)` with a `stop()`. Returns handle name ->
    (the AfterFunc call node, the handle identifier, "Stop" | "call"). Until a handle is stopped, its
    timer still calls the cancel func: arming it counts as a use only on the paths
    where it is not stopped first (`lost_cancel_path`)."""
    out: dict[str, tuple] = {}
    body = d.fn.child_by_field_name("body") if d.fn is not None else None
    if body is None or (b"AfterFunc" not in facts.src[body.start_byte:body.end_byte]):
        return out
    for ident in facts.identifiers(body, name):
        call = deferred_call_of(facts, ident)
        if call is None:
            continue
        how = call[1]
        p = call[0].parent
        st = p.parent if p is not None and p.type == "expression_list" else None
        if st is None or st.type not in ("short_var_declaration", "assignment_statement") \
                or st.child_by_field_name("right") != p:
            continue
        left = st.child_by_field_name("left")
        h = left.named_children[0] if left is not None and left.named_child_count == 1 else None
        if h is None or h.type != "identifier":
            continue
        hname = facts.text_of(h)
        if any(_stops(facts, n, hname, how) for n in facts.identifiers(body, hname)):
            out[hname] = (call[0], h, how)
    return out


def deferred_call_of(facts, ident):
    """(call, how) when `ident` is the func argument of `time.AfterFunc(d, f)` or
    `context.AfterFunc(ctx, f)` (`DEFERRED_CALLERS`), else None."""
    args = ident.parent
    if args is None or args.type != "argument_list" or args.named_child_count != 2 \
            or args.named_children[1].id != ident.id:
        return None
    call = args.parent
    f = call.child_by_field_name("function") if call is not None else None
    if f is None or f.type != "selector_expression":
        return None
    op, fld = f.child_by_field_name("operand"), f.child_by_field_name("field")
    if op is None or fld is None or op.type != "identifier":
        return None
    how = DEFERRED_CALLERS.get((facts.imports.get(facts.text_of(op)), facts.text_of(fld)))
    return (call, how) if how is not None else None


def _stops(facts, ident, hname: str, how: str) -> bool:
    """Is `ident` (named `hname`) the handle in a stopping call: `h.Stop()` / `h()`?"""
    p = ident.parent
    if how == "call":
        return p is not None and p.type == "call_expression" and p.child_by_field_name("function") == ident
    if p is None or p.type != "selector_expression" or p.child_by_field_name("operand") != ident:
        return False
    fld = p.child_by_field_name("field")
    q = p.parent
    return fld is not None and facts.text_of(fld) == "Stop" and q is not None and q.type == "call_expression"


def _armed_events(facts, element, name, named_result, def_list, def_decl, handles):
    """The events of one CFG element in source order, for a cancel func armed on
    stoppable handles: ("use"|"write"|"arm"|"disarm", node)."""
    if named_result and element.type == "return_statement" and not any(
            c.type == "expression_list" for c in element.named_children):
        return [("use", element)]
    out = []
    for ident in facts.identifiers(element, name):
        role = ident_role(facts, ident, element, def_list, def_decl)
        if role == "use":
            call = deferred_call_of(facts, ident)
            if call is not None and any(v[0].id == call[0].id for v in handles.values()):
                out.append(("arm", ident))
            else:
                out.append(("use", ident))
        elif role == "write":
            out.append(("write", ident))
    for hname, (_call, _h, how) in handles.items():
        for ident in facts.identifiers(element, hname):
            if _stops(facts, ident, hname, how):
                out.append(("disarm", ident))
    out.sort(key=lambda e: e[1].start_byte)
    return out


def _armed_lost_path(facts, cfg, d, name, block, idx, named_result, def_list, def_decl, handles):
    """`lost_cancel_path` for a cancel func handed to stoppable deferred calls
    (`stopped_handles`): a search over (block, armed) states. A return reached while
    no timer is armed, or after the one armed was stopped, loses the cancel func;
    the result's node is then ("stopped", (return node, the disarming node))."""
    memo: dict[tuple[int, bool], tuple] = {}

    def run(b, start, armed):
        key = (b.index, armed)
        if start == 0 and key in memo:
            return memo[key]
        state, ev_out, stop_at = armed, None, None
        for el in b.nodes[start:]:
            for ev, node in _armed_events(facts, el, name, named_result, def_list, def_decl, handles):
                if ev == "use":
                    res = ("covered", None, None)
                    break
                if ev == "write" and not state:
                    res = ("write", node, None)
                    break
                if ev == "arm":
                    state = True
                elif ev == "disarm" and state:
                    state, stop_at = False, node
            else:
                continue
            break
        else:
            res = ("open", state, stop_at)
        if start == 0:
            memo[key] = res
        return res

    seen: set[tuple[int, bool]] = set()
    stack = [(block, idx + 1, False, None)]
    first_write = None
    while stack:
        b, start, armed, stopped = stack.pop()
        kind, x, stop_at = run(b, start, armed)
        if kind == "covered":
            continue
        if kind == "write":
            first_write = first_write or x
            continue
        state, stopped = x, stop_at or stopped
        if b.ret is not None:
            if not state:
                return ("stopped", (b.ret, stopped)) if stopped is not None else ("return", b.ret)
            continue
        for s2 in reversed(b.succs):
            if (s2.index, state) not in seen:
                seen.add((s2.index, state))
                stack.append((s2, 0, state, stopped))
    return ("write", first_write) if first_write is not None else None


def lost_cancel_path(facts, cfg, d, name: str):
    """Search `cfg` from the cancel def `d` for a path on which `name` is never used.

    The go vet lostcancel algorithm (a depth-first search from the defining
    block, pruned at blocks that use the variable), with two additions: a path
    that reaches a write of the variable (the def itself again in a loop, or
    another assignment) before a use loses the cancel func too.

    A cancel func handed to `time.AfterFunc`/`context.AfterFunc` whose handle the
    function stops (`stopped_handles`) is used only while the handle is armed: a
    return reached after the stop, with no other use, loses it ("stopped").

    Returns ("return", node_or_END) / ("write", node) / ("stopped", (return node or
    END, the stopping identifier)) or None when every path uses it.
    """
    fn = d.fn
    named_result = name in facts.named_results(fn)
    def_list = stmt_list_of(d)
    decl = facts.visible_decl(d.cancel)
    def_decl = decl.id if decl is not None else None
    loc = cfg.locate(d.stmt)
    if loc is None:
        return None
    block, idx = loc
    handles = stopped_handles(facts, d, name)
    if handles:
        return _armed_lost_path(facts, cfg, d, name, block, idx, named_result, def_list, def_decl, handles)
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

    guard = stable_guard(facts, d)

    def succs(b):
        # Under the same unchanged guard as the def (`if lock != nil { ctx, cancel = ... }`
        # ... `if lock != nil { cancel() }`), the branch where the guard is false
        # cannot follow: the def ran, so the guard held.
        if guard is not None and b.nodes:
            last = b.nodes[-1]
            p = last.parent
            if p is not None and p.type == "if_statement" and p.child_by_field_name("condition") == last \
                    and _norm(facts, last) == guard and b.succs:
                return b.succs[:1]
        return b.succs

    seen: set[int] = set()
    stack = list(reversed(succs(block)))
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
        stack.extend(reversed(succs(b)))
    if first_write is not None:
        return "write", first_write
    return None


def _norm(facts, node) -> str:
    return "".join(facts.text_of(node).split())


def stable_guard(facts, d) -> str | None:
    """The condition (whitespace-free text) of the innermost `if` of `d.fn` whose then
    branch holds the cancel def `d`, when a later test of the same condition must give
    the same answer: it calls nothing, receives nothing, and none of its names is
    assigned, incremented or has its address taken anywhere in the function. None
    otherwise. (go vet's lostcancel reports such correlated branches; ctxlint does not.)"""
    fn = d.fn
    for a in facts.ancestors(d.stmt):
        if a.id == fn.id or a.type in FUNC_TYPES:
            return None
        if a.type != "if_statement":
            continue
        cond, cons = a.child_by_field_name("condition"), a.child_by_field_name("consequence")
        if cond is None or cons is None or not facts.is_inside(d.stmt, cons) or a.child_by_field_name("initializer"):
            return None
        names = set()
        for n in facts.walk(cond):
            if n.type in ("call_expression", "unary_expression") and (
                    n.type == "call_expression" or facts.text_of(n).lstrip().startswith(("<-", "&"))):
                return None
            if n.type == "identifier":
                names.add(facts.text_of(n))
        if not names:
            return None
        body = fn.child_by_field_name("body")
        for name in names:
            for ident in facts.identifiers(body, name):
                p = ident.parent
                if p is not None and p.type in ("inc_statement", "dec_statement"):
                    return None
                if p is not None and p.type == "unary_expression" and facts.text_of(p).lstrip().startswith("&"):
                    return None
                if p is not None and p.type == "expression_list" and p.parent is not None \
                        and p.parent.type in ("assignment_statement", "short_var_declaration") \
                        and p.parent.child_by_field_name("left") == p:
                    return None
        return _norm(facts, cond)
    return None


def stmt_list_of(d):
    """The statement_list holding the def's statement (var_spec -> its var_declaration)."""
    node = d.stmt
    if node.type == "var_spec":
        node = node.parent
        if node is not None and node.type == "var_spec_list":
            node = node.parent
    return node.parent if node is not None else None


def statement_of(d):
    """The statement node of a def (var_declaration for the `var` form)."""
    node = d.stmt
    if node.type == "var_spec":
        p = node.parent
        if p is None or p.type != "var_declaration":
            return None
        return p
    return node


def in_loop(facts, node, fn) -> bool:
    """Is `node` inside a `for` loop of function `fn` (not of a nested func literal)?"""
    for a in facts.ancestors(node):
        if a.id == fn.id or a.type in FUNC_TYPES:
            return False
        if a.type in LOOP_TYPES:
            return True
    return False
