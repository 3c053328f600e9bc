"""CTX204 thread-local-in-async: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.asyncness import async_only_functions
from ctxlint.semantic.python.stores import locals_of


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
    return facts.memo("ctx204.thread_locals", compute)


def _writes(facts, tls: set[str]) -> dict[str, list[tuple[ast.AST, ast.AST | None]]]:
    """Each thread-local's writes in the module: name -> [(write node, stored value or None
    for a delete)] — `tl.a = v`, `tl.a += v`, `setattr(tl, "a", v)`, `del tl.a`, `delattr(tl, "a")`."""
    out: dict[str, list] = {}
    for node in facts.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                if isinstance(el, ast.Attribute) and facts.dotted(el.value) in tls:
                    out.setdefault(facts.dotted(el.value), []).append((node, node.value))
    for node in facts.nodes(ast.Delete):
        for t in node.targets:
            if isinstance(t, ast.Attribute) and facts.dotted(t.value) in tls:
                out.setdefault(facts.dotted(t.value), []).append((node, None))
    for call in facts.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and call.func.id in ("setattr", "delattr") and call.args \
                and facts.dotted(call.args[0]) in tls:
            value = call.args[2] if call.func.id == "setattr" and len(call.args) > 2 else None
            out.setdefault(facts.dotted(call.args[0]), []).append((call, value))
    return out


def _absence_test(facts, test: ast.AST, tl: str, fn) -> bool:
    """Is `test` true only while the thread-local `tl` has no value yet: it is false once
    a flag of `tl` that `fn` itself fills is set (`not hasattr(tl, "a")`, `getattr(tl,
    "a", None) is None`, `tl.a is None`, or the same on a local read from `tl`:
    `flags.flags_unset_by`)? A test of some other attribute (`if not tl.draining:`) says
    nothing about whether what `fn` builds is there already."""
    from ctxlint.semantic.python.flags import flags_unset_by
    from ctxlint.semantic.python.requests import local_assignments
    try:
        obj = ast.dump(ast.parse(tl, mode="eval").body)
    except SyntaxError:
        return False
    filled = {repr(a) for a in _attrs_written_by(facts, fn, tl)}
    locals_ = local_assignments(facts, fn) if fn is not None else None
    return any(o == obj and a in filled for o, a in flags_unset_by(test, locals_))


def _attrs_written_by(facts, fn, tl: str) -> set[str]:
    """The attribute names `fn` (outside nested defs) stores into the thread-local `tl`:
    `tl.a = v` (also in a tuple target or an augmented assignment) and `setattr(tl, "a", v)`."""
    if fn is None:
        return set()
    out = set()
    for n in facts.walk(fn):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and facts.dotted(n.value) == tl:
            out.add(n.attr)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" \
                and len(n.args) >= 2 and facts.dotted(n.args[0]) == tl \
                and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str):
            out.add(n.args[1].value)
    return out


def per_thread_caches(facts, tls: set[str]) -> set[str]:
    """Thread-locals used as a lazily built per-thread (per event loop) cache: every write
    of the module stores a value built without the writing function's parameters, under a
    test that the thread-local has no value yet (`if not hasattr(tl, "pool"): tl.pool =
    Pool(config.ADDR)`), or deletes or clears it (`tl.pool = None` outside that test).
    Such a value (a connection pool, a store, an exit
    stack) belongs to the thread and its loop, never to one request: every task on the
    loop is meant to share it. A write from a parameter, from `self` or request-scoped
    state (`flask.g.user`, a `ContextVar.get()`), or without the guard (`tl.tenant =
    tenant_id`), or a delete in the writing def or a `finally` (a per-request lifetime),
    keeps the rule's verdict for that thread-local."""
    from ctxlint.semantic.python.instances import from_parameters
    out = set()
    def guarded(node, tl, fn) -> bool:
        return any(isinstance(a, ast.If) and _absence_test(facts, a.test, tl, fn)
                   and _in_body(facts, node, a) for a in facts.ancestors_until(node, fn)) \
            or _after_present_exit(facts, node, tl, fn)

    for tl, writes in _writes(facts, tls).items():
        ok = True
        # `tl.a = None` outside a first-use guard clears the cached value, as a delete
        # does (aioice's per-thread mDNS protocol: closed and set to None by the last
        # subscriber's unref); under the guard it is part of the initialisation
        writes = [(n, None) if isinstance(v, ast.Constant) and v.value is None and not isinstance(n, ast.AugAssign)
                  and facts.enclosing_function(n) is not None
                  and not guarded(n, tl, facts.enclosing_function(n)) else (n, v) for n, v in writes]
        writers = {id(facts.enclosing_function(n)) for n, v in writes if v is not None}
        for node, value in writes:
            fn = facts.enclosing_function(node)
            if value is None:
                if id(fn) in writers or any(node in getattr(a, "finalbody", ()) or any(
                        node is x for st in getattr(a, "finalbody", ()) for x in ast.walk(st))
                        for a in facts.ancestors(node) if isinstance(a, ast.Try)):
                    ok = False  # torn down by the def that built it, or in a `finally`: one request's
                    break
                continue  # a delete elsewhere (a close) ends the cached value
            if fn is None:
                continue  # module level: import time, one thread
            if isinstance(fn, ast.Lambda) or from_parameters(facts, fn, value) \
                    or not _module_built(facts, value, fn, tl=tl):
                ok = False
                break
            if not guarded(node, tl, fn):
                ok = False
                break
        if ok and writes:
            out.add(tl)
    return out


