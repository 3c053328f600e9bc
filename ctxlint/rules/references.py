"""CTX2xx (Python): references that outlive the request they belong to —
request-scoped objects kept in globals, thread-locals read from async code, and
long-lived tasks that inherit one request's contextvars.

The Go counterparts (CTX201 context-in-global, CTX202 context-in-struct) live in
`go_context`.
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.containers import LONG_LIVED_CLASS_WORDS
from ctxlint.rules import Rule

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)

#: Web frameworks whose `Request`-like classes are per-request objects.
_FRAMEWORKS = ("fastapi", "starlette", "flask", "aiohttp", "django", "werkzeug", "sanic", "quart",
               "tornado", "litestar", "falcon")
_REQUEST_TYPES = {"Request", "HttpRequest", "WebSocket", "HTTPConnection", "BaseRequest", "ASGIRequest",
                  "WSGIRequest", "HTTPServerRequest"}
_OTEL_SCOPED = {
    "opentelemetry.context.get_current": "an OpenTelemetry context",
    "opentelemetry.trace.get_current_span": "the current OpenTelemetry span",
    "opentelemetry.trace.set_span_in_context": "an OpenTelemetry context",
    "opentelemetry.context.set_value": "an OpenTelemetry context",
    "opentelemetry.propagate.extract": "an OpenTelemetry context extracted from the request",
}
_REQUEST_PARAM_NAMES = {"request", "req", "raw_request", "http_request"}
_ROUTE_DECORATORS = {"get", "post", "put", "delete", "patch", "route", "websocket", "api_route", "head",
                     "options", "view"}


# ============================================================================
# Helpers: which values are request-scoped, which functions are request scopes.
# ============================================================================

def _request_params(facts, fn) -> set[str]:
    """Parameters of `fn` annotated with a web framework's request type."""
    def compute():
        out: set[str] = set()
        for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs:
            ann = a.annotation
            if ann is None:
                continue
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                text = ann.value.split("[")[0].strip()
                q = facts.imports.get(text.split(".")[0], text)
                q = q + text[len(text.split(".")[0]):] if "." in text else q
            else:
                q = facts.qualname(ann) or ""
            last = q.split(".")[-1]
            if last in _REQUEST_TYPES and q.split(".")[0] in _FRAMEWORKS:
                out.add(a.arg)
        return out
    return facts.memo(f"refs.request_params.{id(fn)}", compute)


def _scoped_value(facts, expr: ast.AST | None, fn, depth: int = 0) -> str | None:
    """What request-scoped object `expr` is ("a copy_context() snapshot", ...), else None."""
    if expr is None or depth > 2:
        return None
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        if q in ("contextvars.copy_context",) or (q == "copy_context" and "copy_context" not in facts.module_names):
            return "a `copy_context()` snapshot of this request's contextvars"
        if q in _OTEL_SCOPED:
            return _OTEL_SCOPED[q]
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "start_span" and "tracer" in (
                facts.dotted(expr.func.value) or "").lower():
            return "an OpenTelemetry span"
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "_get_current_object":
            inner = facts.qualname(expr.func.value) or ""
            if inner in ("flask.request", "flask.g", "flask.session", "werkzeug.local.LocalProxy"):
                return f"the `{inner}` object of this request"
        # a per-user client built from the request (`OpenAI(api_key=request.headers[...])`)
        name = q.split(".")[-1]
        if name[:1].isupper() and name.endswith(("Client", "OpenAI", "Session", "Anthropic")):
            rp = _request_params(facts, fn) if fn is not None else set()
            for a in [*expr.args, *(k.value for k in expr.keywords)]:
                for n in ast.walk(a):
                    if isinstance(n, ast.Name) and n.id in rp:
                        return f"a `{name}` built from the request"
        return None
    if isinstance(expr, (ast.Name, ast.Attribute)):
        q = facts.qualname(expr) or ""
        if q in ("celery.current_task",):
            return "Celery's `current_task`"
        if q in ("flask.request", "flask.g", "flask.session"):
            return f"the `{q}` proxy"
        if isinstance(expr, ast.Name) and fn is not None:
            if expr.id in _request_params(facts, fn):
                return f"the request object `{expr.id}`"
            # follow one local assignment: `ctx = copy_context(); _CTX = ctx`
            for n in facts.walk(fn):
                if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                        and n.targets[0].id == expr.id and n.value is not expr):
                    what = _scoped_value(facts, n.value, fn, depth + 1)
                    if what:
                        return what
    return None


