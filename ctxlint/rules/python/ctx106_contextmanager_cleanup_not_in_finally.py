"""CTX106 contextmanager-cleanup-not-in-finally: cleanup after `yield` that an
exception in the with-body skips."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.requests import is_asgi_lifespan, local_assignments
from ctxlint.semantic.python.values import module_values
from ctxlint.semantic.python.cleanup import (
    catches_cancellation,
    field_of,
    exit_stack_cover,
    reraises,
    following_statements,
    is_cleanup_name,
    tested_as_condition,
    is_contextmanager,
    is_pool_return_name,
    PROCESS_EXITS,
    last_name,
    pos,
    protected,
    yields,
)


class ContextmanagerCleanupNotInFinally(Rule):
    code = "CTX106"
    manifest = "reached"
    reported_when = (
        'the context manager is reached from an entry point (route, handler, task, thread, gRPC method, consumer), so a failing body skips the cleanup once per request.'
    )
    name = "contextmanager-cleanup-not-in-finally"
    summary = "@contextmanager generator whose cleanup after `yield` is not in `finally`."
    tokens = ("contextmanager",)
    fix_safety = SAFE
    doc = """\
## What it does
In a `@contextlib.contextmanager` or `@asynccontextmanager` generator, flags a
`yield` that is not inside `try`/`finally` (or an except-all handler) when
cleanup follows it: a call that releases, closes, resets, detaches, removes or
unregisters (`h.remove()`, `conn.close()`, `var.reset(tok)`, a helper of this
module whose summary removes from a long-lived container or releases the value it
is given), a `del`, assigning back a value saved before the `yield`, or returning
to a pool a resource taken before it (`pool.put(conn)`, `putconn`, `checkin`).
A `yield` inside a `with` block whose context manager does the cleanup is fine
(pylint W0135's known false positive): only statements after the `yield` count.
Likewise `t.cancel()` of a task a task group made (`t = tg.create_task(...)` with
`async with TaskGroup() as tg` around the `yield`): the group's exit cancels or
awaits its children on every path. A group class of the same file must show that in
its `__aexit__`; a task made on a plain loop or by `asyncio.create_task` inside the
`async with` body is still the generator's to cancel.

Not flagged: a `yield` in a `try` whose except-all handler does cleanup of its
own (`except BaseException: pool.remove(conn); raise` / `else: pool.put(conn)`),
and an ASGI app's lifespan handler (`FastAPI(lifespan=...)`, or a first
parameter annotated `FastAPI`/`Starlette`): the server exits it normally at
shutdown, and an exception reaches its `yield` only when the process is ending.
Nor is cleanup of an object the generator made and keeps to itself whose class
cleans up when collected (`io.StringIO`/`BytesIO`, `tempfile.TemporaryDirectory`
and temporary files, tqdm bars): the exception ends the generator's frame, and in
CPython the object's finalizer runs then and there (`shutil.rmtree(tmp.name)`,
`bar.close()`).

Nor is a write-back of the object the `yield` handed the caller (`state = await
self.get_state(token); yield state; await self.set_state(token, state)`, `store[k] =
record` after `yield record`): saving the caller's edits only when its block
succeeded is commit-on-success, not a release the exception skips (the yielded object
must be the last argument of a `set*` call that no summary shows releasing). A call
with no arguments whose answer is an `if` test (`if self.protocol.close_expected():`)
asks rather than undoes; one given arguments (`if d.pop(k, None) is None:`) or driving a
`while` still counts. Ending the process with an exit status (`sys.exit(1)` when a
check found differences) is not cleanup either. Work in the `else:` of a `try` around
the `yield` whose `except Exception`/bare handler falls through (handles the error
without re-raising), and error handling under a flag that is falsy at the `yield`
(`raise_close_exc = False`, set only by the handlers), are the author's success and
error paths, unless the call is a release by name or by its summary. So is a call after
the `yield` in the body of a `try` whose `finally:` does cleanup of its own, when the
call acts on nothing the generator bound before the `yield` (datasets'
`incomplete_dir`: `finally: shutil.rmtree(tmp_dir)` cleans up on every path, and
`shutil.rmtree(dirname)` of the old destination, a parameter, is the commit that swaps
the new directory in); a release of what the generator acquired before the `yield`
(`conn.close()` of `conn = pool.connect()` beside `finally: lock.release()`) is still
reported.

