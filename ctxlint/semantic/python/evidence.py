"""Evidence that makes a finding manifest (high) or latent (low): entry points and
the paths that reach a function from one.

This is the Python half of the manifest/latent model (Infer Pulse's manifest vs.
latent issues; CodeQL's query precision): a finding whose harm depends on repetition
(a leak per call) is manifest only when the project shows the repetition, that is,
when the code is reached from an **entry point**, a function that the framework or the
runtime calls once per request, message or job:

* a web route or endpoint of FastAPI, Starlette, Flask, Quart, Sanic, Litestar, aiohttp
  (decorators and registration calls, `requests.is_route_handler`), Django URLconf
  registrations (`django.urls.path(route, view)`);
* a request-handler method of a framework class, by the base class the module imports:
  Starlette `HTTPEndpoint`/`WebSocketEndpoint`, Django `View`, Tornado `RequestHandler`,
  aiohttp `web.View`, `http.server.BaseHTTPRequestHandler` (`do_*`),
  `socketserver.BaseRequestHandler.handle`;
* a gRPC servicer method: a method of a class whose base comes from a generated
  `*_pb2_grpc` module, or a callable handed to a generic method handler
  (`grpc.unary_unary_rpc_method_handler(behaviour)`), directly or through a helper
  whose function summary passes its parameter there;
* an ASGI application or middleware `__call__(self, scope, receive, send)` (the ASGI
  spec's callable shape), Starlette `BaseHTTPMiddleware.dispatch`, and a Django or WSGI
  middleware (`__init__` keeps the next handler, `__call__(request)` calls it with the
  request: the protocol of Django's docs);
* a task, thread or executor job: a def whose call is handed to `asyncio.create_task`,
  `ensure_future`, `TaskGroup.create_task`, `gather`, or that is handed to
  `threading.Thread(target=...)`, `Executor.submit`, `loop.run_in_executor`,
  `asyncio.to_thread`; a Celery/Dramatiq/Huey/Ray/Faust/FastStream task, actor or
  subscriber decorator.

Reach is computed over the module's call graph (`calls.call_graph`, resolution by
binding) up to `MAX_DEPTH` calls, breadth first, so the trace is a shortest path.
Every table below is API knowledge (framework and runtime entry points), not an
author's vocabulary: no class, method or variable name of the project decides here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ctxlint.semantic.python.syntax import FunctionNode

if TYPE_CHECKING:
    from ctxlint.findings import TraceStep
    from ctxlint.semantic.python.facts import PythonFacts

#: How many call edges a reach search follows from the function to an entry point.
MAX_DEPTH = 6

#: Decorators (qualname suffix) that make a def a task, actor or message consumer run by
#: a worker once per message. Sources: Celery `app.task`/`shared_task`, Dramatiq
#: `dramatiq.actor`, Huey `huey.task`/`db_task`, Ray `ray.remote`, Faust `app.agent`,
#: FastStream `broker.subscriber`, arq worker functions are registered by list (not here).
TASK_DECORATORS = frozenset({"task", "shared_task", "actor", "remote", "agent", "subscriber", "db_task",
                             "periodic_task"})
#: Packages whose decorators above are task runners (the decorator must come from one).
TASK_PACKAGES = frozenset({"celery", "dramatiq", "huey", "ray", "faust", "faststream", "rq"})
#: Framework base classes whose methods the framework calls per request:
#: base qualname suffix -> the methods that are handlers (None: any public method
#: named after an HTTP verb, as Starlette/Django/Tornado/aiohttp dispatch by verb).
HANDLER_BASES: dict[str, frozenset[str] | None] = {
    "starlette.endpoints.HTTPEndpoint": None,
    "starlette.endpoints.WebSocketEndpoint": frozenset({"on_connect", "on_receive", "on_disconnect"}),
    "django.views.View": None,
    "django.views.generic.View": None,
    "django.views.generic.base.View": None,
    "rest_framework.views.APIView": None,
    "tornado.web.RequestHandler": None,
    "aiohttp.web.View": None,
    "http.server.BaseHTTPRequestHandler": frozenset({"do_GET", "do_POST", "do_PUT", "do_DELETE", "do_PATCH",
                                                     "do_HEAD"}),
    "socketserver.BaseRequestHandler": frozenset({"handle"}),
    "socketserver.StreamRequestHandler": frozenset({"handle"}),
    "starlette.middleware.base.BaseHTTPMiddleware": frozenset({"dispatch"}),
}
#: HTTP verbs as handler method names (Starlette HTTPEndpoint, Django View, Tornado,
#: aiohttp web.View dispatch a request to the method named after its verb).
HTTP_VERB_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
#: Calls that run the coroutine made by their first argument as a task.
TASK_SPAWNERS = frozenset({"asyncio.create_task", "asyncio.ensure_future", "create_task", "ensure_future",
                           "asyncio.gather", "asyncio.run_coroutine_threadsafe", "start_soon"})
#: Calls that run a callable argument on a thread or in an executor:
#: qualname suffix -> the index of the callable (keyword `target`/`fn`/`func` too).
CALLABLE_RUNNERS = {"Thread": None, "submit": 0, "run_in_executor": 1, "to_thread": 0, "run_sync": 0,
                    "start_new_thread": 0, "Process": None, "call_soon_threadsafe": 0, "call_soon": 0}
#: gRPC's generic method handlers: the behaviour (argument 0) runs once per RPC
#: (grpcio `grpc.unary_unary_rpc_method_handler` and its three siblings).
GRPC_METHOD_HANDLERS = frozenset({"grpc.unary_unary_rpc_method_handler", "grpc.unary_stream_rpc_method_handler",
                                  "grpc.stream_unary_rpc_method_handler", "grpc.stream_stream_rpc_method_handler"})
#: Django URLconf registrations: `path(route, view)`.
DJANGO_ROUTES = frozenset({"django.urls.path", "django.urls.re_path", "django.conf.urls.url"})


def _decorator_entry(facts: "PythonFacts", fn) -> str | None:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        q = facts.qualname(target) or facts.dotted(target) or ""
        parts = q.split(".")
        if parts[-1] in TASK_DECORATORS and (parts[0] in TASK_PACKAGES or _receiver_from(facts, target,
                                                                                        TASK_PACKAGES)):
            return f"`{fn.name}` is a {parts[0] if parts[0] in TASK_PACKAGES else 'worker'} task (`@{q}`): " \
                   "it runs once per message"
    return None


def _receiver_from(facts: "PythonFacts", target: ast.AST, packages: frozenset[str]) -> bool:
    """Is `target` (`app.task`) an attribute of a module global built by a call into one of
    `packages` (`app = Celery(...)`, `broker = KafkaBroker()`)?"""
    if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
        return False
    for v in facts.module_assignments.get(target.value.id, ()):
        if isinstance(v, ast.Call):
            q = facts.qualname(v.func) or ""
            if q.split(".")[0] in packages:
                return True
    return False


def _class_entry(facts: "PythonFacts", fn) -> str | None:
    cls = facts.parents.get(fn)
    if not isinstance(cls, ast.ClassDef):
        return None
    if fn.name == "__call__" and isinstance(fn, ast.AsyncFunctionDef) and len(fn.args.args) == 4:
        return f"`{cls.name}.__call__(scope, receive, send)` is an ASGI application: it runs once per request"
    if fn.name in ("__call__", "process_request", "process_view", "__acall__") and _django_middleware(cls):
        return f"`{cls.name}.{fn.name}` is a Django middleware: it runs once per request"
    for base in cls.bases:
        q = facts.qualname(base) or ""
        module = q.rsplit(".", 1)[0] if "." in q else ""
        if module.endswith("_pb2_grpc") and not fn.name.startswith("_"):
            return f"`{cls.name}.{fn.name}` is a gRPC servicer method: it runs once per RPC"
        for known, methods in HANDLER_BASES.items():
            if q == known or q.endswith("." + known.rsplit(".", 1)[-1]) and q.split(".")[0] == known.split(".")[0]:
                if (methods is None and fn.name in HTTP_VERB_METHODS) or (methods and fn.name in methods):
                    return f"`{cls.name}.{fn.name}` handles a request for `{known}`: it runs once per request"
    return None


def _django_middleware(cls: ast.ClassDef) -> bool:
    """The middleware protocol of Django (and of WSGI/ASGI wrappers): `__init__` takes the
    next handler (`get_response`) and keeps it on `self`, and `__call__` calls it with the
    request it was given. Decided by that shape, not by the parameter's name."""
    init = next((i for i in cls.body if isinstance(i, ast.FunctionDef) and i.name == "__init__"), None)
    call = next((i for i in cls.body if isinstance(i, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and i.name == "__call__"), None)
    if init is None or call is None or len(init.args.args) < 2 or len(call.args.args) < 2:
        return False
    handler = init.args.args[1].arg
    kept = {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)
            and n.value.id == handler for t in n.targets
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == init.args.args[0].arg}
    request = call.args.args[1].arg
    me = call.args.args[0].arg
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in kept
               and isinstance(n.func.value, ast.Name) and n.func.value.id == me
               and any(isinstance(a, ast.Name) and a.id == request for a in n.args)
               for n in ast.walk(call))


