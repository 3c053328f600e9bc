"""CTX1xx (Python): lifecycle of request-scoped context — ContextVar tokens,
OpenTelemetry context tokens and spans, contextmanager cleanup, asyncio tasks,
cancellation-safe registration.
"""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule

_TASK_FACTORIES = {
    "asyncio.create_task", "asyncio.ensure_future", "asyncio.tasks.create_task",
    "asyncio.tasks.ensure_future",
}


class TaskReferenceDiscarded(Rule):
    code = "CTX107"
    name = "task-reference-discarded"
    summary = "asyncio.create_task()/ensure_future() result dropped: the loop holds tasks only weakly."
    tokens = ("create_task", "ensure_future")
    fix_safety = SAFE
    doc = """\
## What it does
Flags an expression statement whose value is `asyncio.create_task(...)`,
`asyncio.ensure_future(...)`, `loop.create_task(...)` or a `TaskGroup`-less
`get_running_loop().create_task(...)`: the returned Task is thrown away. Also
a list/set comprehension or generator expression statement whose element is such
a call (`[asyncio.create_task(c) for c in coros]`): the tasks are dropped with the
list (a bare generator is never even run). No fix is offered for comprehensions.

## Why is this bad
The event loop keeps only a weak reference to running tasks. A task nobody
references can be garbage-collected before it finishes ("Task was destroyed but
it is pending!"), silently dropping the work — a request log, a KV-cache
write-back, a usage record — and any exception it raised is never seen.

## Example
```python
async def handle_turn(call_id, text):
    asyncio.create_task(append_call_log(call_id, text))
    return text.upper()
```

## Use instead
```python
_background_tasks: set[asyncio.Task] = set()

async def handle_turn(call_id, text):
    task = asyncio.create_task(append_call_log(call_id, text))
    _background_tasks.add(task)
    task.add_done_callback(_background_tasks.discard)
    return text.upper()
```
or run the work in an `asyncio.TaskGroup`.

## Fix safety
Safe: the fix keeps the task in a module-level set and discards it when done;
behaviour is otherwise unchanged.

## Source
Python docs, `asyncio.create_task` ("Important: Save a reference to the result
of this function"); ruff RUF006; bolna-ai/bolna#462.
"""

    def check(self, facts):
        for stmt in facts.nodes(ast.Expr):
            value = stmt.value
            if isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
                # `[asyncio.create_task(c) for c in coros]` as a statement: the list of tasks
                # is built and dropped at once, so every task is only weakly held
                call = value.elt
                if isinstance(call, ast.Call) and _is_task_factory_call(facts, call):
                    what = facts.dotted(call.func) or _last_name(call.func)
                    if isinstance(value, ast.GeneratorExp):
                        msg = (f"generator of `{what}()` calls is discarded without being iterated: "
                               "no task is ever created (and if it were, the loop would hold it "
                               "only weakly); keep the tasks in a set or gather them")
                    else:
                        msg = (f"comprehension of `{what}()` results is discarded; the event loop "
                               "keeps only weak references, so the tasks can be garbage-collected "
                               "before they finish (keep them in a set or gather them)")
                    yield facts.finding(self, call, msg)
                continue
            call = value
            if isinstance(call, ast.Await) or not isinstance(call, ast.Call):
                continue
            if not _is_task_factory_call(facts, call):
                continue
            attr = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
            fix = Fix(
                description="keep the task in a module-level set until it is done",
                safety=SAFE,
                codemod="keep_task_reference",
                data={"line": call.lineno, "col": call.col_offset},
            )
            yield facts.finding(self, call, f"`{facts.dotted(call.func) or attr}()` result is discarded; "
                                "the event loop keeps only a weak reference, so the task can be "
                                "garbage-collected before it finishes", fix=fix)


def _is_task_factory_call(facts, call: ast.Call) -> bool:
    """Is `call` `asyncio.create_task`/`ensure_future` or `<loop>.create_task` (not a
    TaskGroup's, which keeps its own strong reference)?"""
    if not isinstance(call.func, (ast.Attribute, ast.Name)):
        return False
    q = facts.qualname(call.func) or ""
    if q in _TASK_FACTORIES:
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr == "create_task":
        recv = facts.dotted(call.func.value) or ""
        if _is_task_group(facts, call.func.value):
            return False
        return (recv.endswith("loop") or "loop" in recv.split(".")[-1].lower()
                or _is_loop_call(call.func.value, facts))
    return False


def _is_loop_call(expr: ast.AST, facts) -> bool:
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        return q.endswith(("get_running_loop", "get_event_loop", "new_event_loop"))
    return False


def _is_task_group(facts, recv: ast.AST) -> bool:
    """Is `recv` bound by `async with asyncio.TaskGroup() as recv` (or anyio/trio nursery)?"""
    name = facts.dotted(recv)
    if not name:
        return False
    for w in facts.nodes(ast.AsyncWith, ast.With):
        for item in w.items:
            if item.optional_vars is not None and facts.dotted(item.optional_vars) == name:
                q = facts.qualname(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else ""
                if q and q.split(".")[-1] in ("TaskGroup", "create_task_group", "open_nursery"):
                    return True
    return False


# ============================================================================
# Shared helpers of the lifecycle family (token fate, finally/handler tests).
# ============================================================================

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _field_of(parent: ast.AST, child: ast.AST) -> str | None:
    """Name of the list field of `parent` that holds statement `child` (body/orelse/finalbody/...)."""
    for name in ("body", "orelse", "finalbody", "handlers"):
        seq = getattr(parent, name, None)
        if isinstance(seq, list) and any(s is child for s in seq):
            return name
    return None


def _catches_all(handler: ast.ExceptHandler, include_exception: bool = False) -> bool:
    """Does `except ...:` catch cancellation (bare, BaseException, CancelledError)?"""
    t = handler.type
    if t is None:
        return True
    names = [t] if not isinstance(t, ast.Tuple) else list(t.elts)
    ok = {"BaseException", "CancelledError", "GeneratorExit"} | ({"Exception"} if include_exception else set())
    for n in names:
        last = n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
        if last in ok:
            return True
    return False


def _protected(facts, node: ast.AST, stop: ast.AST | None, include_exception: bool = False) -> bool:
    """Is `node` inside a `finally:` block, or inside an except-all handler, below `stop`?"""
    child = node
    for a in facts.ancestors(node):
        if a is stop:
            return False
        if isinstance(a, ast.Try) or type(a).__name__ == "TryStar":
            if _field_of(a, child) == "finalbody":
                return True
        if isinstance(a, ast.ExceptHandler) and _catches_all(a, include_exception):
            return True
        if isinstance(a, _DEFS) and a is not stop:
            # a nested def/lambda registered as a callback (ExitStack.callback, add_done_callback)
            # runs at release time: treat it as protected.
            return True
        child = a
    return False


def _body_nodes(facts, fn: ast.AST, into_defs: bool = False):
    return facts.walk(fn, into_defs=into_defs)


def _last_name(expr: ast.AST) -> str:
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


def _has_risk(stmts) -> bool:
    """Can any of these statements raise or leave early (calls, awaits, raise, return, yield)?"""
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, (ast.Call, ast.Await, ast.Raise, ast.Return, ast.Yield, ast.YieldFrom,
                              ast.Subscript)):
                return True
    return False


