"""Context facts for Go: which values are contexts, and which context is in scope.

Tables (the `context` package's API, https://pkg.go.dev/context):

- `CANCEL_CONSTRUCTORS`: functions returning (ctx, cancel);
- `CONTEXT_PRODUCERS`: functions whose first result is a context.Context;
- `ROOT_CONTEXTS`: functions returning a fresh root context (no deadline, no
  cancellation, no values).

Facts (functions of a `GoFacts` and a node, cached in it):

- `request_ctx_in_scope(facts, fn)`: the request context a function has — a
  context.Context parameter, or an `*http.Request` parameter whose `Context()`
  carries the request's cancellation, deadline and trace — or None.
"""

from __future__ import annotations

#: context constructors that return a cancel func as their second result.
CANCEL_CONSTRUCTORS = frozenset({
    "WithCancel", "WithTimeout", "WithDeadline",
    "WithCancelCause", "WithTimeoutCause", "WithDeadlineCause",
})
#: context functions whose (first) result is a context.Context.
CONTEXT_PRODUCERS = CANCEL_CONSTRUCTORS | {"Background", "TODO", "WithValue", "WithoutCancel"}
#: context functions returning a fresh root context.
ROOT_CONTEXTS = frozenset({"Background", "TODO"})
#: Prefilter literals: a file without one of these cannot bind a cancel func.
CANCEL_TOKENS = ("WithCancel", "WithTimeout", "WithDeadline")


# ------------------------------------------------------------------ scope
def _param_decls(fn):
    pl = fn.child_by_field_name("parameters")
    return [p for p in pl.named_children if p.type in ("parameter_declaration", "variadic_parameter_declaration")] \
        if pl is not None else []


def is_http_request_type(facts, t) -> bool:
    """Is type node `t` `*http.Request` (net/http imported under any name)?"""
    if t is None or t.type != "pointer_type":
        return False
    inner = next((c for c in t.named_children), None)
    if inner is None or inner.type != "qualified_type":
        return False
    pkg, name = inner.child_by_field_name("package"), inner.child_by_field_name("name")
    return (pkg is not None and name is not None and facts.imports.get(facts.text_of(pkg)) == "net/http"
            and facts.text_of(name) == "Request")


def ctx_params(facts, fn) -> list[str]:
    """Names of `fn`'s own parameters of type context.Context (`_` excluded)."""
    out = []
    for p in _param_decls(fn):
        if facts.is_context_type(p.child_by_field_name("type")):
            out.extend(n for n in (facts.text_of(c) for c in p.children_by_field_name("name")) if n != "_")
    return out


def is_response_writer_type(facts, t) -> bool:
    """Is type node `t` `http.ResponseWriter`?"""
    if t is None or t.type != "qualified_type":
        return False
    pkg, name = t.child_by_field_name("package"), t.child_by_field_name("name")
    return (pkg is not None and name is not None and facts.imports.get(facts.text_of(pkg)) == "net/http"
            and facts.text_of(name) == "ResponseWriter")


def response_writer_params(facts, fn) -> list[str]:
    """Names of `fn`'s own `http.ResponseWriter` parameters (`_` excluded)."""
    out = []
    for p in _param_decls(fn):
        if is_response_writer_type(facts, p.child_by_field_name("type")):
            out.extend(n for n in (facts.text_of(c) for c in p.children_by_field_name("name")) if n != "_")
    return out


def request_params(facts, fn) -> list[str]:
    """Names of a handler's `*http.Request` parameters (`_` excluded): `fn` takes an
    `http.ResponseWriter` too, so the request is one it serves (a client's
    `Do(req *http.Request)` is not a request context in scope)."""
    out = []
    if not any(is_response_writer_type(facts, p.child_by_field_name("type")) for p in _param_decls(fn)):
        return out
    for p in _param_decls(fn):
        if is_http_request_type(facts, p.child_by_field_name("type")):
            out.extend(n for n in (facts.text_of(c) for c in p.children_by_field_name("name")) if n != "_")
    return out


def has_testing_param(facts, fn) -> bool:
    """Does `fn` take a `*testing.T`/`*testing.B`/`*testing.F` or `testing.TB` parameter (test code)?"""
    for p in _param_decls(fn):
        t = p.child_by_field_name("type")
        if t is not None and t.type == "pointer_type" and t.named_children:
            t = t.named_children[0]
        if t is not None and t.type == "qualified_type":
            pkg = t.child_by_field_name("package")
            if pkg is not None and facts.imports.get(facts.text_of(pkg)) == "testing":
                return True
    return False


