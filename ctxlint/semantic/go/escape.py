"""Escape facts for Go: does a context (or a value that keeps it) outlive a scope?

- `ctx_escapes(facts, d, include_go)`: could the context of cancel def `d`
  outlive its function (returned, stored in a field/map/slice, sent on a channel,
  captured by a func literal that is not called on the spot, handed to a `go`
  statement)? Then `defer cancel()` would cut its new owner short.
- `carries(facts, e, tainted)`: does expression `e` evaluate to something that
  holds one of the tainted contexts (the name itself, a literal or address built
  from it, a context-deriving call such as `r.WithContext(ctx)`)? A call that
  merely *uses* the context returns a result computed with it, not the context.

- `returned_to_importers(facts, fn, tname)`: does exported function `fn` hand a
  value of exported struct `tname` to its callers (its result type names it)? Its
  exported fields then belong to code outside the package.

No type checker: what a call returns is judged from the call's shape.
"""

from __future__ import annotations


def mentions(facts, node, names: set[str]) -> bool:
    """Does any identifier under `node` have one of `names`?"""
    return any(n.type == "identifier" and facts.text_of(n) in names for n in facts.walk(node))


def carries(facts, e, tainted: set[str]) -> bool:
    """Does expression `e` evaluate to something holding a tainted context: the name
    itself, a literal or address built from it, or a context-deriving call
    (`x.WithContext(ctx)`, `metadata.NewOutgoingContext(ctx, md)`, `context.WithValue`)?
    Other calls return results computed with the context, not the context."""
    t = e.type
    if t == "identifier":
        return facts.text_of(e) in tainted
    if t in ("composite_literal", "unary_expression", "parenthesized_expression"):
        return mentions(facts, e, tainted)
    if t == "call_expression":
        f = e.child_by_field_name("function")
        if f is not None and f.type == "selector_expression":
            fld = f.child_by_field_name("field")
            if fld is not None and ("Context" in facts.text_of(fld) or facts.context_func(f)):
                return mentions(facts, e, tainted)
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
                        carries(facts, e, tainted) for e in right.named_children):
                    tainted.update(facts.text_of(c) for c in left.named_children if c.type == "identifier")
    tainted.discard("_")
    for n in after:
        t = n.type
        if t == "return_statement":
            for e in (c for el in n.named_children if el.type == "expression_list" for c in el.named_children):
                if carries(facts, e, tainted):
                    return True
        elif t == "go_statement" and include_go and mentions(facts, n, tainted):
            return True
        elif t == "send_statement":
            v = n.child_by_field_name("value")
            if v is not None and carries(facts, v, tainted):
                return True
        elif t == "assignment_statement":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and any(
                    carries(facts, e, tainted) for e in right.named_children) and any(
                    c.type in ("selector_expression", "index_expression") for c in left.named_children):
                return True
        elif t == "func_literal":
            p = n.parent
            called = p is not None and p.type == "call_expression" and p.child_by_field_name("function") == n
            if not called and mentions(facts, n, tainted):
                return True
    return False


# ------------------------------------------------------------ loop escape
#: The one method of Go's predeclared `error` interface (the language spec): a
#: call of it reads an error's text, never a context it might refer to.
ERROR_METHODS = frozenset({"Error"})


def _args_mention(facts, call, tainted: set[str]) -> bool:
    """Is a tainted name among the arguments of `call`?"""
    args = call.child_by_field_name("arguments")
    return args is not None and mentions(facts, args, tainted)


