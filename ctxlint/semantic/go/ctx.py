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


def package_reads_field(facts, field: str) -> bool:
    """Is `.field` read anywhere in the package (this file's tree, the sibling
    files' text): called, passed, or otherwise used, not only assigned?"""
    import re
    pat = re.compile(rf"\.{re.escape(field)}\b(?!\s*(?:=[^=]|:=))")
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
