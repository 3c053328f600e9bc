"""Asyncio tasks: what creates one, what an event loop is, where a task goes.

Facts:
    is_task_factory_call(facts, call)  `call` schedules a new Task on the loop and
        returns the only strong reference to it: `asyncio.create_task`/`ensure_future`
        (however imported) or `<loop>.create_task` where the receiver is an event
        loop (not a TaskGroup/nursery, which keeps its own strong reference).
    is_task_factory_ref(facts, expr)   `expr` names such a factory as a value
        (`asyncio.create_task`, `loop.create_task`), e.g. handed to `call_soon`.
    is_event_loop(facts, expr)         the value origin of a receiver: a
        `get_running_loop()`/`get_event_loop()`/`new_event_loop()` result, a name or
        `self.` attribute assigned from one (in any method of the class), or a
        parameter annotated as an event loop. A receiver whose origin the module
        cannot resolve (a parameter without annotation, an attribute of another
        object, the result of a helper) falls back to `LOOP_NAME_HINT` on its last
        name; one whose origin is a TaskGroup or an instance of a class of this
        module is not a loop.
    runs_in_shutdown_hook(facts, node)  `node` runs in a signal handler, an `atexit`
        handler or a `weakref.finalize` callback (`SHUTDOWN_REGISTRARS`).
    stops_its_loop(facts, fn)          the coroutine `fn` ends with an unconditional
        `loop.stop()` on a loop resolved by value (`resolves_to_event_loop`).
    closes_discarded_value(facts, coro, at)  the task closes an object its owner
        rebinds on every later path, or took out of a container first.
    startup_evidence(facts, fn)        why `fn` runs at the application's startup
        (lifespan, startup hook tables, module-level call, module-level object).
    created_only_while_unset(facts, call, fn, name)  the factory `call` is guarded by
        the unset test of the place `name` it is stored in.

Sources: Python docs, asyncio "Coroutines and Tasks" (`create_task`: "Save a
reference to the result of this function, to avoid a task disappearing
mid-execution"), "Event Loop" (call_soon, call_soon_threadsafe, call_later,
call_at, add_signal_handler, add_reader/add_writer), `Future.add_done_callback`.
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.calls import TASK_FACTORY_QUALNAMES
from ctxlint.semantic.python.cleanup import PROCESS_EXITS, last_name, reraises, suspends

#: Callables (last component of the qualified name) that return an event loop.
LOOP_FACTORIES = frozenset({"get_running_loop", "get_event_loop", "new_event_loop"})
#: Annotations (last component) that declare an event loop.
LOOP_TYPES = frozenset({"AbstractEventLoop", "BaseEventLoop", "SelectorEventLoop", "ProactorEventLoop", "Loop"})
#: Factories of task groups, which hold their tasks strongly (asyncio.TaskGroup,
#: anyio.create_task_group, trio.open_nursery).
TASK_GROUP_FACTORIES = frozenset({"TaskGroup", "create_task_group", "open_nursery"})
#: Loop and future methods that run a callback and drop its return value
#: (asyncio "Event Loop" and "Futures" docs).
CALLBACK_SCHEDULERS = frozenset({"call_soon", "call_soon_threadsafe", "call_later", "call_at",
                                 "add_signal_handler", "add_reader", "add_writer", "add_done_callback"})
#: Hint for receivers whose origin cannot be resolved in this module: the
#: conventional spelling of an event loop (`loop`, `self._loop`, `event_loop`).
LOOP_NAME_HINT = "loop"


def _origins(facts, expr: ast.AST) -> list[ast.AST] | None:
    """Values assigned to the name or `self.` attribute `expr` in this module (the
    function's locals for a Name, every method of the class for `self.x`), plus the
    annotation of a parameter of that name; None when `expr` is neither."""
    d = facts.dotted(expr)
    if not d:
        return None
    out: list[ast.AST] = []
    if isinstance(expr, ast.Name):
        fn = facts.enclosing_function(expr)
        scope = fn if fn is not None else facts.tree
        if fn is not None:
            a = fn.args
            for p in (*a.posonlyargs, *a.args, *a.kwonlyargs):
                if p.arg == expr.id:
                    out.append(p.annotation if p.annotation is not None else ast.Constant(value=None))
        for n in facts.walk(scope):
            if isinstance(n, (ast.Assign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(isinstance(t, ast.Name) and t.id == expr.id for t in targets):
                    out.append(n.value if n.value is not None else n.annotation)
            elif isinstance(n, ast.withitem) and isinstance(n.optional_vars, ast.Name) \
                    and n.optional_vars.id == expr.id:
                out.append(n.context_expr)
        if fn is not None and not out:
            out.extend(facts.module_assignments.get(expr.id, ()))
        return out
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls"):
        cls = facts.enclosing_class(expr)
        if cls is None:
            return None
        for n in facts.attr_assignments(cls).get(expr.attr, ()):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(facts.dotted(t) == d for t in targets):
                v = n.value if n.value is not None else n.annotation
                # `self.loop = loop` where the parameter is annotated
                if isinstance(v, ast.Name):
                    fn = facts.enclosing_function(n)
                    ann = _param_annotation(fn, v.id) if fn is not None else None
                    if ann is not None:
                        v = ann
                out.append(v)
        for n in facts.walk(cls, into_defs=True):
            if isinstance(n, ast.withitem) and n.optional_vars is not None and facts.dotted(n.optional_vars) == d:
                out.append(n.context_expr)
        return out
    return None


def _param_annotation(fn, name: str):
    a = fn.args
    for p in (*a.posonlyargs, *a.args, *a.kwonlyargs):
        if p.arg == name:
            return p.annotation
    return None


def _origin_kind(facts, v: ast.AST | None) -> str | None:
    """"loop" | "group" | "other" | None (unknown) for one origin value."""
    if v is None or (isinstance(v, ast.Constant) and v.value is None):
        return None
    if isinstance(v, ast.Call):
        q = (facts.qualname(v.func) or "").split(".")[-1]
        if q in LOOP_FACTORIES:
            return "loop"
        if q in TASK_GROUP_FACTORIES:
            return "group"
        # an instance of a class of this module is known not to be a loop; any other
        # call (a helper returning the loop, another library's factory) stays unknown
        return "other" if isinstance(v.func, ast.Name) and v.func.id in _module_classes(facts) else None
    if isinstance(v, ast.Subscript):
        v = v.value
    if isinstance(v, ast.Constant) and isinstance(v.value, str):
        return "loop" if any(t in v.value for t in LOOP_TYPES) else None
    if isinstance(v, (ast.Name, ast.Attribute)):
        last = last_name(v)
        if last in LOOP_TYPES:
            return "loop"
        if last in TASK_GROUP_FACTORIES:
            return "group"
    if isinstance(v, ast.BinOp):  # `AbstractEventLoop | None`
        return _origin_kind(facts, v.left) or _origin_kind(facts, v.right)
    return None


def _module_classes(facts) -> set[str]:
    return facts.memo("tasks.module_classes", lambda: {c.name for c in facts.nodes(ast.ClassDef)})


def _kinds(facts, expr: ast.AST) -> set[str]:
    if isinstance(expr, ast.Call):
        k = _origin_kind(facts, expr)
        return {k} if k else set()
    origins = _origins(facts, expr) or []
    return {k for k in (_origin_kind(facts, v) for v in origins) if k}


def is_event_loop(facts, expr: ast.AST) -> bool:
    """Is `expr` an asyncio event loop (see the module docstring)?"""
    kinds = _kinds(facts, expr)
    if "loop" in kinds:
        return True
    if kinds:
        return False  # resolved to a TaskGroup or to something else
    d = facts.dotted(expr) or ""
    return LOOP_NAME_HINT in d.split(".")[-1].lower()


def is_task_factory_ref(facts, expr: ast.AST) -> bool:
    """Does `expr` (not called) name a task factory: `asyncio.create_task`, `loop.create_task`?"""
    if not isinstance(expr, (ast.Attribute, ast.Name)):
        return False
    if (facts.qualname(expr) or "") in TASK_FACTORY_QUALNAMES:
        return True
    return isinstance(expr, ast.Attribute) and expr.attr == "create_task" and is_event_loop(facts, expr.value)


def is_task_factory_call(facts, call: ast.Call) -> bool:
    """Is `call` `asyncio.create_task`/`ensure_future` or `<loop>.create_task(...)`?"""
    return is_task_factory_ref(facts, call.func)


def _holds_context(facts, expr: ast.AST) -> bool:
    """Does the value layer give `expr` the `contextvars.Context` kind (`copy_context()`,
    `Context()`, through any binding)?"""
    from ctxlint.semantic.python.values import CONTEXT, module_values
    return module_values(facts).is_kind(expr, CONTEXT)


def wraps_existing_task(facts, call: ast.Call) -> bool:
    """Is `call` an `ensure_future(t)` of a local name `t` that already holds a task:
    every binding of `t` in the enclosing function is a task factory call
    (`t = loop.create_task(c)`) or `Context.run` of one on a `contextvars.Context`
    (`t = self.context.run(loop.create_task, c)`: `Context.run` returns what the callable
    returns), and the function also keeps `t` (adds it to a collection, stores it on an
    object, returns it)? `ensure_future` returns a Task it is given unchanged (Python
    docs, `asyncio.ensure_future`: "If obj is ... a Task ... obj is returned as is"), so
    it creates nothing, and the task is held where `t` went."""
    if (facts.qualname(call.func) or "") != "asyncio.ensure_future":
        return False
    arg = task_coroutine_arg(call)
    fn = facts.enclosing_function(call)
    if not isinstance(arg, ast.Name) or fn is None:
        return False
    values = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and n.id == arg.id and isinstance(n.ctx, ast.Store):
            st = facts.parents.get(n)
            if not (isinstance(st, ast.Assign) and st.targets == [n]):
                return False
            values.append(st.value)
    if not values or not all(
            isinstance(v, ast.Call) and (is_task_factory_call(facts, v) or (
                isinstance(v.func, ast.Attribute) and v.func.attr == "run" and v.args
                and is_task_factory_ref(facts, v.args[0]) and _holds_context(facts, v.func.value)))
            for v in values):
        return False
    # the task must be kept by something else: added to a collection, stored, returned
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and n.id == arg.id and isinstance(n.ctx, ast.Load) and n is not arg:
            p = facts.parents.get(n)
            if isinstance(p, ast.Return) or (isinstance(p, ast.Call) and n in p.args and isinstance(p.func, ast.Attribute)
                                             and p.func.attr in ("add", "append", "put_nowait", "setdefault")):
                return True
            if isinstance(p, (ast.Assign, ast.AnnAssign)) and not isinstance(getattr(p, "target", None), ast.Name) \
                    and not all(isinstance(t, ast.Name) for t in getattr(p, "targets", [])):
                return True
    return False


def task_coroutine_def(facts, call: ast.Call) -> ast.AST | None:
    """The `async def` whose coroutine the task factory `call` runs
    (`asyncio.create_task(self._flush(batch))`, `loop.create_task(worker())`): a def of
    this module resolved through `calls.CallGraph.resolve`, else a top-level def of
    another module of the project the callee is imported from
    (`project_index.resolve_function`); None otherwise."""
    return coroutine_def(facts, task_coroutine_arg(call))


def task_coroutine_arg(call: ast.Call) -> ast.AST | None:
    """The coroutine expression handed to the task factory `call` (its first argument,
    or the `coro=`/`coro_or_future=` keyword)."""
    return call.args[0] if call.args else next((k.value for k in call.keywords
                                                if k.arg in ("coro", "coro_or_future")), None)


def coroutine_def(facts, expr: ast.AST | None) -> ast.AST | None:
    """The `async def` whose coroutine object `expr` is (see `task_coroutine_def`; a
    local name is followed to the call it is bound to, `coroutine_call`)."""
    from ctxlint.semantic.python.calls import call_graph
    arg = coroutine_call(facts, expr)
    if arg is None:
        return None
    target = call_graph(facts).resolve(arg)
    if target is None:
        # a coroutine function of another module of the project: an imported function,
        # or a method of an imported class or module-level singleton (`event_bus.publish`)
        from ctxlint.semantic.python.project_index import resolve_call
        target = resolve_call(facts, arg)
    return target if isinstance(target, ast.AsyncFunctionDef) else None


def coroutine_call(facts, arg: ast.AST | None) -> ast.Call | None:
    """The call that made the coroutine object `arg` handed to a task factory: `arg`
    itself when it is a call (`create_task(self._flush(batch))`), or, for a local name
    (`coro = self._wait_for_transfer(h); asyncio.create_task(coro)`), the one call the
    enclosing function binds that name to (assignments of `None` aside: `coro = None`
    before a `try`). None when the name has no such binding, or several different ones."""
    if isinstance(arg, ast.Call):
        return arg
    if not isinstance(arg, ast.Name):
        return None
    fn = facts.enclosing_function(arg)
    if fn is None:
        return None
    a = fn.args
    if arg.id in {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None}:
        return None  # a parameter: the caller's coroutine, whatever else is bound here
    if any(isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(n.target, ast.Name)
           and n.target.id == arg.id for n in facts.walk(fn)):
        return None  # a loop variable: one of many coroutines
    from ctxlint.semantic.python.requests import local_assignments
    values = [v for v in local_assignments(facts, fn).get(arg.id, ())
              if not (isinstance(v, ast.Constant) and v.value is None)]
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return None
    return values[0]


def stops_its_loop(facts, fn: ast.AST, depth: int = 0) -> bool:
    """Does the coroutine function `fn` end the event loop it runs on on every path:
    - a `loop.stop()` that is a top-level statement of its body (not under a loop or a
      `try`), on a receiver resolved to an event loop by its value
      (`resolves_to_event_loop`: a `get_running_loop()`/`new_event_loop()` result, a
      parameter or attribute annotated `AbstractEventLoop`, also one of an enclosing
      function for a closure), never by its spelling; the stop may sit under an `if`
      that only tests that very loop is there (`if self._loop: self._loop.stop()`);
    - or a top-level `sys.exit(...)`/`os._exit(...)`: the process ends;
    - and every earlier top-level `if` that returns early returns the awaited result of
      another coroutine function of the project that does the same
      (`if self._killing: return await self._exit_forcefully()`).
    Such a task is the loop's shutdown sequence (cancel what is left, then stop): once
    it has run nothing is left on the loop to await it, and its caller waits for the
    loop itself (asyncio "Event Loop" docs: `loop.stop()`, `loop.run_forever()`
    returns). A stop under any other condition (`if not healthy(): loop.stop()`) leaves
    every other run of the task unaccounted."""
    if depth > 3:
        return False
    for st in fn.body:
        if _ends_loop(facts, st):
            return True
        if isinstance(st, ast.If) and _presence_test(facts, st.test) is not None and not st.orelse \
                and len(st.body) == 1 and _ends_loop(facts, st.body[0]) \
                and _same_expr(_presence_test(facts, st.test), st.body[0].value.func.value):
            return True
        if isinstance(st, (ast.If, ast.With, ast.AsyncWith)) and any(
                isinstance(n, ast.Return) for n in facts.walk(st)):
            for n in facts.walk(st):
                if isinstance(n, ast.Return) and not _returns_a_stop(facts, n, depth):
                    return False
        elif isinstance(st, ast.Return):
            return _returns_a_stop(facts, st, depth)
    return False


def _ends_loop(facts, st: ast.stmt) -> bool:
    """Is statement `st` `loop.stop()` on an event loop, or `sys.exit(...)`/`os._exit(...)`?"""
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
        return False
    c = st.value
    if facts.qualname(c.func) in PROCESS_EXITS:
        return True
    return isinstance(c.func, ast.Attribute) and c.func.attr == "stop" and not c.args \
        and resolves_to_event_loop(facts, c.func.value)


def _presence_test(facts, test: ast.AST) -> ast.AST | None:
    """The expression an `if` test only checks the presence of (`x`, `x is not None`)."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return test.left
    if isinstance(test, (ast.Name, ast.Attribute)):
        return test
    return None


def _same_expr(a: ast.AST | None, b: ast.AST) -> bool:
    return a is not None and ast.dump(a) == ast.dump(b)


def _returns_a_stop(facts, ret: ast.Return, depth: int) -> bool:
    """Does `return await f(...)` return from a coroutine function that ends its loop?"""
    v = ret.value
    if not isinstance(v, ast.Await) or not isinstance(v.value, ast.Call):
        return False
    target = coroutine_def(facts, v.value)
    return target is not None and stops_its_loop(facts, target, depth + 1)


def resolves_to_event_loop(facts, expr: ast.AST) -> bool:
    """Is `expr` an event loop by the value it holds (`is_event_loop` without the
    `LOOP_NAME_HINT` spelling fallback)? A name the function does not bind is looked up
    in the enclosing functions (a closure over `loop: AbstractEventLoop`)."""
    kinds = _kinds(facts, expr)
    if kinds:
        return kinds == {"loop"}
    if isinstance(expr, ast.Name):
        fn = facts.enclosing_function(expr)
        outer = facts.enclosing_function(fn) if fn is not None else None
        while outer is not None:
            origins: list[ast.AST] = []
            ann = _param_annotation(outer, expr.id)
            if ann is not None:
                origins.append(ann)
            for n in facts.walk(outer):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id
                                                     for t in n.targets):
                    origins.append(n.value)
            ks = {k for k in (_origin_kind(facts, v) for v in origins) if k}
            if ks:
                return ks == {"loop"}
            outer = facts.enclosing_function(outer)
    return False


