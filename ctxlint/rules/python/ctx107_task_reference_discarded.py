"""CTX107 task-reference-discarded: an asyncio Task whose only strong reference is dropped."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.cleanup import pos
from ctxlint.semantic.python.summaries import handed_out, made_at, trace_steps
from ctxlint.semantic.python.tasks import (
    runs_in_shutdown_hook,
    CALLBACK_SCHEDULERS,
    closes_discarded_value,
    coroutine_def,
    handles_own_errors,
    is_task_factory_call,
    is_task_factory_ref,
    stops_its_loop,
    task_coroutine_arg,
    wraps_existing_task,
)
from ctxlint.semantic.python.values import TASK


class TaskReferenceDiscarded(Rule):
    code = "CTX107"
    manifest = "reached"
    reported_when = (
        'the function that drops the task is reached from an entry point (route, handler, task, thread, gRPC method, consumer): tasks are spawned per request and their failures go unseen.'
    )
    name = "task-reference-discarded"
    summary = ("asyncio.create_task()/ensure_future() result dropped: its exception is never retrieved, "
               "shutdown cannot cancel or await it, and the loop holds it only weakly.")
    tokens = ("create_task", "ensure_future")
    fix_safety = SAFE
    doc = """\
## What it does
Flags an asyncio Task whose only strong reference is thrown away:
- an expression statement `asyncio.create_task(...)`, `asyncio.ensure_future(...)`,
  `loop.create_task(...)` (the receiver is an event loop: a `get_running_loop()`
  result, a name or `self.` attribute assigned from one, a parameter annotated
  `AbstractEventLoop`; not a `TaskGroup`, which keeps its tasks), also with a
  method called on the task (`create_task(c).add_done_callback(cb)`);
- a list/set comprehension or generator expression statement whose element is
  such a call (`[asyncio.create_task(c) for c in coros]`);
- the task bound to a local name that nothing reads (`_ = asyncio.create_task(...)`,
  `audit = asyncio.create_task(...)`), or reads only to query it, in a function that
  waits on nothing afterwards (`log.debug("scheduled %s", task.get_name())`):
  the reference ends with the frame, and awaiting other work afterwards does not wait
  for the task;
- the factory handed to a loop callback API whose return value is dropped:
  `loop.call_soon_threadsafe(asyncio.create_task, coro)` (the exemptions below look
  at `coro`, the argument after the factory).
