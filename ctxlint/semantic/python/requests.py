"""Request-derived values, request scopes and scope ids (one module's view).

Facts (all memoized on the shared `PythonFacts`):

* `request_params(facts, fn)` — the parameters of `fn` that hold one request:
  a parameter annotated with a web framework's request class (`REQUEST_TYPES`),
  a FastAPI dependency or request parameter (`= Depends(...)`, `= Security(...)`,
  `= Header(...)`, `Annotated[X, Depends(...)]`; `DEPENDS`), and the first parameter of a function this
  module registers as an endpoint (`Route("/p", fn)`, `add_route`, aiohttp
  `router.add_get(...)`).
* `request_derived(facts, expr, fn)` — what request-derived value `expr` is:
  such a parameter; anything reached from it (`request.headers["x-api-key"]`,
  `await request.json()`) except its application (`request.app`); a
  module-level proxy to the current request (`flask.request`, `flask.g`); a
  local assigned from one of these; a dict/list/tuple/set literal holding one; and
  any object built by a call that takes one (`UpstreamClient(request.headers[...])`,
  `httpx.AsyncClient(headers={"Authorization": request.headers[...]})`: a per-user client).
* `request_scoped_value(facts, expr, fn)` — `request_derived`, plus the context
  objects that belong to one request wherever they come from: a
  `contextvars.copy_context()` snapshot, an OpenTelemetry context or span,
  Celery's `current_task`, a Flask proxy's `_get_current_object()`.
* `request_data_value(facts, expr, fn)` — is `expr` a piece of the request's data
  (a scalar or fresh copy read out of it: `request.args.get("pid", type=int)`,
  `request.headers["x"]`, `await request.json()`, `int(...)`, an f-string) rather
  than an object keeping the request alive (the request, `request.headers` itself)?
* `reads_request_stream(facts, expr, fn)` — `request.stream()` and the like: a reader
  of the request's own body stream.
* `connection_only(facts, expr, fn)` — the WebSocket parameter `expr` holds when that
  client connection is the only request object in it (`Session(sid, ws=websocket)`).
* `request_scope(facts, fn, at)` — why `fn` (at node `at`) runs inside one
  request's Context: a route handler, a function given the request or a scope
  id, inside a `with <tracer>.start_as_current_span(...)`, or after a
  `ContextVar.set()`.
* `current_context_at(facts, fn, at)` — has `fn`, at `at`, put something in the
  current Context: a `ContextVar.set()` before it, or an OTel current span (a
  `with tracer.start_as_current_span(...)`/`use_span(...)` around it).
* `is_otel_tracer(facts, expr)` — `expr` holds an OpenTelemetry tracer
  (`trace.get_tracer(...)`, a provider's `get_tracer`, directly or through a
  module global / `self.` attribute assigned from one).
* `local_assignments(facts, fn)` — name -> the values assigned to it in `fn`
  (`x = v`, `x: T = v`, `(x := v)`), one walk per def.
* `scope_id_of(facts, expr, fn)` — the scope id (tenant, user, request,
  adapter, ...; the configurable vocabulary `Config.scope_ids`) an expression
  carries: a parameter, an attribute of a parameter, or an instance attribute
  set from a parameter in any method of the class (a tenant or adapter held on
  `self` and switched by a setter) — see `instance_scope_ids`.

The tables below are the only names this module decides by; each cites its
source.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ctxlint.semantic.python.picklability import _self_assignments
from ctxlint.semantic.python.syntax import FunctionNode

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts

FUNCS = FunctionNode

#: Web frameworks whose request classes are per-request objects (top-level packages).
FRAMEWORKS = frozenset({"fastapi", "starlette", "flask", "aiohttp", "django", "werkzeug", "sanic", "quart",
                        "tornado", "litestar", "falcon", "rest_framework"})
#: Their request classes (last component of the qualified name). Sources: Starlette
#: `starlette.requests.Request`/`HTTPConnection`, `starlette.websockets.WebSocket`
#: (re-exported by FastAPI); Django `django.http.HttpRequest`, `ASGIRequest`,
#: `WSGIRequest`; aiohttp `aiohttp.web.Request`/`BaseRequest`; Werkzeug/Flask/Quart
#: `Request`; Tornado `HTTPServerRequest`; DRF `rest_framework.request.Request`.
REQUEST_TYPES = frozenset({"Request", "HttpRequest", "WebSocket", "HTTPConnection", "BaseRequest", "ASGIRequest",
                           "WSGIRequest", "HTTPServerRequest"})
#: Module-level proxies to the current request (Flask/Quart docs, "context locals").
REQUEST_PROXIES = frozenset({"flask.request", "flask.g", "flask.session", "quart.request", "quart.g",
                             "quart.session", "werkzeug.local.LocalProxy"})
#: Attributes of a request that belong to the application, not the request
#: (Starlette `request.app`, aiohttp `request.app`, Django `request.resolver_match` is per request).
APP_ATTRS = frozenset({"app"})
#: FastAPI parameter markers whose value is resolved from the current request: dependencies
#: and the request's headers, cookies, query, body and form (fastapi.params; FastAPI docs
#: "Dependencies", "Header Parameters", "Cookie Parameters", ...).
DEPENDS = frozenset({f"{m}.{k}" for m in ("fastapi", "fastapi.params")
                     for k in ("Depends", "Security", "Header", "Cookie", "Query", "Body", "Form")})
#: Calls registering an endpoint whose first parameter receives the request:
#: callee qualname suffix -> index of the endpoint argument. Sources: Starlette
#: `Route(path, endpoint)`/`WebSocketRoute`, `app.add_route(path, fn)`; aiohttp
#: `web.get(path, handler)`, `router.add_get/add_post/add_route(...)`.
ENDPOINT_REGISTRATIONS = {"Route": 1, "WebSocketRoute": 1, "add_route": 1, "add_websocket_route": 1,
                          "add_get": 1, "add_post": 1, "add_put": 1, "add_patch": 1, "add_delete": 1}
_AIOHTTP_ROUTE_FUNCS = frozenset({"aiohttp.web.get", "aiohttp.web.post", "aiohttp.web.put", "aiohttp.web.patch",
                                  "aiohttp.web.delete", "aiohttp.web.route", "aiohttp.web.view"})
#: Route decorators (`@app.get(...)`, `@router.post(...)`, `@app.route(...)`, `@bp.websocket(...)`):
#: FastAPI/Flask/Quart/Sanic/Litestar routing APIs, matched on the decorator call's attribute.
ROUTE_DECORATORS = frozenset({"get", "post", "put", "delete", "patch", "route", "websocket", "api_route", "head",
                              "options", "view"})
#: Calls returning a context object that belongs to the current request.
#: Sources: Python `contextvars` docs; OpenTelemetry Python API (`opentelemetry.context`,
#: `opentelemetry.trace`, `opentelemetry.propagate`); Celery `celery.current_task`.
SCOPED_CALLS = {
    "contextvars.copy_context": "a `copy_context()` snapshot of this request's contextvars",
    "opentelemetry.context.get_current": "an OpenTelemetry context",
    "opentelemetry.trace.get_current_span": "the current OpenTelemetry span",
    "opentelemetry.trace.set_span_in_context": "an OpenTelemetry context",
    "opentelemetry.context.set_value": "an OpenTelemetry context",
    "opentelemetry.propagate.extract": "an OpenTelemetry context extracted from the request",
}
SCOPED_NAMES = {"celery.current_task": "Celery's `current_task`"}
#: OpenTelemetry tracer factories (opentelemetry.trace API).
TRACER_FACTORIES = frozenset({"opentelemetry.trace.get_tracer"})
#: Tracer methods that make a span current for a `with` block (OTel API).
CURRENT_SPAN_METHODS = frozenset({"start_as_current_span"})
#: ASGI application classes whose `lifespan=` context manager wraps the app's whole
#: serving life: Starlette enters it at startup and exits it normally at shutdown
#: (https://www.starlette.io/lifespan/, https://fastapi.tiangolo.com/advanced/events/).
ASGI_APP_CLASSES = frozenset({"fastapi.FastAPI", "fastapi.applications.FastAPI", "starlette.applications.Starlette"})
#: Builtins whose result carries nothing of their argument worth keeping.
_PLAIN_RESULT = frozenset({"len", "bool", "isinstance", "hasattr", "callable", "id", "type", "issubclass"})
#: Builtins that make a new scalar (str/int/float/bool/bytes) of their argument: the
#: result holds a copy of the data, never the object it was read from (Python
#: "Built-in Functions").
SCALAR_BUILTINS = frozenset({"str", "int", "float", "bool", "bytes", "repr", "len", "round", "abs", "hash", "ord"})
#: Request attributes that are mappings of the data the client sent (query string,
#: headers, cookies, form fields, path parameters), whose items are strings: Werkzeug /
#: Flask / Quart `Request.args`, `.form`, `.values`, `.headers`, `.cookies`, `.view_args`;
#: Starlette / FastAPI `Request.query_params`, `.headers`, `.cookies`, `.path_params`;
#: Django `HttpRequest.GET`, `.POST`, `.COOKIES`, `.META`, `.headers`; aiohttp
#: `Request.query`, `.headers`, `.cookies`, `.match_info`; Tornado `.arguments`,
#: `.query_arguments`, `.body_arguments`. An item read from one (`request.args.get("pid",
#: type=int)`, `request.headers["x-user"]`) is a str (or what `type=` makes of it).
REQUEST_DATA_ATTRS = frozenset({"args", "form", "values", "headers", "cookies", "view_args", "query_params",
                                "path_params", "GET", "POST", "COOKIES", "META", "query", "match_info",
                                "arguments", "query_arguments", "body_arguments"})
#: Request methods returning the decoded body as fresh data (bytes/str/dict/list), not an
#: object bound to the request: Werkzeug/Flask `get_json()`, `get_data()`, Starlette
#: `json()`, `body()`, aiohttp `json()`, `text()`, `read()`.
REQUEST_BODY_METHODS = frozenset({"get_json", "get_data", "json", "body", "text", "read"})
#: Request methods returning a reader bound to the request's own body stream (it is
#: read from the connection, and closed with the request): Starlette `Request.stream()`,
#: aiohttp `Request.multipart()`.
REQUEST_STREAM_METHODS = frozenset({"stream", "multipart"})
#: Mapping reads that return one item of those mappings: `Mapping.get`, Werkzeug
#: `MultiDict.getlist` / `Headers.get_all`, multidict `getone` / `getall`.
REQUEST_DATA_READS = frozenset({"get", "getlist", "get_all", "getone", "getall"})
#: Module-level proxies to the current request object itself (not `g`/`session`, which
#: hold whatever the application puts there): Flask/Quart `request`.
REQUEST_OBJECT_PROXIES = frozenset({"flask.request", "quart.request"})
#: Request classes that are a client connection rather than one request: a
#: `starlette.websockets.WebSocket` (re-exported by FastAPI) lives as long as the
#: client stays connected, and an application that pushes to it keeps it in a
#: connection registry that drops it on disconnect (FastAPI docs, "WebSockets:
#: Handling disconnections and multiple clients", `ConnectionManager`).
CONNECTION_TYPES = frozenset({"WebSocket"})


#: Generic types whose subscript does not describe the value itself: a
#: `Callable[[Request], R]` is a function that is handed a request (a plugin hook, a
#: handler registered at import time), `type[Request]` / `Type[Request]` a class.
#: typing docs, "Annotating callable objects" and "The type of class objects".
NON_INSTANCE_WRAPPERS = frozenset({"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable",
                                   "type", "builtins.type", "typing.Type", "typing_extensions.Type"})


# ============================================================ request parameters
def _annotation_qualname(facts: "PythonFacts", ann: ast.AST | None) -> list[str]:
    """Qualified names an annotation mentions (unwrapping Optional/|/Annotated/strings)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except (SyntaxError, ValueError):
            return []
    if ann is None:
        return []
    out: list[str] = []
    stack = [ann]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Subscript) and (facts.qualname(n.value) or "") in NON_INSTANCE_WRAPPERS:
            # `Callable[[WebSocket, str], ...]` holds a function that takes a request,
            # `type[Request]` a class: neither value is a request object
            continue
        if isinstance(n, (ast.Name, ast.Attribute)) and (q := facts.qualname(n)):
            out.append(q)
        stack.extend(reversed(list(ast.iter_child_nodes(n))))
    return out


