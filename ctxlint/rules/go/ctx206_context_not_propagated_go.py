"""CTX206 context-not-propagated, Go half: a fresh root context passed downstream
while the caller's context is in scope. (The Python half lives in
`rules/python/ctx206_context_not_propagated.py`; the registry joins them.)"""

from __future__ import annotations

from ctxlint.rules import Rule
from ctxlint.semantic.go.ctx import (
    ROOT_CONTEXTS,
    blank_ctx_owner,
    callee_name,
    cancel_kept_for_close,
    documents_detachment,
    downstream_sites,
    is_entry_point,
    is_release_call,
    local_binding,
    tests_failure,
    has_testing_param,
    module_go_version,
    request_ctx_in_scope,
    request_ctx_owner,
    response_writer_params,
)
from ctxlint.semantic.go.escape import result_outlives_call

#: Methods that run until their context is done (controller-runtime's Manager.Start,
#: errgroup/server Run and Serve loops): after one returns, the caller's ctx is
#: likely over.
BLOCKING_RUNS = frozenset({"Start", "Run", "Serve", "ListenAndServe", "RunUntil"})

#: Go release that added context.WithoutCancel (https://go.dev/doc/go1.21#context).
WITHOUT_CANCEL_SINCE = (1, 21)


class ContextNotPropagatedGo(Rule):
    code = "CTX206"
    name = "context-not-propagated"
    language = "go"
    summary = ("`context.Background()`/`TODO()` passed downstream (to a call, a `context.WithX`, a goroutine) "
               "where the caller's ctx is in scope.")
    tokens = ("Background()", "TODO()")
    doc = """\
## What it does
Finds `context.Background()` and `context.TODO()` passed downstream — as an
argument of a call, of `context.WithTimeout`/`WithCancel`/..., or of a `go`
statement, directly or through a local it is bound to first (`ctx :=
context.Background()`, also when that declaration shadows the caller's `ctx`) —
inside a function where a request context is in scope: a `context.Context`
parameter, or an `*http.Request` parameter (its `r.Context()`, in a handler that
also takes the `http.ResponseWriter`); a func literal sees its enclosing functions'
parameters. A ctx parameter named `_` counts too: the caller hands one in and the
function discards it (manifest in an HTTP handler or a gRPC method, latent
elsewhere: who calls it is not shown).

Latent (reported with `--min-confidence low`): a detachment the function's or the
statement's comment documents ("detached", "outlives", "on purpose",
`nolint:contextcheck`, ...), a goroutine that may be meant to outlive the caller, a
guard on a value whose type is declared elsewhere, and a call after a blocking run
given the caller's ctx (`mgr.Start(ctx)`) returned, when that ctx may be done.

It stays silent where a fresh context is the point:
- inside a `defer`, or after a `<-ctx.Done()` receive (cleanup with its own timeout);
- on an error path, judged by what the guard tests: an `error` (declared so, the
  last result of a call, a call the file declares to return `error`), a
  `recover()` value or `ctx.Err()` (`if lim != nil` is not an error path);
- in a callee that must not be cancelled: a release (`Shutdown`, `Close`,
  `Unlock`, `Rollback`, `Cleanup`, ...), or a `context.WithX` whose context only
  such calls receive;
- where the fresh context's cancel func is kept for a close path (stored in a field
  or a map of one that the package reads: `s.cancels[uri] = cancel`, called by
  `Unsubscribe`);
- a default for a nil ctx (`if ctx == nil { ctx = context.Background() }`);
- in a callback literal that runs later (assigned, or handed to another call);
- in a goroutine before Go 1.21 (no `context.WithoutCancel` to keep it alive);
- where the fresh context backs something that outlives the call (an object's
  lifetime context `c.ctx, c.cancel = context.WithCancel(context.Background())`,
  a fifo or stream a goroutine keeps using);
- where the caller's values are copied onto it by hand (`WithNamespace(
  context.Background(), ns)` with `ns` read from ctx) or its cancellation is wired
  by hand (its cancel func called from a CloseNotify goroutine, or the context
  handed on with the `http.ResponseWriter`);
- in I/O on a connection taken over from the handler's `http.ResponseWriter`
  (`websocket.Accept(w, r, ...)`, `Upgrade(w, r, ...)`, `Hijack()`): net/http does
  not cancel `r.Context()` until `ServeHTTP` returns, so the read loop would get no
  cancellation from it (a backend call there is still reported);
- in `main`, `init`, test code (`_test.go` files, fuzz harnesses, helpers that
  import a test driver: `GoFacts.is_test_code`) and functions taking a
  `*testing.T` (no request context to keep).

## Why is this bad
The caller's cancellation, deadline and trace stop at the fresh context: a client
that hangs up or times out leaves the backend call running, and the backend's
spans start a new trace: the trace is lost between services.

## Example
```go
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := h.backend.Complete(ctx, r.URL.Query().Get("q"))
	...
}
```

## Use instead
```go
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
```
Where the work must outlive the caller but keep its values and trace, use
`context.WithoutCancel(ctx)` (Go 1.21+; the message suggests it only when the
module's go.mod says `go 1.21` or later).

## Fix safety
No fix: whether the downstream work should stop with the caller is the author's
decision.

## Source
The `context` package docs ("Do not pass a nil Context ... pass context.TODO if
you are unsure"; "The chain of function calls between them must propagate the
Context"); the contextcheck linter (github.com/kkHAIKE/contextcheck), whose users
report its noise (2 real of 43 in one project), hence the exemptions.
"""

    def check(self, facts):
        if facts.is_test_code:
            return  # test code: no request to propagate
        for call in facts.nodes("call_expression"):
            root = facts.context_func(call.child_by_field_name("function"))
            if root not in ROOT_CONTEXTS:
                continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            sites = downstream_sites(facts, call, fn)
            if not sites:
                continue  # not passed downstream (returned, compared, stored, unused)
            scope = request_ctx_in_scope(facts, call)
            blank = None
            if scope is None:
                owner = blank_ctx_owner(facts, call)
                if owner is None:
                    continue
                blank, scope = owner[0], ("blank", "_")
            for site, outer in sites:
                verdict = self._exempt(facts, call, site, outer, fn, scope)
                if verdict is not True:
                    yield self._finding(facts, call, root, site, outer, fn, scope, blank, verdict)
                    break

    def _finding(self, facts, call, root, site, outer, fn, scope, blank, latent):
        """The finding for fresh root context `call` reaching `outer` at `site`;
        `latent` is False or the reason it is held at low confidence."""
        kind, name = scope
        target = facts.text_of(outer.child_by_field_name("function"))
        in_go = any(a.type == "go_statement" for a in _ancestors_within(facts, site, fn))
        version = module_go_version(facts)
        has_wc = version is not None and version >= WITHOUT_CANCEL_SINCE
        local = f" (through `{facts.text_of(site)}`)" if site.id != call.id else ""
        bound = local_binding(facts, call)
        shadow = kind == "ctx" and bound is not None and bound[1].type == "short_var_declaration" \
            and facts.text_of(bound[0]) == name
        if kind == "blank":
            have = "the ctx this function is given (its parameter is named `_`)"
            suggest = "name the context parameter and pass it"
        else:
            have = f"the caller's ctx (`{name}`)" if kind == "ctx" else f"the request's context (`{name}.Context()`)"
            pass_ = name if kind == "ctx" else f"{name}.Context()"
            if shadow:
                have += ", which this declaration shadows,"
                suggest = f"drop the shadowing declaration and pass the caller's `{name}`"
            elif in_go and has_wc:
                suggest = (f"the goroutine may outlive the caller: pass context.WithoutCancel({pass_}) (keeps its "
                           "values and trace) with a deadline of its own")
            else:
                suggest = f"pass {pass_}"
                if has_wc:
                    suggest += f", or context.WithoutCancel({pass_}) if the work must outlive the caller"
        if latent and "already be done" in latent and kind == "ctx":
            suggest = f"pass {name} only if it is still live here"
        how = " started in a goroutine" if outer.parent is not None and outer.parent.type == "go_statement" else ""
        msg = (f"a fresh context.{root}() is passed{local} to `{target}`{how} while {have} is in scope: the "
               f"caller's cancellation, deadline and trace never reach this call; {suggest}")
        if latent:
            msg += f" (latent: {latent})"
        trace = [(site, f"the fresh context reaches `{target}` here")] if site.id != call.id else []
        if blank is not None:
            trace.insert(0, (blank, "the context the caller hands in is discarded (`_`)"))
        return facts.finding(self, call, msg, confidence="low" if latent else "high", trace=trace)

    def _exempt(self, facts, call, site, outer, fn, scope):
        """True: no finding (the fresh context is right here); a string: the finding
        is latent, for that reason; False: manifest."""
        new_go = (module_go_version(facts) or (0, 0)) >= WITHOUT_CANCEL_SINCE
        # `if ctx == nil { ctx = context.Background() }`: a default for a nil ctx (the
        # `context` docs forbid nil), not a loss of the caller's.
        if scope[0] == "ctx" and nil_default(facts, call, scope[1]):
            return True
        owner = request_ctx_owner(facts, call) or blank_ctx_owner(facts, call)
        owner = owner[1] if owner is not None else None
        latent = False
        for a in facts.ancestors(site):
            if owner is not None and a.id == owner.id:
                break  # the function whose parameter is the request context
            # In a defer: cleanup that must run even when the caller's ctx is done.
            if a.type == "defer_statement":
                return True
            # In a callback literal (assigned, or handed to another call): it runs later.
            if a.type == "func_literal":
                p = a.parent
                if not (p is not None and p.type == "call_expression" and p.child_by_field_name("function") == a):
                    return True
            # In a goroutine: the work outlives the caller; before Go 1.21 a fresh
            # context is the only way to keep it running (no WithoutCancel).
            if a.type == "go_statement":
                if not new_go:
                    return True
                latent = latent or "the goroutine may be meant to outlive the caller"
            # On an error path (`if err != nil { ... }`, `if ctx.Err() != nil`): cleanup
            # after a failure that the caller's context may have caused.
            if a.type == "if_statement":
                cons = a.child_by_field_name("consequence")
                if cons is not None and facts.is_inside(site, cons):
                    failure = tests_failure(facts, a.child_by_field_name("condition"))
                    if failure:
                        return True
                    if failure is None:
                        latent = latent or ("the guard may test an error (a value whose type is declared elsewhere): "
                                            "cleanup after a failure may need a fresh context")
            if a.type in ("function_declaration", "method_declaration"):
                break
        top = fn
        while top is not None and top.type == "func_literal":
            nxt = facts.enclosing_function(top)
            if nxt is None:
                break
            top = nxt
        # Test helpers (a *testing.T/B/F or testing.TB parameter): test code.
        if top is not None and has_testing_param(facts, top):
            return True
        # A callee that must not be cancelled: a release (an unlock, a shutdown, a cleanup).
        if is_release_call(facts, outer):
            return True
        # The fresh context backs something that outlives the call (an object's
        # lifetime context, a fifo or stream a goroutine keeps using).
        chain = outer
        while chain is not None and chain.parent is not None and chain.parent.type == "argument_list" \
                and chain.parent.parent is not None and chain.parent.parent.type == "call_expression":
            chain = chain.parent.parent  # `WithCancel(WithNamespace(Background(), ns))`: the outermost call
        if result_outlives_call(facts, chain, fn) or result_outlives_call(facts, outer, fn):
            return True
        if self._cancelled_by_hand(facts, outer, fn, scope):
            return True
        # The derived context's cancel func is kept for a close path (`c.cancel = cancel`,
        # `subs[id] = cancel`, read elsewhere in the package): a lifetime owned by the object.
        if cancel_kept_for_close(facts, outer, fn):
            return True
        # I/O on a connection taken over from the handler's ResponseWriter (websocket
        # Accept/Upgrade, Hijack): the request's context has no cancellation for it.
        if scope[0] == "request" and self._on_taken_over_connection(facts, outer, top):
            return True
        # Values copied from the caller's ctx onto the fresh one (`WithNamespace(
        # context.Background(), ns)` with `ns` read from ctx): a hand-made detachment.
        if scope[0] == "ctx" and self._copies_values(facts, outer, site, scope[1], top):
            return True
        # The derived context becomes an object's lifetime context (`c.ctx, c.cancel =
        # context.WithCancel(context.Background())`, `T{ctx: ...}`): it must outlive the call.
        if facts.context_func(outer.child_by_field_name("function")) is not None:
            p = outer.parent
            if p is not None and p.type == "expression_list" and p.parent is not None \
                    and p.parent.type == "assignment_statement":
                left = p.parent.child_by_field_name("left")
                if left is not None and any(c.type == "selector_expression" for c in left.named_children):
                    return True
            if p is not None and p.type in ("keyed_element", "literal_element"):
                return True
        # After `<-x.Done()` in the function: the caller's ctx is already over.
        body = top.child_by_field_name("body") if top is not None else None
        if body is not None:
            for n in facts.walk(body):
                if n.start_byte >= site.start_byte:
                    break
                if n.type == "unary_expression" and facts.text_of(n).replace(" ", "").endswith(".Done()") \
                        and facts.text_of(n).lstrip().startswith("<-"):
                    return True
                # After a blocking run given the caller's ctx has returned (`mgr.Start(ctx)`,
                # `srv.Run(ctx)`): such runs usually end when the ctx is done, so passing
                # it on may be wrong; the names make the rule less sure, not silent.
                if scope[0] == "ctx" and n.type == "call_expression" \
                        and callee_name(facts, n) in BLOCKING_RUNS and not any(
                            a.type in ("go_statement", "func_literal") for a in _ancestors_within(facts, n, top)):
                    args = n.child_by_field_name("arguments")
                    if args is not None and any(a.type == "identifier" and facts.text_of(a) == scope[1]
                                                for a in args.named_children):
                        latent = latent or (f"`{facts.text_of(n.child_by_field_name('function'))}` returned on line "
                                            f"{n.start_point[0] + 1}: the caller's ctx may already be done")
        # The caller's ctx is discarded (`_`) by a function that is not a handler: who
        # calls it, and with what, is not shown.
        if scope[0] == "blank" and not is_entry_point(facts, top):
            latent = latent or "the function discards its ctx parameter; whether its callers hand in a live one is not shown"
        # A documented detachment (the function's doc comment, the statement's comment)
        # makes the rule less sure, not silent.
        decl = fn
        while decl is not None and decl.type == "func_literal":
            decl = facts.enclosing_function(decl)
        if any(documents_detachment(facts, decl, _statement_of(n)) for n in (call, site)) \
                or documents_detachment(facts, fn, None):
            latent = latent or "a comment says the fresh context is deliberate"
        return latent

    @staticmethod
    def _on_taken_over_connection(facts, outer, top) -> bool:
        """Is `outer` a method call on a connection taken over from the handler's
        `http.ResponseWriter`: a variable declared from a call given the writer
        (`conn, err := websocket.Accept(w, r, opts)`, `upgrader.Upgrade(w, r, nil)`), or
        from one given such a value (`hj, _ := w.(http.Hijacker)`; `c, _, _ := hj.Hijack()`)?

        net/http's `Hijacker` docs: after `Hijack` "the original Request's Context remains
        valid and is not canceled until the Request's ServeHTTP method returns", which is
        only after the connection's read loop ends. `r.Context()` would carry no
        cancellation to that I/O, so a fresh context there loses nothing a caller can
        observe."""
        if top is None:
            return False
        writers = set(response_writer_params(facts, top))
        f = outer.child_by_field_name("function")
        if not writers or f is None or f.type != "selector_expression":
            return False
        recv = f.child_by_field_name("operand")
        if recv is None or recv.type != "identifier":
            return False

        def from_writer(ident, depth: int) -> bool:
            decl = facts.visible_decl(ident)
            right = decl.child_by_field_name("right") if decl is not None else None
            if right is None:
                return False
            for n in facts.walk(right):
                if n.type == "identifier" and n.id != ident.id:
                    if facts.text_of(n) in writers:
                        return True
                    if depth and from_writer(n, depth - 1):
                        return True
            return False

        return from_writer(recv, 2)

    @staticmethod
    def _copies_values(facts, outer, call, ctx_name: str, top) -> bool:
        """Is another argument of `outer` a name given a value read from the caller's
        ctx by an accessor taking only the ctx (`ns, _ := namespaces.Namespace(ctx)`)?"""
        args = outer.child_by_field_name("arguments")
        others = {facts.text_of(a) for a in args.named_children if a.type == "identifier" and a.id != call.id} \
            if args is not None else set()
        if not others or top is None:
            return False
        for n in facts.walk(top):
            if n.type in ("short_var_declaration", "assignment_statement") and n.start_byte < call.start_byte:
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if left is None or right is None:
                    continue
                if not any(c.type == "identifier" and facts.text_of(c) in others for c in left.named_children):
                    continue
                # a value accessor: a call whose one argument is the ctx (`namespaces.Namespace(ctx)`,
                # `metadata.FromIncomingContext(ctx)`), not the result of work done with it
                for r in right.named_children:
                    a = r.child_by_field_name("arguments") if r.type == "call_expression" else None
                    if a is not None and len(a.named_children) == 1 and a.named_children[0].type == "identifier" \
                            and facts.text_of(a.named_children[0]) == ctx_name:
                        return True
        return False

    @staticmethod
    def _cancelled_by_hand(facts, outer, fn, scope) -> bool:
        """Is the caller's cancellation wired to the fresh context by hand? For
        `c, cancel := context.WithX(context.Background(), ...)`: `cancel` is called
        from a goroutine or a callback literal (a CloseNotify watcher), or, in a
        handler, `c` is handed to a call together with the `http.ResponseWriter`
        (the callee watches the client's connection itself)."""
        d = next((d for d in facts.cancel_defs if d.call.id == outer.id), None)
        if d is None or fn is None:
            return False
        body = fn.child_by_field_name("body")
        if body is None:
            return False
        cancel = facts.text_of(d.cancel) if d.cancel.type == "identifier" else None
        ctxn = facts.text_of(d.ctx) if d.ctx.type == "identifier" else None
        writers = set(response_writer_params(facts, fn)) if scope[0] == "request" else set()
        for n in facts.walk(body):
            if n.start_byte < d.stmt.end_byte:
                continue
            if cancel and n.type == "func_literal" and any(
                    c.type == "call_expression" and (g := c.child_by_field_name("function")) is not None
                    and g.type == "identifier" and facts.text_of(g) == cancel for c in facts.walk(n)):
                q = n.parent
                called = q is not None and q.type == "call_expression" and q.child_by_field_name("function") == n
                if not called or (q.parent is not None and q.parent.type == "go_statement"):
                    return True
            if ctxn and writers and n.type == "argument_list":
                names = {facts.text_of(a) for a in n.named_children if a.type == "identifier"}
                mine = any(a.type == "identifier" and facts.text_of(a) == ctxn
                           and (v := facts.visible_decl(a)) is not None and v.id == d.stmt.id
                           for a in n.named_children)
                if mine and names & writers:
                    return True
        return False


def _ancestors_within(facts, node, fn):
    """The ancestors of `node` up to (not including) function node `fn`."""
    for a in facts.ancestors(node):
        if a.id == fn.id:
            return
        yield a


def _statement_of(node):
    """The statement (a child of a block or statement list) that holds `node`."""
    for a in (node, *GoFactsAncestors(node)):
        if a.parent is not None and a.parent.type in ("block", "statement_list"):
            return a
    return node


def GoFactsAncestors(node):  # noqa: N802 - a generator of tree-sitter parents
    p = node.parent
    while p is not None:
        yield p
        p = p.parent


def nil_default(facts, call, name: str) -> bool:
    """Is root context `call` inside `if name == nil { ... }` (a default for a nil
    caller's ctx, such as `ctx, cancel = context.WithTimeout(context.Background(), d)`)?"""
    for a in GoFactsAncestors(call):
        if a.type == "if_statement":
            cond, cons = a.child_by_field_name("condition"), a.child_by_field_name("consequence")
            if cond is not None and cons is not None and cons.start_byte <= call.start_byte \
                    and "".join(facts.text_of(cond).split()) in (f"{name}==nil", f"nil=={name}"):
                return True
        if a.type in ("function_declaration", "method_declaration", "func_literal"):
            return False
    return False