def _straight_line(facts, first: ast.stmt, second: ast.stmt) -> bool:
    """True when `second` follows `first` in the same block with nothing between that can raise."""
    p1, p2 = facts.parents.get(first), facts.parents.get(second)
    if p1 is None or p1 is not p2:
        return False
    f1, f2 = _field_of(p1, first), _field_of(p2, second)
    if f1 is None or f1 != f2:
        return False
    seq = getattr(p1, f1)
    i, j = next(k for k, s in enumerate(seq) if s is first), next(k for k, s in enumerate(seq) if s is second)
    return i < j and not _has_risk(seq[i + 1:j])


def _in_tail_position(facts, stmt: ast.stmt, fn: ast.AST) -> bool:
    """Is `stmt` the last thing its function does (a setter helper: `def use_tenant(t): var.set(t)`)?"""
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            return False
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and _field_of(parent, node) == "body":
            return False
        fld = _field_of(parent, node)
        if fld is not None:
            seq = getattr(parent, fld)
            idx = next(k for k, s in enumerate(seq) if s is node)
            for rest in seq[idx + 1:]:
                if isinstance(rest, ast.Pass):
                    continue
                if isinstance(rest, ast.Return) and (rest.value is None or isinstance(rest.value, (ast.Constant, ast.Name))):
                    continue
                return False
        node = parent
    return True


def _class_functions(facts, cls: ast.ClassDef):
    for n in facts.walk(cls, into_defs=True):
        if isinstance(n, FUNCS):
            yield n


FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


class _TokenFate:
    """Where the token returned by `var.set()` / `context.attach()` ends up.

    `kind` is one of "ok", "discarded", "not_finally", "never"; `release` is the
    unprotected release call for "not_finally".
    """

    __slots__ = ("kind", "release")

    def __init__(self, kind: str, release: ast.AST | None = None):
        self.kind = kind
        self.release = release


def _token_fate(facts, call: ast.Call, fn: ast.AST, is_release) -> _TokenFate:
    """Follow the token of `call` (a `.set()`/`attach()`) inside `fn` and its class.

    `is_release(c: ast.Call) -> bool` says whether a call releases a token (reset/detach).
    Accepted: a release in `finally`/an except-all handler; a token stored on `self`
    and released in another method of the class (`__enter__`/`__exit__`, start/end
    hooks); tokens kept in a list that a finally/exit releases; a token returned,
    yielded, stored elsewhere or handed to a call (the caller owns it).
    """
    parent = facts.parents.get(call)
    if isinstance(parent, ast.Expr):
        return _TokenFate("discarded")
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if len(targets) != 1:
            return _TokenFate("ok")
        t = targets[0]
        if isinstance(t, ast.Name):
            return _local_token_fate(facts, call, parent, t.id, fn, is_release)
        d = facts.dotted(t)
        if d and d.split(".")[0] in ("self", "cls"):
            cls = facts.enclosing_class(call)
            if cls is None:
                return _TokenFate("ok")
            return _TokenFate("ok" if _owner_releases(facts, cls, d, is_release) else "never")
        return _TokenFate("ok")
    if isinstance(parent, ast.NamedExpr) and parent.value is call and isinstance(parent.target, ast.Name):
        # `if (token := var.set(x)):` binds the token like an assignment in the enclosing statement
        return _local_token_fate(facts, call, facts.enclosing_statement(call), parent.target.id, fn, is_release)
    if (isinstance(parent, ast.Call) and call in parent.args and isinstance(parent.func, ast.Attribute)
            and parent.func.attr in ("append", "appendleft", "add", "push", "put")):
        return _TokenFate("ok" if _kept_list_released(facts, call, fn, is_release, parent.func.value)
                          else "never")
    return _TokenFate("ok")


def _kept_list_released(facts, call, fn, is_release, container: ast.AST) -> bool:
    """Tokens appended to a list: is some release of them in a finally / __exit__ of the function or class?"""
    d = facts.dotted(container) or ""
    scopes: list[ast.AST] = [fn]
    cls = facts.enclosing_class(call)
    if d.startswith(("self.", "cls.")) and cls is not None:
        scopes = list(_class_functions(facts, cls))
    for scope in scopes:
        for n in facts.walk(scope, into_defs=True):
            if isinstance(n, ast.Call) and is_release(n):
                fname = getattr(facts.enclosing_function(n), "name", "")
                if fname in ("__exit__", "__aexit__") or _protected(facts, n, scope) or scope is not fn:
                    return True
    return False


def _owner_releases(facts, cls: ast.ClassDef, attr: str, is_release) -> bool:
    """Does any method of `cls` release the token stored in `attr` (`self._token`)?"""
    for f in _class_functions(facts, cls):
        aliases = _aliases(facts, f, attr)
        for n in facts.walk(f):
            if isinstance(n, (ast.For, ast.AsyncFor)) and _refers_to(facts, n.iter, {attr}):
                if isinstance(n.target, ast.Name):
                    aliases.add(n.target.id)
        for n in facts.walk(f, into_defs=True):
            if isinstance(n, ast.Call) and is_release(n):
                if any(_refers_to(facts, a, aliases) for a in n.args):
                    return True
    return False


def _aliases(facts, fn, attr: str) -> set[str]:
    """`attr` plus the local names `fn` copies it into (`tok = self._token`,
    `tok, self._token = self._token, None`, `tok = self._tokens.pop()`)."""
    out = {attr}
    for n in facts.walk(fn):
        if not isinstance(n, ast.Assign):
            continue
        for t in n.targets:
            if isinstance(t, ast.Name) and _refers_to(facts, n.value, {attr}):
                out.add(t.id)
            elif (isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple)
                  and len(t.elts) == len(n.value.elts)):
                for te, ve in zip(t.elts, n.value.elts):
                    if isinstance(te, ast.Name) and _refers_to(facts, ve, {attr}):
                        out.add(te.id)
    return out


def _refers_to(facts, expr: ast.AST, names: set[str]) -> bool:
    """Does `expr` read one of the dotted `names` (directly, `.pop()`, `[i]`, `reversed(...)`)?"""
    for n in ast.walk(expr):
        if isinstance(n, (ast.Name, ast.Attribute)) and facts.dotted(n) in names:
            return True
    return False