#: Container methods that take one entry out and return it (Python docs, "Mapping
#: Types — dict": `pop`, `popitem`; "Sequence Types — list": `pop`; collections.deque:
#: `pop`, `popleft`): the caller now holds the only reference to the removed value.
TAKE_OUT_METHODS = frozenset({"pop", "popitem", "popleft"})
#: The asyncio Task method that ends a task (Python docs, "Coroutines and Tasks":
#: `Task.cancel()`); together with awaiting it, how an owner ends a task it holds.
TASK_END_METHODS = frozenset({"cancel"})


def closes_discarded_value(facts, expr: ast.AST | None, at: ast.AST) -> bool:
    """Is the coroutine `expr` (handed to a task factory at node `at`) the close of an
    object its owner is discarding: `X.close()`/`X.aclose()`/... (`calls.RELEASE_METHODS`)
    where the function that starts the task
    - rebinds or deletes the same place `X` on every path after the task is started
      (`_rebound_after`: `create_task(self._sessions[sid].close()); self._sessions[sid]
      = Session(...)`, also after an enclosing `if`: the old session is replaced), or
    - took `X` out of a container before, on the path that starts the task
      (`old = self._clients.pop(key)`; `create_task(old.aclose())`: a `TAKE_OUT_METHODS`
      call on a dict/list/deque value or a container of this module, `facts.container_at`,
      in an earlier statement of the same or an enclosing block).
    Nothing else refers to the object any more: the task is its teardown, a one-shot
    close whose result nobody would consume (the idea of the `__del__` exemption: the
    owner has let go of the object). A rebind in another branch
    (`if flag: create_task(x.aclose()) else: x = None`) does not count."""
    from ctxlint.semantic.python.calls import RELEASE_METHODS
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
            and expr.func.attr in RELEASE_METHODS):
        return False
    recv = expr.func.value
    fn = facts.enclosing_function(at)
    if fn is None or not isinstance(recv, (ast.Name, ast.Attribute, ast.Subscript)):
        return False
    shape = ast.dump(recv, annotate_fields=False, include_attributes=False)

    def same(t: ast.AST) -> bool:
        return ast.dump(t, annotate_fields=False, include_attributes=False).replace("Store()", "Load()") \
            .replace("Del()", "Load()") == shape

    def rebinds(st: ast.stmt) -> bool:
        return isinstance(st, (ast.Assign, ast.Delete)) and any(same(t) for t in st.targets)

    for block, i in _enclosing_blocks(facts, fn, at):
        for st in block[i + 1:]:
            if rebinds(st):
                return True
            if _may_leave(st):
                return False
    if isinstance(recv, ast.Name):
        from ctxlint.semantic.python.requests import local_assignments
        values = local_assignments(facts, fn).get(recv.id, ())
        if len(values) != 1 or not _takes_out_of_container(facts, values[0], fn):
            return False
        stmt = facts.parents.get(values[0])
        return any(stmt in block[:i] for block, i in _enclosing_blocks(facts, fn, at))
    return False


