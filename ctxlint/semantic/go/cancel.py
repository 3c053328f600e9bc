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
    def_list = stmt_list_of(d)
    decl = facts.visible_decl(d.cancel)
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