def has_ctx_or_request_param(facts, fn) -> bool:
    """Does `fn` itself receive a context.Context or an `*http.Request` parameter
    (named `_` included: the caller hands one in either way)?"""
    for p in _param_decls(fn):
        t = p.child_by_field_name("type")
        if facts.is_context_type(t) or is_http_request_type(facts, t):
            return True
    return False


def request_ctx_in_scope(facts, node):
    """The request context visible at `node`: ("ctx", name) for a context.Context
    parameter of the innermost function that has one (func literals see their
    enclosing functions' parameters), ("request", name) for an `*http.Request`
    parameter (its `Context()`), or None. A parameter shadowed by a local
    declaration of the same name still counts (the rule reads it as in scope)."""
    found = request_ctx_owner(facts, node)
    return found[0] if found is not None else None


def request_ctx_owner(facts, node):
    """(`request_ctx_in_scope`'s answer, the function node whose parameter it is), or None."""
    fn = facts.enclosing_function(node)
    while fn is not None:
        key = f"reqctx:{fn.id}"
        found = facts.memo(key, lambda fn=fn: _own_request_ctx(facts, fn))
        if found is not None:
            return found, fn
        fn = facts.enclosing_function(fn)
    return None


def _own_request_ctx(facts, fn):
    names = ctx_params(facts, fn)
    if names:
        return ("ctx", names[0])
    reqs = request_params(facts, fn)
    if reqs:
        return ("request", reqs[0])
    return None


# ------------------------------------------------------------------ package
_SIBLINGS: dict[str, tuple[str, ...]] = {}


def sibling_texts(facts) -> tuple[str, ...]:
    """The texts of the other `.go` files of `facts`' package (same directory, same
    `package` clause), read once per directory and process; () for an in-memory
    buffer whose directory does not exist. Used where a fact is about the whole
    package ("nothing in the package calls this cancel func"). Never raises."""
    import os
    import re
    d = os.path.dirname(os.path.abspath(facts.path))
    if d not in _SIBLINGS:
        texts = []
        try:
            names = sorted(os.listdir(d))
        except OSError:
            names = []
        for n in names:
            if not n.endswith(".go"):
                continue
            try:
                with open(os.path.join(d, n), encoding="utf-8", errors="replace") as fh:
                    texts.append((n, fh.read()))
            except OSError:
                continue
        _SIBLINGS[d] = tuple(f"{n}\0{t}" for n, t in texts)
    me = os.path.basename(facts.path)
    pkg = re.compile(rf"^package\s+{re.escape(facts.package_name)}\b", re.MULTILINE) if facts.package_name else None
    return tuple(t.split("\0", 1)[1] for t in _SIBLINGS[d]
                 if t.split("\0", 1)[0] != me and (pkg is None or pkg.search(t)))


def package_reads_field(facts, field: str, element_stores: bool = False) -> bool:
    """Is `.field` read anywhere in the package (this file's tree, the sibling
    files' text): called, passed, or otherwise used, not only assigned? With
    `element_stores`, a store into one of its elements (`.field[k] = v`) is not a
    read either (a map of cancel funcs filled by one method, read by another)."""
    import re
    tail = r"(?!\s*\[[^\]\n]*\]\s*(?:=[^=]|:=))" if element_stores else ""
    pat = re.compile(rf"\.{re.escape(field)}\b(?!\s*(?:=[^=]|:=)){tail}")
    if pat.search(facts.text):
        return True
    return any(pat.search(t) for t in sibling_texts(facts))


# ------------------------------------------------------------------ module
_GO_VERSIONS: dict[str, tuple[int, int] | None] = {}


def module_go_version(facts) -> tuple[int, int] | None:
    """The `go 1.N` directive of the nearest go.mod above the file, as (1, N);
    None when there is none (an in-memory buffer, a GOPATH tree). Never raises."""
    import os
    import re
    d = os.path.dirname(os.path.abspath(facts.path))
    seen = []
    while True:
        if d in _GO_VERSIONS:
            found = _GO_VERSIONS[d]
            break
        seen.append(d)
        gomod = os.path.join(d, "go.mod")
        if os.path.isfile(gomod):
            try:
                with open(gomod, encoding="utf-8", errors="replace") as fh:
                    m = re.search(r"^go\s+(\d+)\.(\d+)", fh.read(), re.MULTILINE)
                found = (int(m.group(1)), int(m.group(2))) if m else None
            except OSError:
                found = None
            break
        parent = os.path.dirname(d)
        if parent == d:
            found = None
            break
        d = parent
    for s in seen:
        _GO_VERSIONS[s] = found
    return found