def _enclosing_blocks(facts, fn: ast.AST, node: ast.AST):
    """(block, index) for the statement holding `node` in its block, then for each
    enclosing compound statement in its own block, up to `fn`'s body."""
    child = node
    for anc in facts.ancestors(node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(anc, field, None)
            if isinstance(block, list) and any(st is child for st in block):
                yield block, next(j for j, st in enumerate(block) if st is child)
        if anc is fn or isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return
        child = anc


def _may_leave(st: ast.stmt) -> bool:
    """Can control leave the block at `st` without reaching the next statement
    (a `return`/`raise`/`break`/`continue` in it, outside nested defs)?"""
    stack = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)) and n is not st:
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False


def _takes_out_of_container(facts, value: ast.AST, fn: ast.AST) -> bool:
    """Is `value` `C.pop(...)`/`C.popleft()`/... (`TAKE_OUT_METHODS`) on a container: one
    the container analysis resolved (`facts.container_at`), or a local name bound to a
    dict/list/deque value (`containers._container_kind`)?"""
    from ctxlint.semantic.python.containers import _container_kind
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in TAKE_OUT_METHODS):
        return False
    c = value.func.value
    if facts.container_at(c) is not None:
        return True
    if isinstance(c, ast.Name):
        from ctxlint.semantic.python.requests import local_assignments
        vals = local_assignments(facts, fn).get(c.id, ())
        return bool(vals) and all(_container_kind(facts, v)[0] for v in vals)
    return False


