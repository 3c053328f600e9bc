"""CTX203 request-context-in-global: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.requests import (
    connection_only, local_assignments, reads_request_stream, request_data_value, request_params,
    request_scoped_value,
)
from ctxlint.semantic.python.stores import app_state_store, class_names, globals_of, store_kind


def _plain_data(facts, value: ast.AST, fn, depth: int = 0) -> bool:
    """A piece of request data (`request.headers["x"]`, an f-string of it) rather than
    an object: kept in a registry it is CTX401's concern, not a context leak. A scalar
    read out of the request (`requests.request_data_value`: `request.args.get("pid",
    type=int)`, `int(...)`, a local assigned one) is data whichever way the request is
    reached (a parameter or the `flask.request` proxy)."""
    if isinstance(value, (ast.Subscript, ast.JoinedStr, ast.BinOp, ast.Constant)):
        return True
    if request_data_value(facts, value, fn):
        return True
    if isinstance(value, ast.Name) and depth < 2 and fn is not None:
        # a local record (`row = [limit, body.get("model")]`): every request-scoped value
        # assigned to it is a record of data (scalars are `request_data_value`'s)
        derived = [v for v in local_assignments(facts, fn).get(value.id, ())
                   if v is not value and request_scoped_value(facts, v, fn)]
        return bool(derived) and value.id not in request_params(facts, fn) and all(
            isinstance(v, (ast.Dict, ast.List, ast.Tuple, ast.Set)) and _plain_data(facts, v, fn, depth + 1)
            for v in derived)
    if isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        # a record of request data (`{"user": request.headers["x-user"]}`) is data too,
        # unless one of its items is an object of the request (the request itself, its
        # headers mapping, a client built from its credentials); an item that does not
        # come from the request at all (a timestamp) says nothing either way
        items = value.values if isinstance(value, ast.Dict) else value.elts
        items = [v.value if isinstance(v, ast.Starred) else v for v in items]
        return all(_record_item_plain(facts, v, fn, 0) or not request_scoped_value(facts, v, fn) for v in items)
    if isinstance(value, ast.Attribute):
        # `request.user` / `request.state` are objects of the request; `request.url.path`
        # (two steps down) is a piece of its data
        return isinstance(value.value, ast.Attribute)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        if reads_request_stream(facts, value, fn):
            return False  # `request.stream()`: an iterator over the request's own body stream
        base = value.func.value
        while isinstance(base, (ast.Attribute, ast.Subscript, ast.Call)):
            base = base.func if isinstance(base, ast.Call) else base.value
        return isinstance(base, ast.Name) and base.id in request_params(facts, fn)
    return False


def _computed_from_request_object(facts, value: ast.AST, fn, depth: int = 0) -> bool:
    """`await load_servers(request)`: a call handed the request object itself (not its
    headers or credentials) computes the application's data with it — the usual way
    code refreshes `app.state` from a handler. Not an object built from the request.
    A local is followed: every request-derived value assigned to it is such a call."""
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Name) and depth < 2:
        derived = [v for v in local_assignments(facts, fn).get(value.id, ()) if request_scoped_value(facts, v, fn)]
        return bool(derived) and all(_computed_from_request_object(facts, v, fn, depth + 1) for v in derived)
    if not isinstance(value, ast.Call):
        return False
    params = request_params(facts, fn)
    args = [a.value if isinstance(a, ast.Starred) else a for a in [*value.args, *(k.value for k in value.keywords)]]
    derived = [a for a in args if request_scoped_value(facts, a, fn)]
    return bool(derived) and all(isinstance(a, ast.Name) and "request object" in params.get(a.id, "")
                                 for a in derived)


def _record_item_plain(facts, v: ast.AST, fn, depth: int) -> bool:
    """Is `v`, an item of a record literal, a value rather than an object of the request?
    Plain data (`_plain_data`); a FastAPI parameter that is not the request object, or
    an attribute of one (`api_key: str = Form(...)`, `user.user_id`: values the request
    carried); the result of a method of
    a local value (`payload.get("id")`); a local every assignment of which is such a value."""
    if _plain_data(facts, v, fn) or depth > 2:
        return True
    params = request_params(facts, fn)
    root = v
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(root, ast.Name) and root.id in params:
        # `api_key` (a `Form(...)` value), `user.user_id` (a field of a dependency's
        # result) are values; `request`, `request.user` are objects of the request
        return "request object" not in params[root.id]
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute):
        base = v.func.value
        while isinstance(base, (ast.Attribute, ast.Subscript, ast.Call)):
            base = base.func if isinstance(base, ast.Call) else base.value
        if isinstance(base, ast.Name) and base.id not in facts.imports and base.id not in facts.module_names:
            return True
    if isinstance(v, ast.Name):
        values = local_assignments(facts, fn).get(v.id, ())
        return bool(values) and all(_record_item_plain(facts, x, fn, depth + 1) for x in values)
    return False


def _connection_registry(facts, c, site) -> bool:
    """Is this insert the connection-registry pattern: the stored value holds no request
    object but a client connection (`requests.connection_only`: a `WebSocket`
    parameter, or an object built from one and nothing else of the request), under a
    key, in a container whose entries the code removes by key (a disconnect handler,
    a sweep of dead sessions)? The connection lives as long as the client
    stays connected, and the registry is how a server pushes to it (FastAPI docs,
    "WebSockets: Handling disconnections and multiple clients"); its entry goes when
    the connection does. A registry nothing removes from keeps every connection ever
    made, and a value holding anything else of the request (a copied Context, an HTTP
    request) is not a connection: both still count."""
    if site.key is None or connection_only(facts, site.value, site.function) is None:
        return False
    return _removal_on_connection_path(facts, c, site)


def _removal_on_connection_path(facts, c, site, depth: int = 2) -> bool:
    """Is a keyed removal from `c` (a `LongLivedContainer`) reached on the inserting
    connection's own path: from the inserting def `site.function` itself (its `finally`,
    its `except WebSocketDisconnect`, after its receive loop), or from a def of this
    module that calls the inserting def (the endpoint that does `manager.connect(ws)`
    and then `manager.disconnect(ws)`), following calls of this module `depth` levels
    (`calls.call_graph`)? A removal only some other handler runs (an admin `kick`)
    does not end the entry when this client goes away."""
    from ctxlint.semantic.python.calls import call_graph
    graph = call_graph(facts)
    removing = {id(r.function) for r in c.removals if r.key is not None and r.function is not None}
    if not removing:
        return False

    def reaches(fn, d: int, seen: set[int]) -> bool:
        if id(fn) in removing:
            return True
        if d <= 0 or id(fn) in seen:
            return False
        seen.add(id(fn))
        return any(reaches(t, d - 1, seen) for _, t in graph.calls_in(fn))

    if site.function is None:
        return False
    if reaches(site.function, depth, set()):
        return True
    if any(reaches(caller, depth, set()) for _, caller in graph.callers(site.function)):
        return True
    owner = facts.enclosing_class(site.function)
    for r in c.removals:
        if r.key is None or r.function is None:
            continue
        # the registry object's own removal API (`Manager.disconnect(sid)`), called from
        # another module's endpoint: a method of the inserting class nothing here calls
        if owner is not None and facts.enclosing_scope(r.function) is owner and not graph.callers(r.function):
            return True
        # a periodic sweep: the removal keys by the target of a walk over this container,
        # inside a `while` loop of the same def
        if _walk_target_key(facts, c, r) and any(isinstance(n, ast.While) for n in ast.walk(r.function)):
            return True
    return False


def _walk_target_key(facts, c, r) -> bool:
    """Is the removal site `r`'s key a plain name bound as the target of a `for` or a
    comprehension that walks the container `c` (`facts.container_at`: `for sid in
    list(self._sessions)`, `for cid in [k for k, s in self.conversations.items() if
    ...]`)?"""
    if not isinstance(r.key, ast.Name):
        return False

    def walks(it: ast.AST) -> bool:
        return any(isinstance(x, (ast.Name, ast.Attribute)) and facts.container_at(x) is c for x in ast.walk(it))

    for n in ast.walk(r.function):
        gens = n.generators if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) else \
            [n] if isinstance(n, (ast.For, ast.AsyncFor)) else []
        for g in gens:
            if r.key.id in {t.id for t in ast.walk(g.target) if isinstance(t, ast.Name)} and walks(g.iter):
                return True
    return False


def _filled_by_a_caller(facts, value: ast.AST, fn) -> str | None:
    """The request-scoped value a call in this module hands to a parameter of `fn` that
    `value` is built from (`cls._instance = cls(api_key)` in a classmethod `for_key(cls,
    api_key)` that a handler calls as `UpstreamClient.for_key(request.headers["x-api-key"])`),
    as `request_scoped_value` words it, or None. One level: the helper that parks what its
    caller hands it is the store a summary of the helper would name."""
    if isinstance(fn, ast.Lambda):
        return None
    # the parameter kept whole: the stored value itself, an argument of the call that
    # builds it (`cls(api_key)`), or an element of a display; not a receiver or operand
    # (`request.app.state.x`, `(folder / name).exists()`: something computed from it)
    used = {value.id} if isinstance(value, ast.Name) else set()
    for n in ast.walk(value):
        kids = [*n.args, *(k.value for k in n.keywords)] if isinstance(n, ast.Call) else \
            list(n.elts) if isinstance(n, (ast.Tuple, ast.List, ast.Set)) else \
            [v for v in n.values if v is not None] if isinstance(n, ast.Dict) else []
        used |= {k.id for k in kids if isinstance(k, ast.Name)}
    from ctxlint.semantic.python.calls import call_graph, params_of
    params = params_of(fn)
    wanted = [i for i, p in enumerate(params) if p in used]
    if not wanted:
        return None
    cg = call_graph(facts)  # resolves `Cls.m(...)`, `self.m(...)` in its class, nested defs
    for call, caller in cg.callers(fn):
        for i in wanted:
            arg = cg.arg_for(call, fn, i)
            what = request_scoped_value(facts, arg, caller) if arg is not None else None
            if what:
                return f"a value built from {what} (handed to `{fn.name}()` by `{caller.name}()`)"
    return None


def _candidate_stores(facts):
    """(assignment, target, its def) for assignments inside a def whose target can outlive
    the call: a name some def declares `global`, or an attribute of a module class, of a
    classmethod's first parameter, of `type(...)` or of `x.__class__`. Cheap tests first;
    the def is looked up only for candidates."""
    global_names = {n for g in facts.nodes(ast.Global) for n in g.names}
    receivers = set(class_names(facts))
    for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        if any((facts.qualname(d) or "") in ("classmethod", "builtins.classmethod") for d in fn.decorator_list):
            pos = [*fn.args.posonlyargs, *fn.args.args]
            if pos:
                receivers.add(pos[0].arg)
    for stmt in facts.nodes(ast.Assign, ast.AnnAssign):
        if stmt.value is None:
            continue
        for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
            if isinstance(t, ast.Name):
                ok = t.id in global_names
            elif isinstance(t, ast.Attribute):
                r = t.value
                ok = (isinstance(r, ast.Name) and r.id in receivers) or isinstance(r, ast.Call) or (
                    isinstance(r, ast.Attribute) and r.attr in ("__class__", "state", "app"))
            else:
                ok = False
            if ok:
                fn = facts.enclosing_function(stmt)
                if fn is not None:
                    yield stmt, t, fn


class RequestContextInGlobal(Rule):
    code = "CTX203"
    name = "request-context-in-global"
    summary = ("A request-scoped object (copied Context, Request, OTel context/span, per-user client) "
               "stored in a global.")
    tokens = ("copy_context", "Request", "opentelemetry", "current_task", "flask", "quart", "WebSocket", "fastapi",
              "Route", "add_route", "add_get", "add_post")
    doc = """\