def is_asgi_lifespan(facts: "PythonFacts", fn) -> bool:
    """Is the context-manager generator `fn` an ASGI app's lifespan handler?

    Evidence, by value: its first parameter is annotated with an ASGI application
    class (`ASGI_APP_CLASSES`: `async def lifespan(app: FastAPI)`; a method's first
    parameter after `self`), or the function is handed to an app as `lifespan=`
    (directly, through one local name, or as `self.<method>` from a method of the same
    class) in this module. The server exits a lifespan normally at shutdown; an exception reaches
    its `yield` only when the process is going down."""
    params = [*fn.args.posonlyargs, *fn.args.args]
    is_method = facts.receiver_param(fn) is not None
    cls = facts.enclosing_class(fn) if is_method else None
    app_param = params[1] if is_method and len(params) > 1 else (params[0] if params and not is_method else None)
    if app_param is not None and any(q in ASGI_APP_CLASSES for q in _annotation_qualname(facts, app_param.annotation)):
        return True
    for call in facts.nodes(ast.Call):
        for k in call.keywords:
            if k.arg != "lifespan":
                continue
            for n in ast.walk(k.value):
                if isinstance(n, ast.Name) and n.id == fn.name and not is_method:
                    return True
                # `FastAPI(lifespan=self._lifespan)` inside a method of the same class: the
                # bound method is this def.
                if (is_method and isinstance(n, ast.Attribute) and n.attr == fn.name
                        and isinstance(n.value, ast.Name) and facts.enclosing_class(call) is cls
                        and (fd := facts.enclosing_function(call)) is not None and fd.args.args
                        and n.value.id == fd.args.args[0].arg):
                    return True
    return False