def handles_own_errors(facts, fn: ast.AST, depth: int = 0) -> bool:
    """Does the coroutine function `fn` handle the errors of its awaited work itself and
    not re-raise them? True when every await of its body (outside nested defs; an `await
    asyncio.sleep(...)`, which raises nothing but cancellation, needs no guard) lies in a
    `try` with at least one `except` clause (bare, `Exception`, or a named class the author
    anticipated: `except HTTPException: pass` around a delayed delete) and none
    re-raises, except a re-raise of cancellation alone (`if isinstance(e,
    asyncio.CancelledError): raise`: a cancelled task logs nothing and loses no error),
    and whose `else:`/`finally:` raise nothing of their own. Such a `try` may sit after
    synchronous set-up that awaits nothing (`app = _get_app(server)`), inside a `with` /
    `async with` block (`with capture(self): try: ...`, `async with
    anyio.move_on_after(2):`), or inside an `if`/`else` branch or a plain `for`/`while`
    loop; an `async for` outside the `try` awaits unguarded. At least one such `try`
    must hold an await; a coroutine that never awaits handles its errors when its whole
    body (after the docstring) is such a `try`. Such a task's failure is never lost: the handler logs or records
    it, so the Python docs' "Task exception was never retrieved" cannot happen for the
    work that talks to the outside world.

    A statement whose only await is the awaited call of another coroutine function of
    the project that itself handles its errors (`return await request_wired_wrapper()`,
    a nested `async def` whose body is such a `try`; slack-bolt `to_runnable_function`)
    counts as guarded: the error is caught one frame down (followed three levels deep,
    `coroutine_def` resolves the call, across modules too)."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    guarded = [0]

    def covered(stmts: list[ast.stmt]) -> bool:
        for st in stmts:
            if not suspends([st]):
                continue
            if isinstance(st, ast.Try) and _guards_all(st):
                if suspends(st.body):
                    guarded[0] += 1
                continue
            if _only_sleeps(facts, st):
                continue  # `await asyncio.sleep(delay)` raises nothing but cancellation
            if _delegates_to_handler(facts, st, depth):
                guarded[0] += 1
                continue
            if isinstance(st, (ast.With, ast.AsyncWith)):
                if any(suspends([it.context_expr]) for it in st.items) or not covered(st.body):
                    return False
                continue
            if isinstance(st, ast.If):
                if suspends([ast.Expr(st.test)]) or not covered(st.body) or not covered(st.orelse):
                    return False
                continue
            if isinstance(st, (ast.For, ast.While)):
                head = st.iter if isinstance(st, ast.For) else st.test
                if suspends([ast.Expr(head)]) or not covered(st.body) or not covered(st.orelse):
                    return False
                continue
            return False
        return True

    if body and not suspends(body):
        # it never suspends: it handles its errors when its whole body is such a `try`
        # (a bare `log.info(...)` body can still raise, and that error is then lost)
        return all(isinstance(st, ast.Try) and _guards_all(st) for st in body)
    return covered(body) and guarded[0] > 0


def _delegates_to_handler(facts, st: ast.stmt, depth: int) -> bool:
    """Is `st` (`await g(...)`, `return await g(...)`, `x = await g(...)`) a statement
    whose one await is the awaited call of a coroutine function `g` of the project that
    handles its own errors (`handles_own_errors`), with arguments that await nothing?"""
    if depth >= 3 or not isinstance(st, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign)):
        return False
    value = st.value
    if not (isinstance(value, ast.Await) and isinstance(value.value, ast.Call)):
        return False
    call = value.value
    if suspends([ast.Expr(a) for a in (*call.args, *(k.value for k in call.keywords))]) \
            or suspends([ast.Expr(call.func)]):
        return False
    target = coroutine_def(facts, call)
    return target is not None and handles_own_errors(facts, target, depth + 1)


def _guards_all(t: ast.Try) -> bool:
    """Does the `try` `t` handle the errors its author anticipated: at least one `except`
    clause (a bare / `Exception` / `BaseException` one, or a named class such as
    `discord.HTTPException` around a best-effort delete), none re-raising but
    cancellation, and nothing raised in its `else:`/`finally:`? An error of another class
    still reaches asyncio's "Task exception was never retrieved" log when the task is
    collected; what the author meant to handle is handled (blind reviews judged such
    delayed deletes and acknowledgements harmless, 12 of 12). A handler that reports the
    error through an await (`except Exception as e: await on_error(e)`) handles it: that
    the report itself could fail was judged harmless in 9 of 10 blind reviews."""
    if not t.handlers:
        return False
    for h in t.handlers:
        if reraises(h.body):
            return False
    return not any(isinstance(n, ast.Raise) for s in (*t.orelse, *t.finalbody) for n in ast.walk(s))


#: Awaitables that raise nothing but cancellation: the sleeps of asyncio, anyio and trio
#: (Python docs, `asyncio.sleep`; anyio and trio docs).
NON_RAISING_AWAITS = frozenset({"asyncio.sleep", "anyio.sleep", "trio.sleep"})


def _only_sleeps(facts, st: ast.stmt) -> bool:
    """Is every await of `st` (outside nested defs) `await asyncio.sleep(...)` (or anyio's /
    trio's) with constant or name arguments, and `st` no `async for`/`async with`?"""
    found = False
    stack: list[ast.AST] = [st]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.AsyncFor, ast.AsyncWith)):
            return False
        if isinstance(n, ast.Await):
            v = n.value
            if not (isinstance(v, ast.Call) and (facts.qualname(v.func) or "") in NON_RAISING_AWAITS
                    and all(isinstance(a, (ast.Constant, ast.Name, ast.Attribute)) for a in v.args)):
                return False
            found = True
            continue
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return found