Nor is cleanup that a `contextlib.ExitStack`/`AsyncExitStack` around the `yield`
already holds: the same callable registered before the `yield` with `callback` /
`push_async_callback` / `push` (`stack.push_async_callback(self.stop, join=False)`
... `yield` ... `stack.pop_all(); await self.stop(join=join)`), or a method of (or a
call handed) an object the stack entered with `enter_context` /
`enter_async_context` / `push` (`conn = stack.enter_context(closing(connect()))` ...
`conn.close()`). The stack's `with` exits on the exceptional path too, so that path
is covered; what runs after the `yield` is the success path's. Still flagged: other
cleanup after the `yield`, a stack whose `with` ends before the `yield`, and
registrations emptied (`pop_all()`, `close()`) before the `yield`.

This is the rule for cleanup in a context-manager generator. A streaming
generator handed to a response that releases its slot or upstream response only
after its loop is CTX110; a ContextVar reset after a `yield` in a plain generator
is CTX109.

Not reported: removing a file inside a `with tempfile.TemporaryDirectory() as d`
that encloses the `yield` (the directory's exit removes it anyway). No fix is offered
when the cleanup lies outside the block the codemod would wrap.

Not checked: the project's own test modules (`test_*.py`, `*_test.py`, `conftest.py`,
pytest's collection names: `PythonFacts.is_test_module`); a leftover there reaches only
the later tests of a run that has already failed (blind reviews: 14 of 15 such findings
harmless). A testing utility the package ships for its users (`pytest_plugin.py`,
`testing.py`) is still checked: its leftovers reach their suites.

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
Offered only when the cleanup follows the `yield` in the same block: a cleanup after an
enclosing `try` (the `yield` inside `try: yield conn; conn.commit()`) would have the
codemod move the commit instead, so no fix is offered there. Nor when the cleanup
returns, breaks, asserts or raises: in `finally` an `assert` that fails while the
with-body's exception propagates would replace that exception with a bare
`AssertionError` (aiostream). The comments between the `yield` and the cleanup move
with it.

## Source
Python docs, `contextlib.contextmanager` ("use try...finally to ensure cleanup");
huggingface/peft#3475; pylint W0135 (contextmanager-generator-missing-cleanup).
"""

    def check(self, facts):
        if facts.is_test_module:
            return  # the project's own tests: a leftover reaches only later tests of a failed run
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not is_contextmanager(facts, fn) or is_asgi_lifespan(facts, fn):
                continue
            assigned = [n for n in facts.walk(fn) if isinstance(n, ast.Assign)]
            for y in yields(facts, fn):
                if protected(facts, y, fn, include_exception=True):
                    continue
                stmt = facts.enclosing_statement(y)
                before = {t.id for n in assigned if pos(n) < pos(y) for t in n.targets if isinstance(t, ast.Name)}
                if _handled_by_except_all(facts, y, fn, before):
                    continue
                cleanup = _cleanup_in(facts, following_statements(facts, stmt, fn), before, y, fn)
                if cleanup is None:
                    continue
                what = facts.segment(cleanup).split("\n")[0][:60] or "cleanup"
                # the codemod moves what follows the `yield` in its own block: only when the
                # cleanup is there (not after an enclosing `try`, where it would move a commit)
                same_block = not _try_between(facts, stmt, cleanup, fn) and _in_moved_block(facts, stmt, cleanup, fn) \
                    and _movable(_moved_statements(facts, stmt, fn))
                fix = Fix(description="wrap the `yield` in try/finally and move the cleanup into `finally`",
                          safety=SAFE, codemod="yield_in_finally",
                          data={"line": y.lineno, "col": y.col_offset}) if same_block else None
                yield facts.finding(self, y, f"cleanup after `yield` (`{what}`, line {cleanup.lineno}) "
                                    "is not in `finally`: an exception in the with-body skips it", fix=fix)


def _handled_by_except_all(facts, y: ast.AST, fn, saved: set[str]) -> bool:
    """Is the `yield` in the body of a `try` whose except-all handler (bare,
    `BaseException`, `Exception`) does cleanup of its own? Then the exceptional path
    is the author's (`except BaseException: pool.remove(conn); raise` with the
    normal-path `pool.put(conn)` in `else:`), and cleanup after the `try` is the
    normal path's. A handler that re-raises must also do the cleanup that follows the
    `try` (it skips it): `except Exception: conn.rollback(); raise` then
    `pool.putconn(conn)` after the `try` still leaks the connection."""
    child = y
    for a in facts.ancestors(y):
        if a is fn:
            return False
        if isinstance(a, ast.Try) and any(s is child for s in a.body):
            for h in a.handlers:
                if catches_cancellation(h, include_exception=True) and _cleanup_in(facts, h.body, saved) is not None:
                    if reraises(h.body):
                        # a handler that re-raises skips what follows the `try`: it covers
                        # the error path only if it does that cleanup too (`rollback();
                        # raise` with `pool.putconn(conn)` after the `try` leaks the conn)
                        # (judged for a resource handed back to its pool, `pool.putconn(conn)`:
                        # an undo of another kind, `restore_database(cleanup=True)`, may well
                        # include the cleanup, which this module cannot always see)
                        after = _cleanup_in(facts, following_statements(facts, a, fn), saved, y, fn)
                        if isinstance(after, ast.Call) and is_pool_return_name(last_name(after.func)) \
                                and not _repeated_in(facts, after, h.body):
                            continue
                    return True
        child = a
    return False


def _try_between(facts, stmt: ast.AST, cleanup: ast.AST, fn) -> bool:
    """Is there a `try` around the `yield`'s statement `stmt` that does not also hold the
    cleanup (the cleanup follows that `try`)?"""
    inside = set(map(id, facts.ancestors(cleanup)))
    for a in facts.ancestors(stmt):
        if a is fn:
            return False
        if isinstance(a, ast.Try) and id(a) not in inside:
            return True
    return False


def _moved_statements(facts, stmt: ast.AST, fn) -> list:
    """What the codemod moves into `finally`: the statements after the `yield`'s
    statement `stmt` (or after the innermost enclosing statement that has any) in its
    own block."""
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            return []
        fld = field_of(parent, node)
        if fld is not None:
            seq = getattr(parent, fld)
            idx = next(k for k, x in enumerate(seq) if x is node)
            if seq[idx + 1:]:
                return seq[idx + 1:]
        node = parent
    return []


def _movable(stmts: list) -> bool:
    """Can `stmts` run in `finally` with the meaning they had after the `yield`? Not when
    they return, yield, break or continue out of it (those change meaning there), nor
    when they assert or raise: in `finally` that error would replace the with-body's own
    exception with a bare `AssertionError` (aiostream, issue 35). Nested defs and
    classes do not count; a loop's own break/continue do not either."""
    def walk(node, loops: int) -> bool:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(child, (ast.Return, ast.Yield, ast.YieldFrom, ast.Assert, ast.Raise)):
                return False
            if isinstance(child, (ast.Break, ast.Continue)) and not loops:
                return False
            inner = loops + isinstance(child, (ast.For, ast.AsyncFor, ast.While))
            if not walk(child, inner):
                return False
        return True
    return bool(stmts) and all(walk(ast.Module(body=[s], type_ignores=[]), 0) for s in stmts)


