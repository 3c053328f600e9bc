"""CTX110 stream-response-not-closed: a response stream that releases its per-request
resource only on the normal path, or only where a never-started stream cannot run."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.cleanup import field_of, pos, protected
from ctxlint.semantic.python.streams import (
    acquisitions,
    releases_of,
    stream_leaks,
    streaming_functions,
)


class StreamResponseNotClosed(Rule):
    code = "CTX110"
    name = "stream-response-not-closed"
    summary = ("A response stream that releases its slot, connection, upstream response or registry "
               "entry only after its loop (or only in a generator that may never start).")
    tokens = ("yield", "StreamResponse", "EventSourceResponse")  # a generator, or an aiohttp writer
    fix_safety = SAFE
    doc = """\
## What it does
Finds the code that runs as a response stream: a generator handed to
`StreamingResponse`, `EventSourceResponse`, `StreamingHttpResponse`, Flask's
`Response`/`stream_with_context` or returned from a route handler, and an aiohttp
handler that writes to a prepared `web.StreamResponse` in a loop. It flags:

1. a per-request resource the stream takes before its first `yield` (or write)
   and releases only on the normal path, after the loop, not in `finally` or by
   `async with`/`with`: a slot, lock or semaphore (`await sem.acquire()` ...
   `sem.release()`; any `acquire` the stream itself releases, also when the slot
   is passed to the engine meanwhile), a pooled connection, an upstream streaming response
   (`client.send(req, stream=True)`, a call with `stream=True`, an aiohttp
   `session.post(...)` awaited without `async with`), or a registry entry (an
   insertion into a long-lived container, also by a helper of this module); an
   upstream streaming response that the stream never closes at all is flagged too;
2. a resource the route handler claims before it builds the response, which only
   the generator releases (in its `finally` or after its loop), when the handler
   owns no release of its own (no `background=` task, no guard).

Each resource belongs to one code: a span stays CTX105, a ContextVar token
CTX103/CTX109, an OpenTelemetry attach token CTX104, a registry insertion in an
`async def` that is not a response stream CTX108, cleanup after `yield` in a
`@contextmanager` CTX106.