## What it does
Flags a function that stores a request-scoped object in a module global (via
`global X`), a class attribute (`Cls.x = ...`, `cls.x = ...`), the web
application's state (`app.state.x = ...`, `request.app.state.x = ...`, where `app`
is a module-level `FastAPI()`/`Starlette()`) or an entry of a module- or
class-level container (`_PENDING[rid] = ...`, `_state["client"] = ...`,
`_SEEN.append(...)`). A record of the request's data (`{"path": request.url.path,
"user_id": user.id}`, `{"pid": request.args.get("pid", type=int), "seen": now()}`:
items read out of the request's query, headers, cookies or decoded body, scalar
conversions, f-strings, values that do not come from the request at all) is data,
not a context object, and is left to CTX401; a record holding the request itself or
one of its mappings (`request.headers`, `request.args`) is not. A WebSocket connection
(or an object built from one and nothing else of the request) kept under a key in a
registry the code removes entries from by key (a disconnect handler, a sweep of dead
sessions) is the connection-registry pattern (FastAPI docs, "WebSockets") and is not
reported; one nobody removes is. Request-scoped
objects are: `contextvars.copy_context()` snapshots, framework request objects
(a parameter annotated `fastapi.Request`, `starlette.requests.Request`,
`django.http.HttpRequest`, `aiohttp.web.Request`, ...), `flask.request`/`g`
(`_get_current_object()`), OpenTelemetry contexts and spans
(`context.get_current()`, `trace.get_current_span()`, `set_span_in_context()`),
Celery's `current_task`, FastAPI `Depends(...)` parameters, the request's
headers or credentials, and any object built from them (an API client made with
the caller's key: `UpstreamClient(request.headers["x-api-key"])`, also behind
`_client = _client or ...`). What counts as request-derived is decided by where
the value comes from (`ctxlint.semantic.python.requests`), never by a name. A
parameter annotated `Callable[[Request, ...], ...]` or `type[Request]` holds a
function that will be handed a request (a plugin hook registered once) or a class,
not a request: storing it is not reported. A helper of this module that parks what
it is handed (`cls._instance = cls(api_key)` in a classmethod, `_client = Client(key)`
behind `global`) is reported at that store when a call in this module hands it a
request-scoped value (`UpstreamClient.for_key(request.headers["x-api-key"])`; one level).

## Why is this bad
The global outlives the request: the next request (another tenant) reads the
previous request's context, headers, user or credentials, and everything the
object references — the request body, the span tree, the contextvars — stays
alive until the global is overwritten. It is Go's "do not store a
`context.Context` in a global" for Python.

## Example
```python
_last_request: Request | None = None