def _in_moved_block(facts, stmt: ast.AST, cleanup: ast.AST, fn) -> bool:
    """Does the cleanup lie in what the codemod moves into `finally`: the statements that
    follow the `yield`'s statement `stmt` (or the innermost enclosing statement that has
    any) in its own block? A cleanup after an enclosing `with` (`os.unlink(tmp)` past
    `with tmp.open() as f: yield f; f.flush()`) is not, and moving the flush instead
    would fix nothing."""
    inside = set(map(id, facts.ancestors(cleanup))) | {id(cleanup)}
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            return False
        fld = field_of(parent, node)
        if fld is not None:
            seq = getattr(parent, fld)
            idx = next(k for k, x in enumerate(seq) if x is node)
            if seq[idx + 1:]:
                return any(id(x) in inside for x in seq[idx + 1:])
        node = parent
    return False


def _repeated_in(facts, call: ast.AST, stmts) -> bool:
    """Does a call with the same callee text as `call` (`pool.putconn`) occur in `stmts`?"""
    if not isinstance(call, ast.Call):
        return True  # a `del`/restore: judged as before
    want = ast.dump(call.func)
    return any(isinstance(n, ast.Call) and ast.dump(n.func) == want for st in stmts for n in ast.walk(st))


def _cleanup_in(facts, stmts, saved: set[str], y: ast.AST | None = None, fn=None) -> ast.AST | None:
    """First cleanup action in `stmts` (a cleanup call, a `del`, a restore of a value
    `saved` before the `yield`).

    With the `yield` `y` and its function `fn` given, three things are not cleanup
    the `yield` can skip: a call on a resource an enclosing `with`/`async with` of
    the `yield` manages (`tg.cancel_scope.cancel()` inside `async with
    create_task_group() as tg`: its `__aexit__` handles the exceptional path), a
    cleanup of a self-finalizing object the generator made and keeps to itself
    (`_self_finalizing`: an in-memory buffer, a `tempfile.TemporaryDirectory`, a
    progress bar), and a write-back (`store[k] = record` or `await self.set_state(token,
    state)` of the `record`/`state` the `yield` handed the caller: saving the caller's
    edit only on success is the point). Nor is
    cleanup that a `contextlib` exit stack around the `yield` registered before it
    also does (`cleanup.exit_stack_cover`: `stack.push_async_callback(self.stop,
    join=False)` ... `yield` ... `stack.pop_all(); await self.stop(join=True)`): the
    stack's exit runs it when the with-body raises."""
    graph = call_graph(facts)
    managed = _with_managed_names(facts, y, fn) if y is not None else set()
    owned = _group_tasks(facts, fn, y) if y is not None else set()
    stacked = exit_stack_cover(facts, y, fn) if y is not None else None
    for s in stmts:
        for n in facts.walk(s):
            if isinstance(n, ast.Call):
                nm = last_name(n.func)
                root = _root_name(n.func.value) if isinstance(n.func, ast.Attribute) else None
                if root is not None and (root in managed or (fn is not None and _self_finalizing(facts, root, fn, y))):
                    continue
                if stacked and stacked.covers(facts, n):
                    continue  # an exit stack around the `yield` does it on the exceptional path
                if nm == "cancel" and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                        and n.func.value.id in owned:
                    continue  # a task of the enclosing task group: the group's exit cancels it
                func_root = root if root is not None else (n.func.id if isinstance(n.func, ast.Name) else None)
                if fn is not None and n.args and func_root in facts.imports \
                        and _self_finalizing(facts, _root_name(n.args[0]), fn, y):
                    continue  # `shutil.rmtree(tmpdir.name)` of a TemporaryDirectory: its finalizer does it
                if y is not None and fn is not None and _in_temporary_directory(facts, n, y, fn):
                    continue  # `os.unlink(tmp_path)` of a file in the `with TemporaryDirectory()` around the yield
                if nm == "detach" and not n.args:
                    continue  # tensor.detach(): not a release
                if y is not None and fn is not None and _made_after_yield(facts, n, y, fn):
                    continue  # `p = write_signal_file(...)` after the yield: nothing existed to undo
                if (facts.qualname(n.func) or "") in PROCESS_EXITS and isinstance(n.func, ast.Attribute):
                    continue  # `sys.exit(1)` after a check: the program's verdict, not an undo
                if tested_as_condition(facts, n):
                    continue  # `if self.protocol.close_expected():` asks, it does not undo
                target = graph.resolve(n)
                summ = graph.summary(target) if target is not None else None
                if summ is not None and (summ.removes or summ.releases):
                    return n  # a helper of this module that removes or releases
                if y is not None and nm.startswith("set") and n.args and isinstance(n.args[-1], ast.Name) \
                        and _yielded(y, n.args[-1].id):
                    continue  # `await self.set_state(token, state)` of the yielded state: a write-back
                if y is not None and fn is not None and _success_only(
                        facts, n, y, fn, releases=is_cleanup_name(nm) or is_pool_return_name(nm)):
                    continue
                if is_cleanup_name(nm):
                    return n
                builtin_set = isinstance(n.func, ast.Name) and n.func.id in ("set", "frozenset") \
                    and n.func.id not in facts.imports and n.func.id not in facts.module_assignments
                if (nm.startswith("set") or nm == "setattr") and not builtin_set and any(
                        isinstance(a, ast.Name) and a.id in saved for a in n.args):
                    return n  # (the builtin `set(names)` builds a set: it restores nothing)
                if is_pool_return_name(nm) and any(
                        isinstance(a, ast.Name) and a.id in saved
                        for a in [*n.args, *(k.value for k in n.keywords)]):
                    return n  # `pool.put(conn)`: the resource taken before the yield goes back
            elif isinstance(n, ast.Delete) and any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in n.targets):
                return n
            elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in saved and any(
                    isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets):
                if y is not None and _yielded(y, n.value.id):
                    continue  # the yielded object written back: saving the caller's edit, not a restore
                return n
    return None