def _reads(facts, stmt: ast.AST, tl: str, attrs: set[str]) -> bool:
    """Does `stmt` (outside nested defs) read one of `attrs` of the thread-local `tl`
    (`tl.a`, `getattr(tl, "a")`)?"""
    for n in facts.walk(stmt):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and facts.dotted(n.value) == tl \
                and n.attr in attrs:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr") \
                and len(n.args) >= 2 and facts.dotted(n.args[0]) == tl \
                and isinstance(n.args[1], ast.Constant) and n.args[1].value in attrs:
            return True
    return False


_ABSENT_ERRORS = ("AttributeError", "LookupError", "KeyError", "Exception")


def _present_exit(facts, stmt: ast.AST, tl: str, fn) -> bool:
    """Is `stmt` an early exit taken while the thread-local `tl` already holds its value,
    so that the statements after it run only while it has none (or a stale one)?
    - `if <presence of tl>: return <the cached value>` (the negation of `_absence_test`:
      `if hasattr(tl, "pool"): return tl.pool`);
    - EAFP: `try:` whose body reads back an attribute that `fn` itself stores into `tl`
      and `return`s that value (`_returns_cached`; under any test: a staleness check such
      as `if tl.loop is loop: return lock`; a `return` of a nested def does not count,
      nor `return None` when busy), with a handler for the
      missing attribute (`except AttributeError: pass`) that falls through
      (pyrate-limiter's per-loop `asyncio.Lock`).
    A test or read of another attribute (`if tl.draining: return`) is no such exit: it
    says nothing about whether what `fn` builds is there."""
    attrs = _attrs_written_by(facts, fn, tl)
    if isinstance(stmt, ast.If) and stmt.body and isinstance(stmt.body[-1], ast.Return) and not stmt.orelse:
        neg = ast.UnaryOp(op=ast.Not(), operand=stmt.test)
        return _absence_test(facts, neg, tl, fn) and _returns_cached(facts, stmt.body[-1], tl, attrs, fn)
    if isinstance(stmt, ast.Try) and stmt.handlers and not stmt.finalbody:
        own = [b for b in stmt.body if not isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        if not any(_reads(facts, b, tl, attrs) for b in own):
            return False  # it must read back what `fn` fills, not some other flag
        if not any(isinstance(n, ast.Return) and _returns_cached(facts, n, tl, attrs, fn)
                   for b in own for n in facts.walk(b)):
            return False  # the early exit hands back the cached value (a return of this def)
        for h in stmt.handlers:
            names = [h.type] if not isinstance(h.type, ast.Tuple) else list(h.type.elts)
            if h.type is None or any((facts.dotted(t) or "") in _ABSENT_ERRORS for t in names):
                # the handler must fall through to the write: no return/raise in it
                if not any(isinstance(n, (ast.Return, ast.Raise)) for b in h.body for n in ast.walk(b)):
                    return True
    return False


def _returns_cached(facts, ret: ast.Return, tl: str, attrs: set[str], fn) -> bool:
    """Does `ret` hand back the thread's cached value: `return tl.a` (`getattr(tl, "a")`)
    for an attribute `a` that `fn` fills, or a local of `fn` bound from such a read
    (`lock = tl.lock` ... `return lock`)?"""
    from ctxlint.semantic.python.requests import local_assignments

    def cached(e) -> bool:
        if isinstance(e, ast.Attribute) and facts.dotted(e.value) == tl and e.attr in attrs:
            return True
        return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "getattr" \
            and len(e.args) >= 2 and facts.dotted(e.args[0]) == tl \
            and isinstance(e.args[1], ast.Constant) and e.args[1].value in attrs

    v = ret.value
    if v is None:
        return False
    if cached(v):
        return True
    if isinstance(v, ast.Name):
        bound = local_assignments(facts, fn).get(v.id, ())
        return bool(bound) and any(cached(b) for b in bound)
    return False


def _after_present_exit(facts, node: ast.AST, tl: str, fn) -> bool:
    """Is the write `node` preceded, in its own block or an enclosing one of `fn`, by a
    `_present_exit` statement: it runs only while the thread has no value yet?"""
    stmt = facts.enclosing_statement(node)
    for a in [stmt, *facts.ancestors_until(stmt, fn)]:
        parent = facts.parents.get(a)
        if parent is None:
            break
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and a in block:
                if any(_present_exit(facts, prev, tl, fn) for prev in block[:block.index(a)]):
                    return True
        if a is fn:
            break
    return False


def _module_built(facts, value: ast.AST, fn, depth: int = 3, tl: str | None = None) -> bool:
    """Is `value` built only from module-level state: every name in it is an import, a
    module global, a builtin, or a local of `fn` assigned from such (followed `depth`
    levels), never `self`/`cls`, and nothing in it is request-scoped (`flask.g.user`,
    a `ContextVar.get()`, an OTel span: `requests.request_scoped_value`)? A read of the
    thread-local `tl` itself (`lock = tl.lock`, the cached value read back) adds nothing
    of a request and counts as module-level."""
    from ctxlint.semantic.python.requests import local_assignments, request_scoped_value
    import builtins
    locals_ = local_assignments(facts, fn)
    if tl is not None and isinstance(value, ast.Attribute) and facts.dotted(value.value) == tl:
        return True  # the thread's own cached value, read back
    for n in ast.walk(value):
        if isinstance(n, (ast.Attribute, ast.Call, ast.Name)) and request_scoped_value(facts, n, fn):
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and _is_contextvar(facts, n.func.value):
            return False
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id in ("self", "cls"):
                return False
            if n.id in locals_:
                if depth <= 0 or not all(_module_built(facts, v, fn, depth - 1, tl) for v in locals_[n.id]):
                    return False
            elif not (n.id in facts.imports or n.id in facts.module_assignments or hasattr(builtins, n.id)
                      or any(getattr(d, "name", None) == n.id for d in facts.tree.body)):
                return False  # a loop variable, a with target, a closure cell: not known
    return True


def _is_contextvar(facts, expr) -> bool:
    from ctxlint.semantic.python.values import module_values
    try:
        from ctxlint.semantic.python.values import CONTEXTVAR
        return module_values(facts).is_kind(expr, CONTEXTVAR)
    except Exception:
        return False


def _in_body(facts, node, if_node: ast.If) -> bool:
    stmt = facts.enclosing_statement(node)
    for a in [stmt, *facts.ancestors(stmt)]:
        if a in if_node.body:
            return True
        if a is if_node:
            return False
    return False


class ThreadLocalInAsync(Rule):
    code = "CTX204"
    manifest = "reached"
    reported_when = (
        'the coroutine that reads or writes the thread-local is reached from an entry point (route, handler, task): concurrent requests on one event-loop thread share it.'
    )
    name = "thread-local-in-async"
    summary = "threading.local read or written in async code: every task on the loop thread shares it."
    tokens = ("threading",)  # a thread-local needs `threading` (or `_threading_local`) imported
    doc = """\
## What it does
Flags every read or write of a `threading.local()` (module-level, class-level,
or `self.` attribute; also instances of a `threading.local` subclass) inside an
`async def`, or inside a sync function that in this file is only called from
async code. A call made inside a lambda handed to a worker thread
(`asyncio.to_thread(lambda: self._client())`, `loop.run_in_executor(None, lambda:
...)`, `executor.submit`, `threading.Thread(target=lambda: ...)`) runs off the loop:
it does not make its callee async-only.

Not reported: a thread-local used as a lazily built per-thread cache, where
every write of the module stores a value built without the writing function's
parameters, under a test that the thread-local has no value yet (`if not
hasattr(tl, "pool"): tl.pool = Pool(config.ADDR)`; `pool = getattr(tl, "pool",
None)` / `if pool is None:`, a clear `tl.pool = None` outside the test counting as a
delete; or after an early exit taken while it has one: `if
hasattr(tl, "pool"): return tl.pool`, or `try: ... return tl.lock except AttributeError:
pass`, pyrate-limiter's per-loop `asyncio.Lock`) from module-level state only (imports, module
globals, builtins: not `self`, `flask.g`, a `ContextVar.get()`), or deletes it
outside the writing function and outside a `finally` (a close). A connection pool, store or exit
stack made once per thread belongs to that thread's loop, and every task on it
is meant to share it. One write from a parameter, or without the test
(`tl.user = request.headers["x-user"]`), keeps every finding on that thread-local.

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
        tls = tls - per_thread_caches(facts, tls)
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
            if isinstance(node.value, ast.Name) and node.value.id in locals_of(facts, fn):
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

