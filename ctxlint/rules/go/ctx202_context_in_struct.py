"""CTX202 context-in-struct (Go): a struct field holding a context.Context in a harmful shape."""

from __future__ import annotations

from ctxlint.rules import Rule
from ctxlint.semantic.go.ctx import (
    CANCEL_CONSTRUCTORS,
    ROOT_CONTEXTS,
    ctx_params,
    has_ctx_or_request_param,
    package_reads_field,
    request_params,
)
from ctxlint.semantic.go.escape import carries, is_exported, result_outlives_call, returned_to_importers

#: The methods of the context.Context interface (https://pkg.go.dev/context#Context):
#: a type that defines them all *is* a context.
CONTEXT_METHODS = frozenset({"Deadline", "Done", "Err", "Value"})


class ContextInStruct(Rule):
    code = "CTX202"
    name = "context-in-struct"
    language = "go"
    summary = ("A context.Context struct field in a harmful shape (used instead of a ctx parameter, always "
               "Background(), set from a dying ctx, cancel never called).")
    tokens = ("Context",)
    doc = """\
## What it does
Finds struct fields that hold a `context.Context` (named, or a map, slice, array
or pointer of contexts) in one of the shapes that demonstrably do harm:

1. a method that receives a ctx parameter (or a handler's incoming
   `*http.Request`) passes the stored context to a call instead: the caller's
   cancellation and deadline are ignored (an outgoing `*http.Request` a client
   method is handed is not the caller's context: the type may have built it for the
   context it stores); likewise an HTTP handler of another type that never uses
   its request's context and passes the stored one (a server-lifetime context in
   an options struct) to a call instead of `r.Context()`;
2. the stored context is always `context.Background()`/`TODO()` and is handed to
   calls: they can never be cancelled and carry no deadline;
3. a method (not a constructor) assigns the field from a context that dies when
   the method returns: one it derives and cancels itself (`defer cancel()`), or
   a handler's `r.Context()`, which net/http cancels when the handler returns;
4. the context is stored next to its cancel func (a `context.CancelFunc` or a
   `func()` field set from the same `context.WithX` call) and nothing in the
   package ever calls that cancel func (grpc-go#888: the client never calls `s.cancel`) — unless
   an exported function returns the struct with the cancel func in an exported
   field (`Open() Handle{Ctx, Cancel}`): its callers outside the package own it.

Silent: a type that *is* a context (it embeds `context.Context`, or defines
`Deadline`, `Done`, `Err` and `Value`), a type whose method hands the stored
context out (`Context() context.Context`, as a gRPC `ServerStream` wrapper must),
a message struct that carries its caller's context through a queue or channel to
a worker, and a lifetime context kept next to a cancel func that `Close`/`Stop`
calls. The methods are looked up in the file; the cancel func's calls in the
whole package. Test code (`_test.go` files, fuzz harnesses, helpers that import a
test driver: `GoFacts.is_test_code`) is not checked: its structs live for one test.

## Why is this bad
A context stored in a struct outlives the call it was made for: methods use a
context that may already be cancelled (every later call fails with
`context.Canceled`) or one that is never cancelled (its values and timers are
kept for the life of the struct), and the caller can no longer set a deadline
per call.

## Example
```go
type syncer struct {
	peers peerSource
	ctx   context.Context
}

func (s *syncer) cycle(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	s.ctx = ctx          // cancelled when cycle returns, used later by retries
	return s.fetchNext()
}
```

## Use instead
```go
func (s *syncer) cycle(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	return s.fetchNext(ctx)
}
```

## Fix safety
No fix: threading the context through the methods is a design change.

## Source
The `context` package docs ("Do not store Contexts inside a struct type");
Go blog "Contexts and structs" (2021); containedctx linter;
harmony-one/harmony#4445; grpc/grpc-go#888.
"""

    def check(self, facts):
        if facts.is_test_code:
            return
        for field in facts.struct_fields:
            typ = field.child_by_field_name("type")
            if not facts.is_context_type(typ):
                continue
            names = [facts.text_of(n) for n in field.children_by_field_name("name")]
            if not names:
                continue  # an embedded context.Context: the type is a context
            spec = field.parent.parent.parent
            tname = facts.text_of(spec.child_by_field_name("name")) if spec is not None and spec.type == "type_spec" \
                and spec.child_by_field_name("name") is not None else None
            if tname is None or self._is_context(facts, tname, field):
                continue
            for name in names:
                if self._hands_out(facts, tname, name):
                    continue
                why = (self._method_ignores_param(facts, tname, name)
                       or self._handler_uses_stored(facts, tname, name)
                       or self._always_root(facts, tname, name)
                       or self._set_from_request(facts, tname, name)
                       or self._cancel_never_called(facts, tname, name))
                if why:
                    yield facts.finding(self, field, f"field `{name}` of struct `{tname}` holds a context.Context: {why}")
                    break

    # silent shapes ------------------------------------------------------------
    def _is_context(self, facts, tname: str, field) -> bool:
        """Does struct `tname` embed a context.Context or define the four Context methods?"""
        for f in field.parent.named_children:
            if f.type == "field_declaration" and not list(f.children_by_field_name("name")) \
                    and facts.is_context_type(f.child_by_field_name("type")):
                return True
        defined = {facts.text_of(m.child_by_field_name("name")) for m in facts.methods_by_type.get(tname, ())}
        return CONTEXT_METHODS <= defined

    def _hands_out(self, facts, tname: str, name: str) -> bool:
        """Does a method of `tname` without a ctx parameter return the stored context
        (an accessor such as a gRPC stream wrapper's `Context()`)?"""
        for m in facts.methods_by_type.get(tname, ()):
            if has_ctx_or_request_param(facts, m):
                continue
            recv, _ = facts.receiver(m)
            for ret in facts.walk(m.child_by_field_name("body") or m, into_funcs=False):
                if ret.type == "return_statement" and any(
                        self._is_field(facts, e, recv, name)
                        for el in ret.named_children if el.type == "expression_list" for e in el.named_children):
                    return True
        return False

    # harmful shapes -----------------------------------------------------------
    @staticmethod
    def _is_field(facts, node, recv: str | None, name: str) -> bool:
        """Is `node` the selector `recv.name`?"""
        if node is None or node.type != "selector_expression" or recv is None:
            return False
        op, fld = node.child_by_field_name("operand"), node.child_by_field_name("field")
        return (op is not None and fld is not None and op.type == "identifier"
                and facts.text_of(op) == recv and facts.text_of(fld) == name)

    def _field_reads(self, facts, m, name: str):
        """Selectors `recv.name` in method `m` that are read (not assigned), outside func literals."""
        recv, _ = facts.receiver(m)
        body = m.child_by_field_name("body")
        if recv is None or body is None:
            return
        for n in facts.walk(body, into_funcs=False):
            if self._is_field(facts, n, recv, name):
                p = n.parent
                if p is not None and p.type == "expression_list" and p.parent is not None \
                        and p.parent.type == "assignment_statement" and p.parent.child_by_field_name("left") == p:
                    continue
                yield n

    def _method_ignores_param(self, facts, tname: str, name: str) -> str | None:
        for m in facts.methods_by_type.get(tname, ()):
            # the caller's context: a ctx parameter, or an incoming request's (a handler's
            # `*http.Request` next to its `http.ResponseWriter`); an outgoing request a
            # client method is handed (`RoundTrip(req)`, `Do(req)`) may well have been built
            # by the type itself for the context it stores
            params = set(ctx_params(facts, m)) | set(request_params(facts, m))
            if not params:
                continue
            body = m.child_by_field_name("body")
            if body is None or any(n.type == "identifier" and facts.text_of(n) in params for n in facts.walk(body)):
                continue  # it uses the caller's context too: the stored one is chosen on purpose
            for sel in self._field_reads(facts, m, name):
                args = sel.parent
                if args is None or args.type != "argument_list":
                    continue
                call = args.parent
                if any(c.type == "identifier" and facts.text_of(c) in params for c in facts.walk(args)):
                    continue  # the caller's ctx goes in too (merged, or compared)
                mname = facts.text_of(m.child_by_field_name("name"))
                callee = facts.text_of(call.child_by_field_name("function"))
                return (f"method `{mname}` receives the caller's context, never uses it, and passes the stored "
                        f"`{facts.text_of(sel)}` to `{callee}` on line {sel.start_point[0] + 1}: the caller's "
                        "cancellation and deadline are ignored; pass the parameter")
        return None

    def _handler_uses_stored(self, facts, tname: str, name: str) -> str | None:
        """An HTTP handler (of any type, or a func literal) that never uses its request's
        context passes `x.name` (a server-lifetime context kept in an options or config
        struct) to a call instead of `r.Context()`: the client's cancellation and the
        request's deadline never reach that call. Only when no other struct of the file
        has a field of that name that is not a context (the selector's type is unknown)."""
        if self._field_name_ambiguous(facts, name):
            return None
        for fn in facts.functions:
            reqs = set(request_params(facts, fn))
            if not reqs or (fn.type == "method_declaration" and facts.receiver(fn)[1] == tname):
                continue
            body = fn.child_by_field_name("body")
            uses_request_ctx = any(
                n.type == "selector_expression" and facts.text_of(n.child_by_field_name("field") or n) == "Context"
                and (op := n.child_by_field_name("operand")) is not None and facts.text_of(op) in reqs
                for n in facts.walk(body))
            if uses_request_ctx or any(facts.identifiers(body, c) for c in ctx_params(facts, fn)):
                continue
            for n in facts.walk(body, into_funcs=False):
                if n.type != "selector_expression" or n.parent is None or n.parent.type != "argument_list":
                    continue
                fld = n.child_by_field_name("field")
                if fld is None or facts.text_of(fld) != name:
                    continue
                call = n.parent.parent
                if result_outlives_call(facts, call, fn):
                    continue  # what it starts outlives the request (a process, a stream): the stored ctx is right
                fname = (f"HTTP handler `{facts.text_of(fn.child_by_field_name('name'))}`"
                         if fn.child_by_field_name("name") is not None
                         else f"the HTTP handler on line {fn.start_point[0] + 1}")
                return (f"{fname} passes the stored `{facts.text_of(n)}` to "
                        f"`{facts.text_of(call.child_by_field_name('function'))}` on line {n.start_point[0] + 1} "
                        f"instead of the request's context: the client's cancellation and the request's deadline "
                        f"never reach that call; pass {sorted(reqs)[0]}.Context()")
        return None

    def _field_name_ambiguous(self, facts, name: str) -> bool:
        """Does a struct of the file have a field `name` that is not a context?"""
        for f in facts.struct_fields:
            if any(facts.text_of(n) == name for n in f.children_by_field_name("name")) \
                    and not facts.is_context_type(f.child_by_field_name("type")):
                return True
        return False

    def _values(self, facts, tname: str, name: str) -> list:
        """Every value the file stores into field `name` of `tname`: keyed elements of
        `tname{...}` literals and assignments `x.name = v` (None: a value not known)."""
        out = []
        for n in facts.nodes("composite_literal"):
            if n.type == "composite_literal":
                t = n.child_by_field_name("type")
                if t is None or facts.text_of(t) != tname:
                    continue
                body = n.child_by_field_name("body")
                for kv in body.named_children if body is not None else ():
                    if kv.type == "keyed_element" and len(kv.named_children) == 2 \
                            and facts.text_of(kv.named_children[0]) == name:
                        v = kv.named_children[1]
                        out.append(v.named_children[0] if v.type == "literal_element" and v.named_children else v)
        # Any `x.name = v` in the file (the operand's type is unknown without a type
        # checker: a same-named field of another struct only makes the rule quieter).
        for st in facts.nodes("assignment_statement"):
            left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
            if left is None or right is None:
                continue
            ls, rs = left.named_children, right.named_children
            for i, l in enumerate(ls):
                fld = l.child_by_field_name("field") if l.type == "selector_expression" else None
                if fld is not None and facts.text_of(fld) == name:
                    out.append(rs[i] if len(rs) == len(ls) else None)
        return out

    def _always_root(self, facts, tname: str, name: str) -> str | None:
        vals = self._values(facts, tname, name)
        if not vals or not all(
                v is not None and v.type == "call_expression"
                and facts.context_func(v.child_by_field_name("function")) in ROOT_CONTEXTS for v in vals):
            return None
        for m in facts.methods_by_type.get(tname, ()):
            for sel in self._field_reads(facts, m, name):
                if sel.parent is not None and sel.parent.type == "argument_list":
                    root = facts.text_of(vals[0].child_by_field_name("function"))
                    return (f"it is always `{root}()`, and it is passed to "
                            f"`{facts.text_of(sel.parent.parent.child_by_field_name('function'))}` on line "
                            f"{sel.start_point[0] + 1}: that call can never be cancelled and has no deadline; "
                            "pass the caller's ctx")
        return None

    def _set_from_request(self, facts, tname: str, name: str) -> str | None:
        cancel_fields = self._cancel_fields(facts, tname)
        for m in facts.methods_by_type.get(tname, ()):
            recv, _ = facts.receiver(m)
            body = m.child_by_field_name("body")
            if recv is None or body is None:
                continue
            # Sources that die when this method returns: a context it derives and
            # cancels itself (`defer cancel()`), and a handler's `r.Context()`.
            tainted = {facts.text_of(d.ctx) for d in facts.cancel_defs
                       if d.fn is not None and d.fn.id == m.id and d.ctx.type == "identifier"
                       and d.cancel.type == "identifier" and self._deferred(facts, m, facts.text_of(d.cancel))}
            tainted.discard("_")
            reqs = set(request_params(facts, m))
            if not tainted and not reqs:
                continue
            stmts = [n for n in facts.walk(body, into_funcs=False)
                     if n.type in ("short_var_declaration", "assignment_statement")]
            stores_cancel = False
            for st in stmts:
                left = st.child_by_field_name("left")
                if left is not None and any(any(self._is_field(facts, l, recv, c) for c in cancel_fields)
                                            for l in left.named_children):
                    stores_cancel = True
            if stores_cancel:
                continue  # a lifetime context with its cancel func (checked by _cancel_never_called)

            def holds(e, tainted=tainted, reqs=reqs) -> bool:
                if carries(facts, e, tainted):
                    return True
                if e.type == "call_expression":
                    f = e.child_by_field_name("function")
                    if f is not None and f.type == "selector_expression":
                        op, fld = f.child_by_field_name("operand"), f.child_by_field_name("field")
                        if op is not None and facts.text_of(op) in reqs and fld is not None \
                                and facts.text_of(fld) == "Context":
                            return True
                    if f is not None and f.type == "identifier" and facts.text_of(f) == "append":
                        args = e.child_by_field_name("arguments")
                        return args is not None and any(holds(a) for a in args.named_children[1:])
                return e.type == "unary_expression" and any(holds(c) for c in e.named_children)

            for _ in range(2):
                for st in stmts:
                    left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
                    if left is None or right is None:
                        continue
                    ls, rs = left.named_children, right.named_children
                    if len(rs) == 1 and len(ls) > 1 and holds(rs[0]):
                        fname = facts.context_func(rs[0].child_by_field_name("function")) \
                            if rs[0].type == "call_expression" else None
                        if fname is not None and ls[0].type == "identifier":
                            tainted.add(facts.text_of(ls[0]))
                    elif len(ls) == len(rs):
                        for l, r in zip(ls, rs):
                            if l.type == "identifier" and holds(r):
                                tainted.add(facts.text_of(l))
            for st in stmts:
                if st.type != "assignment_statement":
                    continue
                left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
                ls, rs = left.named_children, right.named_children
                for i, l in enumerate(ls):
                    target = l.child_by_field_name("operand") if l.type == "index_expression" else l
                    if not self._is_field(facts, target, recv, name):
                        continue
                    r = rs[i] if len(rs) == len(ls) else None
                    if r is not None and holds(r):
                        mname = facts.text_of(m.child_by_field_name("name"))
                        what = ("the request's context, which net/http cancels when the handler returns"
                                if not carries(facts, r, tainted) else
                                "a context it cancels itself when it returns")
                        return (f"method `{mname}` stores {what}, on line {st.start_point[0] + 1}: every later use "
                                "of the field sees a cancelled context (`context.Canceled`); pass ctx to each method")
        return None

    @staticmethod
    def _deferred(facts, m, cancel: str) -> bool:
        """Does method `m` itself `defer cancel()` (outside func literals)?"""
        for dn in facts.walk(m.child_by_field_name("body"), into_funcs=False):
            if dn.type == "defer_statement":
                call = next((c for c in dn.named_children if c.type == "call_expression"), None)
                f = call.child_by_field_name("function") if call is not None else None
                if f is not None and f.type == "identifier" and facts.text_of(f) == cancel:
                    return True
        return False

    def _cancel_fields(self, facts, tname: str) -> list[str]:
        """Names of `tname`'s fields of type context.CancelFunc / CancelCauseFunc, or a
        plain `func()` (the pairing with a context.WithX call decides what it holds)."""
        st = facts.struct_types.get(tname)
        out = []
        for f in st.named_children[0].named_children if st is not None and st.named_children else ():
            t = f.child_by_field_name("type") if f.type == "field_declaration" else None
            if t is not None and t.type == "function_type" and facts.text_of(t).replace(" ", "") == "func()":
                out.extend(facts.text_of(c) for c in f.children_by_field_name("name"))  # `cancel func()`
            elif t is not None and t.type == "qualified_type":
                pkg, n = t.child_by_field_name("package"), t.child_by_field_name("name")
                if pkg is not None and n is not None and facts.text_of(pkg) in facts.context_names \
                        and facts.text_of(n) in ("CancelFunc", "CancelCauseFunc"):
                    out.extend(facts.text_of(c) for c in f.children_by_field_name("name"))
        return out

    def _cancel_never_called(self, facts, tname: str, name: str) -> str | None:
        cancels = self._cancel_fields(facts, tname)
        if not cancels:
            return None
        for c, fn in self._paired_cancels(facts, tname, name, cancels):
            if is_exported(c) and returned_to_importers(facts, fn, tname):
                continue  # `Open() Handle{Ctx, Cancel}`: the importing caller owns and calls Cancel
            if not package_reads_field(facts, c):
                return (f"it is stored with its cancel func `{c}`, which nothing in the package calls: the context "
                        "(and its timer) stays registered with its parent until the parent ends; call "
                        f"`{c}()` when the struct is done (grpc-go#888)")
        return None

    def _paired_cancels(self, facts, tname: str, name: str, cancels: list[str]) -> list[tuple[str, object]]:
        """(cancel field, the function storing it) for each cancel field of `tname` set
        from the same context.WithX call as field `name`."""
        out = []
        for d in facts.cancel_defs:
            cn = dn = None
            for node, slot in ((d.ctx, "ctx"), (d.cancel, "cancel")):
                if node.type == "selector_expression":
                    fld = node.child_by_field_name("field")
                    v = facts.text_of(fld) if fld is not None else None
                elif node.type == "identifier":
                    v = ("var", facts.text_of(node))
                else:
                    v = None
                if slot == "ctx":
                    dn = v
                else:
                    cn = v
            if d.fn is None or d.func not in CANCEL_CONSTRUCTORS:
                continue
            # where do the ctx and cancel go? a field directly, or a variable later stored
            ctx_field = dn if isinstance(dn, str) else self._stored_into(facts, d.fn, dn[1], tname) if dn else None
            cancel_field = cn if isinstance(cn, str) else self._stored_into(facts, d.fn, cn[1], tname) if cn else None
            if ctx_field == name and cancel_field in cancels:
                out.append((cancel_field, d.fn))
        return out

    def _stored_into(self, facts, fn, var: str, tname: str) -> str | None:
        """The field of a `tname` that variable `var` is stored into in `fn`
        (`T{field: var}` or `x.field = var`), if any."""
        for n in facts.walk(fn):
            if n.type == "keyed_element" and len(n.named_children) == 2:
                v = n.named_children[1]
                v = v.named_children[0] if v.type == "literal_element" and v.named_children else v
                if v.type == "identifier" and facts.text_of(v) == var:
                    lit = n.parent.parent if n.parent is not None else None
                    t = lit.child_by_field_name("type") if lit is not None and lit.type == "composite_literal" else None
                    if t is not None and facts.text_of(t) == tname:
                        return facts.text_of(n.named_children[0])
            elif n.type == "assignment_statement":
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is None or right is None or len(left.named_children) != len(right.named_children):
                    continue
                for l, r in zip(left.named_children, right.named_children):
                    if r.type == "identifier" and facts.text_of(r) == var and l.type == "selector_expression":
                        return facts.text_of(l.child_by_field_name("field"))
        return None