def _local_token_fate(facts, call, assign, name: str, fn, is_release) -> _TokenFate:
    uses = [n for n in facts.walk(fn, into_defs=True)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    releases: list[ast.Call] = []
    escaped = False
    for u in uses:
        p = facts.parents.get(u)
        if isinstance(p, ast.Call) and u in p.args and is_release(p):
            releases.append(p)
            continue
        if isinstance(p, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.If, ast.IfExp, ast.JoinedStr,
                          ast.FormattedValue, ast.Assert)):
            continue
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute) and p.func.attr in (
                "append", "appendleft", "add", "push", "put"):
            if _kept_list_released(facts, call, fn, is_release, p.func.value):
                return _TokenFate("ok")
            continue
        if isinstance(p, ast.Call) and _last_name(p.func) in ("print", "debug", "info", "warning", "log"):
            continue
        escaped = True
    if any(_protected(facts, r, fn) for r in releases):
        return _TokenFate("ok")
    if releases:
        first = releases[0]
        rel = facts.enclosing_statement(first)
        if _straight_line(facts, assign, rel):
            return _TokenFate("ok")
        if facts.parents.get(rel) is assign and _field_of(assign, rel) == "body":
            # `if (token := v.set(x)):` with the reset first in the body, nothing risky before it
            body = assign.body
            if not _has_risk(body[:next(k for k, s in enumerate(body) if s is rel)]):
                return _TokenFate("ok")
        return _TokenFate("not_finally", first)
    if escaped:
        return _TokenFate("ok")
    return _TokenFate("never")


def _is_generator(facts, fn: ast.AST) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in facts.walk(fn))


def _is_contextmanager(facts, fn: ast.AST) -> bool:
    """Decorated with contextlib.contextmanager / asynccontextmanager (however imported)?"""
    for d in getattr(fn, "decorator_list", ()):
        target = d.func if isinstance(d, ast.Call) else d
        q = facts.qualname(target) or ""
        if q.split(".")[-1] in ("contextmanager", "asynccontextmanager"):
            return True
    return False


def _directly_awaited(facts) -> set[int]:
    """ids of the `async def`s that this file awaits directly (`await f(...)`,
    `await self.m(...)` from the same class): such a coroutine runs in its caller's
    task and shares its caller's Context, so what it sets outlives it. A coroutine
    handed to `create_task`/`gather`/`ensure_future` is wrapped in a Task with its own
    copy of the Context, which is not an `await` of the call itself. Name-based, per
    file: an attribute call on another object (`backend.generate()`) is not matched,
    so a same-named method of an unrelated class is not taken for it."""
    def compute():
        module_level: dict[str, list[ast.AST]] = {}
        methods: dict[tuple[int, str], ast.AST] = {}
        for f in facts.nodes(ast.AsyncFunctionDef):
            cls = facts.enclosing_class(f)
            if cls is not None and facts.parents.get(f) is cls:
                methods[(id(cls), f.name)] = f
            else:
                module_level.setdefault(f.name, []).append(f)
        out: set[int] = set()
        for aw in facts.nodes(ast.Await):
            call = aw.value
            if not isinstance(call, ast.Call):
                continue
            func = call.func
            if isinstance(func, ast.Name):
                out.update(id(f) for f in module_level.get(func.id, ()))
            elif isinstance(func, ast.Attribute) and (
                    (isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"))
                    or (isinstance(func.value, ast.Call) and _last_name(func.value.func) == "super")):
                cls = facts.enclosing_class(aw)
                while cls is not None:
                    f = methods.get((id(cls), func.attr))
                    if f is not None:
                        out.add(id(f))
                        break
                    cls = facts.enclosing_class(cls)
                if isinstance(func.value, ast.Call):  # super().m(): any class's m in the file
                    out.update(id(f) for (c, name), f in methods.items() if name == func.attr)
        return out
    return facts.memo("lifecycle.directly_awaited", compute)


_ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "route",
                               "api_route", "websocket", "websocket_route", "middleware", "on_event"})


def _is_route_handler(fn: ast.AST) -> bool:
    """Decorated like an ASGI route (`@app.get("/x")`, `@router.post(...)`): the framework
    runs each request's handler in a task of its own (Starlette/FastAPI, Quart, Sanic)."""
    for d in getattr(fn, "decorator_list", ()):
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in _ROUTE_DECORATORS:
            return True
    return False


def _runs_in_task_context(facts, fn) -> bool:
    """Does `fn` run inside an asyncio task's own Context: an `async def` that this
    file never awaits directly (a request handler the framework runs as a task, a
    coroutine passed to `create_task`/`gather`), a sync method of a class with
    coroutine methods (a hook called on the event loop), or a sync function that in
    this file only coroutines call? A directly awaited coroutine (`await handle(req)`
    in a worker loop) shares its caller's Context, so a value it sets outlives it
    and leaks into the caller's next request (PEP 567: only Tasks copy the Context)."""
    if isinstance(fn, ast.AsyncFunctionDef):
        return _is_route_handler(fn) or id(fn) not in _directly_awaited(facts)
    cls = facts.enclosing_class(fn)
    if cls is not None and any(isinstance(s, ast.AsyncFunctionDef) for s in cls.body):
        return True
    from ctxlint.rules.references import async_only_functions
    if id(fn) not in async_only_functions(facts):
        return False
    # called only from coroutines: it runs in theirs, so it is exempt only when none of
    # its coroutine callers is awaited directly (sharing a longer-lived Context)
    awaited = _directly_awaited(facts)
    return not any(id(c) in awaited for c in _callers_of(facts, fn.name))


def _callers_of(facts, name: str) -> list[ast.AST]:
    """Functions that call `name(...)` / `x.name(...)` in this file."""
    def compute():
        out: dict[str, list[ast.AST]] = {}
        for c in facts.nodes(ast.Call):
            nm = _last_name(c.func)
            if nm:
                f = facts.enclosing_function(c)
                if f is not None:
                    out.setdefault(nm, []).append(f)
        return out
    return facts.memo("lifecycle.callers", compute).get(name, [])


def _ctx_run_targets(facts) -> set[str]:
    """Functions run in a fresh Context: `copy_context().run(f, ...)`, `Context().run(f)`."""
    def compute():
        out: set[str] = set()
        for c in facts.nodes(ast.Call):
            if isinstance(c.func, ast.Attribute) and c.func.attr == "run" and c.args:
                recv = c.func.value
                q = facts.qualname(recv.func) if isinstance(recv, ast.Call) else (facts.dotted(recv) or "")
                if q and (q.endswith("copy_context") or q.endswith("Context") or "ctx" in q.lower()
                          or "context" in q.lower()):
                    name = _last_name(c.args[0])
                    if name:
                        out.add(name)
            # a new Thread/Process starts with a fresh, empty Context that dies with it
            q = facts.qualname(c.func) or ""
            if q.split(".")[-1] in ("Thread", "Process"):
                for kw in c.keywords:
                    if kw.arg == "target" and _last_name(kw.value):
                        out.add(_last_name(kw.value))
        # functions that only such functions call run in that fresh Context too
        for _ in range(2):
            callers: dict[str, set[str]] = {}
            for c in facts.nodes(ast.Call):
                name = _last_name(c.func)
                if name:
                    fn = facts.enclosing_function(c)
                    callers.setdefault(name, set()).add(fn.name if fn is not None else "<module>")
            for name, who in callers.items():
                if who and who <= out:
                    out.add(name)
        return out
    return facts.memo("lifecycle.ctx_run_targets", compute)