def _in_temporary_directory(facts, call: ast.Call, y: ast.AST, fn) -> bool:
    """Does cleanup `call` act on a path inside a temporary directory that a `with
    tempfile.TemporaryDirectory(...) as d` around the `yield` `y` removes on exit: its
    receiver or first argument is `d` itself or a local every assignment of which is
    built from `d` (`tmp_path = Path(d) / name`, `os.path.join(d, name)`)? wandb's
    `safe_open` writes through a file in such a directory and unlinks it after the
    `yield`: when the with-body raises, the directory's exit removes the file with it."""
    dirs: set[str] = set()
    for a in facts.ancestors(y):
        if a is fn:
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                if isinstance(item.optional_vars, ast.Name) and isinstance(item.context_expr, ast.Call) \
                        and (facts.qualname(item.context_expr.func) or "") == "tempfile.TemporaryDirectory":
                    dirs.add(item.optional_vars.id)
    if not dirs:
        return False
    subject = call.func.value if isinstance(call.func, ast.Attribute) and not (
        isinstance(call.func.value, ast.Name) and call.func.value.id in facts.imports) else \
        (call.args[0] if call.args else None)
    root = _root_name(subject) if subject is not None else None
    if root is None:
        return False
    if root in dirs:
        return True
    stores = [facts.parents.get(n) for n in facts.walk(fn) if isinstance(n, ast.Name) and n.id == root
              and isinstance(n.ctx, ast.Store)]
    return bool(stores) and all(
        isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name)
        and any(isinstance(m, ast.Name) and m.id in dirs for m in ast.walk(b.value)) for b in stores)