def is_request_type(qualname: str) -> bool:
    """Is this qualified name a web framework's per-request class (`REQUEST_TYPES`)?"""
    parts = qualname.split(".")
    return parts[-1] in REQUEST_TYPES and parts[0] in FRAMEWORKS


def _is_depends(facts: "PythonFacts", expr: ast.AST | None) -> bool:
    if not isinstance(expr, ast.Call):
        return False
    q = facts.qualname(expr.func) or ""
    return q in DEPENDS


def _all_args(fn) -> list[ast.arg]:
    a = fn.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs]


def _defaults(fn) -> dict[str, ast.AST]:
    a = fn.args
    pos = [*a.posonlyargs, *a.args]
    out = {}
    for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        out[arg.arg] = d
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if d is not None:
            out[arg.arg] = d
    return out


def endpoint_functions(facts: "PythonFacts") -> dict[int, str]:
    """id(def) -> how it is registered, for defs this module registers as endpoints
    by a call (`Route("/p", fn)`, `app.add_route(...)`, `web.get(...)`)."""
    def compute():
        defs: dict[str, list[ast.AST]] = {}
        for f in facts.nodes(*FUNCS):
            defs.setdefault(f.name, []).append(f)
        out: dict[int, str] = {}
        for call in facts.nodes(ast.Call):
            q = facts.qualname(call.func) or ""
            last = q.split(".")[-1]
            idx = ENDPOINT_REGISTRATIONS.get(last)
            if q in _AIOHTTP_ROUTE_FUNCS:
                idx = 1
            if idx is None:
                continue
            target = call.args[idx] if len(call.args) > idx else next(
                (k.value for k in call.keywords if k.arg in ("endpoint", "handler")), None)
            name = target.id if isinstance(target, ast.Name) else (
                target.attr if isinstance(target, ast.Attribute) else None)
            if name and len(defs.get(name, ())) == 1:
                out[id(defs[name][0])] = f"`{last}(...)`"
        return out
    return facts.memo("requests.endpoints", compute)