def _yields(facts, fn):
    return [n for n in facts.walk(fn) if isinstance(n, (ast.Yield, ast.YieldFrom))]


def _pos(n: ast.AST) -> tuple[int, int]:
    return (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))


def _contextvar_sets(facts):
    """`(call, fn)` for every `<ContextVar>.set(...)` inside a function."""
    def compute():
        out = []
        for c in facts.nodes(ast.Call):
            f = c.func
            if isinstance(f, ast.Attribute) and f.attr == "set" and len(c.args) == 1 and facts.is_contextvar(f.value):
                fn = facts.enclosing_function(c)
                if fn is not None:
                    out.append((c, fn))
        return out
    return facts.memo("lifecycle.contextvar_sets", compute)


def _is_reset(c: ast.Call) -> bool:
    return isinstance(c.func, ast.Attribute) and c.func.attr == "reset" and len(c.args) == 1


def _across_yield(facts, call: ast.Call, fn, reset: ast.Call) -> bool:
    """Is there a `yield` between the set and the reset (in source order)?"""
    s, r = _pos(call), _pos(reset)
    return any(s < _pos(y) < r for y in _yields(facts, fn))


def _cv_resets_of(facts, call, fn, name: str) -> list[ast.Call]:
    return [n for n in facts.walk(fn, into_defs=True)
            if isinstance(n, ast.Call) and _is_reset(n) and isinstance(n.args[0], ast.Name) and n.args[0].id == name]


def _scoped_vars(facts) -> set[str]:
    """ContextVars that some function of the file scopes properly (reset in `finally`).

    A discarded `set()` of such a var elsewhere updates the value *inside* that
    scope (a per-forward cache index, a budget being booked) and is undone by the
    scope's reset, so it is not a leak.
    """
    def compute():
        out: set[str] = set()
        for c in facts.nodes(ast.Call):
            if _is_reset(c) and isinstance(c.func, ast.Attribute):
                fn = facts.enclosing_function(c)
                if fn is not None and _protected(facts, c, fn):
                    out.add(facts.dotted(c.func.value) or "")
        return out
    return facts.memo("lifecycle.scoped_vars", compute)


def _restored_by_set_in_finally(facts, call: ast.Call, fn, var: str) -> bool:
    """`old = v.get(); v.set(x); try: ... finally: v.set(old)` restores by value: accept."""
    for n in facts.walk(fn):
        if (n is not call and isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in ("set", "reset") and facts.dotted(n.func.value) == var
                and _protected(facts, n, fn) and _pos(n) > _pos(call)):
            return True
    return False


