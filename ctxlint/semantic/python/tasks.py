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

Sources: Python docs, asyncio "Coroutines and Tasks" (`create_task`: "Save a
reference to the result of this function, to avoid a task disappearing
mid-execution"), "Event Loop" (call_soon, call_soon_threadsafe, call_later,
call_at, add_signal_handler, add_reader/add_writer), `Future.add_done_callback`.
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.calls import TASK_FACTORY_QUALNAMES
from ctxlint.semantic.python.cleanup import last_name, suspends

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
        # a coroutine function imported from another module of the project
        from ctxlint.semantic.python.project_index import resolve_function
        target = resolve_function(facts, arg.func)
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


def stops_its_loop(facts, fn: ast.AST) -> bool:
    """Does the coroutine function `fn` stop the event loop it runs on (`loop.stop()`
    on a receiver `is_event_loop` accepts, in its own body)? Such a task is the loop's
    shutdown sequence (cancel what is left, then stop): once it has run nothing is left
    on the loop to await it, and its caller waits for the loop itself (asyncio "Event
    Loop" docs: `loop.stop()`, `loop.run_forever()` returns)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "stop"
               and not n.args and is_event_loop(facts, n.func.value) for n in facts.walk(fn))


def closes_discarded_value(facts, expr: ast.AST | None, at: ast.AST) -> bool:
    """Is the coroutine `expr` (handed to a task factory at node `at`) the close of an
    object its owner is discarding: `X.close()`/`X.aclose()`/... (`calls.RELEASE_METHODS`)
    where the function that starts the task
    - rebinds or deletes the same place `X` afterwards (`create_task(self._sessions[sid].close());
      self._sessions[sid] = Session(...)`: the old session is replaced), or
    - took `X` out of its container first (`old = self._clients.pop(key)`;
      `create_task(old.aclose())`).
    Nothing else refers to the object any more: the task is its teardown, a one-shot
    close whose result nobody would consume (the idea of the `__del__` exemption: the
    owner has let go of the object)."""
    from ctxlint.semantic.python.calls import RELEASE_METHODS
    from ctxlint.semantic.python.cleanup import pos
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
    for n in facts.walk(fn):
        if pos(n) <= pos(at):
            continue
        if isinstance(n, ast.Assign) and any(same(t) for t in n.targets):
            return True
        if isinstance(n, ast.Delete) and any(same(t) for t in n.targets):
            return True
    if isinstance(recv, ast.Name):
        from ctxlint.semantic.python.requests import local_assignments
        values = local_assignments(facts, fn).get(recv.id, ())
        return len(values) == 1 and isinstance(values[0], ast.Call) and isinstance(values[0].func, ast.Attribute) \
            and values[0].func.attr == "pop" and pos(values[0]) < pos(at)
    return False


def handles_own_errors(facts, fn: ast.AST) -> bool:
    """Does the coroutine function `fn` catch every `Exception` its awaited work can raise
    and not re-raise it? True when its body — after a docstring and synchronous set-up
    that awaits nothing (`app = _get_app(server)`), possibly inside a `with`/`async with`
    (`async with anyio.move_on_after(2):`) — has one `try` that holds every await,
    whose handlers include a bare / `Exception` / `BaseException` one, and no handler
    re-raises, except a re-raise of cancellation alone (`if isinstance(e,
    asyncio.CancelledError): raise`: a cancelled task logs nothing and loses no error).
    Statements after the `try` must not await either. Such a task's failure is never
    lost: the handler logs or records it, so the Python docs' "Task exception was never
    retrieved" cannot happen for the work that talks to the outside world."""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    while len(body) == 1 and isinstance(body[0], (ast.With, ast.AsyncWith)):
        body = list(body[0].body)
    tries = [i for i, st in enumerate(body) if isinstance(st, ast.Try)]
    if not tries:
        return False
    i = tries[-1] if not suspends(body[tries[-1] + 1:]) else -1
    if i < 0 or suspends([st for j, st in enumerate(body) if j != i]):
        return False
    t = body[i]
    catch_all = False
    for h in t.handlers:
        names = [] if h.type is None else (list(h.type.elts) if isinstance(h.type, ast.Tuple) else [h.type])
        if h.type is None or any(last_name(n) in ("Exception", "BaseException") for n in names):
            catch_all = True
        if _reraises(h.body):
            return False
    if not catch_all:
        return False
    # the `else:`/`finally:` parts run outside the handler: they must not raise on their own
    return not any(isinstance(n, ast.Raise) for s in (*t.orelse, *t.finalbody) for n in ast.walk(s))


def _reraises(stmts: list[ast.stmt]) -> bool:
    """Is there a `raise` in `stmts`, other than one under `if isinstance(e, CancelledError):`?"""
    for s in stmts:
        if isinstance(s, ast.If) and isinstance(s.test, ast.Call) and isinstance(s.test.func, ast.Name) \
                and s.test.func.id == "isinstance" and len(s.test.args) == 2 \
                and last_name(s.test.args[1]) == "CancelledError":
            if _reraises(s.orelse):
                return True
            continue
        if any(isinstance(n, ast.Raise) for n in ast.walk(s)):
            return True
    return False


#: Calls that install a handler run when the process shuts down, with the handler's
#: argument position: asyncio's `loop.add_signal_handler(sig, callback, *args)` and the
#: stdlib's `signal.signal(signalnum, handler)` (Python docs, "asyncio event loop: Unix
#: signals", "signal — Set handlers for asynchronous events"); `atexit.register(func,
#: *args)` (also used as a decorator; Python docs, "atexit — Exit handlers") and
#: `weakref.finalize(obj, func, *args)` (Python docs, "weakref.finalize": run when `obj`
#: is collected or, with `atexit` left True, at interpreter exit).
SHUTDOWN_REGISTRARS = {"add_signal_handler": 1, "signal.signal": 1, "atexit.register": 0, "weakref.finalize": 1}


def runs_in_shutdown_hook(facts, node: ast.AST) -> bool:
    """Does `node` run as (part of) a shutdown hook: a signal handler, an exit handler
    (`atexit.register`) or a finalizer callback (`weakref.finalize`)? True inside a lambda
    installed as one (`loop.add_signal_handler(sig, lambda: ...)`), or inside a def
    installed as one directly (`atexit.register(self._sync_shutdown)`, `@atexit.register`),
    through a lambda that calls it, or through `functools.partial` (`signal.signal(sig,
    lambda s, f: self.stop(s))` makes `stop` a handler). Only the installed function
    itself counts: the function that registers it, or any other caller of it, runs at
    normal run time.

    Work started there is the process's shutdown sequence itself: nothing outlives it
    to await it, and the loop's own shutdown (`asyncio.run`) cancels what is left."""
    def handlers():
        for call in facts.nodes(ast.Call):
            f = call.func
            key = f.attr if isinstance(f, ast.Attribute) and f.attr == "add_signal_handler" else \
                facts.qualname(f)
            i = SHUTDOWN_REGISTRARS.get(key or "")
            if i is not None and len(call.args) > i:
                yield call.args[i]
        for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if any(facts.qualname(dec) == "atexit.register" for dec in d.decorator_list):
                yield ast.Name(id=d.name, ctx=ast.Load())

    def names_called(h: ast.AST) -> set[str]:
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