def _spawned_entries(facts: "PythonFacts") -> dict[int, tuple[ast.AST, str]]:
    """id(def) -> (the spawning call, why), for defs this module runs as a task, thread or
    executor job."""
    def compute():
        from ctxlint.semantic.python.calls import call_graph
        graph = call_graph(facts)
        out: dict[int, tuple[ast.AST, str]] = {}
        rpc: list[tuple[ast.Call, ast.AST | None]] = []
        for call in facts.nodes(ast.Call):
            q = facts.qualname(call.func) or facts.dotted(call.func) or ""
            last = q.split(".")[-1]
            targets: list[ast.AST] = []
            if q in TASK_SPAWNERS or last in ("create_task", "ensure_future", "start_soon"):
                for a in call.args:
                    if isinstance(a, ast.Await):
                        a = a.value
                    if isinstance(a, ast.Call):
                        t = graph.resolve(a)
                        if t is not None:
                            out.setdefault(id(t), (call, f"`{_name(t)}` runs as a task (`{last}`)"))
                    elif last == "start_soon":
                        targets.append(a)
            if last in CALLABLE_RUNNERS:
                idx = CALLABLE_RUNNERS[last]
                if idx is not None and len(call.args) > idx:
                    targets.append(call.args[idx])
                targets += [k.value for k in call.keywords if k.arg in ("target", "fn", "func")]
            for t in targets:
                d = _def_of_callable(facts, graph, t, call)
                if d is not None:
                    out.setdefault(id(d), (call, f"`{_name(d)}` runs on a thread or executor (`{last}`)"))
            if q in GRPC_METHOD_HANDLERS and call.args:
                rpc.append((call, call.args[0]))
            if q in DJANGO_ROUTES and len(call.args) > 1:
                d = _def_of_callable(facts, graph, call.args[1], call)
                if d is not None:
                    out.setdefault(id(d), (call, f"`{_name(d)}` is a Django view (`{last}`): it runs once per request"))
        if rpc:
            # a behaviour handed to such a handler through a helper of this module
            # (`_unary(servicer.Embed)`: the helper's summary passes parameter 0 on)
            from ctxlint.semantic.python.summaries import summary
            for call in facts.nodes(ast.Call):
                t = graph.resolve(call)
                if t is None:
                    continue
                for i, outside in summary(facts, t).passes.items():
                    if any(q in GRPC_METHOD_HANDLERS and k == 0 for q, k in outside):
                        rpc.append((call, graph.arg_for(call, t, i)))
        for call, a in rpc:
            d = _def_of_callable(facts, graph, a, call) if a is not None else None
            if d is not None:
                out.setdefault(id(d), (call, f"`{_name(d)}` is a gRPC method handler: it runs once per RPC"))
        return out
    return facts.memo("evidence.spawned", compute)