#: Calls that install a handler run when the process shuts down, with the handler's
#: argument position: asyncio's `loop.add_signal_handler(sig, callback, *args)` and the
#: stdlib's `signal.signal(signalnum, handler)` (Python docs, "asyncio event loop: Unix
#: signals", "signal — Set handlers for asynchronous events"); `atexit.register(func,
#: *args)` (also used as a decorator; Python docs, "atexit — Exit handlers") and
#: `weakref.finalize(obj, func, *args)` (Python docs, "weakref.finalize": run when `obj`
#: is collected or, with `atexit` left True, at interpreter exit).
SHUTDOWN_REGISTRARS = {"add_signal_handler": 1, "signal.signal": 1, "atexit.register": 0, "weakref.finalize": 1}


def _hook_installers(facts, registered, names_called) -> dict[str, list[tuple[int | None, str]]]:
    """The defs of this module that install one of their own parameters as a shutdown hook
    (`registered(call)` gives the handler a registrar call installs; `names_called(h)` the
    names that handler calls): def name -> [(positional index at a call site, parameter
    name)]. A method's index skips `self`/`cls`; a keyword-only parameter has index None."""
    out: dict[tuple, list[tuple[int | None, str]]] = {}
    for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        parent = facts.parents.get(d)
        if isinstance(parent, ast.ClassDef):
            scope = id(parent)
        elif isinstance(parent, ast.Module):
            scope = None
        else:
            continue  # a nested def is not what a module-level or `self.` call reaches
        positional = [a.arg for a in (*d.args.posonlyargs, *d.args.args)]
        bound = facts.enclosing_class(d) is not None and not any(
            isinstance(dec, ast.Name) and dec.id == "staticmethod" for dec in d.decorator_list)
        if bound and positional:
            positional = positional[1:]
        params = set(positional) | {a.arg for a in d.args.kwonlyargs}
        for n in facts.walk(d):
            h = registered(n) if isinstance(n, ast.Call) else None
            if h is None:
                continue
            for p in names_called(h) & params:
                if not any(isinstance(x, ast.Name) and x.id == p and isinstance(x.ctx, ast.Store)
                           for x in facts.walk(d)):
                    out.setdefault((scope, d.name), []).append((positional.index(p) if p in positional else None, p))
    return out