class ContextVarNotReset(Rule):
    code = "CTX103"
    name = "contextvar-not-reset"
    summary = "ContextVar.set() whose Token is discarded or reset outside `finally`: the value leaks to later work."
    tokens = ("ContextVar",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags `var.set(value)` inside a function, where `var` resolves to a
`contextvars.ContextVar` (module or class assignment, `ContextVar[...]`
annotation, however `ContextVar` was imported), and the returned `Token` is
thrown away, never passed to `var.reset()`, or reset only on the happy path
(not in `finally`). Accepted: reset in `finally`; the token stored on `self`
in `__enter__`/a start hook and reset in `__exit__`/an end hook; tokens kept
in a list that a `finally`/`__exit__` resets in reverse; a token returned to
the caller; a setter helper whose last statement is the `set()`; restoring the
old value with `set()` in `finally`; updates of a var that another function of
the file scopes with reset-in-`finally`; and a discarded token in code that runs
in a Context of its own (an `async def` that runs as its own task — every asyncio
task copies the Context: a route handler such as `@app.post(...)`, or a coroutine
the file never awaits directly —, a sync method of a class with coroutine methods,
a sync function only coroutines call, a `copy_context().run()` or
`Thread(target=...)` target, or what only those call); clearing a var back to
`None`/`False`/`0`. A coroutine the file awaits directly (`await handle(req)` in a
worker loop, `await self._bind(req)`) runs in its caller's Context, so its
discarded token is reported. A token bound with `:=` in an `if`/`while` test is
followed like an assigned one.

## Why is this bad
A worker thread (WSGI, a thread pool, a Celery worker) runs one request after
another in the same Context. If a request raises between `set()` and `reset()`,
the next request on that thread starts with the previous request's tenant,
user or request object bound — a cross-tenant data leak and a memory leak.

## Example
```python
def __call__(self, request):
    token = _active_request.set(request)
    response = self.get_response(request)  # may raise
    _active_request.reset(token)
    return response
```

## Use instead
```python
def __call__(self, request):
    token = _active_request.set(request)
    try:
        return self.get_response(request)
    finally:
        _active_request.reset(token)
```

## Fix safety
Safe: the fix wraps the statements after `set()` in `try`/`finally: var.reset(token)`.

## Source
PEP 567 (`ContextVar.reset`); ambient-innovation/ambient-toolbox#103; the
"Token was created in a different Context" / leaked-request reports in Django
and Starlette middleware.
"""

    def check(self, facts):
        run_targets = _ctx_run_targets(facts)
        for call, fn in _contextvar_sets(facts):
            var = facts.dotted(call.func.value) or ""
            if fn.name in run_targets:
                continue
            if _protected(facts, call, fn):
                continue  # a restoration inside finally/except
            stmt = facts.enclosing_statement(call)
            fate = _token_fate(facts, call, fn, _is_reset)
            if fate.kind == "ok":
                continue
            if fate.kind == "discarded":
                if _runs_in_task_context(facts, fn):
                    # every asyncio task runs in its own copy of the Context: a value set
                    # and never reset in a coroutine dies with the request's task
                    continue
                if isinstance(call.args[0], ast.Constant) and call.args[0].value in (None, False, 0, ""):
                    continue  # clearing a stash back to its empty value
                if (_in_tail_position(facts, stmt, fn) or _restored_by_set_in_finally(facts, call, fn, var)
                        or var in _scoped_vars(facts)):
                    continue
                if fn.name in ("__enter__", "__aenter__", "setUp", "setup", "set_up") or fn.name.startswith(("set_", "use_", "bind_")):
                    continue
                msg = (f"token of `{var}.set()` is discarded: the value stays bound after this "
                       "function, for whatever runs next in this Context (keep the token and "
                       "reset it in `finally`)")
            elif fate.kind == "not_finally":
                if _is_generator(facts, fn) and _across_yield(facts, call, fn, fate.release):
                    continue  # CTX109 / CTX106 report this shape
                msg = (f"`{var}` is reset only on the normal path (line {fate.release.lineno}), not in "
                       "`finally`: an exception in between leaves the value bound")
            else:
                msg = f"token of `{var}.set()` is never passed to `{var}.reset()`: the value stays bound"
            fix = None
            if fate.kind in ("discarded", "not_finally") and isinstance(stmt, (ast.Expr, ast.Assign)) \
                    and _followed_in_block(facts, call):
                fix = Fix(description=f"reset `{var}` in a `finally` block",
                          safety=SAFE, codemod="contextvar_reset_finally",
                          data={"line": call.lineno, "col": call.col_offset, "var": var})
            yield facts.finding(self, call, msg, fix=fix)


# ---------------------------------------------------------------- CTX104
def _followed_in_block(facts, call: ast.Call) -> bool:
    """Does a statement follow the one holding `call` in its block? The try/finally
    codemods (fixers engineer) wrap those statements; with none there is nothing
    to protect and the token is meant to outlive the block (no fix offered)."""
    stmt = facts.enclosing_statement(call)
    parent = facts.parents.get(stmt)
    for fld in ("body", "orelse", "finalbody"):
        block = getattr(parent, fld, None)
        if isinstance(block, list) and stmt in block:
            return block.index(stmt) < len(block) - 1
    return False


def _otel_attach_calls(facts):
    out = []
    for c in facts.nodes(ast.Call):
        q = facts.qualname(c.func) or ""
        if q in ("opentelemetry.context.attach", "opentelemetry.context.context.attach",
                 "opentelemetry.context.api.attach"):
            out.append(c)
    return out


def _is_detach(facts):
    def pred(c: ast.Call) -> bool:
        return _last_name(c.func) == "detach" and len(c.args) >= 1
    return pred


def _detach_text(facts, call: ast.Call) -> str:
    if isinstance(call.func, ast.Attribute):
        base = facts.dotted(call.func.value)
        if base:
            return f"{base}.detach"
    for local, q in facts.imports.items():
        if q == "opentelemetry.context.detach":
            return local
    for local, q in facts.imports.items():
        if q == "opentelemetry.context":
            return f"{local}.detach"
    return "opentelemetry.context.detach"


class OtelContextNotDetached(Rule):
    code = "CTX104"
    name = "otel-context-not-detached"
    summary = "OpenTelemetry context.attach() whose token is discarded or not detached in `finally`."
    tokens = ("attach",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags `opentelemetry.context.attach(ctx)` (however imported: `from opentelemetry
import context as otel_context`, `from opentelemetry.context import attach`) whose
token is discarded, never passed to `detach()`, or detached only on the normal
path instead of in `finally`. "Restoring" the parent by a second `attach()` is
flagged too: it pushes another context instead of popping one. A discarded token
inside an `async def` is accepted: the attach dies with the task's own Context.

## Why is this bad
`attach` makes a context current for the running thread/task until `detach`
restores the previous one. A lost token leaves the job's span current on a
reused worker thread: later, unrelated work is parented to it, its attributes
leak between jobs, and the context stack grows on every call.

## Example
```python
def on_job_start(self, job):
    self._span = tracer.start_span(job)
    otel_context.attach(trace.set_span_in_context(self._span))

def on_job_end(self):
    self._span.end()
    otel_context.attach(self._parent_ctx)
```

## Use instead
```python
def on_job_start(self, job):
    self._span = tracer.start_span(job)
    self._token = otel_context.attach(trace.set_span_in_context(self._span))

def on_job_end(self):
    try:
        self._span.end()
    finally:
        otel_context.detach(self._token)
```

## Fix safety
Safe: the fix keeps the token and detaches it in a `finally` block.

## Source
OpenTelemetry Python API docs (`context.attach`/`detach`);
aws/aws-durable-execution-sdk-python#643 (fix PR #650).
"""

    def check(self, facts):
        is_det = _is_detach(facts)
        for call in _otel_attach_calls(facts):
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            fate = _token_fate(facts, call, fn, is_det)
            if fate.kind == "ok" or (fate.kind == "discarded" and _runs_in_task_context(facts, fn)):
                continue  # (a coroutine's attach dies with its task's Context)
            detach = _detach_text(facts, call)
            if fate.kind == "discarded":
                msg = ("`attach()` token is discarded: the attached context is never detached "
                       "(a second attach does not restore the parent; detach the token in `finally`)")
            elif fate.kind == "not_finally":
                msg = (f"context is detached only on the normal path (line {fate.release.lineno}), "
                       "not in `finally`: an exception leaves it attached")
            else:
                msg = "`attach()` token is never passed to `detach()`: the context stays attached"
            fix = None
            if fate.kind in ("discarded", "not_finally") and _followed_in_block(facts, call):
                fix = Fix(description="detach the token in a `finally` block", safety=SAFE,
                          codemod="otel_detach_finally",
                          data={"line": call.lineno, "col": call.col_offset, "detach": detach})
            yield facts.finding(self, call, msg, fix=fix)


# ---------------------------------------------------------------- CTX105
def _is_tracer_expr(facts, recv: ast.AST) -> bool:
    """`tracer`, `self._tracer`, `trace.get_tracer(__name__)`, `get_tracer_provider().get_tracer(..)`."""
    if isinstance(recv, ast.Call):
        q = facts.qualname(recv.func) or ""
        return q.split(".")[-1] == "get_tracer"
    d = facts.dotted(recv)
    return bool(d) and "tracer" in d.split(".")[-1].lower()


def _span_ends(facts, fn: ast.AST, names: set[str]) -> list[ast.Call]:
    return [n for n in facts.walk(fn, into_defs=True)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "end"
            and facts.dotted(n.func.value) in names]


def _use_span_ends(call: ast.Call) -> bool:
    for kw in call.keywords:
        if kw.arg == "end_on_exit":
            return not (isinstance(kw.value, ast.Constant) and kw.value.value is False)
    return False


class SpanNotEnded(Rule):
    code = "CTX105"
    name = "span-not-ended"
    summary = "tracer.start_span() whose span is not used in `with`, not ended on every path, nor handed to an owner."
    tokens = ("start_span",)
    doc = """\
## What it does
Flags `tracer.start_span(...)` (OpenTelemetry-style tracers: a receiver named
`*tracer*` or `get_tracer(...)`) whose span is thrown away, never `.end()`ed,
ended only after an early `return` can skip it, replaced by a new span before
it is ended, or stored on `self` without any method of the class ending it.
Not flagged: `with tracer.start_span(...)`, `with span:`, `trace.use_span(span,
end_on_exit=True)`, `.end()` in `finally`, a span returned or handed to another
owner (a call, a container, another object's attribute).

## Why is this bad
`start_span` (unlike `start_as_current_span` in a `with`) leaves ending to the
caller. An un-ended span is never exported, its attributes and events stay in
memory in the span processor, and the trace shows a request that never finished.

## Example
```python
def route(self, req):
    span = tracer.start_span("route")
    if not req.model:
        return None           # span never ended
    out = self._pick(req)
    span.end()
    return out
```

## Use instead
```python
def route(self, req):
    with tracer.start_as_current_span("route"):
        if not req.model:
            return None
        return self._pick(req)
```

## Fix safety
No automatic fix: where to end the span is a design decision.

## Source
OpenTelemetry Python API docs (`Tracer.start_span`: "the span must be ended");
aws/aws-durable-execution-sdk-python#643.
"""

    def check(self, facts):
        for call in facts.nodes(ast.Call):
            f = call.func
            if not (isinstance(f, ast.Attribute) and f.attr == "start_span" and _is_tracer_expr(facts, f.value)):
                continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            msg = self._problem(facts, call, fn)
            if msg:
                yield facts.finding(self, call, msg)

    def _problem(self, facts, call: ast.Call, fn) -> str | None:
        parent = facts.parents.get(call)
        if isinstance(parent, ast.withitem):
            return None
        if isinstance(parent, ast.Expr):
            return "span from `start_span()` is discarded and never ended"
        if isinstance(parent, ast.Call):
            if _last_name(parent.func) == "use_span" and not _use_span_ends(parent):
                return "span is made current with `use_span()` without `end_on_exit=True` and never ended"
            if _last_name(parent.func) == "set_span_in_context":
                return "span is put in a context but nothing keeps it to end it"
            return None
        if not (isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call):
            return None
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if len(targets) != 1:
            return None
        t = targets[0]
        if isinstance(t, ast.Attribute):
            d = facts.dotted(t)
            cls = facts.enclosing_class(call)
            if not d or d.split(".")[0] not in ("self", "cls") or cls is None:
                return None
            for meth in _class_functions(facts, cls):
                aliases = _aliases(facts, meth, d)
                if _span_ends(facts, meth, aliases) or self._escapes(facts, meth, aliases, skip=parent):
                    return None
            return f"span stored on `{d}` is never ended by any method of `{cls.name}`"
        if not isinstance(t, ast.Name):
            return None
        name = t.id
        ends = _span_ends(facts, fn, {name})
        if self._escapes(facts, fn, {name}, skip=parent):
            return None
        if not ends:
            return f"span `{name}` from `start_span()` is never ended"
        if any(_protected(facts, e, fn) for e in ends):
            return None
        start = _pos(call)
        # replaced before ended: another start_span into the same name with no end between
        for n in facts.walk(fn):
            if (isinstance(n, ast.Assign) and n is not parent and any(isinstance(x, ast.Name) and x.id == name for x in n.targets)
                    and _pos(n) > start and not any(start < _pos(e) < _pos(n) for e in ends)):
                if _is_loop_reassign(facts, parent, n):
                    continue
                return f"span `{name}` is replaced (line {n.lineno}) before it is ended"
        first_end = min(_pos(e) for e in ends)
        for n in facts.walk(fn):
            if isinstance(n, ast.Return) and start < _pos(n) < first_end:
                return f"span `{name}` is not ended on the early return at line {n.lineno}"
        return None

    @staticmethod
    def _escapes(facts, fn, names: set[str], skip) -> bool:
        """Is the span handed to an owner: returned, yielded, stored, passed to a call, `with span:`?"""
        for n in facts.walk(fn, into_defs=True):
            if not (isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load)
                    and facts.dotted(n) in names):
                continue
            p = facts.parents.get(n)
            if isinstance(p, ast.withitem) and p.context_expr is n:
                return True
            if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom)):
                return True
            if isinstance(p, ast.Call) and (n in p.args or any(k.value is n for k in p.keywords)):
                fname = _last_name(p.func)
                if fname == "use_span":
                    if _use_span_ends(p):
                        return True
                    continue
                if fname in ("set_span_in_context", "print", "isinstance", "getattr", "hasattr", "id", "repr", "str"):
                    continue
                return True
            if isinstance(p, (ast.Assign, ast.AnnAssign)) and p is not skip and p.value is n:
                tg = p.targets if isinstance(p, ast.Assign) else [p.target]
                if any(not isinstance(x, ast.Name) for x in tg):
                    return True
            if isinstance(p, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
                return True
        return False


def _is_loop_reassign(facts, first: ast.AST, second: ast.AST) -> bool:
    """Both assignments are the same statement position inside a loop (no real replacement)."""
    return first is second


# ---------------------------------------------------------------- CTX106
_CLEANUP_WORDS = frozenset({
    "remove", "close", "reset", "detach", "free", "release", "cancel", "unregister", "shutdown",
    "restore", "stop", "end", "clear", "delete", "unload", "teardown", "cleanup", "disconnect",
    "terminate", "kill", "unlink", "rmtree", "unpatch", "undo", "discard", "dispose",
    "deactivate", "disable", "uninstall", "unset", "unlock", "destroy", "pop", "aclose",
    "exit", "__exit__", "__aexit__", "rollback",
})
# Returning a pooled resource (`pool.put(conn)`, psycopg `putconn`, SQLAlchemy
# `checkin`): cleanup only when the argument is a name bound before the `yield`,
# since `queue.put(item)` of a fresh value is ordinary work.
_POOL_RETURN_WORDS = frozenset({"put", "put_nowait", "putconn", "checkin", "check_in", "give_back",
                                "giveback", "return_connection", "return_conn", "relinquish"})
_CLEANUP_PREFIXES = ("reset_", "restore", "remove_", "release_", "close_", "free_", "unregister",
                     "cleanup", "clean_up", "clear_", "delete_", "unload", "disable_", "detach_",
                     "teardown", "shutdown", "_restore", "_reset", "_remove", "_cleanup", "_release",
                     "unset", "unpatch", "unfreeze", "revert")


def _cleanup_in(facts, stmts, saved: set[str]) -> ast.AST | None:
    """First cleanup action in `stmts` (a cleanup call, a `del`, a restore of saved state)."""
    for s in stmts:
        for n in facts.walk(s):
            if isinstance(n, ast.Call):
                nm = _last_name(n.func)
                if nm == "detach" and not n.args:
                    continue  # tensor.detach(): not a release
                if nm in _CLEANUP_WORDS or nm.startswith(_CLEANUP_PREFIXES):
                    return n
                if (nm.startswith("set") or nm == "setattr") and any(
                        isinstance(a, ast.Name) and a.id in saved for a in n.args):
                    return n
                if (nm in _POOL_RETURN_WORDS or nm.startswith(("return_", "put_back", "give_back"))) and any(
                        isinstance(a, ast.Name) and a.id in saved
                        for a in [*n.args, *(k.value for k in n.keywords)]):
                    return n  # `pool.put(conn)`: the resource taken before the yield goes back
            elif isinstance(n, ast.Delete) and any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in n.targets):
                return n
            elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in saved and any(
                    isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets):
                return n
    return None