#: Words with which Go code documents that a fresh context is deliberate: the
#: function's (or the statement's) comment says the work is detached from, or
#: outlives, the caller's context. Seen in etcd, moby, containerd, grpc-go and
#: the contextcheck linter's `// nolint:contextcheck` justifications.
DETACHMENT_WORDS = ("detach", "outlive", "independent of the", "regardless of the", "on purpose", "own context",
                    "context of its own", "not tied to", "fresh context", "separate context", "nolint:contextcheck",
                    "context.background()", "context.todo()")


def documents_detachment(facts, fn, stmt) -> bool:
    """Does the comment right above function `fn` (its doc comment), or the comment
    lines right above statement `stmt` (or at the end of its line), say that a
    fresh context is deliberate (`DETACHMENT_WORDS`)?"""
    def comment_above(node) -> str:
        out = []
        row = node.start_point[0] - 1
        while row >= 0:
            line = facts.line_text(row).strip()
            if not line.startswith("//"):
                break
            out.append(line.lower())
            row -= 1
        return " ".join(out)
    texts = [comment_above(fn)] if fn is not None else []
    if stmt is not None:
        texts.append(comment_above(stmt))
        tail = facts.line_text(stmt.start_point[0])
        if "//" in tail:
            texts.append(tail[tail.index("//"):].lower())
    return any(w in t for t in texts for w in DETACHMENT_WORDS)


# ------------------------------------------------------------------ never-done parents
#: context functions whose result's `Done()` is nil when their parent's is (the
#: `context` package: `valueCtx` and `withoutCancelCtx` add no cancellation).
_DONE_TRANSPARENT = frozenset({"WithValue"})


def never_done(facts, expr) -> bool:
    """Is `expr` a context whose `Done()` is evidently nil: `context.Background()`,
    `context.TODO()`, `context.WithoutCancel(x)`, or `context.WithValue(p, k, v)` of one
    of those (nested, parenthesised)?

    Why it matters (the `context` package's `propagateCancel`): a child of such a parent
    is registered nowhere — no parent's children map, no goroutine — so a `WithCancel`
    child whose cancel func is lost costs nothing once nothing references it.
    Identifiers are not followed (no type checker): only the expression itself counts.
    """
    while expr is not None and expr.type == "parenthesized_expression":
        expr = expr.named_children[0] if expr.named_children else None
    if expr is None or expr.type != "call_expression":
        return False
    name = facts.context_func(expr.child_by_field_name("function"))
    if name in ROOT_CONTEXTS or name == "WithoutCancel":
        return True
    if name in _DONE_TRANSPARENT:
        args = expr.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        return never_done(facts, first)
    return False


# ------------------------------------------------------------------ value flow (issue 33/34)
def _statement_list_parent(node):
    p = node.parent
    return p is not None and p.type in ("block", "statement_list")


def local_binding(facts, expr):
    """(name identifier, declaring statement) when `expr` is bound to a single local
    name: `v := expr`, `v = expr`, `var v = expr` (also as one of a pairwise list
    `a, v := x, expr`); None otherwise (`_`, a field, an element, a multi-value call)."""
    p = expr.parent
    if p is None or p.type != "expression_list":
        return None
    st = p.parent
    if st is None:
        return None
    if st.type in ("short_var_declaration", "assignment_statement"):
        if st.child_by_field_name("right") != p:
            return None
        if st.type == "assignment_statement":
            op = st.child_by_field_name("operator")
            if op is not None and facts.text_of(op) != "=":
                return None
        lefts = st.child_by_field_name("left").named_children
    elif st.type == "var_spec":
        lefts = list(st.children_by_field_name("name"))
    else:
        return None
    rights = p.named_children
    if len(lefts) != len(rights):
        return None
    i = next((k for k, r in enumerate(rights) if r.id == expr.id), None)
    if i is None or lefts[i].type != "identifier" or facts.text_of(lefts[i]) == "_":
        return None
    return lefts[i], st