def _holders_of(facts, stmt, tainted: set[str], strict: bool = False) -> list:
    """The identifiers an assignment `stmt` makes hold a tainted context.

    Pairwise `a, b := x, y`: a name whose value `carries` it, or is a call given it.
    `a, b, err := f(ctx, ...)`: every result but the last (Go's convention puts the
    `error` last, and an error or a flag does not keep the context), or only the
    first of a context.WithX; unless `strict`, only a result used as an object (see
    below): the fix's precondition is strict (a value sent away may be a stream
    used elsewhere), the rule's silence is not. `v := f(ctx)`: the one result when `v` is used as an
    object somewhere (`_used_as_object`: a stream, a connection, a client), not when
    it is only compared, returned or collected (an error, a count)."""
    left, right = stmt.child_by_field_name("left"), stmt.child_by_field_name("right")
    if left is None or right is None:
        return []
    lefts = [c for c in left.named_children]
    rights = [c for c in right.named_children]

    def holds(e) -> bool:
        if carries(facts, e, tainted):
            return True
        return e.type == "call_expression" and _args_mention(facts, e, tainted)

    def collects(e) -> bool:
        """`append(xs, v)` with a holder `v`: the slice now keeps it."""
        f = e.child_by_field_name("function") if e.type == "call_expression" else None
        args = e.child_by_field_name("arguments") if f is not None else None
        return (f is not None and f.type == "identifier" and facts.text_of(f) == "append" and args is not None
                and any(carries(facts, a, tainted) for a in args.named_children[1:]))

    out = []
    if len(lefts) == len(rights):
        out = [l for l, r in zip(lefts, rights)
               if carries(facts, r, tainted) or collects(r) or holds(r) and _used_as_object(facts, l, stmt)]
    elif len(rights) == 1 and holds(rights[0]):
        r = rights[0]
        fname = facts.context_func(r.child_by_field_name("function")) if r.type == "call_expression" else None
        out = lefts[:1] if fname is not None else [
            l for i, l in enumerate(lefts[:-1])
            if not result_is_plain_data(facts, r, i) and (strict or _used_as_object(facts, l, stmt))]
    return out


#: Go's predeclared types that hold plain data (the language spec): a value of
#: one of these, or a slice, array or map of them, cannot keep a context.
PLAIN_TYPES = frozenset({
    "bool", "string", "byte", "rune", "error", "uintptr", "int", "int8", "int16", "int32", "int64",
    "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "complex64", "complex128",
})


def _plain_type(facts, t) -> bool:
    if t is None:
        return False
    if t.type == "type_identifier":
        return facts.text_of(t) in PLAIN_TYPES
    if t.type in ("slice_type", "array_type"):
        return _plain_type(facts, t.child_by_field_name("element"))
    if t.type == "map_type":
        return _plain_type(facts, t.child_by_field_name("key")) and _plain_type(facts, t.child_by_field_name("value"))
    return False


def result_is_plain_data(facts, call, index: int) -> bool:
    """Does the file declare the function or (interface) method that `call` calls,
    with result `index` of a plain data type (`PLAIN_TYPES`, or a slice/array/map
    of them)? False when the declaration is not in the file (unknown)."""
    if call.type != "call_expression":
        return False
    f = call.child_by_field_name("function")
    name = f.child_by_field_name("field") if f is not None and f.type == "selector_expression" else f
    if name is None or name.type not in ("identifier", "field_identifier"):
        return False
    target = facts.text_of(name)
    decls = facts.memo("result-decls", lambda: [
        n for n in facts.walk(facts.root) if n.type in ("method_elem", "method_spec", "function_declaration",
                                                        "method_declaration")])
    for d in decls:
        nm = d.child_by_field_name("name")
        if nm is None or facts.text_of(nm) != target:
            continue
        res = d.child_by_field_name("result")
        if res is None:
            continue
        types = [p.child_by_field_name("type") for p in res.named_children] if res.type == "parameter_list" else [res]
        if index < len(types) and _plain_type(facts, types[index]):
            return True
    return False


def _used_as_object(facts, left, stmt) -> bool:
    """Is the variable `left` (assigned in `stmt`) used as an object in its function:
    the operand of a method call or field access (other than the `error`
    interface's `Error()`), directly or as an element of a slice or map it is
    stored into? A stream, a connection or a client is; an error or a count is not."""
    if left.type != "identifier":
        return True
    name = facts.text_of(left)
    fn = facts.enclosing_function(stmt)
    if fn is None:
        return True
    return _object_use(facts, fn, name) or any(_element_object_use(facts, fn, c) for c in _containers_of(facts, fn, name))