def _following_statements(facts, stmt: ast.stmt, fn: ast.AST):
    """Statements that run after `stmt` on the normal path, up to the end of `fn`.

    Stops climbing at a `try` whose `finally`/handlers protect `stmt` (the caller checks that).
    """
    out = []
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            break
        fld = _field_of(parent, node)
        if fld is not None:
            seq = getattr(parent, fld)
            idx = next(k for k, s in enumerate(seq) if s is node)
            for s in seq[idx + 1:]:
                if isinstance(s, (ast.Return, ast.Raise)):
                    return out
                out.append(s)
            if isinstance(parent, ast.Try) and fld == "body":
                out.extend(parent.orelse)
        node = parent
    return out


class ContextmanagerCleanupNotInFinally(Rule):
    code = "CTX106"
    name = "contextmanager-cleanup-not-in-finally"
    summary = "@contextmanager generator whose cleanup after `yield` is not in `finally`."
    tokens = ("contextmanager",)
    fix_safety = SAFE
    doc = """\
## What it does
In a `@contextlib.contextmanager` or `@asynccontextmanager` generator, flags a
`yield` that is not inside `try`/`finally` (or an except-all handler) when
cleanup follows it: a call such as `.remove()`, `close()`, `reset()`,
`detach()`, `free()`, `release()`, `cancel()`, `unregister()`, `shutdown()`,
`restore_*()`, a `del`, assigning back a value saved before the `yield`, or
returning to a pool a resource taken before it (`pool.put(conn)`, `putconn`,
`checkin`, `return_connection`, `give_back`).
A `yield` inside a `with` block whose context manager does the cleanup is fine
(pylint W0135's known false positive): only statements after the `yield` count.

## Why is this bad
The body of the `with` statement runs at the `yield`. If it raises, the
exception is thrown into the generator at the `yield` and the statements after
it never run: hooks stay registered on the model, the routing context stays set,
the KV blocks are never freed — for the rest of the process.

## Example
```python
@contextmanager
def adapter_routing(model, names):
    handles = [m.register_forward_pre_hook(route(names)) for m in model.modules()]
    yield
    for h in handles:
        h.remove()
```

## Use instead
```python
@contextmanager
def adapter_routing(model, names):
    handles = [m.register_forward_pre_hook(route(names)) for m in model.modules()]
    try:
        yield
    finally:
        for h in handles:
            h.remove()
```

## Fix safety
Safe: the fix wraps the `yield` in `try:` and moves the cleanup after it into `finally:`.

## Source
Python docs, `contextlib.contextmanager` ("use try...finally to ensure cleanup");
huggingface/peft#3475; pylint W0135 (contextmanager-generator-missing-cleanup).
"""

    def check(self, facts):
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not _is_contextmanager(facts, fn):
                continue
            saved = {t.id for n in facts.walk(fn) if isinstance(n, ast.Assign)
                     for t in n.targets if isinstance(t, ast.Name)}
            for y in _yields(facts, fn):
                if _protected(facts, y, fn, include_exception=True):
                    continue
                stmt = facts.enclosing_statement(y)
                before = {t.id for n in facts.walk(fn) if isinstance(n, ast.Assign) and _pos(n) < _pos(y)
                          for t in n.targets if isinstance(t, ast.Name)}
                cleanup = _cleanup_in(facts, _following_statements(facts, stmt, fn), before & saved)
                if cleanup is None:
                    continue
                what = facts.segment(cleanup).split("\n")[0][:60] or "cleanup"
                fix = Fix(description="wrap the `yield` in try/finally and move the cleanup into `finally`",
                          safety=SAFE, codemod="yield_in_finally",
                          data={"line": y.lineno, "col": y.col_offset})
                yield facts.finding(self, y, f"cleanup after `yield` (`{what}`, line {cleanup.lineno}) "
                                    "is not in `finally`: an exception in the with-body skips it", fix=fix)