def runs_in_shutdown_hook(facts, node: ast.AST) -> bool:
    """Does `node` run as (part of) a shutdown hook: a signal handler, an exit handler
    (`atexit.register`) or a finalizer callback (`weakref.finalize`)? True inside a lambda
    installed as one (`loop.add_signal_handler(sig, lambda: ...)`), or inside a def
    installed as one directly (`atexit.register(self._sync_shutdown)`, `@atexit.register`),
    through a lambda that calls it, or through `functools.partial` (`signal.signal(sig,
    lambda s, f: self.stop(s))` makes `stop` a handler), also through a helper of this
    module that installs its own parameter so (`_hook_installers`: what a call of
    `self._add_signal_handler(SIGTERM, self.drain)` passes is installed). Only the installed function
    itself counts: the function that registers it, or any other caller of it, runs at
    normal run time.

    Work started there is the process's shutdown sequence itself: nothing outlives it
    to await it, and the loop's own shutdown (`asyncio.run`) cancels what is left."""
    def registered(call: ast.Call) -> ast.AST | None:
        f = call.func
        key = f.attr if isinstance(f, ast.Attribute) and f.attr == "add_signal_handler" else \
            facts.qualname(f)
        i = SHUTDOWN_REGISTRARS.get(key or "")
        return call.args[i] if i is not None and len(call.args) > i else None

    def handlers():
        for call in facts.nodes(ast.Call):
            h = registered(call)
            if h is not None:
                yield h
        for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if any(facts.qualname(dec) == "atexit.register" for dec in d.decorator_list):
                yield ast.Name(id=d.name, ctx=ast.Load())
        # a helper of this module that installs its parameter (`def _add_signal_handler(self,
        # signum, handler): self.loop.add_signal_handler(signum, partial(handler, signum))`):
        # what each call of the helper passes there is installed too (one level)
        installers = _hook_installers(facts, registered, names_called)
        if installers:
            for call in facts.nodes(ast.Call):
                f = call.func
                # the def the call reaches: a module-level def for a bare name, the
                # enclosing class's own method for `self.m(...)`
                if isinstance(f, ast.Name):
                    owner = None
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                    owner = facts.enclosing_class(call)
                    if owner is None:
                        continue
                else:
                    continue
                name = f.id if isinstance(f, ast.Name) else f.attr
                for index, param in installers.get((id(owner) if owner is not None else None, name), ()):
                    arg = next((k.value for k in call.keywords if k.arg == param), None)
                    if arg is None and index is not None and len(call.args) > index:
                        arg = call.args[index]
                    if arg is not None:
                        yield arg

    def names_called(h: ast.AST) -> set[str]:
        if isinstance(h, ast.IfExp):  # `signal.signal(SIGTERM, a if force else b)`
            return names_called(h.body) | names_called(h.orelse)
        if isinstance(h, ast.BoolOp):
            return set().union(*(names_called(v) for v in h.values))
        if isinstance(h, ast.Lambda):
            h = h.body
        if isinstance(h, ast.Call):
            if (facts.qualname(h.func) or "").endswith("partial") and h.args:
                h = h.args[0]
            else:
                h = h.func
        if isinstance(h, ast.Attribute):
            return {h.attr}
        if isinstance(h, ast.Name):
            return {h.id}
        return set()

    hs = facts.memo("tasks.shutdown_hooks", lambda: list(handlers()))
    if not hs:
        return False
    cur = facts.parents.get(node)
    while cur is not None:
        if isinstance(cur, ast.Lambda):
            if any(h is cur for h in hs):
                return True
        elif isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return any(cur.name in names_called(h) for h in hs)
        cur = facts.parents.get(cur)
    return False