- the call of a function of the project that creates a task and returns it without
  keeping it itself (a `spawn(coro)` helper wrapping `asyncio.create_task`, one or two
  helper levels deep, through locals, `functools.partial`, a lambda, a decorator that
  wraps the coroutine function and schedules each call, or a function imported from
  another module of the project), dropped or bound to an unread local: the finding is
  at that call, the helper path is its trace (function summaries,
  `semantic/python/summaries.py`). A helper that also keeps the task (adds it to a
  set, stores it) hands back a second reference, and its callers are not reported.
  Through the CLI a file is checked only when it mentions `create_task` or
  `ensure_future` (the rule's literal prefilter).
Only the plain statement gets a fix.

Not flagged: a task whose coroutine is an `async def` of this module (or of another
module of the same project, found through its imports) that handles the errors of its
awaited work itself: every `await` of its body sits in a `try` (one or several) with an
`except` clause that does not re-raise: bare, `Exception`, `BaseException`, or a named
class the author anticipated (`await asyncio.sleep(delay)` then `try: await
self.delete() except HTTPException: pass`, the delayed deletes of discord.py and its
forks; blind reviews judged all 12 such tasks harmless). A handler that reports the
error through an await (`except Exception as e: await self.on_error(e)`) handles it (blind
reviews judged 9 of 10 such tasks harmless). An `await asyncio.sleep(...)`
(or anyio's, trio's) raises nothing but cancellation and needs no `try`. An error of a
class nobody anticipated still reaches asyncio's "Task exception was never retrieved"
log when the task is collected. The `try` may follow synchronous set-up that awaits nothing and may sit
inside a `with` or `async with` block, an `if`/`else` branch or a plain `for`/`while`
loop; an `async for` outside it, or an `await` in a branch it does not cover, is
flagged. A coroutine that never awaits qualifies when its whole body is such a `try`
(a bare `log.info(...)` body can still raise, and is flagged). The coroutine's
`async def` may be a method of a class or module-level singleton imported from
another module of the project (`create_task(event_bus.publish(e))` with `event_bus =
EventBus()` in `bus.py`), or of a class a parameter is annotated with (`manager:
StreamManager` then `create_task(manager.start_stream(...))`). An `await` of another
such self-handling coroutine of the project counts as guarded (`return await
wrapper()`, where the nested `wrapper` wraps its work in `try/except Exception`;
slack-bolt's lazy listeners), followed three levels deep. No failure of the work is
lost with the reference. (Known gap: entering an
`async with` is itself an await, and its error, say a failed connect, is not under
the `try`; ctxlint does not yet tell a non-raising entry, such as a lock or
`anyio.move_on_after`, from one that can fail.) The coroutine may be built first and
handed over through a local name (`coro = self._wait(h); asyncio.create_task(coro)`):
the name is followed to the one call it is bound to.

Not flagged: a task whose coroutine ends the event loop it runs on, on every path
(`tasks.stops_its_loop`): `loop.stop()` as a top-level statement of its body, on a
receiver that is an event loop by value (a `get_running_loop()`/`new_event_loop()`
result, a parameter or attribute annotated `AbstractEventLoop`; e.g.
`loop.call_soon_threadsafe(loop.create_task, _cancel_and_stop())`), also under an `if`
that only tests that loop is there (`if self._loop: self._loop.stop()`), or a top-level
`sys.exit()`/`os._exit()`; an early `return` must return `await` of another coroutine
function that does the same (`if self._killing: return await self._exit_forcefully()`).
It is the loop's shutdown sequence, and nothing runs on the loop after it to await it.
A stop under any other `if` (a watchdog that stops the loop only when a probe fails),
or a bare early `return`, is reported.

Not flagged: the close (`close()`, `aclose()`, `shutdown()`, ...) of an object its
owner is letting go of: the starting function replaces or deletes that same entry
on every path afterwards (`create_task(self._sessions[sid].close()); self._sessions[sid]
= new`, also after the enclosing `if`; not in its `else:`) or popped it from a container
first (`old = self._pool.pop(k); create_task(old.aclose())`).
It is a one-shot teardown whose result nobody would consume. An object's close of
itself or of an entry it keeps (`create_task(self.cleanup())` in a sync `cleanup()`)
is still reported: its caller relies on the close having happened.

Not flagged either: a task started in a shutdown hook, a lambda or def installed
with `loop.add_signal_handler()`, `signal.signal()`, `atexit.register()` (or
`@atexit.register`) or as a `weakref.finalize()` callback, directly, through a
lambda that calls it, through `functools.partial`, or as one arm of a conditional
(`signal.signal(SIGTERM, force if cfg.force else graceful)`), or handed to a helper of
this module that installs its parameter so (`self._add_signal_handler(SIGTERM,
self.drain)` where the helper calls `loop.add_signal_handler(signum, partial(handler,
signum))`; one level): it is the shutdown sequence
itself (a best-effort close at exit), nothing outlives it to await it, and
`asyncio.run()` cancels what is left. The function that registers the hook runs at
normal time: a task it starts is still reported.

Nor `asyncio.ensure_future(t)` of a local name that already holds a task (`t =
loop.create_task(c)`, `t = ctx.run(loop.create_task, c)`): `ensure_future` returns that
task as is and creates nothing (`ensure_future(t).add_done_callback(...)` after
`refs.add(t)`); whether `t` is kept is judged where it is bound.

Nor anything in test code (`test_*.py`, `*_test.py`, `conftest.py`, or a module
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's tasks live for one
test, and its event loop is closed when it ends.

Nor a task created inside `__del__`: it is a best-effort close of an object that
is already unreachable (the finaliser never guaranteed it, and the sockets it
would close are closed when collected); blind reviews of real code judged 12 of
13 such tasks harmless. Nor `ensure_future(coro).cancel()`: cancelled before it
starts, it runs nothing.

## Why is this bad
A dropped task costs three things, in order of how surely they happen:
- its exception is never retrieved: nobody awaits the task, so a failure shows
  up at best as a "Task exception was never retrieved" log line when the task
  is collected, never as an error of the code that started it;
- shutdown cannot cancel or await it: nothing holds it to `cancel()` or
  `gather()`, so a write-back, a usage record or a log entry still in flight
  when the loop stops is lost without a trace;
- the event loop keeps only a weak reference to tasks (the `asyncio.create_task`
  docs: "a task that isn't referenced elsewhere may get garbage collected at any
  time, even before it's done"). In practice a task waiting on I/O is usually
  kept alive by the I/O it waits on (the future the socket callback holds), so
  the disappearance mid-run is the rarer hazard; it bites tasks that wait on
  nothing external (an `asyncio.Event`, a queue only they reference).
How much this matters depends on the work: a metrics hook that loses one data
point costs little; a cache write-back or a client close costs much.

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
        if facts.is_test_code:
            return  # a test's tasks live for one test, and its loop is closed at its end
        for stmt in facts.nodes(ast.Expr):
            yield from self._statement(facts, stmt)
        for assign in facts.nodes(ast.Assign, ast.AnnAssign):
            f = self._unread_binding(facts, assign)
            if f is not None:
                yield f
        for call in facts.nodes(ast.Call):
            f = self._scheduled_callback(facts, call)
            if f is not None:
                yield f

    # ------------------------------------------------------------ statements
    def _statement(self, facts, stmt: ast.Expr):
        value = stmt.value
        if isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            # `[asyncio.create_task(c) for c in coros]` as a statement: the list of tasks
            # is built and dropped at once, so every task is only weakly held
            call = value.elt
            if isinstance(call, ast.Call) and is_task_factory_call(facts, call) and not _contained(facts, call):
                what = _what(facts, call)
                if isinstance(value, ast.GeneratorExp):
                    msg = (f"generator of `{what}()` calls is discarded without being iterated: "
                           "no task is ever created (and if it were, the loop would hold it "
                           "only weakly); keep the tasks in a set or gather them")
                else:
                    msg = (f"comprehension of `{what}()` results is discarded: nothing awaits the "
                           "tasks, so their exceptions are never retrieved and shutdown cannot cancel "
                           "or await them, and the loop holds them only weakly (keep them in a set or "
                           "gather them)")
                yield facts.finding(self, call, msg)
            return
        if not isinstance(value, ast.Call):
            return
        if is_task_factory_call(facts, value):
            if _contained(facts, value):
                return
            fix = Fix(description="keep the task in a module-level set until it is done",
                      safety=SAFE, codemod="keep_task_reference",
                      data={"line": value.lineno, "col": value.col_offset})
            unseen = _coroutine_not_shown(facts, value)
            yield facts.finding(self, value, f"`{_what(facts, value)}()` result is discarded"
                                f"{_in_del(facts, value)}: {_COSTS}", fix=fix,
                                confidence="low" if unseen else None,
                                trace=[(value, unseen)] if unseen else ())
            return
        helper = handed_out(facts, value, TASK)
        if helper is not None:
            # a helper of the project that creates the task and hands it back (`spawn(coro)`)
            if not _helper_contained(facts, value, helper):
                yield facts.finding(self, value, f"`{_what(facts, value)}()` creates a task and returns it"
                                    f"{made_at(facts, helper)}, and its result is discarded{_in_del(facts, value)}: "
                                    f"{_COSTS}", trace=trace_steps(helper))
            return
        # `asyncio.create_task(c).add_done_callback(cb)`: the callback is held by the task,
        # not the other way round, so the task is still dropped
        inner = value.func.value if isinstance(value.func, ast.Attribute) else None
        if isinstance(value.func, ast.Attribute) and value.func.attr == "cancel":
            return  # `ensure_future(coro).cancel()`: cancelled before it starts, nothing runs
        if isinstance(inner, ast.Call) and is_task_factory_call(facts, inner) and not _contained(facts, inner):
            yield facts.finding(self, inner, f"`{_what(facts, inner)}()` result is used for one "
                                f"`.{value.func.attr}()` call and then dropped{_in_del(facts, inner)}: {_COSTS}")

    # ---------------------------------------------------- unread local names
    def _unread_binding(self, facts, assign):
        call = assign.value
        if not isinstance(call, ast.Call):
            return None
        helper = None
        if is_task_factory_call(facts, call):
            if _contained(facts, call):
                return None
        else:
            helper = handed_out(facts, call, TASK)
            if helper is None or _helper_contained(facts, call, helper):
                return None
        targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return None
        name = targets[0].id
        fn = facts.enclosing_function(assign)
        if fn is None or facts.parents.get(assign) is None:
            return None  # module level: a global keeps it
        queried = False
        for n in facts.walk(fn, into_defs=True):
            if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
                return None
            if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Store):
                if _non_retaining_use(facts, n):
                    queried = True
                    continue  # `task.get_name()` for a log line: a query keeps no reference
                return None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("locals", "vars"):
                return None
        # the frame keeps the reference only while the function runs: awaiting something
        # else afterwards does not wait for the task, so it can still outlive the frame
        if queried and (facts.is_test_code or any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom))
                                                  and pos(n) > pos(assign) for n in facts.walk(fn))):
            # queried after the frame waits on something (the frame holds it meanwhile), or
            # in a test, whose subject is the task's state (`self.assertTrue(f.done())`)
            return None
        what = "which is only queried, never kept" if queried else "which nothing reads"
        return facts.finding(self, call, f"`{_what(facts, call)}()` result is bound to `{name}`, {what}, "
                             f"so the reference ends with the function: {_COSTS}",
                             trace=trace_steps(helper) if helper is not None else ())

    # --------------------------------------------- callbacks that drop tasks
    def _scheduled_callback(self, facts, call: ast.Call):
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr in CALLBACK_SCHEDULERS):
            return None
        for i, a in enumerate(call.args):
            if is_task_factory_ref(facts, a):
                # `loop.call_soon_threadsafe(loop.create_task, coro)`: the coroutine follows
                coro = call.args[i + 1] if i + 1 < len(call.args) else None
                if coro is not None and _coroutine_contained(facts, call, coro):
                    return None
                return facts.finding(self, call, f"`{facts.dotted(a) or 'create_task'}` is scheduled through "
                                     f"`{f.attr}()`, which drops the callback's return value, so nothing "
                                     f"keeps the task it creates: {_COSTS}")
            if isinstance(a, ast.Lambda) and isinstance(a.body, ast.Call) and is_task_factory_call(facts, a.body) \
                    and not _contained(facts, a.body):
                return facts.finding(self, a.body, f"the callback handed to `{f.attr}()` returns the task from "
                                     f"`{_what(facts, a.body)}()`, and `{f.attr}()` drops it: {_COSTS}")
        return None