A resource is also recognised by what happens to the value: one the stream gives
back to where it came from later (`blocks = allocator.reserve(n)` ...
`allocator.free(blocks)`; never a module's functions such as `json.loads`/`dumps`), or
one it closes itself (`fh = path.open("rb")` ... `fh.close()`).

## Why is this bad
When the client disconnects, the server closes the generator at a `yield`
(`GeneratorExit`) or cancels the task writing the stream (`CancelledError`): the
statements after the loop never run. The KV slot, the semaphore permit, the
upstream HTTP connection or the request's registry entry is held for the life of
the process, and the server stalls once the pool is empty. In the second shape, a
client that is gone before the body starts makes the response start fail first:
the generator never starts, so its `finally` never runs.

## Example
```python
async def token_events(engine, prompt):
    await pool.acquire()
    async for token in engine.generate(prompt):
        yield f"data: {token}\\n\\n"
    pool.release()

@app.post("/v1/stream")
async def stream(body: dict):
    return StreamingResponse(token_events(app.state.engine, body["prompt"]))
```

## Use instead
```python
async def token_events(engine, prompt):
    await pool.acquire()
    try:
        async for token in engine.generate(prompt):
            yield f"data: {token}\\n\\n"
    finally:
        pool.release()
```
An upstream response belongs in `async with client.stream(...) as upstream:`.
A resource the handler claims needs a release the handler owns: an idempotent
release passed as the response's `background=` task, or acquired inside the
generator instead.

## Fix safety
Safe where the release is a single statement after the loop in the same block as
the acquisition: the fix wraps the statements between in `try:` and moves the
release into `finally:` (the normal path runs the same statements in the same
order). An httpx response from `await c.send(c.build_request(...), stream=True)`
closed by `await r.aclose()` is rewritten to `async with c.stream(...) as r:`
instead (httpx defines `stream()` as exactly that pair). No fix for the other shapes.

## Source
Starlette/FastAPI "StreamingResponse" and client-disconnect reports;
httpx "Streaming responses" (a response from `send(stream=True)` must be closed);
aiohttp client reference (`ClientResponse.release`); PEP 525 (`aclose()` raises
`GeneratorExit` at the suspended `yield`); sglang/vLLM abort-on-disconnect reports.
"""

    def check(self, facts):
        streams = streaming_functions(facts)
        if not streams:
            return
        graph = call_graph(facts)
        for leak in stream_leaks(facts):
            yield self._report(facts, leak)
        for s in streams.values():
            if s.kind == "generator" and s.handler is not None and s.handler is not s.fn:
                yield from self._claimed_by_handler(facts, graph, s)

    # ------------------------------------------------- shape 1: inside the stream
    def _report(self, facts, leak):
        s, acq, rels = leak.stream, leak.acq, leak.releases
        if not rels:
            return facts.finding(self, acq.node, f"upstream streaming response from `{acq.what}` is never "
                                 "closed: when the client disconnects the stream stops at a "
                                 f"{_point(s)} and the upstream connection stays checked out "
                                 "(use `async with` or close it in `finally`)")
        last = max(rels, key=pos)
        return facts.finding(self, acq.node, f"{_kind(acq)} `{acq.what}` is released only after the stream's "
                             f"loop (line {last.lineno}), not in `finally`: a client that disconnects "
                             f"closes the stream at a {_point(s)} and the release never runs",
                             fix=self._fix(facts, s, acq, rels))

    def _fix(self, facts, s, acq, rels) -> Fix | None:
        """A safe fix when the one release is a single statement after the loop, in the
        acquisition's block, with no `return` between."""
        if len(rels) != 1:
            return None
        rel_stmt = facts.enclosing_statement(rels[0])
        if not (isinstance(rel_stmt, ast.Expr) and (rel_stmt.value is rels[0] or (
                isinstance(rel_stmt.value, ast.Await) and rel_stmt.value.value is rels[0]))):
            return None
        parent = facts.parents.get(acq.stmt)
        if parent is None or facts.parents.get(rel_stmt) is not parent:
            return None
        fld = field_of(parent, acq.stmt)
        if fld is None or fld != field_of(parent, rel_stmt):
            return None
        seq = getattr(parent, fld)
        i = next(k for k, x in enumerate(seq) if x is acq.stmt)
        j = next(k for k, x in enumerate(seq) if x is rel_stmt)
        between = seq[i + 1:j]
        if not between or any(isinstance(n, ast.Return) for b in between for n in facts.walk(b)):
            return None
        if _async_with_shape(facts, acq, rel_stmt, seq, i):
            return Fix(description="open the upstream response with `async with client.stream(...)`",
                       safety=SAFE, codemod="stream_async_with",
                       data={"line": acq.node.lineno, "col": acq.node.col_offset,
                             "release_line": rel_stmt.lineno, "release": facts.segment(rel_stmt)})
        return Fix(description="move the release into `finally` around the stream's loop", safety=SAFE,
                   codemod="stream_release_finally",
                   data={"line": acq.node.lineno, "col": acq.node.col_offset,
                         "release_line": rel_stmt.lineno, "release": facts.segment(rel_stmt)})

    # -------------------------------------- shape 2: the handler claims, the stream releases
    def _claimed_by_handler(self, facts, graph, s):
        h = s.handler
        start = s.response if s.response is not None else s.gen_call
        if start is None:
            return
        if s.response is not None and any(k.arg == "background" for k in s.response.keywords):
            return  # the handler hands a release of its own to the response
        for acq in acquisitions(facts, h, graph):
            if pos(acq.node) >= pos(start) or protected(facts, acq.node, h):
                continue
            own = releases_of(facts, h, acq, graph)
            own = [r for r in own if not _inside(facts, r, s.fn)]
            if own:
                continue  # the handler releases it itself (then shape 1 or other rules apply)
            if not self._stream_releases(facts, graph, s, acq):
                continue
            if acq.name and _handed_to_other(facts, h, acq, s.gen_call):
                continue  # handed to a guard object or another owner
            yield facts.finding(self, acq.node, f"{_kind(acq)} `{acq.what}` is claimed by the handler but released "
                                "only by the streaming generator: a client that is gone before the body starts "
                                "makes the response fail first, the generator never starts, and its release "
                                "never runs (give the handler an idempotent release, e.g. the response's "
                                "`background=` task)")

    def _stream_releases(self, facts, graph, s, acq) -> bool:
        """Does the generator release the handler's resource (a closure releasing it,
        or the resource handed to it as an argument that its summary releases)?"""
        if releases_of(facts, s.fn, acq, graph):
            return True
        if s.gen_call is None:
            return False
        summ = graph.summary(s.fn)
        for i in summ.releases:
            arg = graph.arg_for(s.gen_call, s.fn, i)
            if arg is None:
                continue
            d = facts.dotted(arg)
            if d and d in (acq.name, acq.receiver):
                return True
        return False


def _async_with_shape(facts, acq, rel_stmt, seq, i) -> bool:
    """`name = await c.send(c.build_request(...), stream=True)` (the request built inline
    or by a statement of the same block used only there) released by
    `await name.aclose()`: `async with c.stream(...) as name:` is the same code."""
    call = acq.node
    await_ = facts.parents.get(call)
    assign = facts.parents.get(await_)
    if not (acq.kind == "upstream" and isinstance(await_, ast.Await) and isinstance(assign, ast.Assign)
            and assign is acq.stmt and isinstance(call.func, ast.Attribute) and call.func.attr == "send"
            and len(call.args) == 1 and len(call.keywords) == 1 and call.keywords[0].arg == "stream"):
        return False
    if facts.segment(rel_stmt).strip() != f"await {acq.name}.aclose()":
        return False
    client = facts.dotted(call.func.value)
    req = call.args[0]
    if isinstance(req, ast.Name):
        fn = facts.enclosing_function(call)
        uses = [n for n in facts.walk(fn, into_defs=True) if isinstance(n, ast.Name) and n.id == req.id] if fn else []
        built = [x for x in seq[:i] if isinstance(x, ast.Assign) and len(x.targets) == 1
                 and isinstance(x.targets[0], ast.Name) and x.targets[0].id == req.id]
        if len(uses) != 2 or len(built) != 1:
            return False
        req = built[0].value
    return (isinstance(req, ast.Call) and isinstance(req.func, ast.Attribute) and req.func.attr == "build_request"
            and client is not None and facts.dotted(req.func.value) == client)


def _inside(facts, node, fn) -> bool:
    return node is fn or fn in facts.ancestors(node)


def _handed_to_other(facts, h, acq, gen_call) -> bool:
    for n in facts.walk(h):
        if isinstance(n, ast.Call) and n is not gen_call and n is not acq.node and not _inside(facts, n, gen_call):
            if any(isinstance(a, ast.Name) and a.id == acq.name for a in [*n.args, *(k.value for k in n.keywords)]):
                return True
    return False


def _kind(acq) -> str:
    f = getattr(acq.node, "func", None)
    if acq.kind == "connection" and isinstance(f, ast.Attribute) and f.attr == "acquire":
        return "pooled resource"  # `x = await pool.acquire()`: a connection, a slot, a lease
    return {"slot": "slot", "connection": "pooled connection", "upstream": "upstream streaming response",
            "registry": "registry"}.get(acq.kind, "resource")


def _point(s) -> str:
    return "`yield`" if s.kind == "generator" else "write"