def is_route_handler(facts: "PythonFacts", fn) -> bool:
    """Is `fn` a web endpoint: a route decorator (`ROUTE_DECORATORS`) or registered by a call?"""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_DECORATORS:
            return True
    return id(fn) in endpoint_functions(facts)


def request_params(facts: "PythonFacts", fn) -> dict[str, str]:
    """Parameter name -> description, for the parameters of `fn` that hold one request
    (see the module docstring). Empty for None or a lambda."""
    return _request_params(facts, fn)[0]


def request_object_params(facts: "PythonFacts", fn) -> frozenset[str]:
    """The parameters of `fn` that hold the framework's request object itself (annotated
    with a request class, or an endpoint's first parameter), as opposed to a FastAPI
    `Depends` value resolved per request. Empty for None or a lambda."""
    return _request_params(facts, fn)[1]


def _request_params(facts: "PythonFacts", fn) -> tuple[dict[str, str], frozenset[str]]:
    if not isinstance(fn, FUNCS):
        return {}, frozenset()

    def compute():
        out: dict[str, str] = {}
        objects: set[str] = set()
        defaults = _defaults(fn)
        for a in _all_args(fn):
            quals = _annotation_qualname(facts, a.annotation)
            if any(is_request_type(q) for q in quals):
                out[a.arg] = f"the request object `{a.arg}`"
                objects.add(a.arg)
            elif _is_depends(facts, defaults.get(a.arg)) or (
                    isinstance(a.annotation, ast.Subscript) and any(
                        _is_depends(facts, n) for n in ast.walk(a.annotation))):
                out[a.arg] = f"the FastAPI request parameter `{a.arg}` (resolved per request)"
        if id(fn) in endpoint_functions(facts):
            pos = [*fn.args.posonlyargs, *fn.args.args]
            # a method's first parameter is its instance (or class), not the request
            if pos and facts.receiver_param(fn) is not None:
                pos = pos[1:]
            if pos and pos[0].arg not in out:
                out[pos[0].arg] = f"the request object `{pos[0].arg}`"
                objects.add(pos[0].arg)
        return out, frozenset(objects)
    return facts.memo(f"requests.params.{id(fn)}", compute)


# ============================================================ request-derived values
def _root(expr: ast.AST) -> tuple[ast.AST, list[str]]:
    """The base of an attribute/subscript/call/await chain, with the attribute path."""
    path: list[str] = []
    while True:
        if isinstance(expr, ast.Attribute):
            path.append(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call) and isinstance(expr.func, (ast.Attribute, ast.Subscript)):
            expr = expr.func
        elif isinstance(expr, ast.Await):
            expr = expr.value
        else:
            return expr, list(reversed(path))


def local_assignments(facts: "PythonFacts", fn) -> dict[str, list[ast.AST]]:
    """name -> values assigned to it in `fn` (`x = v`, `x: T = v`, `(x := v)`; not
    nested defs), computed in one walk per def and memoized."""
    def compute():
        out: dict[str, list[ast.AST]] = {}
        for n in facts.walk(fn):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, []).append(n.value)
            elif (isinstance(n, (ast.AnnAssign, ast.NamedExpr)) and isinstance(n.target, ast.Name)
                  and n.value is not None):
                out.setdefault(n.target.id, []).append(n.value)
        return out
    return facts.memo(f"requests.locals.{id(fn)}", compute)


#: Mapping and sequence lookups (Python data model: dict.get/pop/setdefault, list.pop,
#: `__getitem__`): their result is what the receiver holds, whatever the key is.
_LOOKUPS = frozenset({"get", "pop", "setdefault", "__getitem__", "popitem"})