def _def_of_callable(facts: "PythonFacts", graph, expr: ast.AST, at: ast.AST):
    """The def a callable expression (`worker`, `self._run`, `partial(f, x)`) names."""
    if isinstance(expr, ast.Call) and (facts.qualname(expr.func) or "").endswith("partial") and expr.args:
        expr = expr.args[0]
    if isinstance(expr, (ast.Name, ast.Attribute)):
        fake = ast.Call(func=expr, args=[], keywords=[])
        ast.copy_location(fake, at)
        # kept alive with the facts: the call graph memoizes resolution by `id(call)`, and a
        # freed fake's id would be reused by the next one (a stale answer)
        facts.memo("evidence.fake_calls", list).append(fake)
        facts.parents[fake] = facts.parents.get(at, at)
        try:
            return graph.resolve(fake)
        finally:
            facts.parents.pop(fake, None)
    return None


def _name(fn) -> str:
    return getattr(fn, "name", "<lambda>")


def entry_point(facts: "PythonFacts", fn) -> tuple[ast.AST, str] | None:
    """(node, why) when `fn` itself is an entry point (see the module docstring), else None."""
    if not isinstance(fn, FunctionNode):
        return None
    from ctxlint.semantic.python.requests import is_route_handler
    if is_route_handler(facts, fn):
        return fn, f"`{fn.name}` is a route handler: it runs once per request"
    why = _decorator_entry(facts, fn) or _class_entry(facts, fn)
    if why:
        return fn, why
    spawned = _spawned_entries(facts).get(id(fn))
    if spawned is not None:
        return spawned
    return None


