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
    from ctxlint.semantic.python.calls import call_graph
    arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in ("coro", "coro_or_future")),
                                             None)
    if not isinstance(arg, ast.Call):
        return None
    target = call_graph(facts).resolve(arg)
    if target is None:
        # a coroutine function imported from another module of the project
        from ctxlint.semantic.python.project_index import resolve_function
        target = resolve_function(facts, arg.func)
    return target if isinstance(target, ast.AsyncFunctionDef) else None


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