def downstream_sites(facts, expr, fn) -> list:
    """Where the value of `expr` (a context expression in function `fn`) is handed to a
    call: [(site, call)] with `site` the argument node — `expr` itself when it is an
    argument, or each later mention of the local it is bound to first (`ctx :=
    context.Background()`; `f(ctx)`), up to the local's next assignment. The value
    flow of issue 33: locals and re-binding, on the function's own statements."""
    p = expr.parent
    if p is not None and p.type == "argument_list":
        q = p.parent
        return [(expr, q)] if q is not None and q.type == "call_expression" else []
    bound = local_binding(facts, expr)
    if bound is None:
        return []
    ident, st = bound
    name = facts.text_of(ident)
    decl = facts.visible_decl(ident)
    decl_id = decl.id if decl is not None else None
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    out = []
    for n in facts.identifiers(body, name):
        if n.start_byte < st.end_byte:
            continue
        d2 = facts.visible_decl(n)
        if (d2.id if d2 is not None else None) != decl_id:
            continue
        q = n.parent
        if q is not None and q.type == "expression_list" and q.parent is not None \
                and q.parent.type == "assignment_statement" and q.parent.child_by_field_name("left") == q:
            break  # re-assigned: later mentions hold another value
        if q is not None and q.type == "argument_list" and q.parent is not None \
                and q.parent.type == "call_expression":
            out.append((n, q.parent))
    return out


def blank_ctx_param(facts, fn):
    """The `_` (or unnamed) context.Context parameter declaration of `fn`, or None."""
    for p in _param_decls(fn):
        if not facts.is_context_type(p.child_by_field_name("type")):
            continue
        names = [facts.text_of(c) for c in p.children_by_field_name("name")]
        if not names or all(n == "_" for n in names):
            return p
    return None


def blank_ctx_owner(facts, node):
    """(the `_` ctx parameter, its function) of the innermost function around `node`
    (through func literals) that discards the context it is handed; None when none
    does, or a named one is in scope first."""
    fn = facts.enclosing_function(node)
    while fn is not None:
        if ctx_params(facts, fn) or request_params(facts, fn):
            return None
        p = blank_ctx_param(facts, fn)
        if p is not None:
            return p, fn
        fn = facts.enclosing_function(fn)
    return None


def is_entry_point(facts, fn) -> bool:
    """Is function node `fn` an entry point that serves a caller's request: an HTTP
    handler (`http.ResponseWriter`, `*http.Request` parameters) or a gRPC unary method
    (a method `(ctx context.Context, req *T) (*U, error)`, the shape protoc-gen-go-grpc
    generates servers for)?"""
    if fn is None:
        return False
    if request_params(facts, fn):
        return True
    if fn.type != "method_declaration":
        return False
    params = _param_decls(fn)
    res = fn.child_by_field_name("result")
    if len(params) != 2 or not facts.is_context_type(params[0].child_by_field_name("type")):
        return False
    t = params[1].child_by_field_name("type")
    if t is None or t.type != "pointer_type" or res is None or res.type != "parameter_list":
        return False
    rs = res.named_children
    return len(rs) == 2 and facts.text_of(rs[1]).strip() == "error" \
        and (rs[0].child_by_field_name("type") or rs[0]).type == "pointer_type"


def _declared_error(facts, ident):
    """Is the variable `ident` evidently an `error`: declared with type `error`, the
    last result of a multi-value call (Go's convention), `recover()`'s value, the
    result of `errors.New`/`fmt.Errorf`/`errors.Join`, or of a call the file declares
    to return `error`? None for the one result of a call declared elsewhere."""
    decl = facts.visible_decl(ident)
    name = facts.text_of(ident)
    if decl is None:
        spec = facts.package_var_names.get(name)
        t = spec.child_by_field_name("type") if spec is not None else None
        return t is not None and facts.text_of(t) == "error"
    if decl.type in FUNC_DECL_TYPES:
        for p in _param_decls(decl) + _result_decls(decl):
            if any(facts.text_of(c) == name for c in p.children_by_field_name("name")):
                t = p.child_by_field_name("type")
                return t is not None and facts.text_of(t) == "error"
        return False
    for spec in ([decl] if decl.type == "var_spec" else [n for n in facts.walk(decl) if n.type == "var_spec"]):
        if any(facts.text_of(c) == name for c in spec.children_by_field_name("name")):
            t = spec.child_by_field_name("type")
            if t is not None:
                return facts.text_of(t) == "error"
    left, right = decl.child_by_field_name("left"), decl.child_by_field_name("right")
    if left is None or right is None:
        return False
    lefts, rights = left.named_children, right.named_children
    idx = next((k for k, c in enumerate(lefts) if facts.text_of(c) == name), None)
    if idx is None:
        return False
    if len(rights) == 1 and len(lefts) > 1:
        return idx == len(lefts) - 1 and rights[0].type == "call_expression"
    r = rights[idx] if len(rights) == len(lefts) else None
    if r is None or r.type != "call_expression":
        return False
    f = facts.text_of(r.child_by_field_name("function"))
    if f in ("recover", "errors.New", "fmt.Errorf", "errors.Join") or f.endswith(".Err"):
        return True
    returns = declared_result(facts, r)
    return None if returns is None else returns == "error"