def _globals_of(facts, fn) -> set[str]:
    """Names `fn` declares `global` (computed once per file for every def)."""
    def compute():
        out: dict[int, set[str]] = {}
        for g in facts.nodes(ast.Global):
            f = facts.enclosing_function(g)
            if f is not None:
                out.setdefault(id(f), set()).update(g.names)
        return out
    return facts.memo("refs.globals", compute).get(id(fn), set())


def _class_names(facts) -> set[str]:
    return facts.memo("refs.class_names", lambda: {c.name for c in facts.nodes(ast.ClassDef)})


def _first_param(fn) -> str | None:
    args = fn.args.posonlyargs + fn.args.args
    return args[0].arg if args else None


def _is_classmethod(facts, fn) -> bool:
    return any((facts.dotted(d) or "").split(".")[-1] == "classmethod" for d in fn.decorator_list)


def _store_kind(facts, target: ast.AST, fn) -> str | None:
    """"module global `X`" / "class attribute `C.x`" when `target` (in `fn`) outlives the call."""
    if isinstance(target, ast.Name) and target.id in _globals_of(facts, fn):
        return f"module global `{target.id}`"
    if isinstance(target, ast.Attribute):
        recv = target.value
        if isinstance(recv, ast.Name):
            if recv.id in _class_names(facts) and recv.id not in _locals(facts, fn):
                return f"class attribute `{recv.id}.{target.attr}`"
            if recv.id == _first_param(fn) and recv.id == "cls" and _is_classmethod(facts, fn):
                return f"class attribute `cls.{target.attr}`"
        if (isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "type"
                and len(recv.args) == 1):
            return f"class attribute `type(...).{target.attr}`"
        if isinstance(recv, ast.Attribute) and recv.attr == "__class__":
            return f"class attribute `__class__.{target.attr}`"
    return None


def _locals(facts, fn) -> set[str]:
    """Names `fn` binds locally (parameters, assignments) minus its `global`s; memoized."""
    def compute():
        names = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
        for n in facts.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
        return names - _globals_of(facts, fn)
    return facts.memo(f"refs.locals.{id(fn)}", compute)


class RequestContextInGlobal(Rule):
    code = "CTX203"
    name = "request-context-in-global"
    summary = "A request-scoped object (copied Context, Request, OTel context/span, current_task) stored in a global."
    tokens = ("copy_context", "Request", "opentelemetry", "current_task", "flask", "_get_current_object",
              "start_span", "WebSocket")
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
Celery's `current_task`, and API clients built from the request's credentials.

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
        for stmt in facts.nodes(ast.Assign, ast.AnnAssign):
            fn = facts.enclosing_function(stmt)
            if fn is None or stmt.value is None:
                continue
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Name) and t.id not in _globals_of(facts, fn):
                    continue
                if isinstance(t, (ast.Subscript, ast.Tuple, ast.List, ast.Starred)):
                    continue
                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                        and t.value.id == "self"):
                    continue
                where = _store_kind(facts, t, fn)
                if not where:
                    continue
                what = _scoped_value(facts, stmt.value, fn)
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
                what = _scoped_value(facts, site.value, fn)
                if what:
                    reported.add(id(site.node))
                    yield facts.finding(self, site.node, f"{what} is stored in long-lived `{c.name}`: it "
                                        "outlives the request and keeps its context alive")