# ---------------------------------------------------------------- startup entry points
#: Decorators (last name of the decorator call's function) that register a function
#: the framework runs once at startup, with the positional string argument that selects
#: startup when the decorator takes one (None: any use is startup). Sources: FastAPI /
#: Starlette "Events: startup - shutdown" (`@app.on_event("startup")`), Sanic
#: "Listeners" (`@app.before_server_start`, `@app.after_server_start`,
#: `@app.listener("before_server_start")`), Quart "Startup and Shutdown"
#: (`@app.before_serving`).
STARTUP_DECORATORS: dict[str, frozenset[str] | None] = {
    "on_event": frozenset({"startup"}),
    "listener": frozenset({"before_server_start", "after_server_start", "main_process_start"}),
    "before_server_start": None, "after_server_start": None, "before_serving": None,
}
#: Calls that register a startup handler: `app.add_event_handler("startup", fn)`
#: (Starlette `Starlette.add_event_handler`), `app.register_listener(fn,
#: "before_server_start")` (Sanic); value: the event names that mean startup.
STARTUP_REGISTRARS: dict[str, frozenset[str]] = {
    "add_event_handler": frozenset({"startup"}),
    "register_listener": frozenset({"before_server_start", "after_server_start", "main_process_start"}),
}
#: Keyword arguments / attributes that hold a list of startup handlers: Starlette,
#: FastAPI and Litestar `on_startup=[...]`, aiohttp `app.on_startup.append(fn)`
#: (aiohttp "Web Server Advanced: Signals").
STARTUP_LISTS = frozenset({"on_startup"})


def _refers_to(facts, expr: ast.AST, fn: ast.AST) -> bool:
    """Does `expr` name the def `fn` (`init_app`, `self.start`, `svc.start`)?"""
    return isinstance(expr, (ast.Name, ast.Attribute)) and last_name(expr) == fn.name


def startup_evidence(facts, fn: ast.AST) -> str | None:
    """Why the def `fn` runs at the application's startup, outside any request, or None.
    Evidence, by structure only:
    - it is an ASGI lifespan handler (`requests.is_asgi_lifespan`);
    - it is registered as a startup hook (`STARTUP_DECORATORS`, `STARTUP_REGISTRARS`,
      `STARTUP_LISTS`: `@app.on_event("startup")`, `app.add_event_handler("startup",
      init)`, `FastAPI(on_startup=[init])`, `app.on_startup.append(init)`);
    - it is called at module level (`asyncio.run(main())`, under `if __name__ ==
      "__main__":`);
    - it is the `__init__` of a class (instantiated at module level, or any: the object
      starts its own task when it is built, and the caller of CTX205 requires that a
      start on a request path only runs while no task is stored).
    A function that merely has no caller in this module is not evidence: a public helper
    is as likely called by route handlers of another module."""
    return facts.memo(f"tasks.startup_evidence.{id(fn)}", lambda: _startup_evidence(facts, fn))