# ---------------------------------------------------------------- CTX108
_REMOVE_WORDS = ("abort", "cancel", "cleanup", "clean_up", "remove", "release", "free", "discard",
                 "unregister", "close", "finish", "evict", "pop", "delete", "drop")


def _awaits_after(facts, fn, pos):
    out = []
    for n in facts.walk(fn):
        if isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)) and _pos(n) > pos:
            out.append(n)
    out.sort(key=_pos)
    return out


def _guard_removes(facts, node: ast.AST, fn, container, removal_methods: set[str]) -> bool:
    """Is `node` inside a `try` whose `finally`/cancellation handler removes from `container`?"""
    child = node
    for a in facts.ancestors(node):
        if a is fn:
            return False
        if (isinstance(a, ast.Try) or type(a).__name__ == "TryStar") and _field_of(a, child) in ("body", "orelse"):
            blocks = list(a.finalbody)
            for h in a.handlers:
                if _catches_all(h):
                    blocks.extend(h.body)
            for b in blocks:
                for n in facts.walk(b):
                    if any(r.node is n for r in container.removals):
                        return True
                    if isinstance(n, ast.Call):
                        nm = _last_name(n.func)
                        if nm in removal_methods or any(w in nm.lower() for w in _REMOVE_WORDS):
                            return True
        child = a
    return False


_SWEEP_WORDS = ("sweep", "expire", "evict", "reap", "gc", "timeout", "prune", "janitor")


def _removal_closure(facts, c) -> set[str]:
    """Names of the functions that remove from `c`, directly or by calling one that does."""
    names = set(c.removal_methods())
    scope = c.owner if c.owner is not None else facts.tree

    def compute():
        funcs = [n for n in facts.walk(scope, into_defs=True) if isinstance(n, FUNCS)]
        return {f.name: {_last_name(n.func) for n in facts.walk(f, into_defs=True) if isinstance(n, ast.Call)}
                for f in funcs}
    calls = facts.memo(f"lifecycle.calls_in.{id(scope)}", compute)
    changed = True
    while changed:
        changed = False
        for f, called in calls.items():
            if f not in names and called & names:
                names.add(f)
                changed = True
    names.discard("<module>")
    return names


_REQUEST_KEY_WORDS = ("request", "stream_id", "run_id", "call_id", "job_id", "_rid")


def _per_request_key(facts, key: ast.AST) -> bool:
    """Does the key name one request (a scope id such as `rid`/`request_id`/`session_id`,
    or a name saying request/stream/run/call/job id)?"""
    for n in ast.walk(key):
        if isinstance(n, (ast.Name, ast.Attribute)):
            d = facts.dotted(n) or ""
            last = d.split(".")[-1].lower()
            if facts.scope_id_in(d) or any(w in last for w in _REQUEST_KEY_WORDS):
                return True
    return False


def _key_names(site) -> set[str]:
    """Local names the inserted key and value are built from (`rid`, `req`, `state`)."""
    out: set[str] = set()
    for part in (site.key, site.value):
        if part is None:
            continue
        for n in ast.walk(part):
            if isinstance(n, ast.Name) and n.id not in ("self", "cls"):
                out.add(n.id)
    return out