#: What a dropped task costs, surest first (see the doc's "Why is this bad").
_COSTS = ("nothing awaits the task, so its exception is never retrieved and shutdown cannot cancel "
          "or await it; the loop holds it only weakly, so unless what it waits on keeps it alive "
          "it can be garbage-collected mid-run")


#: Task methods that only answer a question about the task and keep no reference to it
#: anywhere (asyncio docs, `Task`/`Future`). A done callback is a protocol of its own
#: (it may retrieve the exception): a local that gets one is judged as kept.
_NON_RETAINING_METHODS = frozenset({"get_name", "set_name", "done", "cancelled", "get_coro", "get_loop",
                                    "get_context", "print_stack", "get_stack"})


def _non_retaining_use(facts, name: ast.Name) -> bool:
    """Is this read of a task local a call of one of its `_NON_RETAINING_METHODS` whose
    arguments do not mention the task again (`task.get_name()` in a log line)?"""
    attr = facts.parents.get(name)
    call = facts.parents.get(attr)
    return isinstance(attr, ast.Attribute) and attr.value is name and attr.attr in _NON_RETAINING_METHODS \
        and isinstance(call, ast.Call) and call.func is attr \
        and not any(isinstance(m, ast.Name) and m.id == name.id
                    for a in (*call.args, *(k.value for k in call.keywords)) for m in ast.walk(a))