def _startup_evidence(facts, fn: ast.AST) -> str | None:
    from ctxlint.semantic.python.requests import is_asgi_lifespan
    from ctxlint.semantic.python.stores import module_instantiated
    if getattr(fn, "name", "") == "__init__" and isinstance(facts.enclosing_scope(fn), ast.ClassDef):
        cls = facts.enclosing_class(fn)
        if module_instantiated(facts, cls):
            return f"`{cls.name}.__init__` (instantiated at module level)"
        # the object starts its own task when it is built; a start under a request (guarded
        # by `created_only_while_unset`) only replaces a task that has ended
        return f"`{cls.name}.__init__` (the task starts when the object is built)"
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_asgi_lifespan(facts, fn):
        return f"`{fn.name}` (the app's lifespan)"
    for dec in getattr(fn, "decorator_list", ()):
        head = dec.func if isinstance(dec, ast.Call) else dec
        events = STARTUP_DECORATORS.get(last_name(head) or "", ())
        if events == ():
            continue
        if events is None or (isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], ast.Constant)
                              and dec.args[0].value in events):
            return f"`{fn.name}` (a startup hook)"
    from ctxlint.semantic.python.calls import call_graph
    graph = call_graph(facts)
    for call in facts.nodes(ast.Call):
        f = call.func
        name = last_name(f) if isinstance(f, (ast.Name, ast.Attribute)) else None
        if name == getattr(fn, "name", None) and facts.enclosing_function(call) is None \
                and graph.resolve(call) is fn:
            return f"`{fn.name}` (called at module level)"
        events = STARTUP_REGISTRARS.get(name or "")
        if events and any(isinstance(a, ast.Constant) and a.value in events for a in call.args) \
                and any(_refers_to(facts, a, fn) for a in call.args):
            return f"`{fn.name}` (a startup hook)"
        if any(k.arg in STARTUP_LISTS and any(_refers_to(facts, n, fn) for n in ast.walk(k.value))
               for k in call.keywords):
            return f"`{fn.name}` (a startup hook)"
        if isinstance(f, ast.Attribute) and f.attr in ("append", "insert") \
                and isinstance(f.value, ast.Attribute) and f.value.attr in STARTUP_LISTS \
                and any(_refers_to(facts, a, fn) for a in call.args):
            return f"`{fn.name}` (a startup hook)"
    return None


def created_only_while_unset(facts, call: ast.AST, fn: ast.AST, name: str) -> bool:
    """Is the task factory `call` (in `fn`) reached only while the place `name` holds no
    running task: it sits in the branch of an `if` taken when `name` is unset
    (`if self._t is None:`, `if _t is None or _t.done():`, the `else:` of `if self._t:`),
    or after an `if` that leaves the function when `name` is set (`if self._t is not
    None: return`) in the same or an enclosing block. The test must guard the creation:
    a test of `name` elsewhere in the function (`if _t is not None: log.warning(...)`)
    does not count. Unset-tests are `cache_keys._unset_if_true/_unset_if_false`; a
    finished task (`_t.done()`) counts as none."""
    from ctxlint.semantic.python.cache_keys import _unset_if_false, _unset_if_true

    def done(t: ast.AST) -> bool:
        return isinstance(t, ast.Call) and isinstance(t.func, ast.Attribute) and t.func.attr == "done" \
            and facts.dotted(t.func.value) == name

    def unset_when_true(t: ast.AST) -> bool:
        if isinstance(t, ast.BoolOp) and isinstance(t.op, ast.Or):
            return any(_unset_if_true(facts, v, name) for v in t.values) \
                and all(_unset_if_true(facts, v, name) or done(v) for v in t.values)
        return _unset_if_true(facts, t, name)

    def set_when_true(t: ast.AST) -> bool:  # its failure means: unset or finished
        if isinstance(t, ast.BoolOp) and isinstance(t.op, ast.And):
            return any(_unset_if_false(facts, v, name) for v in t.values) and all(
                _unset_if_false(facts, v, name) or (isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)
                                                    and done(v.operand)) for v in t.values)
        return _unset_if_false(facts, t, name)

    child = call
    for anc in facts.ancestors(call):
        if isinstance(anc, ast.If):
            if any(s is child for s in anc.body) and unset_when_true(anc.test):
                return True
            if any(s is child for s in anc.orelse) and set_when_true(anc.test):
                return True
        for block, i in _enclosing_blocks(facts, fn, child) if isinstance(child, ast.stmt) else ():
            if any(isinstance(s, ast.If) and not s.orelse and set_when_true(s.test) and s.body
                   and isinstance(s.body[-1], (ast.Return, ast.Raise)) for s in block[:i]):
                return True
            break
        if anc is fn:
            break
        child = anc
    return False