def declared_result(facts, call) -> str | None:
    """The text of the single result type of the function or (interface) method that
    `call` calls, when the file declares one of that name (all such declarations
    agreeing); None when it is not declared here (unknown without a type checker)."""
    f = call.child_by_field_name("function")
    name = f.child_by_field_name("field") if f is not None and f.type == "selector_expression" else f
    if name is None or name.type not in ("identifier", "field_identifier"):
        return None
    target = facts.text_of(name)
    decls = facts.memo("result-decls", lambda: [
        n for n in facts.walk(facts.root) if n.type in ("method_elem", "method_spec", "function_declaration",
                                                        "method_declaration")])
    found = set()
    for d in decls:
        nm = d.child_by_field_name("name")
        if nm is None or facts.text_of(nm) != target:
            continue
        res = d.child_by_field_name("result")
        found.add(facts.text_of(res).strip() if res is not None else "")
    return found.pop() if len(found) == 1 else None


FUNC_DECL_TYPES = ("function_declaration", "method_declaration", "func_literal")


def _result_decls(fn):
    res = fn.child_by_field_name("result")
    return [p for p in res.named_children if p.type == "parameter_declaration"] \
        if res is not None and res.type == "parameter_list" else []


def tests_failure(facts, cond):
    """Does `if` condition `cond` test for a failure, judged by what it tests: `x != nil`
    where `x` is an error (`_declared_error`) or a `recover()` value, or `y.Err() != nil`
    (a context already done); either side of `||`/`&&`. A guard on any other value
    (`lim != nil`, `client != nil`) is not a failure path.

    Returns True, False, or None when `x` is the one result of a call the file does
    not declare (its type, error or not, is not shown)."""
    while cond is not None and cond.type == "parenthesized_expression":
        cond = cond.named_children[0] if cond.named_children else None
    if cond is None or cond.type != "binary_expression":
        return False
    op = cond.child_by_field_name("operator")
    l, r = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    o = facts.text_of(op) if op is not None else ""
    if o in ("||", "&&"):
        a, b = tests_failure(facts, l), tests_failure(facts, r)
        return True if True in (a, b) else None if None in (a, b) else False
    if o != "!=" or l is None or r is None:
        return False
    x = l if r.type == "nil" else r if l.type == "nil" else None
    if x is None:
        return False
    if x.type == "call_expression":
        f = x.child_by_field_name("function")
        fld = f.child_by_field_name("field") if f is not None and f.type == "selector_expression" else None
        return fld is not None and facts.text_of(fld) == "Err"
    return x.type == "identifier" and _declared_error(facts, x)


#: Verbs of operations that must run to completion even when a caller gives up: a
#: release (net/http Server.Shutdown, sql Tx.Rollback, a distributed lock's Unlock,
#: a subscription's Unsubscribe). A fresh context there is the documented practice.
RELEASE_VERBS = ("shutdown", "gracefulstop", "close", "stop", "unlock", "runlock", "release", "cleanup",
                 "rollback", "abort", "unsubscribe", "unregister", "deregister", "teardown", "drain")


def callee_name(facts, call) -> str:
    """The called function's (or method's) own name: `Shutdown` of `srv.Shutdown(...)`."""
    f = call.child_by_field_name("function")
    if f is not None and f.type == "selector_expression":
        f = f.child_by_field_name("field")
    return facts.text_of(f) if f is not None and f.type in ("identifier", "field_identifier") else ""