def _contained(facts, call: ast.Call) -> bool:
    """Is the dropped task accounted for without a reference?
    - its coroutine (an `async def` of this module or its package) catches and handles
      every exception of its awaited work itself (`tasks.handles_own_errors`): no failure
      is lost, and what is left (no cancel at shutdown, a weak reference that what the
      task waits on almost always anchors) is not worth a finding;
    - it is started in a shutdown hook, a signal handler, an `atexit` handler or a
      `weakref.finalize` callback (`tasks.runs_in_shutdown_hook`): the task is the
      shutdown sequence itself, and nothing outlives it to await it;
    - it is started in a finaliser (`__del__`): a best-effort close of an object that
      is already unreachable, which the finaliser never guaranteed (blind reviews of
      real code judged 12 of 13 such tasks harmless).
    A coroutine that never suspends is still reported (the handed case K05's
    `flush_usage` stands in for real flushing work)."""
    if runs_in_shutdown_hook(facts, call) or _in_del(facts, call) or wraps_existing_task(facts, call):
        return True
    return _coroutine_contained(facts, call, task_coroutine_arg(call))


def _helper_contained(facts, call: ast.Call, helper) -> bool:
    """`_contained` for the call of a helper of the project that creates a task and
    returns it (`helper`: its `summaries.Flow`): judged by where the call is and by
    the coroutines the task may run (the caller's argument, or a coroutine the helper
    picks itself)."""
    if runs_in_shutdown_hook(facts, call) or _in_del(facts, call):
        return True
    if helper.coro and all(handles_own_errors(f, d) or stops_its_loop(f, d) for f, d in helper.coro):
        return True
    return False