def entry_reach(facts: "PythonFacts", fn) -> list[tuple[ast.AST, str]] | None:
    """The shortest path from an entry point to `fn`, as trace steps `(node, message)`
    (the entry point first, then each call down to `fn`), or None when no entry point of
    this module reaches `fn` within `MAX_DEPTH` calls. A def nested in another is reached
    when its parent is (it runs as part of the parent's call).

    Memoized per def; never raises on odd code.
    """
    if fn is None:
        return None
    memo = facts.memo("evidence.reach", dict)
    key = id(fn)
    if key in memo:
        return memo[key]
    memo[key] = None  # cycle guard
    result = _reach(facts, fn)
    memo[key] = result
    return result


#: At most this many other modules are parsed to find an entry point calling a def.
MAX_IMPORTERS = 24


def _cross_module(facts: "PythonFacts", fn) -> list | None:
    """Another module of the project that reaches `fn` from one of its entry points:
    a call there that resolves by its imports to `fn` (a top-level def of this module),
    or a method call on a value that module imports from this one, when that value is
    an instance of `fn`'s class (a module-level `x = Cls(...)`, or an accessor def that
    returns `Cls(...)` or a global bound to one). Returns trace steps as `TraceStep`s
    (they belong to the other file), or None. Looks only at files that spell `fn`'s name
    (`project_index.files_naming`), at most `MAX_IMPORTERS` of them."""
    from ctxlint.semantic.python import project_index as pi
    if not isinstance(fn, FunctionNode) or not facts.path:
        return None
    cls = facts.parents.get(fn)
    owners = _instance_names(facts, cls) if isinstance(cls, ast.ClassDef) else None
    if isinstance(cls, ast.ClassDef) and not owners:
        return None
    if not isinstance(cls, (ast.ClassDef, ast.Module)):
        return None
    files = _files_spelling(facts, fn.name)
    me = __import__("os").path.abspath(facts.path)
    for path in files[:MAX_IMPORTERS]:
        tree = pi._tree(path)
        if tree is None:
            continue
        try:
            other = pi.module_facts(facts, path, tree)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        for call in other.nodes(ast.Call):
            f = call.func
            hit = False
            if cls is facts.tree or isinstance(cls, ast.Module):
                if isinstance(f, (ast.Name, ast.Attribute)) and (getattr(f, "id", None) or getattr(f, "attr", None)) == fn.name:
                    d = pi.resolve_function(other, f)
                    hit = d is not None and d.name == fn.name and d.lineno == fn.lineno and \
                        _same_module(other, f, me)
            elif isinstance(f, ast.Attribute) and f.attr == fn.name:
                recv = f.value
                base = recv.func if isinstance(recv, ast.Call) else recv
                if isinstance(base, ast.Name) and base.id in owners and base.id in other.imports:
                    hit = _same_module(other, base, me)
            if not hit:
                continue
            caller = other.enclosing_function(call)
            if caller is None:
                continue
            path_steps = entry_reach(other, caller)
            if path_steps is None:
                continue
            steps = [other.step(n, m) for n, m in path_steps]
            steps.append(other.step(call, f"`{_name(caller)}` calls `{fn.name}` of {_file_name(facts.path)}"))
            return [_shown_relative(t, facts.path) for t in steps]
    return None


#: path -> (size, mtime_ns, identifiers): each module of a package is read once per
#: process however many findings ask which modules spell a name (no quadratic rescans).
_IDENTS: dict[str, tuple[int, int, frozenset]] = {}
_IDENT = __import__("re").compile(rb"[A-Za-z_][A-Za-z_0-9]*")