def is_release_call(facts, call) -> bool:
    """Is `call` a release that must not be cancelled (`RELEASE_VERBS`), or a
    context.WithX whose derived context only such calls receive?"""
    if callee_name(facts, call).lower().startswith(RELEASE_VERBS):
        return True
    d = next((d for d in facts.cancel_defs if d.call.id == call.id), None)
    if d is None or d.ctx.type != "identifier" or d.fn is None:
        return False
    sites = _ident_calls(facts, d)
    return bool(sites) and all(callee_name(facts, c).lower().startswith(RELEASE_VERBS) for c in sites)


def _ident_calls(facts, d) -> list:
    """Calls that receive the derived context of cancel def `d` as an argument."""
    name = facts.text_of(d.ctx)
    body = d.fn.child_by_field_name("body")
    out = []
    for n in facts.identifiers(body, name) if body is not None else ():
        if n.start_byte > d.stmt.end_byte and n.parent is not None and n.parent.type == "argument_list":
            out.append(n.parent.parent)
    return out


def cancel_kept_for_close(facts, call, fn) -> bool:
    """Is `call` a context.WithX whose cancel func is kept for a close path: stored
    into a field or a map element of a field (`cs.listenCancel = cancel`,
    `cs.subs[uri] = cancel`, `T{cancel: cancel}`) that the package reads elsewhere
    (called, passed, ranged over: `package_reads_field`)? The context then lives as
    long as its owner and ends with its `Close`/`Unsubscribe`."""
    d = next((d for d in facts.cancel_defs if d.call.id == call.id), None)
    if d is None:
        return False
    fields = []
    if d.cancel.type == "selector_expression":
        fields.append(d.cancel)
    elif d.cancel.type == "identifier" and facts.text_of(d.cancel) != "_":
        cname = facts.text_of(d.cancel)
        body = fn.child_by_field_name("body")
        for n in facts.identifiers(body, cname) if body is not None else ():
            p = n.parent
            if p is not None and p.type == "keyed_element" and len(p.named_children) == 2:
                v = p.named_children[1]
                if v.id == n.id or (v.type == "literal_element" and v.named_children and v.named_children[0].id == n.id):
                    k = p.named_children[0]
                    fields.append(k.named_children[0] if k.type == "literal_element" and k.named_children else k)
                continue
            if p is None or p.type != "expression_list" or p.parent is None \
                    or p.parent.type != "assignment_statement" or p.parent.child_by_field_name("right") != p:
                continue
            lefts, rights = p.parent.child_by_field_name("left").named_children, p.named_children
            if len(lefts) == len(rights):
                target = lefts[[r.id for r in rights].index(n.id)]
                if target.type in ("selector_expression", "index_expression"):
                    fields.append(target)
    for t in fields:
        element = False
        while t is not None and t.type == "index_expression":
            t, element = t.child_by_field_name("operand"), True
        if t is None:
            continue
        fld = t.child_by_field_name("field") if t.type == "selector_expression" else t
        if fld is not None and package_reads_field(facts, facts.text_of(fld), element_stores=element):
            return True
    return False


# ------------------------------------------------------------------ request ctx flow (CTX207)
class RequestCtxFlow:
    """Which names of a handler hold its request's context (`request_ctx_flow`).

    http: the handler is an HTTP handler (else a gRPC method); requests: names of
    `*http.Request` values (their `Context()` is the request's); names: names bound to
    the request's context or to a context derived from it (`WithCancel`/`WithTimeout`/
    `WithDeadline`/`WithValue` of one; `WithoutCancel` detaches)."""

    def __init__(self, facts, fn, http: bool, requests: set[str], names: set[str]):
        self.facts, self.fn, self.http, self.requests, self.names = facts, fn, http, requests, names

    def holds(self, e) -> bool:
        """Does expression `e` evaluate to the request's context (or one derived from it)?"""
        facts = self.facts
        while e is not None and e.type == "parenthesized_expression":
            e = e.named_children[0] if e.named_children else None
        if e is None:
            return False
        if e.type == "identifier":
            return facts.text_of(e) in self.names
        if e.type != "call_expression":
            return False
        f = e.child_by_field_name("function")
        args = e.child_by_field_name("arguments")
        name = facts.context_func(f)
        if name is not None:
            if name in ("Background", "TODO", "WithoutCancel"):
                return False
            first = args.named_children[0] if args is not None and args.named_children else None
            return first is not None and self.holds(first)
        if f is not None and f.type == "selector_expression":
            op, fld = f.child_by_field_name("operand"), f.child_by_field_name("field")
            if fld is not None and facts.text_of(fld) == "Context" and op is not None \
                    and op.type == "identifier" and facts.text_of(op) in self.requests:
                return True
        return False

    def used_by_goroutine(self, go):
        """The first argument node through which the goroutine of `go` hands the request's
        context to a call (`go f(ctx)`, or a call inside `go func() { ... }()`), or None.
        Watching it (`<-ctx.Done()`, `ctx.Err()`) is not handing it on."""
        facts = self.facts
        for n in facts.walk(go):
            if n.type != "argument_list" or n.parent is None or n.parent.type != "call_expression":
                continue
            if facts.context_func(n.parent.child_by_field_name("function")) is not None:
                continue  # deriving a context is not using it: the derived one's use counts
            for a in n.named_children:
                if self.holds(a):
                    return a
        return None