def _object_use(facts, fn, name: str) -> bool:
    for n in facts.identifiers(fn, name):
        p = n.parent
        if p is not None and p.type == "selector_expression" and p.child_by_field_name("operand") == n:
            fld = p.child_by_field_name("field")
            if fld is not None and facts.text_of(fld) not in ERROR_METHODS:
                return True
    return False


def _containers_of(facts, fn, name: str) -> set[str]:
    """Names of slices/maps that `name` is stored into in `fn` (`xs[i] = v`, `xs = append(xs, v)`)."""
    out: set[str] = set()
    for st in facts.walk(fn):
        if st.type != "assignment_statement":
            continue
        left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
        if left is None or right is None or len(left.named_children) != len(right.named_children):
            continue
        for l, r in zip(left.named_children, right.named_children):
            if l.type == "index_expression" and r.type == "identifier" and facts.text_of(r) == name:
                base = _base_identifier(l)
                if base is not None:
                    out.add(facts.text_of(base))
            elif l.type == "identifier" and r.type == "call_expression":
                f, args = r.child_by_field_name("function"), r.child_by_field_name("arguments")
                if f is not None and facts.text_of(f) == "append" and args is not None and any(
                        a.type == "identifier" and facts.text_of(a) == name for a in args.named_children[1:]):
                    out.add(facts.text_of(l))
    return out


def _element_object_use(facts, fn, container: str) -> bool:
    """Is an element of `container` used as an object (`xs[i].M()`, `for _, x := range xs { x.M() }`)?"""
    for n in facts.identifiers(fn, container):
        p = n.parent
        if p is not None and p.type == "index_expression" and p.parent is not None \
                and p.parent.type == "selector_expression" and p.parent.child_by_field_name("operand") == p:
            return True
        rc = p.parent if p is not None and p.type == "expression_list" else p
        if rc is not None and rc.type == "range_clause" and facts.is_inside(n, rc.child_by_field_name("right") or rc):
            left = rc.child_by_field_name("left")
            vals = left.named_children if left is not None else []
            if len(vals) == 2 and vals[1].type == "identifier":
                loop = rc.parent
                body = loop.child_by_field_name("body") if loop is not None else None
                if body is not None and _object_use(facts, body, facts.text_of(vals[1])):
                    return True
    return False


def _declared_inside(facts, ident, region) -> bool:
    decl = facts.visible_decl(ident)
    return decl is not None and facts.is_inside(decl, region) and decl.type != "function_declaration"


def _base_identifier(node):
    """`a` of `a.b.c`, `a[i]`, `(*a).b`; None when the base is not a plain name."""
    while node is not None and node.type in ("selector_expression", "index_expression", "parenthesized_expression",
                                             "unary_expression"):
        node = node.child_by_field_name("operand") or (node.named_children[0] if node.named_children else None)
    return node if node is not None and node.type == "identifier" else None


def _used_as_holder_after(facts, ident, loop, fn) -> bool:
    """Is the outer variable `ident` read after `loop` (in `fn`) as a value that may
    hold a context: a method call or field on it (other than `Error()`), a range
    over it, an index into it, or a capture by a func literal or goroutine?"""
    name = facts.text_of(ident)
    decl = facts.visible_decl(ident)
    body = fn.child_by_field_name("body")
    if body is None:
        return False
    for n in facts.identifiers(body, name):
        if n.start_byte < loop.end_byte:
            continue
        d2 = facts.visible_decl(n)
        if (d2.id if d2 is not None else None) != (decl.id if decl is not None else None):
            continue
        p = n.parent
        if p is None:
            continue
        if p.type == "selector_expression" and p.child_by_field_name("operand") == n:
            fld = p.child_by_field_name("field")
            if fld is not None and facts.text_of(fld) in ERROR_METHODS:
                continue
            return True
        if p.type == "index_expression" and p.child_by_field_name("operand") == n:
            return True
        if p.type == "range_clause":
            return True
        if p.type == "expression_list" and p.parent is not None and p.parent.type == "range_clause" \
                and p.parent.child_by_field_name("right") == p:
            return True
        if any(a.type == "func_literal" and a.start_byte > loop.end_byte for a in facts.ancestors(n)):
            return True
    return False