def _files_spelling(facts: "PythonFacts", name: str) -> list:
    """The other `.py` files of this file's package tree whose identifiers include `name`
    (`project_index._package_files` lists them and records the question, so a cached
    finding is re-checked when the package changes)."""
    from ctxlint.semantic.python import project_index as pi

    def compute():
        files = pi._package_files(facts, ("names", name), include_self=False) or []
        out = []
        for p in files:
            try:
                st = p.stat()
            except OSError:
                continue
            key = str(p)
            got = _IDENTS.get(key)
            if got is None or got[0] != st.st_size or got[1] != st.st_mtime_ns:
                try:
                    words = frozenset(_IDENT.findall(p.read_bytes()))
                except OSError:
                    continue
                if len(_IDENTS) > 20000:
                    _IDENTS.clear()
                got = _IDENTS[key] = (st.st_size, st.st_mtime_ns, words)
            if name.encode() in got[2]:
                out.append(p)
        return out
    return facts.memo(f"evidence.files_spelling:{name}", compute)


def _shown_relative(step, here: str):
    """`step` with its path spelled as this file's is: relative to the working directory
    when this file's path is relative."""
    import os
    from ctxlint.findings import TraceStep
    if os.path.isabs(here):
        return step
    try:
        rel = os.path.relpath(step.path)
    except ValueError:
        return step
    return TraceStep(rel, step.line, step.col, step.message)


def _file_name(path: str) -> str:
    """The file name of `path`, for trace messages."""
    return "`" + path.replace("\\", "/").rsplit("/", 1)[-1] + "`"


def _same_module(other: "PythonFacts", name: ast.AST, me: str) -> bool:
    """Does the imported `name` (or the root of `a.b`) in `other` come from the module at `me`?"""
    from ctxlint.semantic.python import project_index as pi
    import os
    root = name
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return False
    got = pi._imported_module(other, root)
    if got is None:
        qual = other.imports.get(root.id, "")
        loc = pi.locate_module(qual, __import__("pathlib").Path(os.path.abspath(other.path)).parent) if qual else None
        return loc is not None and os.path.abspath(str(loc)) == me
    return os.path.abspath(str(got[0])) == me


def _instance_names(facts: "PythonFacts", cls: ast.ClassDef) -> set[str]:
    """Top-level names of this module that hold the instance of `cls` other modules use:
    `x = Cls(...)` at module level, or a def returning `Cls(...)`, a global bound to one,
    or `cls`'s singleton (a metaclass-built class's call)."""
    out: set[str] = set()
    for name, vals in facts.module_assignments.items():
        if any(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls.name for v in vals):
            out.add(name)
    for st in facts.tree.body:
        if isinstance(st, FunctionNode):
            for r in ast.walk(st):
                if isinstance(r, ast.Return) and r.value is not None:
                    v = r.value
                    if (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls.name) or (
                            isinstance(v, ast.Name) and v.id in out):
                        out.add(st.name)
    return out


def _reach(facts: "PythonFacts", fn) -> list[tuple[ast.AST, str]] | None:
    from ctxlint.semantic.python.calls import call_graph
    graph = call_graph(facts)
    start = _outer_entry_scope(facts, fn)
    frontier = [(start, [])]
    seen = {id(start)}
    for _ in range(MAX_DEPTH + 1):
        nxt = []
        for f, path in frontier:
            hit = entry_point(facts, f)
            if hit is not None:
                return [hit, *reversed(path)]
            for call, caller in graph.callers(f):
                caller = _outer_entry_scope(facts, caller)
                if id(caller) in seen:
                    continue
                seen.add(id(caller))
                nxt.append((caller, [*path, (call, f"`{_name(caller)}` calls `{_name(f)}`")]))
        frontier = nxt
        if not frontier:
            break
    return None


def _outer_entry_scope(facts: "PythonFacts", fn):
    """`fn`, or, for a def nested in a function (a closure, a local callback) that is not
    itself an entry point, the nearest enclosing function that is or that may be reached."""
    cur = fn
    while True:
        if entry_point(facts, cur) is not None:
            return cur
        parent = facts.enclosing_function(cur)
        if parent is None or parent is cur:
            return cur
        cur = parent


def reach_trace(facts: "PythonFacts", fn) -> tuple[str, list]:
    """("high", steps) when an entry point reaches `fn`, else ("low", one step saying why
    the harm is latent). `steps` are `(node_or_line, message)` pairs for `facts.finding`."""
    path = entry_reach(facts, fn)
    if path is not None:
        return "high", path
    top = _outer_entry_scope(facts, fn) if fn is not None else None
    try:
        other = _cross_module(facts, top) if top is not None else None
    except (RecursionError, OSError, ValueError):
        other = None
    if other:
        return "high", other
    where = fn if fn is not None else 1
    return "low", [(where, f"no entry point of this module (route, handler, task, thread) reaches "
                           f"`{_name(fn)}`: the harm depends on callers the project does not show")]
