"""CTX205 long-lived-task-inherits-request-context: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.cleanup import last_name
from ctxlint.semantic.python.instances import per_request_init
from ctxlint.semantic.python.requests import request_scope
from ctxlint.semantic.python.stores import globals_of, module_instantiated, store_kind
from ctxlint.semantic.python.tasks import (
    TASK_END_METHODS,
    created_only_while_unset,
    is_task_factory_call,
    startup_evidence,
)


def _first_param(fn) -> str | None:
    args = fn.args.posonlyargs + fn.args.args
    return args[0].arg if args else None


def _scope_through_callers(facts, fn, call: ast.AST, depth: int = 0) -> str | None:
    """Why `fn` (at `call`) runs inside one request's Context, directly or because a
    request-scoped function of this module calls it (two levels: a helper that starts
    the task lazily, `self._ensure_started()`)."""
    direct = request_scope(facts, fn, call)
    if direct or depth >= 2:
        return direct
    for caller, c in _callers(facts, fn):
        why = _scope_through_callers(facts, caller, c, depth + 1)
        if why:
            return f"`{fn.name}()`, called from {why}"
    return None


def _callers(facts, fn):
    """(calling def, call) for each call of this module that resolves to `fn`
    (`calls.CallGraph.callers`)."""
    from ctxlint.semantic.python.calls import call_graph
    return [(caller, call) for call, caller in call_graph(facts).callers(fn)]


def _started_outside_requests(facts, fn, depth: int = 0) -> str | None:
    """Why `fn` is also reached from the application's startup, outside any request:
    `fn` itself, or a function of this module that serves no request and calls it
    (through up to three callers), has startup evidence (`tasks.startup_evidence`: a
    lifespan, a registered startup hook, a module-level call, the `__init__` of a
    module-level object). None otherwise; having no caller here is not evidence."""
    if depth > 3:
        return None
    why = startup_evidence(facts, fn)
    if why:
        return why
    for caller, c in _callers(facts, fn):
        if request_scope(facts, caller, c):
            continue
        why = _started_outside_requests(facts, caller, depth + 1)
        if why:
            return why
    return None


def _started_once(facts, fn, call, name: str | None) -> bool:
    """Does `fn` create the task only while none is stored in `name`: the factory `call`
    is guarded by the test of the stored task (`tasks.created_only_while_unset`:
    `if self._t is not None: return`, `if _t is None or _t.done():`)?"""
    return bool(name) and created_only_while_unset(facts, call, fn, name)


def _ended_by_owner(facts, cls, attr: str) -> bool:
    """Does a method of `cls` await or cancel `self.<attr>` (its close path)?"""
    d = f"self.{attr}"
    for n in facts.walk(cls, into_defs=True):
        if isinstance(n, ast.Await) and facts.dotted(n.value) == d:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in TASK_END_METHODS \
                and facts.dotted(n.func.value) == d:
            return True
    return False


def _runs_forever(facts, call: ast.Call, fn) -> bool:
    """Is the coroutine handed to the task a `while` loop of this module (a background task)?"""
    if not call.args or not isinstance(call.args[0], ast.Call):
        return False
    f = call.args[0].func
    name = last_name(f)
    cands = [d for d in facts.nodes(ast.AsyncFunctionDef) if d.name == name]
    if isinstance(f, ast.Attribute):
        cls = facts.enclosing_class(fn)
        cands = [d for d in cands if facts.enclosing_class(d) is cls]
    return len(cands) >= 1 and all(any(isinstance(n, ast.While) for n in facts.walk(d)) for d in cands)


class LongLivedTaskInheritsRequestContext(Rule):
    code = "CTX205"
    manifest = "reached"
    reported_when = (
        'the function that starts the task is reached from an entry point (route, handler, task, consumer).'
    )
    name = "long-lived-task-inherits-request-context"
    summary = ("A long-lived task created inside a request scope without `context=`: it keeps that "
               "request's contextvars.")
    tokens = ("create_task", "ensure_future")
    doc = """\
## What it does
Flags a task created with `asyncio.create_task`/`ensure_future`/`loop.create_task`
without `context=` and stored where it outlives the request — a module global
(`global X`), a class attribute, or an attribute of a long-lived object (one
instantiated at module level, or any object when the task's coroutine is a
`while` loop of this module, i.e. a background loop) — when the creating function runs inside a
request: a route handler, a function taking the request or a request/tenant id
(not a constructor: `Client.__init__(self, project_id)` is configured by its ids,
not serving one), a `with tracer.start_as_current_span(...)` block, or after a
`ContextVar.set()`.
A task awaited or cancelled in the same function is not long-lived and is fine.

Not flagged either:
- a `while`-loop task stored on `self` of a per-connection object (its `__init__`
  takes a request or websocket) whose own methods await or cancel that task (its
  `close()`): the task ends with the connection it serves, it does not outlive it;
- a task the creating function starts only while none is stored — the factory call
  sits under the test of the stored task (`if self._t is not None: return` before it,
  `if _t is None or _t.done():` around it; a test elsewhere in the function that only
  logs does not count) — when the same starter is also reached from the
  application's startup, outside any request: an ASGI lifespan, a registered startup
  hook (`@app.on_event("startup")`, `add_event_handler("startup", ...)`,
  `on_startup=[...]`, `app.on_startup.append(...)`), a module-level call
  (`asyncio.run(main())`) or the `__init__` of a module-level object: the request
  path only starts it as a fallback when startup did not. A starter reached from
  request handlers alone (the first request starts the writer), or also from a
  function that merely has no caller in this module (a public helper other modules'
  handlers call), is reported.

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
            if any(k.arg == "context" for k in call.keywords) or not is_task_factory_call(facts, call):
                continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            for target in self._stores(facts, call, fn):
                where = store_kind(facts, target, fn)
                if (where is None and isinstance(target, ast.Attribute)
                        and facts.dotted(target.value) == _first_param(fn)):
                    cls = facts.enclosing_class(fn)
                    if cls is not None and module_instantiated(facts, cls):
                        where = f"`{facts.dotted(target)}` of `{cls.name}`, instantiated once at module level"
                    elif _runs_forever(facts, call, fn):
                        if cls is not None and per_request_init(facts, cls) \
                                and _ended_by_owner(facts, cls, target.attr):
                            continue  # a per-connection object that ends its own task
                        where = f"`{facts.dotted(target)}` (the task runs a `while` loop)"
                if where is None:
                    continue
                if self._awaited_here(facts, fn, facts.dotted(target)):
                    continue
                scope = _scope_through_callers(facts, fn, call)
                if scope is None:
                    continue
                if _started_once(facts, fn, call, facts.dotted(target)) and _started_outside_requests(facts, fn):
                    continue  # started once, and also from an entry point that serves no request
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
                if isinstance(t, ast.Name) and t.id not in globals_of(facts, fn):
                    for n in facts.walk(fn):
                        if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == t.id
                                and (n.lineno, n.col_offset) > (parent.lineno, parent.col_offset)):
                            yield from n.targets
                else:
                    yield t

    @staticmethod
    def _awaited_here(facts, fn, name: str | None) -> bool:
        """Is the stored task awaited or cancelled in the creating function (not long-lived)?"""
        if not name:
            return False
        for n in facts.walk(fn):
            if isinstance(n, ast.Await) and name in {facts.dotted(x) for x in ast.walk(n.value)
                                                     if isinstance(x, (ast.Name, ast.Attribute))}:
                return True
            if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in TASK_END_METHODS
                    and facts.dotted(n.func.value) == name):
                return True
        return False