def _made_after_yield(facts, call: ast.Call, y: ast.AST, fn) -> bool:
    """Does cleanup `call` act only on what the generator makes after the `yield`: every
    local name it reads (its receiver's root, its arguments) is bound in `fn` only after
    `y`, each time to a call's result, and is no parameter? composer's
    `busy_wait_for_local_rank_zero` writes its signal file after the `yield` and removes
    it at the end: when the with-body raises, the file was never written, so there is
    nothing the `finally` would have to undo. A name bound after the `yield` from
    something older (`h = self.handle`) is not made there, and still counts."""
    a = fn.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None}
    names = set()
    recv = _root_name(call.func.value) if isinstance(call.func, ast.Attribute) else None
    if recv is not None:
        names.add(recv)
    for arg in (*call.args, *(k.value for k in call.keywords)):
        root = _root_name(arg)
        if root is not None:
            names.add(root)
    names -= set(facts.imports)
    if not names or names & params:
        return False
    for name in names:
        stores = [n for n in facts.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
        if not stores or any(pos(n) < pos(y) for n in stores):
            return False
        binds = [facts.parents.get(n) for n in stores]
        if not all(isinstance(b, (ast.Assign, ast.AnnAssign)) and isinstance(b.value, ast.Call) for b in binds):
            return False  # a loop/`with` target, a walrus or a tuple unpacking: not plainly made here
    return True


def _root_name(expr: ast.AST) -> str | None:
    """`tg` for `tg.cancel_scope`, `f` for `f`: the name an attribute chain starts from."""
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _with_managed_names(facts, y: ast.AST, fn) -> set[str]:
    """Names bound by `with ... as name` / `async with ... as name` statements that
    enclose the `yield` `y` inside `fn`."""
    out: set[str] = set()
    for a in facts.ancestors(y):
        if a is fn:
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                if item.optional_vars is not None:
                    out |= {x.id for x in ast.walk(item.optional_vars) if isinstance(x, ast.Name)}
    return out


def _group_tasks(facts, fn, y: ast.AST) -> set[str]:
    """Names of `fn` whose every value is a task a task group enclosing the `yield` `y`
    made: a method call on a name bound by `async with X(...) as tg` around the
    `yield` (`t = tg.create_task(...)`, `t = tg.infinite_loop(...)`, awaited or not;
    `None` placeholders allowed). The group's `__aexit__` runs on every exit path,
    the exceptional one included, and cancels or awaits its leftover children
    (asyncio.TaskGroup, anyio task groups, a project's own TaskContext), so
    `t.cancel()` after the `yield` is only the normal path's. When the group's class
    is defined in this file, its `__aexit__` (or a method it reaches through `self.`)
    must itself cancel, gather or wait for tasks; an imported class bound by
    `async with` is trusted to own what it creates, as the stdlib and anyio groups do.
    A task made on a plain loop or by `asyncio.create_task` inside the same `async
    with` body is not the group's."""
    groups: set[str] = set()
    for a in facts.ancestors(y):
        if a is fn:
            break
        if isinstance(a, ast.AsyncWith):
            for item in a.items:
                if isinstance(item.optional_vars, ast.Name) and _owns_children(facts, item.context_expr):
                    groups.add(item.optional_vars.id)
    if not groups:
        return set()
    values = local_assignments(facts, fn)

    def from_group(v: ast.AST) -> bool:
        if isinstance(v, ast.Await):
            v = v.value
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
            and isinstance(v.func.value, ast.Name) and v.func.value.id in groups

    out = set()
    for name, vs in values.items():
        real = [v for v in vs if not (isinstance(v, ast.Constant) and v.value is None)]
        if real and all(from_group(v) for v in real):
            out.add(name)
    return out


def _owns_children(facts, expr: ast.AST) -> bool:
    """May the object `async with expr` binds own the tasks it creates? True for
    anything not a class of this file; for a class of this file, when its
    `__aexit__` (or a method it calls through `self.`: `ModuleValues.self_closure`)
    calls `cancel()`, `gather`, `wait` or `wait_for`."""
    func = expr.func if isinstance(expr, ast.Call) else expr
    cls = facts.classes_by_name.get(func.id) if isinstance(func, ast.Name) else None
    if cls is None:
        return True
    values = module_values(facts)
    aexit = values.lookup_method(cls, "__aexit__")
    return aexit is not None and any(
        isinstance(n, ast.Call) and last_name(n.func) in ("cancel", "gather", "wait", "wait_for")
        for m in values.self_closure(aexit) for n in facts.walk(m, into_defs=True))


def _self_finalizing(facts, name: str | None, fn, y: ast.AST | None) -> bool:
    """Is `name` a local of the generator `fn` whose every value is a new object that
    cleans itself up when collected (`SELF_FINALIZING`), and that never leaves the
    generator (not yielded, returned, stored on an attribute or in a container, passed
    on)? When the with-body raises, the exception ends the generator's frame, and in
    CPython the object is collected then and there: its finalizer does the skipped
    cleanup at once (`tempfile.TemporaryDirectory` removes its directory through
    `weakref.finalize`; tqdm's `__del__` closes the bar; an in-memory buffer holds no OS
    resource at all)."""
    if not name:
        return False
    values = [n.value for n in facts.walk(fn) if isinstance(n, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if not values or not all(isinstance(v, ast.Call) and _finalizing_class(facts, v.func) for v in values):
        return False
    if all((facts.qualname(v.func) or "") in _BUFFERS for v in values):
        return True  # in-memory: its close() releases no OS resource, wherever it goes
    if y is not None and _hands_out(getattr(y, "value", None), name):
        return False
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and _hands_out(n.value, name):
            return False
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id == name:
            return False  # aliased or stored: it may outlive the frame
        if isinstance(n, ast.Call) and any(isinstance(a, ast.Name) and a.id == name
                                           for a in [*n.args, *(k.value for k in n.keywords)]):
            return False  # handed whole to another call, which may keep it
    return True


def _finalizing_class(facts, func: ast.AST) -> bool:
    """Is `func` a `SELF_FINALIZING` class, or a class of this module derived from one?"""
    q = facts.qualname(func) or ""
    if q in SELF_FINALIZING:
        return True
    cls = facts.classes_by_name.get(func.id) if isinstance(func, ast.Name) else None
    return cls is not None and any((facts.qualname(b) or "") in SELF_FINALIZING for b in cls.bases)


#: In-memory file objects: `close()` releases no OS resource (Python docs, `io`).
_BUFFERS = frozenset({"io.StringIO", "io.BytesIO"})
#: Classes whose instances clean up after themselves when collected: in-memory file
#: objects (`close()` releases no OS resource, Python docs `io`), `tempfile`'s
#: temporary directory (removed by a `weakref.finalize`) and files (deleted on close,
#: which their finalizer does; Python docs `tempfile`), and tqdm's progress bars
#: (`tqdm.__del__` calls `close()`, tqdm docs).
SELF_FINALIZING = frozenset({"io.StringIO", "io.BytesIO", "tempfile.TemporaryDirectory",
                             "tempfile.NamedTemporaryFile", "tempfile.TemporaryFile",
                             "tempfile.SpooledTemporaryFile", "tqdm.tqdm", "tqdm.auto.tqdm",
                             "tqdm.std.tqdm", "tqdm.asyncio.tqdm"})


def _success_only(facts, n: ast.AST, y: ast.AST, fn, releases: bool = False) -> bool:
    """Does the call `n` after the `yield` `y` run only on a path the with-body's
    exception never needed?
    - it is in the `else:` of a `try` around the `yield` that also has an `except
      Exception`/bare handler which does not re-raise (the author handles the
      exceptional path there and falls through), and it is no release by name
      (`releases`; a summary's release is checked before): Python runs that clause
      only when the body raised nothing;
    - it is under `if flag:` where `flag` is a local of `fn` that every assignment before
      the `yield` sets to a falsy constant (`raise_close_exc = False`; every binding a
      plain `flag = <constant>`) and only code after
      the `yield` sets otherwise (the `except` handlers, a failed send): the call is
      error handling for what happens after the body, and on the path where the body
      raises the flag is still falsy, so it would not run there anyway;
    - it follows the `yield` in the body of a `try` whose `finally:` does cleanup of its
      own, and it acts on nothing the generator bound before the `yield` (only
      parameters, attributes, module names): the author split the exceptional path's
      cleanup (`finally: shutil.rmtree(tmp_dir)`) from the success path's commit
      (`shutil.rmtree(dirname)` of the old directory the new one replaces). A release of
      something acquired before the `yield` (`conn.close()` of `conn = pool.get()`) is
      still reported: the `finally` does not cover it."""
    for a in facts.ancestors(n):
        if a is fn:
            break
        if isinstance(a, ast.Try) and a.finalbody and any(y in ast.walk(st) for st in a.body) \
                and any(n in ast.walk(st) for st in a.body) and pos(n) > pos(y) \
                and _cleanup_in(facts, a.finalbody, set()) is not None \
                and not (_names_in(n) & _bound_before(facts, fn, y)):
            return True
        if not releases and isinstance(a, ast.Try) and any(y in ast.walk(st) for st in a.body) \
                and any(n in ast.walk(st) for st in a.orelse) \
                and any(catches_cancellation(h, include_exception=True) and not reraises(h.body) for h in a.handlers):
            return True
        if isinstance(a, ast.If) and isinstance(a.test, ast.Name) and not any(y in ast.walk(st) for st in a.body):
            if _flag_falsy_at(facts, a.test.id, y, fn):
                return True
    return False


def _names_in(n: ast.AST) -> set[str]:
    """The plain names read anywhere in the expression `n` (receivers and arguments)."""
    return {x.id for x in ast.walk(n) if isinstance(x, ast.Name)}


def _bound_before(facts, fn, y: ast.AST) -> set[str]:
    """Names `fn` binds itself before the `yield` `y` (assignments, `with ... as`, loop
    targets): what the generator acquired, as opposed to its parameters."""
    out: set[str] = set()
    for x in facts.walk(fn):
        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store) and pos(x) < pos(y):
            out.add(x.id)
    return out


def _flag_falsy_at(facts, flag: str, y: ast.AST, fn) -> bool:
    """Is the local `flag` of `fn` falsy at the `yield` `y`: every binding of it in `fn`
    is a plain `flag = <constant>` (no unpacking, annotation, walrus, augmented or loop
    binding, no `global`/`nonlocal`), and every one before `y` is a falsy constant?"""
    before = False
    for x in facts.walk(fn, into_defs=True):
        if isinstance(x, (ast.Nonlocal, ast.Global)) and flag in x.names:
            return False
        if isinstance(x, ast.Name) and x.id == flag and isinstance(x.ctx, ast.Store):
            st = facts.parents.get(x)
            if not (isinstance(st, ast.Assign) and st.targets == [x] and isinstance(st.value, ast.Constant)
                    and facts.enclosing_function(st) is fn):
                return False
            if pos(st) < pos(y):
                if st.value.value:
                    return False
                before = True
    return before


def _yielded(y: ast.AST, name: str) -> bool:
    """Does the `yield` hand the caller the object bound to `name` (`yield record`)?
    Assigning that object back after the `yield` stores the caller's edit (a
    write-back that must run only on success); a restore assigns a value saved from
    the target, which the caller never saw."""
    value = getattr(y, "value", None)
    return value is not None and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value))

def _hands_out(expr: ast.AST | None, name: str) -> bool:
    """Does `expr` contain the object bound to `name` itself, not only a field read
    from it (`yield tmp` hands it out; `yield Path(tmp.name)` does not)?"""
    if expr is None:
        return False
    bases = {id(n.value) for n in ast.walk(expr) if isinstance(n, ast.Attribute)}
    return any(isinstance(n, ast.Name) and n.id == name and id(n) not in bases for n in ast.walk(expr))