def loop_escape(facts, d, loop, strict: bool = False):
    """Does the per-iteration context of cancel def `d` (made in `loop`'s body)
    outlive its iteration? Returns the node through which it escapes, or None.

    The context, or a value that keeps a reference to it (a stream, a connection,
    a child context, a struct built from it: see `_holders_of`), escapes when it is
    stored into a field, map or slice element, or appended to a slice; assigned to
    a variable declared outside the loop that is used after the loop as a holder
    (`_used_as_holder_after`); sent on a channel; handed to a `go` statement; or
    captured by a func literal that is not called on the spot (a callback, an
    errgroup job). An `error` or plain data a call returned does not count, nor
    does a `return` (the function ends, and the deferred cancel runs then).
    `strict` (a fix's precondition) counts every non-error result of a call given
    the context as a holder, used as an object here or not."""
    body = loop.child_by_field_name("body")
    fn = d.fn
    if body is None or fn is None:
        return None
    if d.ctx.type != "identifier":
        return d.ctx  # `s.ctx, cancel = context.WithX(...)`: stored straight into a field
    name = facts.text_of(d.ctx)
    if name == "_":
        return None
    nodes = [n for n in facts.walk(body) if n.type in (
        "short_var_declaration", "assignment_statement", "var_spec", "send_statement", "go_statement", "func_literal")]
    def taint(strict_holders: bool) -> set[str]:
        tainted = {name}
        for _ in range(2):  # a second pass for holders made later in the body and used earlier
            for n in nodes:
                if n.type in ("short_var_declaration", "assignment_statement"):
                    if n.id == d.stmt.id:
                        continue
                    for l in _holders_of(facts, n, tainted, strict_holders):
                        if l.type == "identifier" and facts.text_of(l) != "_":
                            tainted.add(facts.text_of(l))
                        else:
                            base = _base_identifier(l)
                            if base is not None and _declared_inside(facts, base, body):
                                tainted.add(facts.text_of(base))  # a local struct now holds it
                elif n.type == "var_spec":
                    val = n.child_by_field_name("value")
                    if val is not None and any(carries(facts, e, tainted) or (
                            e.type == "call_expression" and _args_mention(facts, e, tainted))
                            for e in val.named_children):
                        tainted.update(facts.text_of(c) for c in n.children_by_field_name("name"))
        return tainted

    tainted = taint(strict)
    # What leaves through a channel, a goroutine or a callback is used out of sight:
    # every non-error result of a call given the context counts there.
    handed = tainted if strict else taint(True)
    for n in nodes:
        t = n.type
        if t == "send_statement":
            v = n.child_by_field_name("value")
            if v is not None and mentions(facts, v, handed):
                return n
        elif t == "go_statement":
            if mentions(facts, n, handed):
                return n
        elif t == "func_literal":
            p = n.parent
            called = p is not None and p.type == "call_expression" and p.child_by_field_name("function") == n
            if not called and mentions(facts, n, handed):
                return n
        elif t in ("short_var_declaration", "assignment_statement") and n.id != d.stmt.id:
            for l in _holders_of(facts, n, tainted, strict):
                if l.type == "identifier":
                    if facts.text_of(l) == "_" or _declared_inside(facts, l, body):
                        continue
                    if n.type == "short_var_declaration":
                        continue
                    right = n.child_by_field_name("right")
                    appended = right is not None and any(
                        r.type == "call_expression" and (g := r.child_by_field_name("function")) is not None
                        and g.type == "identifier" and facts.text_of(g) == "append" for r in right.named_children)
                    if appended or _used_as_holder_after(facts, l, loop, fn):
                        return n
                else:
                    base = _base_identifier(l)
                    if base is None or not _declared_inside(facts, base, body):
                        return n
    return None