def request_derived(facts: "PythonFacts", expr: ast.AST | None, fn, depth: int = 0) -> str | None:
    """What request-derived value `expr` (inside `fn`, or None at module level) is, else None.

    Returns a short description for messages ("the request's `headers`",
    "a `UpstreamClient` built from the request's `headers`").
    """
    if expr is None or depth > 3:
        return None
    if isinstance(expr, ast.Await):
        return request_derived(facts, expr.value, fn, depth)
    if isinstance(expr, ast.BoolOp):
        for v in expr.values:
            what = request_derived(facts, v, fn, depth + 1)
            if what:
                return what
        return None
    if isinstance(expr, ast.IfExp):
        return request_derived(facts, expr.body, fn, depth + 1) or request_derived(facts, expr.orelse, fn, depth + 1)
    if isinstance(expr, ast.Call):
        chain = _chain_value(facts, expr, fn, depth)
        if chain:
            return chain
        q = facts.qualname(expr.func) or ""
        if q.split(".")[-1] in _PLAIN_RESULT and "." not in q:
            return None
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in _LOOKUPS:
            return None  # `store.pop(code)`: what the store holds, looked up by a request value
        for a in [*expr.args, *(k.value for k in expr.keywords)]:
            if isinstance(a, ast.Starred):
                a = a.value
            what = request_derived(facts, a, fn, depth + 1)
            if what:
                name = q.split(".")[-1] or "object"
                return f"a `{name}` built from {what}"
        return None
    if isinstance(expr, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        # a literal holding request values (`headers={"Authorization": request.headers[...]}`)
        items = expr.values if isinstance(expr, ast.Dict) else expr.elts
        for v in items:
            what = request_derived(facts, v.value if isinstance(v, ast.Starred) else v, fn, depth + 1)
            if what:
                return what
        return None
    if isinstance(expr, ast.BinOp):
        # the operands as whole values (`request.app.state.n + 1` is the app's, not the request's)
        stack, operands = [expr], []
        while stack and len(operands) < 64:
            e = stack.pop()
            if isinstance(e, ast.BinOp):
                stack.extend((e.right, e.left))
            else:
                operands.append(e)
        for e in operands:
            what = request_derived(facts, e, fn, depth + 1)
            if what:
                return what
        return None
    if isinstance(expr, ast.JoinedStr):
        for v in expr.values:
            if isinstance(v, ast.FormattedValue):
                what = request_derived(facts, v.value, fn, depth + 1)
                if what:
                    return what
        return None
    return _chain_value(facts, expr, fn, depth)


def _chain_value(facts: "PythonFacts", expr: ast.AST, fn, depth: int) -> str | None:
    base, path = _root(expr)
    if path and path[0] in APP_ATTRS:
        return None
    if isinstance(base, (ast.Name, ast.Attribute)) and (facts.qualname(base) or "") in REQUEST_PROXIES:
        return f"the `{facts.qualname(base)}` proxy" + (f"'s `{path[0]}`" if path else "")
    whole = facts.qualname(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    if whole and whole in REQUEST_PROXIES:
        return f"the `{whole}` proxy"
    if not isinstance(base, ast.Name) or fn is None:
        return None
    params = request_params(facts, fn)
    if base.id in params:
        if not path:
            return params[base.id]
        return f"the request's `{path[0]}`" if base.id in request_object_params(facts, fn) else \
            f"{params[base.id]}'s `{path[0]}`"
    if base.id in _params_of(fn):
        return None
    for v in local_assignments(facts, fn).get(base.id, ()):
        if v is expr:
            continue
        what = request_derived(facts, v, fn, depth + 1)
        if what:
            return what
    return None


def request_data_value(facts: "PythonFacts", expr: ast.AST | None, fn, depth: int = 0) -> bool:
    """Is `expr` (inside `fn`) a piece of the request's data — a scalar or a fresh copy
    read out of it — rather than an object that keeps the request alive?

    Evidence, by value: a literal or f-string; a scalar conversion (`SCALAR_BUILTINS`:
    `int(request.args["n"])`); an item read from one of the request's data mappings
    (`REQUEST_DATA_ATTRS`: `request.args.get("pid", type=int)`, `request.headers["x"]`,
    `request.headers.get("x", "")`) or its decoded body (`REQUEST_BODY_METHODS`:
    `await request.json()`, `request.get_json()["k"]`), where the request is a request
    parameter of `fn` or a proxy to the current request (`REQUEST_OBJECT_PROXIES`); a
    local every request-derived assignment of which is such a value. Not the mapping
    itself (`request.headers`, `request.args`: objects of the request)."""
    if expr is None or depth > 3:
        return False
    if isinstance(expr, ast.Await):
        expr = expr.value
    if isinstance(expr, (ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        if isinstance(expr.func, ast.Name) and q.split(".")[-1] in SCALAR_BUILTINS and "." not in q:
            return True
    if isinstance(expr, ast.Name) and fn is not None and expr.id not in _params_of(fn):
        derived = [v for v in local_assignments(facts, fn).get(expr.id, ())
                   if v is not expr and request_scoped_value(facts, v, fn)]
        return bool(derived) and all(request_data_value(facts, v, fn, depth + 1) for v in derived)
    if not isinstance(expr, (ast.Call, ast.Subscript)):
        return False
    chain = _chain_up(expr)
    if len(chain) < 3 or not isinstance(chain[1], ast.Attribute) or not _is_request_object(facts, chain[0], fn):
        return False
    attr, nxt = chain[1].attr, chain[2]
    if attr in REQUEST_DATA_ATTRS:
        # an item of the mapping: `request.args["k"]`, `request.args.get("k", type=int)`
        return isinstance(nxt, ast.Subscript) or (
            isinstance(nxt, ast.Attribute) and nxt.attr in REQUEST_DATA_READS
            and len(chain) > 3 and isinstance(chain[3], ast.Call) and chain[3].func is nxt)
    # the decoded body: `await request.json()`, `request.get_json()`, Flask's `request.json["k"]`
    return attr in REQUEST_BODY_METHODS and isinstance(nxt, (ast.Call, ast.Subscript, ast.Attribute))


def reads_request_stream(facts: "PythonFacts", expr: ast.AST | None, fn) -> bool:
    """Is `expr` a reader of the request's body stream (`REQUEST_STREAM_METHODS` called
    on the request object: `request.stream()`, `await request.multipart()`)?"""
    if not isinstance(expr, (ast.Call, ast.Await)):
        return False
    chain = _chain_up(expr)
    return (len(chain) >= 3 and isinstance(chain[1], ast.Attribute) and chain[1].attr in REQUEST_STREAM_METHODS
            and isinstance(chain[2], ast.Call) and _is_request_object(facts, chain[0], fn))


def _chain_up(expr: ast.AST) -> list[ast.AST]:
    """The nodes of an attribute/subscript/call/await chain from its base outwards:
    `request.args.get("k")` -> [request, request.args, request.args.get, <the call>]."""
    out = [expr]
    while True:
        e = out[-1]
        if isinstance(e, (ast.Attribute, ast.Subscript, ast.Await)):
            out.append(e.value)
        elif isinstance(e, ast.Call):
            out.append(e.func)
        else:
            break
    return [n for n in reversed(out) if not isinstance(n, ast.Await)]


def _is_request_object(facts: "PythonFacts", base: ast.AST, fn) -> bool:
    """Is `base` the request object: a request parameter of `fn`, or a current-request proxy?"""
    if isinstance(base, (ast.Name, ast.Attribute)) and (facts.qualname(base) or "") in REQUEST_OBJECT_PROXIES:
        return True
    return isinstance(base, ast.Name) and base.id in request_object_params(facts, fn)


def connection_only(facts: "PythonFacts", expr: ast.AST | None, fn, depth: int = 0) -> str | None:
    """The connection parameter `expr` (inside `fn`) is built from, when the only request
    object it holds is a client connection (`CONNECTION_TYPES`: a parameter annotated
    `WebSocket`), directly or as an argument of a constructor call whose other arguments
    are not request-scoped (`Session(sid, ws=websocket, config=self.config)`); else None.
    A local is followed through its request-scoped assignments."""
    if expr is None or depth > 3 or fn is None:
        return None
    if isinstance(expr, ast.Name):
        if expr.id in _params_of(fn):
            a = next((a for a in _all_args(fn) if a.arg == expr.id), None)
            quals = _annotation_qualname(facts, a.annotation) if a is not None else []
            return expr.id if any(is_request_type(q) and q.split(".")[-1] in CONNECTION_TYPES for q in quals) \
                else None
        derived = [v for v in local_assignments(facts, fn).get(expr.id, ())
                   if v is not expr and request_scoped_value(facts, v, fn)]
        found = [connection_only(facts, v, fn, depth + 1) for v in derived]
        return found[0] if found and all(found) else None
    if isinstance(expr, ast.Call) and not request_scoped_value(facts, expr.func, fn):
        args = [a.value if isinstance(a, ast.Starred) else a for a in [*expr.args, *(k.value for k in expr.keywords)]]
        scoped = [a for a in args if request_scoped_value(facts, a, fn)]
        found = [connection_only(facts, a, fn, depth + 1) for a in scoped]
        return found[0] if found and all(found) else None
    return None


def _params_of(fn) -> set[str]:
    return {a.arg for a in _all_args(fn)} | ({fn.args.vararg.arg} if fn.args.vararg else set()) | (
        {fn.args.kwarg.arg} if fn.args.kwarg else set())


def request_scoped_value(facts: "PythonFacts", expr: ast.AST | None, fn, depth: int = 0) -> str | None:
    """What request-scoped object `expr` is (request-derived, or a context object of
    the current request: `SCOPED_CALLS`, `SCOPED_NAMES`, an OTel span, a Flask
    proxy's `_get_current_object()`), else None."""
    if expr is None or depth > 3:
        return None
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        if q in SCOPED_CALLS:
            return SCOPED_CALLS[q]
        if isinstance(expr.func, ast.Attribute):
            if expr.func.attr == "start_span" and is_otel_tracer(facts, expr.func.value, fn):
                return "an OpenTelemetry span"
            if expr.func.attr == "_get_current_object":
                inner = facts.qualname(expr.func.value) or ""
                if inner in REQUEST_PROXIES:
                    return f"the `{inner}` object of this request"
    if isinstance(expr, (ast.Name, ast.Attribute)):
        q = facts.qualname(expr) or ""
        if q in SCOPED_NAMES:
            return SCOPED_NAMES[q]
        if isinstance(expr, ast.Name) and fn is not None and expr.id not in _params_of(fn):
            for v in local_assignments(facts, fn).get(expr.id, ()):
                if v is not expr:
                    what = request_scoped_value(facts, v, fn, depth + 1)
                    if what:
                        return what
    if isinstance(expr, ast.BoolOp):
        for v in expr.values:
            what = request_scoped_value(facts, v, fn, depth + 1)
            if what:
                return what
    return request_derived(facts, expr, fn, depth)


# ============================================================ OpenTelemetry tracers
def is_otel_tracer(facts: "PythonFacts", expr: ast.AST | None, fn=None, depth: int = 0) -> bool:
    """Does `expr` hold an OpenTelemetry tracer? A `trace.get_tracer(...)` call, a
    provider's `.get_tracer(...)` on `trace.get_tracer_provider()`/a `TracerProvider`,
    a parameter the value layer types as one (`tracer: "Tracer"`), or a name / `self.`
    attribute / module global assigned from one."""
    if expr is None or depth > 3:
        return False
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        if q in TRACER_FACTORIES:
            return True
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "get_tracer":
            return (facts.qualname(expr.func.value) or "").startswith("opentelemetry") or (
                isinstance(expr.func.value, ast.Call)
                and (facts.qualname(expr.func.value.func) or "").startswith("opentelemetry"))
        return False
    if isinstance(expr, ast.Name):
        if fn is not None and expr.id in local_assignments(facts, fn):
            return any(is_otel_tracer(facts, v, fn, depth + 1) for v in local_assignments(facts, fn)[expr.id])
        if isinstance(fn, FUNCS) and any(a.arg == expr.id for a in _all_args(fn)):
            # a parameter: what the value layer knows of it (`tracer: "Tracer"` annotated
            # with the OTel API's class, `values.OTEL_TRACER`)
            return _value_is_tracer(facts, expr)
        return any(is_otel_tracer(facts, v, None, depth + 1) for v in facts.module_assignments.get(expr.id, ()))
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and fn is not None:
        cls = facts.enclosing_class(fn)
        if cls is None:
            return False
        return any(is_otel_tracer(facts, v, m, depth + 1) for m, v in self_attr_values(facts, cls).get(expr.attr, ()))
    return False


def _value_is_tracer(facts: "PythonFacts", expr: ast.AST) -> bool:
    """Does the module's value layer give `expr` the OpenTelemetry tracer kind (a
    `Tracer` annotation, a `get_tracer(...)` result through any binding)?"""
    from ctxlint.semantic.python.values import OTEL_TRACER, module_values
    return OTEL_TRACER in module_values(facts).value(expr).kinds


def self_attr_values(facts: "PythonFacts", cls: ast.ClassDef) -> dict[str, list[tuple[ast.AST, ast.AST]]]:
    """attr -> [(method, value)] for every `self.attr = value` in the class's methods
    (picklability's per-class index, less its dataclass fields and `self.attr[k]` stores)."""
    def compute():
        out: dict[str, list[tuple[ast.AST, ast.AST]]] = {}
        for attr, sites in _self_assignments(facts, cls).items():
            kept = [(m, v) for m, v, ann in sites if m is not cls and not isinstance(ann, str)]
            if kept:
                out[attr] = kept
        return out
    return facts.memo(f"requests.self_attrs.{id(cls)}", compute)


def current_span_withs(facts: "PythonFacts", fn, at: ast.AST) -> ast.AST | None:
    """The `with <tracer>.start_as_current_span(...)`/`trace.use_span(...)` item around
    `at` inside `fn`, or the `@tracer.start_as_current_span(...)` decorator of `fn` (an
    OTel current span), else None."""
    for a in facts.ancestors(at):
        if a is fn:
            # `@tracer.start_as_current_span("x")` on the function itself (OTel decorator form)
            for d in getattr(fn, "decorator_list", ()):
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) \
                        and d.func.attr in CURRENT_SPAN_METHODS and is_otel_tracer(facts, d.func.value, None):
                    return d
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                e = item.context_expr
                if not isinstance(e, ast.Call):
                    continue
                q = facts.qualname(e.func) or ""
                if q == "opentelemetry.trace.use_span":
                    return e
                if isinstance(e.func, ast.Attribute) and e.func.attr in CURRENT_SPAN_METHODS and \
                        is_otel_tracer(facts, e.func.value, fn):
                    return e
    return None


def _sets_contextvar(facts: "PythonFacts", n: ast.AST) -> bool:
    return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set"
            and len(n.args) == 1 and facts.is_contextvar(n.func.value))


def _helper_setting_contextvar(facts: "PythonFacts", call: ast.Call, fn) -> ast.Call | None:
    """The `<ContextVar>.set()` inside the module function or `self.` method `call` calls
    (one level: `set_tenant(t)` whose body sets the variable and leaves it set), else None."""
    f = call.func
    if isinstance(f, ast.Name):
        defs = [d for d in facts.tree.body if isinstance(d, FUNCS) and d.name == f.id]
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and fn is not None \
            and facts.enclosing_class(fn) is not None:
        defs = [d for d in facts.enclosing_class(fn).body if isinstance(d, FUNCS) and d.name == f.attr]
    else:
        return None
    for d in defs[:1]:
        for n in facts.walk(d):
            if _sets_contextvar(facts, n):
                return n
    return None


def contextvar_set_before(facts: "PythonFacts", fn, at: ast.AST) -> ast.Call | None:
    """The first `<ContextVar>.set(v)` in `fn` (not nested defs) before `at` — directly, or
    inside a helper of this module called there — else None."""
    for n in facts.walk(fn):
        if not isinstance(n, ast.Call) or (n.lineno, n.col_offset) >= (at.lineno, at.col_offset):
            continue
        if _sets_contextvar(facts, n):
            return n
        inner = _helper_setting_contextvar(facts, n, fn)
        if inner is not None:
            return inner
    return None


def otel_attach_before(facts: "PythonFacts", fn, at: ast.AST) -> ast.Call | None:
    """An `opentelemetry.context.attach(...)` in `fn` before `at` (its context is current), else None."""
    for n in facts.walk(fn):
        if isinstance(n, ast.Call) and (n.lineno, n.col_offset) < (at.lineno, at.col_offset) \
                and (facts.qualname(n.func) or "") == "opentelemetry.context.attach":
            return n
    return None


def current_context_at(facts: "PythonFacts", fn, at: ast.AST) -> str | None:
    """Why the current Context at `at` in `fn` holds request values, else None: "the
    value of `tenant` set here" (a ContextVar set earlier in `fn`) or "the current
    span opened here" (a `with` making an OTel span current around `at`)."""
    if fn is None:
        return None
    s = contextvar_set_before(facts, fn, at)
    if s is not None:
        return f"the value of `{facts.dotted(s.func.value)}` set here"
    if current_span_withs(facts, fn, at) is not None:
        return "the current span opened here"
    if otel_attach_before(facts, fn, at) is not None:
        return "the OpenTelemetry context attached here"
    return None


def request_scope(facts: "PythonFacts", fn, at: ast.AST) -> str | None:
    """Why `fn` (at node `at`) runs inside one request's Context, else None."""
    if is_route_handler(facts, fn):
        return f"route handler `{fn.name}`"
    if request_params(facts, fn):
        return f"request handler `{fn.name}`"
    # a constructor's scope-id parameters configure the object (`Client(project_id=...)`):
    # they say nothing about a request being served while it runs
    ids = [a.arg for a in _all_args(fn) if a.arg in facts.scope_id_names] \
        if getattr(fn, "name", "") not in ("__init__", "__post_init__", "__new__") else []
    if ids:
        return f"`{fn.name}`, which serves one request (`{ids[0]}`)"
    if current_span_withs(facts, fn, at) is not None:
        return "a span"
    s = contextvar_set_before(facts, fn, at)
    if s is not None:
        return f"`{fn.name}` after `{facts.dotted(s.func.value)}.set()`"
    return None


# ============================================================ scope ids
def instance_scope_ids(facts: "PythonFacts", cls: ast.ClassDef | None) -> dict[str, str]:
    """attr -> scope id, for instance attributes of `cls` set from a parameter of one
    of its methods where the attribute or the parameter carries a scope id
    (`self.tenant = tenant` in `__init__`, `self._adapter = adapter_id` in a setter)."""
    if cls is None:
        return {}

    def compute():
        out: dict[str, str] = {}
        for attr, sites in self_attr_values(facts, cls).items():
            for m, v in sites:
                base, path = _root(v)
                if not (isinstance(base, ast.Name) and base.id in _params_of(m)):
                    continue
                sid = facts.scope_id_in(".".join([attr])) or facts.scope_id_in(".".join([base.id, *path]))
                if sid:
                    out[attr] = sid
                    break
        return out
    return facts.memo(f"requests.instance_ids.{id(cls)}", compute)


def scope_id_of(facts: "PythonFacts", expr: ast.AST, fn) -> str | None:
    """The scope id `expr` carries inside `fn`: a parameter in the vocabulary, an
    attribute path of a parameter ending in one (`req.lora_request.lora_int_id`), or an
    instance attribute from `instance_scope_ids`. None otherwise."""
    if fn is None:
        return None
    base, path = _root(expr)
    if not isinstance(base, ast.Name) or base.id not in _params_of(fn):
        return None
    pos = [*fn.args.posonlyargs, *fn.args.args]
    cls = facts.enclosing_class(fn)
    if cls is not None and pos and base.id == pos[0].arg and path:
        return instance_scope_ids(facts, cls).get(path[0])
    return facts.scope_id_in(".".join([base.id, *path]))