def _spawns_between(facts, fn, start: ast.AST, end: ast.AST) -> bool:
    for n in facts.walk(fn):
        if isinstance(n, ast.Call) and _last_name(n.func) in ("create_task", "ensure_future", "create_background_task",
                                                             "run_coroutine_threadsafe", "start_soon"):
            if _pos(start) < _pos(n) < _pos(end):
                return True
    return False


def _hands_off(facts, aw: ast.AST, names: set[str], removal_methods: set[str]) -> bool:
    """Is the awaited call the hand-off of this request (it is passed the key or the state)?

    `await self.core.submit(rid, prompt)` after `self.live[rid] = state` is the
    window of vllm#57061: cancelled there, nobody downstream knows the request.
    Awaits unrelated to the entry (a lock, a sleep, a cleanup method) are not.
    """
    if not isinstance(aw, ast.Await) or not isinstance(aw.value, ast.Call):
        return False
    call = aw.value
    if _last_name(call.func) in removal_methods or _last_name(call.func) in ("shield", "sleep"):
        return False
    for a in [*call.args, *(k.value for k in call.keywords)]:
        for n in ast.walk(a):
            if isinstance(n, ast.Name) and n.id in names:
                return True
    return False


class RegistrationNotCancellationSafe(Rule):
    code = "CTX108"
    name = "registration-not-cancellation-safe"
    summary = "async def puts per-request state in a long-lived container, then awaits with no cancellation-safe removal."
    tokens = ("async",)
    doc = """\
## What it does
In an `async def`, flags an insertion of per-request state (keyed by a request,
session, stream or tenant id) into a long-lived container (`self.live[rid] = state` on an engine/frontend/manager, a module
dict) that the code removes elsewhere (an abort/finish path exists), when an
`await` follows the insertion outside any `try` whose `finally` or
`except BaseException`/`except CancelledError` removes the entry.

## Why is this bad
Any `await` is a cancellation point: a client disconnect or a timeout raises
`CancelledError` there. The code that would normally arrange the removal (the
caller's `except CancelledError`, the finish path) never learns about the
request, so the entry — and the prompt, the KV blocks and the queue it holds —
stays in the long-lived container forever.

## Example
```python
async def add(self, rid, prompt_ids):
    state = RequestState(rid, prompt_ids)
    self.live[rid] = state
    await self.core.submit(rid, prompt_ids)   # cancelled here: entry leaks
    return state.queue
```

## Use instead
```python
async def add(self, rid, prompt_ids):
    state = RequestState(rid, prompt_ids)
    self.live[rid] = state
    try:
        await self.core.submit(rid, prompt_ids)
    except BaseException:
        self.live.pop(rid, None)
        raise
    return state.queue
```

## Fix safety
No automatic fix: the right removal (pop, abort, release) depends on the container.

## Source
vllm-project/vllm#57061; Python docs, "asyncio: Task Cancellation".
"""

    def check(self, facts):
        for c in facts.long_lived_containers:
            if not c.removals or c.bounded:
                continue
            removal_methods = _removal_closure(facts, c)
            if any(w in m.lower() for m in removal_methods for w in _SWEEP_WORDS):
                continue  # a sweeper/expiry loop reaps abandoned entries
            for site in c.inserts:
                fn = site.function
                if not isinstance(fn, ast.AsyncFunctionDef) or site.key is None:
                    continue
                if not _per_request_key(facts, site.key):
                    continue  # a server/adapter/config registration, not one request's state
                if _guard_removes(facts, site.node, fn, c, removal_methods):
                    continue
                limit = None
                for r in c.removals:
                    if r.function is fn and _pos(r.node) > _pos(site.node) and not any(
                            isinstance(a, ast.ExceptHandler) for a in facts.ancestors(r.node)):
                        limit = _pos(r.node) if limit is None else min(limit, _pos(r.node))
                if any(r.function is not fn and r.function is not None
                       and fn in facts.ancestors(r.function) for r in c.removals):
                    continue  # a callback/task defined here removes the entry
                names = _key_names(site)
                for aw in _awaits_after(facts, fn, _pos(site.node)):
                    if limit is not None and _pos(aw) > limit:
                        break
                    if _guard_removes(facts, aw, fn, c, removal_methods):
                        continue
                    if _spawns_between(facts, fn, site.node, aw):
                        break  # a background task now owns the request
                    if not _hands_off(facts, aw, names, removal_methods):
                        continue
                    yield facts.finding(
                        self, site.node,
                        f"per-request entry put in long-lived `{c.name}` before an `await` (line "
                        f"{aw.lineno}) with no `finally`/`except BaseException` that removes it: "
                        "a cancellation there leaves the entry forever")
                    break


# ---------------------------------------------------------------- CTX109
class ContextVarResetAcrossYield(Rule):
    code = "CTX109"
    name = "contextvar-reset-across-yield"
    summary = "ContextVar set before a `yield` and reset after it in a generator: the reset may run in another Context."
    tokens = ("yield",)
    doc = """\
## What it does
In a generator or async generator (not a `@contextmanager`), flags
`token = var.set(...)` whose `var.reset(token)` comes after a `yield` — even
inside `finally`.

## Why is this bad
Each step of a generator runs in the Context of whoever resumes it. A streaming
response is resumed by the server's task, and closed (`aclose()`, garbage
collection) from yet another Context: `reset()` then raises `ValueError: <Token>
was created in a different Context`, and the value set for the request stays
bound in the resumer's Context — later requests see it. Meanwhile the value
leaks out at every `yield` into the consumer's code.

## Example
```python
async def stream(self, req):
    token = current_tenant.set(req.tenant_id)
    try:
        async for chunk in self.engine.generate(req):
            yield chunk
    finally:
        current_tenant.reset(token)
```

## Use instead
```python
async def stream(self, req):
    async for chunk in self.engine.generate(req, tenant_id=req.tenant_id):
        yield chunk
```
or set and reset within one step (between two `yield`s), or run the producer
in its own task with `contextvars.copy_context()`.

## Fix safety
No automatic fix: the value has to be passed explicitly or the work restructured.

## Source
PEP 568 (generator context sensitivity, deferred); PEP 567 notes on
generators; python/cpython#93442 and the Starlette/pytest-asyncio reports of
"Token was created in a different Context".
"""

    def check(self, facts):
        for call, fn in _contextvar_sets(facts):
            if _is_contextmanager(facts, fn) or not _is_generator(facts, fn):
                continue
            parent = facts.parents.get(call)
            if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1
                    and isinstance(parent.targets[0], ast.Name)):
                continue
            name = parent.targets[0].id
            for r in _cv_resets_of(facts, call, fn, name):
                if _across_yield(facts, call, fn, r):
                    var = facts.dotted(call.func.value)
                    yield facts.finding(self, call, f"`{var}` is set before a `yield` and reset after it "
                                        f"(line {r.lineno}): the generator can be resumed or closed in "
                                        "another Context, where the reset fails and the value leaks")
                    break