# ---------------------------------------------------------------- CTX204
def _thread_locals(facts) -> set[str]:
    """Dotted names bound to a `threading.local()` (or a subclass of it): module, class, `self.`."""
    def compute():
        local_classes = set()
        for c in facts.nodes(ast.ClassDef):
            for b in c.bases:
                if (facts.qualname(b) or "") in ("threading.local", "_threading_local.local"):
                    local_classes.add(c.name)
        out: set[str] = set()
        for node in facts.nodes(ast.Assign, ast.AnnAssign):
            v = node.value
            if not isinstance(v, ast.Call):
                continue
            q = facts.qualname(v.func) or ""
            if q not in ("threading.local", "_threading_local.local") and q not in local_classes:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            cls = facts.enclosing_class(node)
            fn = facts.enclosing_function(node)
            for t in targets:
                d = facts.dotted(t)
                if not d:
                    continue
                if fn is None and cls is None and isinstance(t, ast.Name):
                    out.add(d)
                elif fn is None and cls is not None and isinstance(t, ast.Name):
                    out.update({f"{cls.name}.{t.id}", f"self.{t.id}", f"cls.{t.id}"})
                elif fn is not None and d.startswith("self."):
                    out.add(d)
        return out
    return facts.memo("refs.thread_locals", compute)


def async_only_functions(facts) -> set[int]:
    """ids of sync defs called only from async code in this file (and never passed around)."""
    def compute():
        sync_defs: dict[str, list[ast.AST]] = {}
        for f in facts.nodes(ast.FunctionDef):
            sync_defs.setdefault(f.name, []).append(f)
        if not sync_defs:
            return set()
        callers: dict[str, list[ast.AST | None]] = {}
        other_refs: set[str] = set()
        for n in facts.nodes(ast.Name, ast.Attribute):
            name = n.id if isinstance(n, ast.Name) else n.attr
            if name not in sync_defs or not isinstance(n.ctx, ast.Load):
                continue
            p = facts.parents.get(n)
            if isinstance(p, ast.Call) and p.func is n:
                callers.setdefault(name, []).append(facts.enclosing_function(n))
            else:
                other_refs.add(name)
        async_only: set[int] = set()
        changed = True
        while changed:
            changed = False
            for name, fs in sync_defs.items():
                if name in other_refs or name not in callers or len(fs) != 1 or id(fs[0]) in async_only:
                    continue
                if all(c is not None and (isinstance(c, ast.AsyncFunctionDef) or id(c) in async_only)
                       for c in callers[name]):
                    async_only.add(id(fs[0]))
                    changed = True
        return async_only
    return facts.memo("refs.async_only", compute)


class ThreadLocalInAsync(Rule):
    code = "CTX204"
    name = "thread-local-in-async"
    summary = "threading.local read or written in async code: every task on the loop thread shares it."
    tokens = ("local",)
    doc = """\
## What it does
Flags every read or write of a `threading.local()` (module-level, class-level,
or `self.` attribute; also instances of a `threading.local` subclass) inside an
`async def`, or inside a sync function that in this file is only called from
async code.

## Why is this bad
All tasks of an event loop run on one thread, so they share one
`threading.local`. A tenant id, request id or user written by one request's
task is overwritten by another task at the next `await`, and read back by the
wrong request — a cross-tenant leak that no test with one request at a time
shows.

## Example
```python
_state = threading.local()

async def report(tenant_id):
    _state.tenant_id = tenant_id
    rows = await load_rows()
    return {"tenant": _state.tenant_id, "rows": rows}
```

## Use instead
```python
_tenant_id = contextvars.ContextVar("tenant_id")

async def report(tenant_id):
    token = _tenant_id.set(tenant_id)
    try:
        rows = await load_rows()
        return {"tenant": _tenant_id.get(), "rows": rows}
    finally:
        _tenant_id.reset(token)
```

## Fix safety
No automatic fix: the ContextVar's lifetime (set/reset) has to be chosen.

## Source
PEP 567 ("Thread-local variables are insufficient for asynchronous tasks");
raia-live/amfs#191.
"""

    def check(self, facts):
        tls = _thread_locals(facts)
        if not tls:
            return
        async_only = async_only_functions(facts)
        for node in facts.nodes(ast.Attribute):
            d = facts.dotted(node.value)
            if d not in tls:
                continue
            fn = facts.enclosing_function(node)
            if fn is None:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in _locals(facts, fn):
                continue
            if isinstance(fn, ast.AsyncFunctionDef):
                where = f"`async def {fn.name}`"
            elif id(fn) in async_only:
                where = f"`{fn.name}()`, which only async code calls"
            else:
                continue
            verb = "written" if isinstance(node.ctx, (ast.Store, ast.Del)) else "read"
            yield facts.finding(self, node, f"thread-local `{d}` {verb} in {where}: all tasks on the event "
                                "loop thread share it (use a ContextVar)")
        for call in facts.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id in ("getattr", "setattr", "hasattr", "delattr")
                    and call.args and facts.dotted(call.args[0]) in tls):
                continue
            fn = facts.enclosing_function(call)
            if fn is None or not (isinstance(fn, ast.AsyncFunctionDef) or id(fn) in async_only):
                continue
            d = facts.dotted(call.args[0])
            verb = "written" if call.func.id in ("setattr", "delattr") else "read"
            yield facts.finding(self, call, f"thread-local `{d}` {verb} in `{fn.name}`, which runs on the event "
                                "loop: all tasks share it (use a ContextVar)")