def request_ctx_flow(facts, fn) -> RequestCtxFlow:
    """The request-context names of handler `fn` (see `RequestCtxFlow`), cached: its
    ctx parameters and `*http.Request` parameters, then every local (in `fn` and its
    func literals) assigned one of them, `r.Context()`, a context derived from one, or
    `r.WithContext(...)` of one (a request), to a fixed point."""
    def build():
        reqs = set(request_params(facts, fn))
        flow = RequestCtxFlow(facts, fn, bool(reqs), reqs, set(ctx_params(facts, fn)))
        stmts = [n for n in facts.walk(fn) if n.type in ("short_var_declaration", "assignment_statement", "var_spec")]
        changed = True
        while changed:
            changed = False
            for st in stmts:
                if st.type == "var_spec":
                    lefts = list(st.children_by_field_name("name"))
                    val = st.child_by_field_name("value")
                    rights = val.named_children if val is not None else []
                else:
                    left, right = st.child_by_field_name("left"), st.child_by_field_name("right")
                    if left is None or right is None:
                        continue
                    lefts, rights = left.named_children, right.named_children
                pairs = list(zip(lefts, rights)) if len(lefts) == len(rights) else \
                    [(lefts[0], rights[0])] if len(rights) == 1 and lefts else []
                for l, r in pairs:
                    if l.type != "identifier" or facts.text_of(l) == "_":
                        continue
                    name = facts.text_of(l)
                    if name not in flow.names and flow.holds(r):
                        flow.names.add(name)
                        changed = True
                    elif name not in flow.requests and r.type == "call_expression":
                        f = r.child_by_field_name("function")
                        fld = f.child_by_field_name("field") if f is not None and f.type == "selector_expression" else None
                        args = r.child_by_field_name("arguments")
                        if fld is not None and facts.text_of(fld) in ("WithContext", "Clone") and args is not None \
                                and any(flow.holds(a) for a in args.named_children):
                            flow.requests.add(name)
                            changed = True
        return flow
    return facts.memo(f"reqflow:{fn.id}", build)


#: Calls with which a handler waits for what it started: `sync.WaitGroup.Wait`,
#: `errgroup.Group.Wait` (and `conc`'s pools, which name it the same).
WAIT_METHODS = frozenset({"Wait"})


def waits_after(facts, fn, go) -> bool:
    """Does handler `fn` wait, after the `go` statement, for what it started: a
    `Wait()` call (a WaitGroup, an errgroup) or a channel receive (`<-done`, a select
    case receiving one) that is not a context's `Done()`? Func literals started or
    deferred elsewhere do not count (the handler's own statements only)."""
    body = fn.child_by_field_name("body")
    if body is None:
        return False
    for n in facts.walk(body, into_funcs=False):
        if n.start_byte < go.end_byte:
            continue
        if n.type == "call_expression":
            f = n.child_by_field_name("function")
            fld = f.child_by_field_name("field") if f is not None and f.type == "selector_expression" else None
            if fld is not None and facts.text_of(fld) in WAIT_METHODS:
                return True
        elif n.type == "unary_expression" and facts.text_of(n).lstrip().startswith("<-"):
            operand = n.child_by_field_name("operand")
            if operand is not None and not facts.text_of(operand).replace(" ", "").endswith(".Done()"):
                return True
    return False