def _single_value(facts, ident, loop):
    """The one value a local name is given before `loop` (`x := v`, `var x = v`,
    `const x = v`) when nothing assigns it again; None otherwise."""
    decl = facts.visible_decl(ident)
    if decl is None or decl.type not in ("short_var_declaration", "var_declaration", "const_declaration"):
        return None
    name = facts.text_of(ident)
    value = None
    if decl.type == "short_var_declaration":
        left, right = decl.child_by_field_name("left"), decl.child_by_field_name("right")
        ls, rs = left.named_children, right.named_children
        if len(ls) == len(rs):
            value = next((r for l, r in zip(ls, rs) if facts.text_of(l) == name), None)
    elif decl.type in ("var_declaration", "const_declaration"):
        for spec in facts.walk(decl):
            if spec.type in ("var_spec", "const_spec") and any(facts.text_of(c) == name for c in spec.children_by_field_name("name")):
                val = spec.child_by_field_name("value")
                if val is not None and len(val.named_children) == 1:
                    value = val.named_children[0]
    if value is None:
        return None
    fn = facts.enclosing_function(loop)
    for n in facts.identifiers(fn, name) if fn is not None else ():
        p = n.parent
        if p is not None and p.type == "expression_list" and p.parent is not None \
                and p.parent.type in ("assignment_statement", "short_var_declaration") \
                and p.parent.child_by_field_name("left") == p and p.parent.id != decl.id:
            return None
        if p is not None and p.type in ("inc_statement", "dec_statement", "unary_expression") and \
                (p.type != "unary_expression" or facts.text_of(p).startswith("&")):
            return None
    return value


def _int_of(facts, node, loop) -> int | None:
    if node is not None and node.type == "identifier":
        node = _single_value(facts, node, loop)
    if node is None or node.type != "int_literal":
        return None
    try:
        return int(facts.text_of(node).replace("_", ""), 0)
    except ValueError:
        return None


def static_iterations(facts, loop) -> int | None:
    """The number of iterations of `loop` when it is evident from the source:
    `for i := A; i < B; i++` (or `<=`, `i += 1`) with integer literals (or local
    names given one literal and never reassigned), `for range N` / `for i := range N`
    with such an integer (Go 1.22), or a range over a composite literal (or a local
    name given one). None otherwise (a `for {}` or an unknown bound)."""
    for c in loop.named_children:
        if c.type == "for_clause":
            init, cond, upd = (c.child_by_field_name(k) for k in ("initializer", "condition", "update"))
            if init is None or cond is None or upd is None or init.type != "short_var_declaration":
                return None
            lefts = init.child_by_field_name("left").named_children
            rights = init.child_by_field_name("right").named_children
            if len(lefts) != 1 or len(rights) != 1 or _int_of(facts, rights[0], loop) is None:
                return None
            var = facts.text_of(lefts[0])
            if cond.type != "binary_expression":
                return None
            cl, cr = cond.child_by_field_name("left"), cond.child_by_field_name("right")
            op = cond.child_by_field_name("operator")
            if cl is None or cr is None or op is None or facts.text_of(cl) != var or _int_of(facts, cr, loop) is None:
                return None
            step = facts.text_of(upd).replace(" ", "")
            if step not in (f"{var}++", f"{var}+=1"):
                return None
            lo, hi = _int_of(facts, rights[0], loop), _int_of(facts, cr, loop)
            o = facts.text_of(op)
            n = hi - lo if o == "<" else hi - lo + 1 if o == "<=" else None
            return max(n, 0) if n is not None else None
        if c.type == "range_clause":
            r = c.child_by_field_name("right")
            if r is None:
                return None
            if r.type in ("int_literal", "identifier") and _int_of(facts, r, loop) is not None:
                return _int_of(facts, r, loop)
            if r.type == "identifier":
                r = _single_value(facts, r, loop) or r
            if r.type == "composite_literal":
                body = r.child_by_field_name("body")
                return len([e for e in body.named_children if e.type != "comment"]) if body is not None else None
            return None
    return None