# ---------------------------------------------------------------- CTX205
_TASK_FACTORIES = {"asyncio.create_task", "asyncio.ensure_future", "asyncio.tasks.create_task",
                   "asyncio.tasks.ensure_future"}


def _is_task_call(facts, call: ast.AST) -> bool:
    if not isinstance(call, ast.Call):
        return False
    q = facts.qualname(call.func) or ""
    if q in _TASK_FACTORIES:
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr == "create_task":
        recv = call.func.value
        if isinstance(recv, ast.Call):
            rq = facts.qualname(recv.func) or ""
            return rq.endswith(("get_running_loop", "get_event_loop"))
        return "loop" in (facts.dotted(recv) or "").split(".")[-1].lower()
    return False


def _long_lived_class(facts, cls: ast.ClassDef | None) -> bool:
    if cls is None:
        return False
    low = cls.name.lower()
    if any(w in low for w in LONG_LIVED_CLASS_WORDS):
        return True
    for vals in facts.module_assignments.values():
        for v in vals:
            if isinstance(v, ast.Call) and facts.dotted(v.func) == cls.name:
                return True
    return False


def _request_scope(facts, fn, call: ast.AST, depth: int = 0) -> str | None:
    """Why `fn` (at `call`) runs inside one request's Context, else None.

    A helper that starts the task lazily (`self._ensure_started()`) is in a request
    scope when a request-scoped function of the same file calls it (two levels).
    """
    direct = _direct_request_scope(facts, fn, call)
    if direct or depth >= 2:
        return direct
    for c in facts.nodes(ast.Call):
        f = c.func
        if _last(f) != fn.name:
            continue
        if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and f.value.id in ("self", "cls")):
            if sum(1 for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef) if d.name == fn.name) != 1:
                continue  # `obj.m()` resolves by name only when one def of that name exists
        caller = facts.enclosing_function(c)
        if caller is None or caller is fn:
            continue
        why = _request_scope(facts, caller, c, depth + 1)
        if why:
            return f"`{fn.name}()`, called from {why}"
    return None


def _direct_request_scope(facts, fn, call: ast.AST) -> str | None:
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in _ROUTE_DECORATORS:
            return f"route handler `{fn.name}`"
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
    if _request_params(facts, fn) or any(p in _REQUEST_PARAM_NAMES for p in params):
        return f"request handler `{fn.name}`"
    ids = [p for p in params if p in facts.scope_id_names]
    if ids:
        return f"`{fn.name}`, which serves one request (`{ids[0]}`)"
    for a in facts.ancestors(call):
        if a is fn:
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                e = item.context_expr
                if isinstance(e, ast.Call) and _last(e.func) in ("start_as_current_span", "start_span", "use_span"):
                    return "a span"
    for n in facts.walk(fn):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set"
                and len(n.args) == 1 and facts.is_contextvar(n.func.value) and (n.lineno, n.col_offset) < (call.lineno, call.col_offset)):
            return f"`{fn.name}` after `{facts.dotted(n.func.value)}.set()`"
    return None


def _runs_forever(facts, call: ast.Call, fn) -> bool:
    """Is the coroutine handed to the task a loop (`while ...:` in its body): a background task?"""
    if not call.args or not isinstance(call.args[0], ast.Call):
        return False
    f = call.args[0].func
    name = _last(f)
    cands = [d for d in facts.nodes(ast.AsyncFunctionDef) if d.name == name]
    if isinstance(f, ast.Attribute):
        cls = facts.enclosing_class(fn)
        cands = [d for d in cands if facts.enclosing_class(d) is cls]
    return len(cands) >= 1 and all(any(isinstance(n, ast.While) for n in facts.walk(d)) for d in cands)


