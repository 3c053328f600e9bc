"""CTX203 request-context-in-global: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.requests import request_params, request_scoped_value
from ctxlint.semantic.python.stores import class_names, globals_of, store_kind


def _plain_data(facts, value: ast.AST, fn) -> bool:
    """A piece of request data (`request.headers["x"]`, an f-string of it) rather than
    an object: kept in a registry it is CTX401's concern, not a context leak."""
    if isinstance(value, (ast.Subscript, ast.JoinedStr, ast.BinOp, ast.Constant)):
        return True
    if isinstance(value, ast.Attribute):
        # `request.user` / `request.state` are objects of the request; `request.url.path`
        # (two steps down) is a piece of its data
        return isinstance(value.value, ast.Attribute)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        base = value.func.value
        while isinstance(base, (ast.Attribute, ast.Subscript, ast.Call)):
            base = base.func if isinstance(base, ast.Call) else base.value
        return isinstance(base, ast.Name) and base.id in request_params(facts, fn)
    return False


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
                    isinstance(r, ast.Attribute) and r.attr == "__class__")
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
`global X`), a class attribute (`Cls.x = ...`, `cls.x = ...`) or a module- or
class-level container (`_PENDING[rid] = ...`, `_SEEN.append(...)`). Request-scoped
objects are: `contextvars.copy_context()` snapshots, framework request objects
(a parameter annotated `fastapi.Request`, `starlette.requests.Request`,
`django.http.HttpRequest`, `aiohttp.web.Request`, ...), `flask.request`/`g`
(`_get_current_object()`), OpenTelemetry contexts and spans
(`context.get_current()`, `trace.get_current_span()`, `set_span_in_context()`),
Celery's `current_task`, FastAPI `Depends(...)` parameters, the request's
headers or credentials, and any object built from them (an API client made with
the caller's key: `UpstreamClient(request.headers["x-api-key"])`, also behind
`_client = _client or ...`). What counts as request-derived is decided by where
the value comes from (`ctxlint.semantic.python.requests`), never by a name.

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
                continue
            what = request_scoped_value(facts, stmt.value, fn)
            if what and id(t) not in reported:
                reported.add(id(t))
                yield facts.finding(self, t, f"{what} is stored in {where}: it outlives the request "
                                    "and the next request sees it (pass it explicitly instead)")
        for c in facts.containers:
            if c.scope not in ("module", "class"):
                continue
            for site in c.inserts:
                fn = site.function
                if fn is None or site.value is None or id(site.node) in reported:
                    continue
                if _plain_data(facts, site.value, fn):
                    continue
                what = request_scoped_value(facts, site.value, fn)
                if what:
                    reported.add(id(site.node))
                    yield facts.finding(self, site.node, f"{what} is stored in long-lived `{c.name}`: it "
                                        "outlives the request and keeps its context alive")