@app.post("/v1/chat/completions")
async def chat(request: Request):
    global _last_request
    _last_request = request          # kept after the response, seen by other tenants
```

## Use instead
Pass what you need explicitly, or bind it per request in a `ContextVar` that is
reset in `finally`. Keep only plain, request-independent data in globals.

## Fix safety
No automatic fix.

## Source
Go `context` package docs ("Do not store Contexts inside a struct type");
PEP 567; the Flask docs on `_get_current_object()` ("the proxy must not be
stored"); OpenTelemetry context propagation docs.
"""

    def check(self, facts):
        reported: set[int] = set()
        for stmt, t, fn in _candidate_stores(facts):
            if isinstance(t, ast.Name) and t.id not in globals_of(facts, fn):
                continue
            where = store_kind(facts, t, fn)
            if not where:
                where = app_state_store(facts, t, fn)
                if not where or _computed_from_request_object(facts, stmt.value, fn):
                    continue
            if isinstance(stmt.value, (ast.Dict, ast.List, ast.Tuple, ast.Set)) and _plain_data(facts, stmt.value, fn):
                continue  # a record of the request's data, not one of its objects
            what = request_scoped_value(facts, stmt.value, fn) or _filled_by_a_caller(facts, stmt.value, fn)
            if what and id(t) not in reported:
                reported.add(id(t))
                tier, trace = _tier(facts, stmt.value, what)
                yield facts.finding(self, t, f"{what} is stored in {where}: it outlives the request "
                                    "and the next request sees it (pass it explicitly instead)",
                                    confidence=tier, trace=trace)
        for c in facts.containers:
            if c.scope not in ("module", "class"):
                continue
            for site in c.inserts:
                fn = site.function
                if fn is None or site.value is None or id(site.node) in reported:
                    continue
                if _plain_data(facts, site.value, fn):
                    continue
                if _connection_registry(facts, c, site):
                    continue
                what = request_scoped_value(facts, site.value, fn)
                if what:
                    reported.add(id(site.node))
                    tier, trace = _tier(facts, site.value, what)
                    yield facts.finding(self, site.node, f"{what} is stored in long-lived `{c.name}`: it "
                                        "outlives the request and keeps its context alive",
                                        confidence=tier, trace=trace)


#: Request attributes that carry who is asking (framework APIs: Starlette/Werkzeug/Django
#: `headers`, `cookies`, `session`, Django/DRF/Starlette `user`/`auth`): an object built
#: from them serves one caller's identity to the next request.
IDENTITY_ATTRS = frozenset({"headers", "cookies", "session", "user", "auth", "credentials", "scope"})


def _tier(facts, value: ast.AST, what: str) -> tuple[str, list]:
    """("high", []) when the stored value is a request or context object itself, or an
    object built from what identifies the caller (`IDENTITY_ATTRS`: K10's client built
    with the request's Authorization header); ("low", [why]) for an object built from the
    request's other data (a query parameter, a body field): whether it keeps anything of
    the request the project does not show (issue 32's latent case)."""
    if "built from" not in what or "request object" in what:
        return "high", []  # the request, a context object, or an object holding the request
    if any(f"`{a}`" in what for a in IDENTITY_ATTRS):
        return "high", []  # the layer traced it to the caller's identity
    if any(isinstance(n, ast.Attribute) and n.attr in IDENTITY_ATTRS for n in ast.walk(value)):
        return "high", []
    vals = [value]
    if isinstance(value, ast.Name):
        fn = facts.enclosing_function(value)
        from ctxlint.semantic.python.requests import local_assignments
        vals = list(local_assignments(facts, fn).get(value.id, ())) if fn is not None else vals
    if any(isinstance(n, ast.Attribute) and n.attr in IDENTITY_ATTRS for v in vals for n in ast.walk(v)):
        return "high", []
    return "low", [(value, "an object built from the request's data, not from who is asking: whether it "
                           "keeps anything of the request is not shown")]