def _last(expr: ast.AST) -> str:
    return expr.attr if isinstance(expr, ast.Attribute) else getattr(expr, "id", "")


class LongLivedTaskInheritsRequestContext(Rule):
    code = "CTX205"
    name = "long-lived-task-inherits-request-context"
    summary = "A long-lived task created inside a request scope without `context=`: it keeps that request's contextvars."
    tokens = ("create_task", "ensure_future")
    doc = """\
## What it does
Flags a task created with `asyncio.create_task`/`ensure_future`/`loop.create_task`
without `context=` and stored where it outlives the request — a module global
(`global X`), a class attribute, or an attribute of a long-lived object (an
engine, server, manager, client, ...) — when the creating function runs inside a
request: a route handler, a function taking the request or a request/tenant id,
a `with tracer.start_as_current_span(...)` block, or after a `ContextVar.set()`.
A task awaited or cancelled in the same function is not long-lived and is fine.

## Why is this bad
A task copies the *current* Context when it is created. The background loop
started lazily by the first request (an output handler, a batcher, a cache
sweeper) keeps that request's contextvars — its tenant, request id, current
span — for the life of the process: every later log line and span is
attributed to the first request, and its objects are never freed.

## Example
```python
async def generate(self, request_id, prompt):
    if self._output_task is None:
        self._output_task = asyncio.create_task(self._output_loop())
    ...
```

## Use instead
```python
async def generate(self, request_id, prompt):
    if self._output_task is None:
        self._output_task = asyncio.create_task(self._output_loop(),
                                                context=contextvars.Context())
    ...
```
or start the loop at startup, outside any request.

## Fix safety
No automatic fix (`context=` needs Python 3.11; on older versions start the task
from `contextvars.Context().run(...)`).

## Source
Python docs, `asyncio.create_task(..., context=None)` and PEP 567 ("tasks
capture the current context"); the vLLM/OpenTelemetry reports of background
loops whose spans were parented to the first request.
"""

    def check(self, facts):
        for call in facts.nodes(ast.Call):
            if not _is_task_call(facts, call) or any(k.arg == "context" for k in call.keywords):
                continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            for target in self._stores(facts, call, fn):
                where = _store_kind(facts, target, fn)
                if where is None and isinstance(target, ast.Attribute) and facts.dotted(target.value) == _first_param(fn):
                    cls = facts.enclosing_class(fn)
                    if _long_lived_class(facts, cls):
                        where = f"`{facts.dotted(target)}` of long-lived `{cls.name}`"
                    elif _runs_forever(facts, call, fn):
                        where = f"`{facts.dotted(target)}` (the task runs a `while` loop)"
                if where is None:
                    continue
                if self._awaited_here(facts, fn, facts.dotted(target)):
                    continue
                scope = _request_scope(facts, fn, call)
                if scope is None:
                    continue
                yield facts.finding(self, target, f"task stored in {where} is created inside {scope} without "
                                    "`context=`: it keeps that request's contextvars for its whole life "
                                    "(pass `context=contextvars.Context()`)")

    @staticmethod
    def _stores(facts, call, fn):
        """Targets the task ends up in: `X = create_task()`, or `t = create_task(); X = t`."""
        parent = facts.parents.get(call)
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            for t in targets:
                if isinstance(t, ast.Name) and t.id not in _globals_of(facts, fn):
                    for n in facts.walk(fn):
                        if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == t.id
                                and (n.lineno, n.col_offset) > (parent.lineno, parent.col_offset)):
                            yield from n.targets
                else:
                    yield t

    @staticmethod
    def _awaited_here(facts, fn, name: str | None) -> bool:
        if not name:
            return False
        for n in facts.walk(fn):
            if isinstance(n, ast.Await) and name in {facts.dotted(x) for x in ast.walk(n.value)
                                                     if isinstance(x, (ast.Name, ast.Attribute))}:
                return True
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "cancel"
                    and facts.dotted(n.func.value) == name):
                return True
        return False
