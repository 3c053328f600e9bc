"""Streaming responses: which code runs as a response stream, and what it holds.

Facts:
    streaming_functions(facts) -> {id(def): Stream}
        The defs of this module that run as a response stream:
        - "generator": a generator (sync or async) whose call is handed to a
          streaming response (`STREAMING_RESPONSES`: Starlette/FastAPI
          `StreamingResponse`, sse-starlette `EventSourceResponse`, Django
          `StreamingHttpResponse`, Flask `stream_with_context`/`Response`, ...)
          directly, through a local name, or returned from a route handler;
        - "writer": an aiohttp handler that prepares a `web.StreamResponse` and
          writes to it in a loop (each `await resp.write()` is where a gone
          client raises).
        `Stream.points` are the places a disconnect surfaces (the `yield`s, or the
        writes); `Stream.handler`/`Stream.response` the def and the response call
        that start the stream ("generator" only).
    acquisitions(facts, fn, graph) -> [Acquire]
        The per-request resources `fn` takes, each with how it is released:
        a slot, lock or semaphore (`await sem.acquire()`, `await slots.acquire(rid)`;
        held only where the same function releases it: `sem.release()`), a pooled
        connection (`conn = await pool.acquire()`, `pool.getconn()`), an upstream streaming
        response (`client.send(req, stream=True)`, any call with `stream=True`,
        an aiohttp `ClientSession` request not entered with `async with`), and a
        registry entry (an insertion into a long-lived container, directly or by a
        helper of this module). Spans, ContextVar tokens and OpenTelemetry attach
        tokens are other rules' resources (CTX105, CTX103/CTX109, CTX104) and are
        never returned here.
    releases_of(facts, fn, acq, graph) -> [ast.AST]
        The nodes inside `fn` (nested defs included) that release `acq`.
    escapes(facts, fn, acq, releases_here) -> bool
        Is the resource handed on (returned, yielded, stored; passed to a call
        only when `fn` does not release it itself)?

Sources: Starlette "StreamingResponse" and "BackgroundTask"; sse-starlette;
aiohttp "Streaming response" and client reference (`ClientResponse.release`);
httpx "Streaming responses" (`client.send(request, stream=True)` must be closed
with `aclose()`); Django `StreamingHttpResponse`; Flask "Streaming contents".
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.calls import CallGraph, call_graph
from ctxlint.semantic.python.cleanup import (
    is_contextmanager,
    is_generator,
    last_name,
    pos,
    yields,
)

#: Response classes/functions that consume a generator as the response body:
#: last component of the callee -> the modules it must come from (empty: any).
STREAMING_RESPONSES: dict[str, tuple[str, ...]] = {
    "StreamingResponse": (),            # starlette.responses / fastapi.responses
    "EventSourceResponse": (),          # sse_starlette.sse
    "StreamingHttpResponse": (),        # django.http
    "stream_with_context": (),          # flask
    "Response": ("flask", "werkzeug", "quart"),
    "Stream": ("litestar",),
}
#: aiohttp's streaming response class (aiohttp.web.StreamResponse) and aiohttp-sse.
WRITER_RESPONSES = frozenset({"StreamResponse", "EventSourceResponse"})
#: Route decorators (`@app.get(...)`, `@router.post(...)`, `@bp.route(...)`) of
#: FastAPI/Starlette, Flask, Quart, Sanic, Litestar.
ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "route", "api_route", "websocket"})
#: aiohttp ClientSession request methods (awaited without `async with` they return a
#: response that holds a pooled connection until `release()`).
SESSION_REQUESTS = frozenset({"get", "post", "put", "patch", "delete", "request", "head", "options"})
#: HTTP/LLM client calls that, given `stream=True`, return an open streaming response:
#: httpx `Client.send`/`request`, requests `get`/`post`/`request`/`Session.*`,
#: the OpenAI/Anthropic SDKs' `create(..., stream=True)`.
UPSTREAM_STREAM_CALLS = frozenset({"send", "request", "get", "post", "put", "patch", "delete", "create"})
#: Methods that release the object they are called on (a response, a connection, a slot).
SELF_RELEASES = frozenset({"release", "close", "aclose"})
#: Calls that release the resource passed to them (`pool.release(conn)`, `putconn`).
ARG_RELEASES = frozenset({"release", "putconn", "checkin", "put_connection", "return_connection"})


class Stream:
    """A def that runs as a response stream (see the module docstring)."""

    __slots__ = ("fn", "kind", "points", "handler", "response", "gen_call")

    def __init__(self, fn, kind, points, handler=None, response=None, gen_call=None):
        self.fn = fn
        self.kind = kind
        self.points = points
        self.handler = handler
        self.response = response
        self.gen_call = gen_call


class Acquire:
    """A per-request resource a function takes.

    Attributes:
        node: the acquiring call (where findings point).
        stmt: the statement holding it.
        kind: "slot" | "connection" | "upstream" | "registry".
        receiver: dotted text of the object acquired from (`pool`, `self._sem`), or None.
        name: the local name the resource is bound to, or None.
        container: the `LongLivedContainer` for "registry".
        what: short text for messages.
    """

    __slots__ = ("node", "stmt", "kind", "receiver", "name", "container", "what")

    def __init__(self, node, stmt, kind, receiver=None, name=None, container=None, what=""):
        self.node, self.stmt, self.kind = node, stmt, kind
        self.receiver, self.name, self.container, self.what = receiver, name, container, what


def _callee_matches(facts, func: ast.AST) -> bool:
    q = facts.qualname(func) or ""
    last = q.split(".")[-1]
    mods = STREAMING_RESPONSES.get(last)
    if mods is None:
        return False
    return not mods or any(q.startswith(m + ".") for m in mods)


def is_route_handler(facts, fn: ast.AST) -> bool:
    """Decorated like a web route (`@app.get("/x")`, `@router.post(...)`, `@bp.route(...)`)."""
    for d in getattr(fn, "decorator_list", ()):
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_DECORATORS:
            return True
    return False


def streaming_functions(facts) -> dict[int, Stream]:
    """{id(def): Stream} for the defs of this module that run as a response stream."""
    return facts.memo("streams.functions", lambda: _compute(facts))


def _generator_of(facts, graph: CallGraph, expr: ast.AST, fn) -> tuple[ast.AST, ast.Call] | None:
    """(generator def, its call) when `expr` is a call of a generator of this module,
    directly or through a local name bound to one, or wrapped in a streaming wrapper."""
    if isinstance(expr, ast.Name) and fn is not None:
        for n in facts.walk(fn):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets):
                got = _generator_of(facts, graph, n.value, None)
                if got:
                    return got
        return None
    if isinstance(expr, ast.Call):
        t = graph.resolve(expr)
        if t is not None and is_generator(facts, t) and not is_contextmanager(facts, t):
            return t, expr
        if _callee_matches(facts, expr.func) and expr.args:  # Response(stream_with_context(gen()))
            return _generator_of(facts, graph, expr.args[0], fn)
    return None


def _compute(facts) -> dict[int, Stream]:
    graph = call_graph(facts)
    out: dict[int, Stream] = {}
    text = facts.text
    responses = any(name in text for name in STREAMING_RESPONSES)
    writers = any(name in text for name in WRITER_RESPONSES)
    for call in (facts.nodes(ast.Call) if responses else ()):
        if not _callee_matches(facts, call.func):
            continue
        body = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg in ("content", "response", "body")), None)
        if body is None:
            continue
        handler = facts.enclosing_function(call)
        got = _generator_of(facts, graph, body, handler)
        if got is None:
            continue
        gen, gen_call = got
        if id(gen) not in out:
            out[id(gen)] = Stream(gen, "generator", yields(facts, gen), handler, call, gen_call)
    for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        if is_route_handler(facts, fn):
            for n in facts.walk(fn):
                if isinstance(n, ast.Return) and n.value is not None:
                    got = _generator_of(facts, graph, n.value, fn)
                    if got and id(got[0]) not in out:
                        out[id(got[0])] = Stream(got[0], "generator", yields(facts, got[0]), fn, None, got[1])
        if writers and isinstance(fn, ast.AsyncFunctionDef) and id(fn) not in out:
            writes = _writer_points(facts, fn)
            if writes:
                out[id(fn)] = Stream(fn, "writer", writes)
    return out


def _writer_points(facts, fn) -> list[ast.AST]:
    """`await resp.write(...)` inside a loop, where `resp` is an aiohttp
    `StreamResponse` the function prepares."""
    resp_names: set[str] = set()
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name):
            q = facts.qualname(n.value.func) or ""
            if q.split(".")[-1] in WRITER_RESPONSES and ("aiohttp" in q or "web." in q or "sse" in q):
                resp_names.add(n.targets[0].id)
    if not resp_names:
        return []
    out = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Await) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute) \
                and n.value.func.attr in ("write", "send") and isinstance(n.value.func.value, ast.Name) \
                and n.value.func.value.id in resp_names:
            if any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in facts.ancestors(n)
                   if a is not fn and fn in facts.ancestors(a)):
                out.append(n)
    return out


# ------------------------------------------------------------- acquisitions
def _is_aiohttp_session(facts, recv: ast.AST, fn) -> bool:
    """Is `recv` an `aiohttp.ClientSession` (by the value assigned to it, or its annotation)?"""
    d = facts.dotted(recv)
    if not d:
        return False
    scopes = [fn, facts.tree] if fn is not None else [facts.tree]
    cls = facts.enclosing_class(recv)
    if cls is not None and d.startswith("self."):
        scopes = [cls]
    for scope in scopes:
        for n in facts.walk(scope, into_defs=scope is cls):
            if isinstance(n, (ast.Assign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(facts.dotted(t) == d for t in targets):
                    v = n.value if isinstance(n.value, ast.Call) else None
                    ann = getattr(n, "annotation", None)
                    for e in (v.func if v is not None else None, ann):
                        if e is not None and "ClientSession" in (facts.qualname(e) or ""):
                            return True
            elif isinstance(n, ast.arg) and n.arg == d and n.annotation is not None:
                if "ClientSession" in (facts.qualname(n.annotation) or facts.segment(n.annotation)):
                    return True
    return False


def acquisitions(facts, fn, graph: CallGraph | None = None) -> list[Acquire]:
    """The per-request resources `fn`'s own body takes (see the module docstring),
    in source order. Calls used as a `with`/`async with` item are not acquisitions."""
    graph = graph or call_graph(facts)
    out: list[Acquire] = []
    for n in facts.walk(fn):
        if not isinstance(n, ast.Call):
            continue
        holder = facts.parents.get(n)
        if isinstance(holder, ast.Await):
            outer = facts.parents.get(holder)
        else:
            outer = holder
        if isinstance(outer, ast.withitem):
            continue
        stmt = facts.enclosing_statement(n)
        name = None
        if isinstance(outer, ast.Assign) and len(outer.targets) == 1 and isinstance(outer.targets[0], ast.Name):
            name = outer.targets[0].id
        elif isinstance(outer, ast.AnnAssign) and isinstance(outer.target, ast.Name):
            name = outer.target.id
        f = n.func
        if isinstance(f, ast.Attribute) and f.attr == "acquire":
            # `await sem.acquire()`, `conn = await pool.acquire()`, `lease = await
            # slots.acquire(rid)`: what it holds shows in its release (`releases_of`);
            # an `acquire` nothing in the stream releases (a rate limiter's token) is not held
            recv = facts.dotted(f.value)
            if recv and (isinstance(outer, ast.Expr) or name):
                kind = "connection" if name else "slot"
                out.append(Acquire(n, stmt, kind, recv, name, what=f"{recv}.acquire()"))
            continue
        if isinstance(f, ast.Attribute) and f.attr == "getconn" and name:
            out.append(Acquire(n, stmt, "connection", facts.dotted(f.value), name, what=f"{facts.dotted(f.value)}.getconn()"))
            continue
        if name and last_name(f) in UPSTREAM_STREAM_CALLS and graph.resolve(n) is None and any(
                k.arg == "stream" and isinstance(k.value, ast.Constant) and k.value.value is True
                for k in n.keywords):
            out.append(Acquire(n, stmt, "upstream", facts.dotted(f) if isinstance(f, ast.Attribute) else None, name,
                               what=f"{facts.segment(f) or 'the call'}(..., stream=True)"))
            continue
        if name and isinstance(holder, ast.Await) and isinstance(f, ast.Attribute) and f.attr in SESSION_REQUESTS \
                and _is_aiohttp_session(facts, f.value, fn):
            out.append(Acquire(n, stmt, "upstream", facts.dotted(f.value), name,
                               what=f"{facts.segment(f)}(...) without `async with`"))
            continue
        if name and stmt is not None:
            handed_back = _handed_back(facts, fn, n, name)
            if handed_back is not None:
                # by value: what the call gave is given back to where it came from later
                # in the stream (`blocks = allocator.reserve(n)` ... `allocator.free(blocks)`),
                # or closed (`fh = path.open("rb")` ... `fh.close()`)
                kind, recv = handed_back
                out.append(Acquire(n, stmt, kind, recv, name, what=f"{facts.segment(f) or 'the call'}()"))
                continue
    # registry entries: insertions into long-lived containers, directly or through helpers
    for c in facts.long_lived_containers:
        for site in c.inserts:
            if site.function is fn and site.key is not None:
                out.append(Acquire(site.node, facts.enclosing_statement(site.node), "registry", c.name, None, c,
                                   what=f"entry in `{c.name}`"))
    for call, reg in graph.registrations_by_calls(fn):
        if reg.key is not None and reg.params:
            out.append(Acquire(call, facts.enclosing_statement(call), "registry", reg.container.name, None,
                               reg.container, what=f"entry in `{reg.container.name}` (by `{facts.segment(call.func)}`)"))
    out.sort(key=lambda a: pos(a.node))
    return out


def releases_of(facts, fn, acq: Acquire, graph: CallGraph | None = None) -> list[ast.AST]:
    """Nodes in `fn` (nested defs included) that release `acq`."""
    graph = graph or call_graph(facts)
    out = []
    for n in facts.walk(fn, into_defs=True):
        if acq.kind == "registry":
            if any(r.node is n for r in acq.container.removals):
                out.append(n)
            elif isinstance(n, ast.Call) and graph.removes_from(n, acq.container):
                out.append(n)
            continue
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        if not isinstance(f, ast.Attribute):
            continue
        recv = facts.dotted(f.value)
        if acq.name and recv == acq.name and f.attr in SELF_RELEASES:
            out.append(n)
        elif acq.name and f.attr in ARG_RELEASES and any(isinstance(a, ast.Name) and a.id == acq.name for a in n.args):
            out.append(n)
        elif acq.kind in ("slot", "connection") and recv == acq.receiver and f.attr == "release":
            out.append(n)  # `sem.release()` after `ok = await sem.acquire()`; `slots.release(rid)`
        elif acq.kind == "lease" and recv == acq.receiver and any(
                isinstance(a, ast.Name) and a.id == acq.name for a in (*n.args, *(k.value for k in n.keywords))):
            out.append(n)  # `allocator.free(blocks)` after `blocks = allocator.reserve(n)`
    return out


def _handed_back(facts, fn, call: ast.Call, name: str) -> tuple[str, str | None] | None:
    """Is the value `name = call` given back later in `fn`: passed to another method of
    the receiver it came from (`blocks = allocator.reserve(n)` ... `allocator.free(blocks)`:
    ("lease", "allocator")), or closed itself (`fh = path.open("rb")` ... `fh.close()`:
    ("handle", None))? A value given back is held until then."""
    f = call.func
    recv = facts.dotted(f.value) if isinstance(f, ast.Attribute) else None
    if recv and recv.split(".")[0] in facts.imports:
        recv = None  # a module's functions (`json.loads` ... `json.dumps(x)`) lend nothing
    for n in facts.walk(fn):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)) or pos(n) <= pos(call):
            continue
        r = facts.dotted(n.func.value)
        if r == name and n.func.attr in SELF_RELEASES and not n.args:
            return "handle", None
        if recv and r == recv and n.func.attr != f.attr and recv not in ("self", "cls") and any(
                isinstance(a, ast.Name) and a.id == name for a in (*n.args, *(k.value for k in n.keywords))):
            return "lease", recv
    return None


def escapes(facts, fn, acq: Acquire, releases_here: bool = False) -> bool:
    """Is the resource handed on from `fn` (returned, yielded, stored, passed to a
    call other than its own release) so someone else owns it?

    With `releases_here` (`fn` itself releases the resource: `pool.release(slot)`,
    `conn.close()`), passing it to a call is using it, not handing it on: the
    call that is given the slot (`engine.generate(prompt, slot=slot)`) runs while
    `fn` still holds it, and `fn` stays the one that gives it back. Only a store,
    a `return`/`yield` or a container literal hands it on then."""
    if not acq.name:
        return False
    for n in facts.walk(fn, into_defs=True):
        if not (isinstance(n, ast.Name) and n.id == acq.name and isinstance(n.ctx, ast.Load)):
            continue
        p = facts.parents.get(n)
        if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom, ast.List, ast.Tuple, ast.Dict, ast.Set)):
            return True
        if isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is n:
            return True
        if isinstance(p, ast.Call) and (n in p.args or any(k.value is n for k in p.keywords)):
            if last_name(p.func) in ARG_RELEASES or releases_here:
                continue
            return True
        if isinstance(p, ast.keyword):
            if releases_here and isinstance(facts.parents.get(p), ast.Call):
                continue
            return True
        if isinstance(p, ast.Starred) and releases_here:
            continue
    return False


class StreamLeak:
    """A resource a response stream takes before its first disconnect point and does
    not release on every way out (CTX110's first shape).

    Attributes:
        stream: the `Stream`.
        acq: the `Acquire`.
        releases: the release nodes inside the stream (all unprotected, the last one
            after the first disconnect point), or [] for an upstream response never closed.
    """

    __slots__ = ("stream", "acq", "releases")

    def __init__(self, stream, acq, releases):
        self.stream, self.acq, self.releases = stream, acq, releases


def stream_leaks(facts) -> list[StreamLeak]:
    """Resources held across a stream's disconnect points and released only on the
    normal path (or, for an upstream response, never): per stream, each acquisition
    before the first `yield`/write that is not protected, not handed on, and whose
    releases are neither in `finally`/an except-all handler nor a `with` item.
    CTX110 reports these; CTX108 leaves them to it (one code per resource)."""
    def compute():
        from ctxlint.semantic.python.cleanup import in_with_item, protected
        graph = call_graph(facts)
        out: list[StreamLeak] = []
        for s in streaming_functions(facts).values():
            if not s.points:
                continue
            first = min(pos(p) for p in s.points)
            for acq in acquisitions(facts, s.fn, graph):
                if pos(acq.node) >= first or protected(facts, acq.node, s.fn):
                    continue
                rels = releases_of(facts, s.fn, acq, graph)
                if escapes(facts, s.fn, acq, releases_here=bool(rels)):
                    continue
                if any(protected(facts, r, s.fn) or in_with_item(facts, r) for r in rels):
                    continue
                if not rels:
                    if acq.kind == "upstream":
                        out.append(StreamLeak(s, acq, []))
                    continue  # other kinds: released elsewhere (a callback, the caller)
                if max(pos(r) for r in rels) < first:
                    continue  # released before streaming starts
                out.append(StreamLeak(s, acq, rels))
        return out
    return facts.memo("streams.leaks", compute)