def result_outlives_call(facts, call, fn) -> bool:
    """Does the value of `call` (a call expression in function `fn`) outlive `fn`'s
    call? True when it is stored in a field, a map/slice element or a composite
    literal, sent on a channel, handed to a `go` statement or captured by a func
    literal that is not called on the spot; for a context (a `context.WithX` or
    context-deriving call, see `carries`) also when it is returned. Results bound
    by `a, b, err := call` count all but the last (the error position)."""
    p = call.parent
    if p is None:
        return False
    if p.type in ("keyed_element", "literal_element"):
        return True
    is_ctx = facts.context_func(call.child_by_field_name("function")) is not None or carries(facts, call, set())
    names: set[str] = set()
    if p.type == "expression_list" and p.parent is not None and p.parent.type in ("short_var_declaration",
                                                                                   "assignment_statement"):
        st = p.parent
        if st.child_by_field_name("right") != p:
            return False
        lefts = st.child_by_field_name("left").named_children
        if len(p.named_children) == 1 and len(lefts) > 1:
            lefts = lefts[:1] if facts.context_func(call.child_by_field_name("function")) else lefts[:-1]
        elif len(p.named_children) != len(lefts):
            return False
        for l in lefts:
            if l.type in ("selector_expression", "index_expression"):
                return True
            if l.type == "identifier" and facts.text_of(l) != "_":
                names.add(facts.text_of(l))
    elif p.type == "expression_list" and p.parent is not None and p.parent.type == "return_statement":
        return is_ctx
    else:
        return False
    if not names:
        return False
    body = fn.child_by_field_name("body") if fn is not None else None
    if body is None:
        return False
    tainted = set(names)
    for n in facts.walk(body):
        if n.start_byte < call.end_byte:
            continue
        t = n.type
        if t in ("short_var_declaration", "assignment_statement"):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is None or right is None:
                continue
            if any(carries(facts, e, tainted) for e in right.named_children):
                if any(c.type in ("selector_expression", "index_expression") for c in left.named_children):
                    return True
                tainted.update(facts.text_of(c) for c in left.named_children if c.type == "identifier")
        elif t == "keyed_element" and len(n.named_children) == 2 and mentions(facts, n.named_children[1], tainted):
            # a struct built from the result keeps it: a stream or a connection does (it
            # is used as an object somewhere), plain data copied into a response does not
            if is_ctx or any(_object_use(facts, fn, v) for v in tainted
                             if mentions(facts, n.named_children[1], {v})):
                return True
        elif t == "send_statement":
            v = n.child_by_field_name("value")
            if v is not None and mentions(facts, v, tainted):
                return True
        elif t == "go_statement" and mentions(facts, n, tainted):
            return True
        elif t == "func_literal":
            q = n.parent
            called = q is not None and q.type == "call_expression" and q.child_by_field_name("function") == n
            if not called and mentions(facts, n, tainted):
                return True
        elif t == "return_statement" and is_ctx and any(
                carries(facts, e, tainted) for el in n.named_children if el.type == "expression_list"
                for e in el.named_children):
            return True
    return False


def is_exported(name: str | None) -> bool:
    """Is a Go identifier exported (The Go Programming Language Specification,
    "Exported identifiers": its first character is an upper-case letter)?"""
    return bool(name) and name[0].isupper()


def returned_to_importers(facts, fn, tname: str) -> bool:
    """Does function or method `fn` (a tree-sitter function_declaration /
    method_declaration node) hand values of struct `tname` to callers outside the
    package? True when `fn` and `tname` are exported and `fn`'s result type names
    `tname` (`T`, `*T`, `(T, error)`): the caller then owns the value's exported
    fields, a cancel func among them. False for func literals and unexported names."""
    if fn is None or fn.type not in ("function_declaration", "method_declaration"):
        return False
    name = fn.child_by_field_name("name")
    if name is None or not is_exported(facts.text_of(name)) or not is_exported(tname):
        return False
    result = fn.child_by_field_name("result")
    if result is None:
        return False
    return any(n.type == "type_identifier" and facts.text_of(n) == tname for n in facts.walk(result))