def _coroutine_contained(facts, at: ast.AST, coro: ast.AST | None) -> bool:
    """Is the task that runs the coroutine `coro` (started at node `at`) accounted for by
    what the coroutine does:
    - its `async def` handles every exception of its awaited work (`tasks.handles_own_errors`;
      a local name is followed to the call it is bound to);
    - its `async def` stops the event loop it runs on (`tasks.stops_its_loop`): it is the
      loop's shutdown sequence, nothing runs after it to await it;
    - it is the close of an object the starting function is discarding, replaced or popped
      from its container (`tasks.closes_discarded_value`): a one-shot teardown whose
      result nobody would consume."""
    if closes_discarded_value(facts, coro, at):
        return True
    fn = coroutine_def(facts, coro)
    return fn is not None and (handles_own_errors(facts, fn) or stops_its_loop(facts, fn))


def _in_del(facts, node: ast.AST) -> str:
    """" in `__del__` (keep it in a module-level set: `self` is being finalised)" when `node`
    runs in a finaliser, else ""."""
    fn = facts.enclosing_function(node)
    if fn is not None and getattr(fn, "name", "") == "__del__" and facts.enclosing_class(fn) is not None:
        return " in `__del__` (the owner is being finalised: keep the task in a module-level set)"
    return ""


def _what(facts, call: ast.Call) -> str:
    return facts.dotted(call.func) or (call.func.attr if isinstance(call.func, ast.Attribute) else "create_task")


def _coroutine_not_shown(facts, call: ast.Call) -> str | None:
    """Why the harm of dropping the task `call` creates depends on code the project does
    not show, else None: the coroutine it runs is not a def of this project (a library's,
    a parameter, an attribute of an unknown object), so whether its failure goes unseen
    cannot be told (the latent case of issue 32)."""
    from ctxlint.semantic.python.calls import call_graph
    from ctxlint.semantic.python.project_index import resolve_function
    coro = call.args[0] if call.args else None
    if isinstance(coro, ast.Await):
        coro = coro.value
    if not isinstance(coro, ast.Call):
        return None  # a coroutine object made elsewhere: judged by the rule's own checks
    if call_graph(facts).resolve(coro) is not None or resolve_function(facts, coro.func) is not None:
        return None
    what = facts.segment(coro.func) or "the coroutine"
    return (f"`{what}` is not a def of this project: whether its failure would go unseen "
            "is not shown (latent)")
