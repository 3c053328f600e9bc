"""Where cleanup runs: `finally` blocks, cancellation handlers, generator steps.

Facts (pure functions over the shared `PythonFacts` index):
    field_of(parent, child)     the statement list of `parent` that holds `child`
                                ("body", "orelse", "finalbody", "handlers").
    catches_cancellation(h)     an `except` that catches `CancelledError`/`GeneratorExit`
                                (bare, `BaseException`, or those classes by name).
    protected(facts, node, stop)  `node` runs on the exceptional path too: inside a
                                `finally`, an except-all handler, or a nested def
                                (a callback registered to run at release time).
    following_statements(...)   the statements that run after a statement on the
                                normal path, up to the end of its function.
    yields(facts, fn), is_generator(facts, fn), is_contextmanager(facts, fn).
    cannot_raise(facts, stmts)  none of these statements can raise an ordinary
                                `Exception` or leave the block (no-raise calls of
                                `NO_RAISE_CALLS`, plain assignments, a `try` with a
                                catch-all handler that does not re-raise).
    pos(node)                   (line, column) for source-order comparisons.
    statements_reached_after(facts, fn, node, barrier)  the statements control can
                                reach after `node` in one run of `fn` (a statement-level
                                control-flow graph: `break`, `continue`, `return`,
                                `raise`, loops, `try`), not past a `barrier` statement.

Used by CTX106, CTX108 and CTX110 (and copied from the old lifecycle family, whose
other rules keep their own copies while they move).
"""

from __future__ import annotations

import ast

#: Exception classes (last dotted component) whose handler runs when a task is
#: cancelled or a generator is closed (Python docs: asyncio "Task Cancellation",
#: "generator.close"). `Exception` is added where a rule also accepts ordinary errors.
CANCELLATION_CLASSES = frozenset({"BaseException", "CancelledError", "GeneratorExit"})
#: Decorators that turn a generator into a context manager (contextlib docs).
CONTEXTMANAGER_DECORATORS = frozenset({"contextmanager", "asynccontextmanager"})

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def pos(n: ast.AST) -> tuple[int, int]:
    """(line, column) of a node, (0, 0) for nodes without a location."""
    return (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))


def field_of(parent: ast.AST, child: ast.AST) -> str | None:
    """Name of the list field of `parent` that holds statement `child`, or None."""
    for name in ("body", "orelse", "finalbody", "handlers"):
        seq = getattr(parent, name, None)
        if isinstance(seq, list) and any(s is child for s in seq):
            return name
    return None


def catches_cancellation(handler: ast.ExceptHandler, include_exception: bool = False) -> bool:
    """Does `except ...:` catch cancellation (bare, BaseException, CancelledError, GeneratorExit)?
    With `include_exception`, `except Exception` counts too."""
    t = handler.type
    if t is None:
        return True
    names = [t] if not isinstance(t, ast.Tuple) else list(t.elts)
    ok = CANCELLATION_CLASSES | ({"Exception"} if include_exception else set())
    for n in names:
        last = n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
        if last in ok:
            return True
    return False


def protected(facts, node: ast.AST, stop: ast.AST | None, include_exception: bool = False) -> bool:
    """Is `node` inside a `finally:` block, an except-all handler, or a nested def/lambda
    (a callback run at release time), below `stop`?"""
    child = node
    for a in facts.ancestors(node):
        if a is stop:
            return False
        if isinstance(a, ast.Try) or type(a).__name__ == "TryStar":
            if field_of(a, child) == "finalbody":
                return True
        if isinstance(a, ast.ExceptHandler) and catches_cancellation(a, include_exception):
            return True
        if isinstance(a, _DEFS) and a is not stop:
            return True
        child = a
    return False


def in_with_item(facts, node: ast.AST) -> bool:
    """Is `node` the context expression of a `with`/`async with` item (or inside it)?"""
    for a in facts.ancestors(node):
        if isinstance(a, ast.withitem):
            return True
        if isinstance(a, ast.stmt):
            return False
    return False


def following_statements(facts, stmt: ast.stmt, fn: ast.AST) -> list[ast.stmt]:
    """Statements that run after `stmt` on the normal path, up to the end of `fn`
    (stopping at a `return`/`raise` of an enclosing block)."""
    out: list[ast.stmt] = []
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            break
        fld = field_of(parent, node)
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


def yields(facts, fn: ast.AST) -> list[ast.AST]:
    """The `yield`/`yield from` nodes of `fn`'s own body (not nested defs)."""
    return [n for n in facts.walk(fn) if isinstance(n, (ast.Yield, ast.YieldFrom))]


def is_generator(facts, fn: ast.AST) -> bool:
    """Does `fn`'s own body yield?"""
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in facts.walk(fn))


def is_contextmanager(facts, fn: ast.AST) -> bool:
    """Decorated with contextlib.contextmanager / asynccontextmanager (however imported)?"""
    for d in getattr(fn, "decorator_list", ()):
        target = d.func if isinstance(d, ast.Call) else d
        q = facts.qualname(target) or ""
        if q.split(".")[-1] in CONTEXTMANAGER_DECORATORS:
            return True
    return False


def last_name(expr: ast.AST) -> str:
    """`b` for `a.b`, `a` for `a`, "" otherwise."""
    if isinstance(expr, ast.Attribute):
        return expr.attr
    if isinstance(expr, ast.Name):
        return expr.id
    return ""


# ---------------------------------------------------------------- cleanup calls
#: Method/function names that undo something: the release/close/reset verbs of the
#: stdlib and the libraries the rules meet (contextlib, asyncio/threading sync
#: primitives, torch hook handles `remove`, OpenTelemetry `end`/`detach`, file and
#: client `close`/`aclose`, database `rollback`). A documented hint for calls whose
#: callee this module cannot resolve; a callee of this module is judged by its
#: summary (`calls.FunctionSummary`) instead.
CLEANUP_CALLS: frozenset[str] = frozenset({
    "remove", "close", "reset", "detach", "free", "release", "cancel", "unregister", "shutdown",
    "restore", "stop", "end", "clear", "delete", "unload", "teardown", "cleanup", "disconnect",
    "terminate", "kill", "unlink", "rmtree", "unpatch", "undo", "discard", "dispose",
    "deactivate", "disable", "uninstall", "unset", "unlock", "destroy", "pop", "aclose",
    "exit", "__exit__", "__aexit__", "rollback",
})
#: Prefixes of such names (`reset_state`, `restore_env`, `_release_slot`).
CLEANUP_PREFIXES: tuple[str, ...] = (
    "reset_", "restore", "remove_", "release_", "close_", "free_", "unregister",
    "cleanup", "clean_up", "clear_", "delete_", "unload", "disable_", "detach_",
    "teardown", "shutdown", "_restore", "_reset", "_remove", "_cleanup", "_release",
    "unset", "unpatch", "unfreeze", "revert")
#: Calls that hand a pooled resource back (`queue.Queue.put` used as a pool,
#: psycopg2 `putconn`, SQLAlchemy `checkin`): cleanup only when the argument is a
#: value taken before, since `queue.put(item)` of a fresh value is ordinary work.
POOL_RETURN_CALLS: frozenset[str] = frozenset({
    "put", "put_nowait", "putconn", "checkin", "check_in", "give_back", "giveback",
    "return_connection", "return_conn", "relinquish"})
POOL_RETURN_PREFIXES: tuple[str, ...] = ("return_", "put_back", "give_back")


def is_cleanup_name(name: str) -> bool:
    """Does a callee's name say it undoes something (see `CLEANUP_CALLS`)?"""
    return name in CLEANUP_CALLS or name.startswith(CLEANUP_PREFIXES)


#: Calls that end the process (Python docs, `sys.exit`, `os._exit`), by qualified name.
PROCESS_EXITS: frozenset[str] = frozenset({"sys.exit", "os._exit"})


def reraises(stmts: list[ast.stmt]) -> bool:
    """Is there a `raise` in `stmts`, other than one under `if isinstance(e, CancelledError):`?"""
    for s in stmts:
        if isinstance(s, ast.If) and isinstance(s.test, ast.Call) and isinstance(s.test.func, ast.Name) \
                and s.test.func.id == "isinstance" and len(s.test.args) == 2 \
                and last_name(s.test.args[1]) == "CancelledError":
            if reraises(s.orelse):
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


def tested_as_condition(facts, call: ast.Call) -> bool:
    """Is `call` a query: a call with no arguments whose value is the test of an `if`,
    a conditional expression or an `assert`, possibly under `not`, `and`/`or` or a
    comparison (`if self.protocol.close_expected():`)? Its answer picks the branch. A
    call given arguments (`if d.pop(k, None) is None:`, `if not pool.release(conn):`)
    or driving a `while` (`while reg.remove_one():`) does its work whatever its answer,
    and is not a query."""
    if call.args or call.keywords:
        return False
    cur: ast.AST = call
    parent = facts.parents.get(cur)
    while isinstance(parent, (ast.BoolOp, ast.UnaryOp, ast.Compare)):
        cur, parent = parent, facts.parents.get(parent)
    return isinstance(parent, (ast.If, ast.IfExp, ast.Assert)) and parent.test is cur


def is_pool_return_name(name: str) -> bool:
    """Does a callee's name say it hands a pooled resource back (see `POOL_RETURN_CALLS`)?"""
    return name in POOL_RETURN_CALLS or name.startswith(POOL_RETURN_PREFIXES)


# ---------------------------------------------------------------- statements that cannot raise
#: Calls that do not raise an ordinary `Exception` for any argument a program passes
#: them: `contextvars.copy_context` (PEP 567: returns a shallow copy of the current
#: Context), `time.time`/`monotonic`/`perf_counter` and their `_ns` forms (Python docs,
#: `time` module: no error conditions), `opentelemetry.context.get_current` (OTel API:
#: returns the current Context), and the builtins `len`/`id` applied to a plain name
#: (`len` of a sized value; the Python docs list no other error). Matched by qualified
#: name; a builtin counts only while the module does not rebind it.
NO_RAISE_CALLS: frozenset[str] = frozenset({
    "contextvars.copy_context", "opentelemetry.context.get_current",
    "time.time", "time.monotonic", "time.perf_counter", "time.time_ns", "time.monotonic_ns",
    "time.perf_counter_ns", "len", "id",
})
_BUILTIN_NO_RAISE = frozenset({"len", "id"})


def _no_raise_call(facts, call: ast.Call) -> bool:
    q = facts.qualname(call.func) or ""
    if q not in NO_RAISE_CALLS or call.keywords:
        return False
    if q in _BUILTIN_NO_RAISE and (not isinstance(call.func, ast.Name) or call.func.id in facts.module_names):
        return False
    return all(_plain_expr(facts, a) for a in call.args)


def _plain_expr(facts, e: ast.AST) -> bool:
    """A name, a constant, a tuple/list of those, or a `NO_RAISE_CALLS` call of those."""
    if isinstance(e, (ast.Name, ast.Constant)):
        return True
    if isinstance(e, (ast.Tuple, ast.List)):
        return all(_plain_expr(facts, x) for x in e.elts)
    if isinstance(e, ast.Call):
        return _no_raise_call(facts, e)
    return False


def _leaves_block(nodes: list[ast.stmt], raise_ok: bool = False) -> bool:
    """Does any of these statements leave the enclosing block early: `return`, `raise`
    (unless `raise_ok`: inside a guarded `try` body it is caught), `yield` (GeneratorExit
    is thrown there), an `await` outside a guarded body (CancelledError), or a
    `break`/`continue` that is not inside a loop of its own within `nodes`?"""
    stack: list[tuple[ast.AST, bool]] = [(s, False) for s in nodes]
    while stack:
        n, in_loop = stack.pop()
        if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) or (isinstance(n, ast.Raise) and not raise_ok):
            return True
        if isinstance(n, ast.Await) and not raise_ok:
            return True
        if isinstance(n, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if isinstance(n, _DEFS):
            continue
        inner = in_loop or isinstance(n, (ast.For, ast.AsyncFor, ast.While))
        stack.extend((c, inner) for c in ast.iter_child_nodes(n))
    return False


def suspends(nodes: list[ast.stmt]) -> bool:
    """Do these statements await (`await`, `async for`, `async with`), outside nested defs?"""
    stack: list[ast.AST] = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return True
        if not isinstance(n, _DEFS):
            stack.extend(ast.iter_child_nodes(n))
    return False


def _catch_all(handler: ast.ExceptHandler, cancellation: bool) -> bool:
    """Does `except ...:` catch every ordinary error: bare, `Exception` or `BaseException`
    (alone or in a tuple)? With `cancellation` (a guarded body that awaits, where
    `asyncio.CancelledError`, a BaseException, is thrown) only bare or `BaseException`."""
    t = handler.type
    if t is None:
        return True
    names = {last_name(x) for x in (t.elts if isinstance(t, ast.Tuple) else [t])}
    return "BaseException" in names or (not cancellation and "Exception" in names)


def cannot_raise(facts, stmts: list[ast.stmt]) -> bool:
    """Can none of `stmts` raise an ordinary `Exception` or leave the block early, so that
    a statement after them always runs (except on a BaseException such as
    KeyboardInterrupt)? True when each statement is:

    * `pass`, a docstring, or a call in `NO_RAISE_CALLS` (arguments plain names/constants);
    * an assignment of such a value (names, constants, `NO_RAISE_CALLS`) to plain names;
    * a `try` with a catch-all handler (`except Exception:`/bare; when its body awaits,
      bare or `except BaseException:`, since cancellation is a BaseException) whose
      handlers do not re-raise, return, break out or suspend, whose body does not
      return, break out or yield, and whose `else`/`finally` blocks satisfy this rule.

    Args: `stmts`, consecutive statements of one block (an `await` outside a guarded
    `try` body counts as a way out: cancellation is thrown there). Never raises. (Reset/detach straight after a call guarded by a catch-all runs on every
    ordinary path: the OpenTelemetry SDK exporters' `token = attach(suppress)`;
    `try: export() except Exception: log()`; `detach(token)`.)"""
    for s in stmts:
        if isinstance(s, ast.Pass):
            continue
        if isinstance(s, ast.Expr) and (isinstance(s.value, ast.Constant)
                                        or (isinstance(s.value, ast.Call) and _no_raise_call(facts, s.value))):
            continue
        if isinstance(s, (ast.Assign, ast.AnnAssign)):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            if s.value is not None and all(isinstance(t, ast.Name) for t in targets) and _plain_expr(facts, s.value):
                continue
            return False
        if isinstance(s, ast.Try):
            if not any(_catch_all(h, suspends(s.body)) for h in s.handlers):
                return False
            if any(_leaves_block(h.body) for h in s.handlers) or _leaves_block(s.body, raise_ok=True):
                return False
            if not cannot_raise(facts, s.orelse) or not cannot_raise(facts, s.finalbody):
                return False
            continue
        return False
    return True


# ---------------------------------------------------------------- control flow after a node
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_TRIES = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)
_BLOCK_FIELDS = ("body", "handlers", "orelse", "finalbody")


def _always_loops(loop: ast.AST) -> bool:
    """`while True:` (a constant true test): the loop is left only by `break`/`return`/`raise`."""
    return isinstance(loop, ast.While) and isinstance(loop.test, ast.Constant) and bool(loop.test.value)


def statements_reached_after(facts, fn: ast.AST, node: ast.AST, barrier=None) -> set[int]:
    """Ids of the statements of `fn`'s own body that control can reach after `node`
    (an expression or statement of `fn`) within one run of `fn`, on its control-flow
    graph: the rest of `node`'s block, then what follows the block (the next pass of
    an enclosing loop, the `else`/`finally` of an enclosing `try`, the statement after
    an `if`/`with`/`match`), `break` leaving its loop (not re-entering it), `continue`
    re-entering it, an unconditional `return`/`raise` ending the path (a `raise` in a
    `try` body may still enter that `try`'s handlers, and a `finally` runs in any case),
    and from anywhere in a `try` body its handlers. A statement that holds `node` in its
    header (an `if` test, a `with` item) reaches its blocks.

    `barrier(stmt) -> bool`, when given, marks statements control does not get past
    with the state of interest: a `try` it accepts is entered (its body, handlers and
    `else` are reached) but nothing after its `finally` is; any other statement it
    accepts is reached and ends the path there. (CTX108 passes the `try` whose `finally`
    removes a registry entry, and the plain statement that removes it: past them the
    entry is gone.)

    Over-approximates where it cannot tell (a compound statement may complete
    normally even when all its branches return). The idea is the classic
    statement-level CFG (Allen, "Control Flow Analysis", 1970), built on demand from
    the syntax tree.
    """
    reached: set[int] = set()
    on_exit: set[int] = set()  # `finally` statements run on the way out of a `return`/`break`
    fell_off: set[tuple[int, str]] = set()
    parents = facts.parents

    def loop_of(stmt):
        child = stmt
        for a in facts.ancestors(stmt):
            if a is fn or isinstance(a, _DEFS):
                return None
            if isinstance(a, _LOOPS) and field_of(a, child) == "body":
                return a
            child = a
        return None

    def after(stmt):
        """Control leaves `stmt` normally: continue in its block."""
        parent = parents.get(stmt)
        if parent is None or stmt is fn:
            return
        fld = field_of(parent, stmt)
        if fld is None:
            return
        seq = getattr(parent, fld)
        idx = next(k for k, s in enumerate(seq) if s is stmt)
        run(parent, fld, seq, idx + 1)

    def falloff(parent, fld):
        """Control reaches the end of block `fld` of `parent`."""
        if (id(parent), fld) in fell_off:
            return
        fell_off.add((id(parent), fld))
        if parent is fn:
            return
        if isinstance(parent, ast.ExceptHandler):
            parent, fld = parents.get(parent), "handlers"
            if parent is None:
                return
        if isinstance(parent, _LOOPS):
            if fld == "body":
                enter(parent)  # the next pass (or the loop's end)
            else:
                after(parent)
        elif isinstance(parent, _TRIES):
            if fld == "body":
                run(parent, "orelse", parent.orelse, 0)
            elif fld in ("orelse", "handlers"):
                run(parent, "finalbody", parent.finalbody, 0)
            elif not (barrier is not None and barrier(parent)):
                after(parent)
        elif isinstance(parent, ast.match_case):
            m = parents.get(parent)
            if m is not None:
                after(m)
        else:
            after(parent)

    work: list[tuple] = []

    def run(parent, fld, seq, i):
        """Execute `seq[i:]` (block `fld` of `parent`): queued, so that long blocks of
        compound statements do not nest Python calls."""
        work.append((parent, fld, seq, i))

    def run_now(parent, fld, seq, i):
        for s in seq[i:]:
            if id(s) in reached:
                return  # this statement's continuation is already walked
            reached.add(id(s))
            if barrier is not None and barrier(s):
                if isinstance(s, _TRIES):
                    inner(s)
                return
            if isinstance(s, (ast.Return, ast.Raise)):
                if isinstance(s, ast.Raise):
                    raised(s)
                finals(s)
                return
            if isinstance(s, ast.Break):
                loop = loop_of(s)
                if loop is not None:
                    finals(s, loop)
                    after(loop)
                return
            if isinstance(s, ast.Continue):
                loop = loop_of(s)
                if loop is not None:
                    finals(s, loop)
                    enter(loop)
                return
            if _compound(s):
                inner(s)
                return  # the ends of its blocks continue after it (`falloff`)
        falloff(parent, fld)

    def enter(s):
        """Run compound statement `s` from its header (again)."""
        reached.add(id(s))
        inner(s)

    def inner(s):
        if isinstance(s, _LOOPS):
            run(s, "body", s.body, 0)
            if not _always_loops(s):
                run(s, "orelse", s.orelse, 0)
        elif isinstance(s, ast.If):
            run(s, "body", s.body, 0)
            run(s, "orelse", s.orelse, 0)
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            run(s, "body", s.body, 0)
        elif isinstance(s, _TRIES):
            run(s, "body", s.body, 0)
            for h in s.handlers:
                reached.add(id(h))
                run(h, "body", h.body, 0)
        elif type(s).__name__ == "Match":
            for case in s.cases:
                run(case, "body", case.body, 0)
            after(s)  # no case may match

    def raised(stmt):
        """A `raise` may be caught by the handlers of a `try` whose body holds it."""
        child = stmt
        for a in facts.ancestors(stmt):
            if a is fn or isinstance(a, _DEFS):
                return
            if isinstance(a, _TRIES) and field_of(a, child) == "body":
                for h in a.handlers:
                    reached.add(id(h))
                    run(h, "body", h.body, 0)
                return
            child = a

    def finals(stmt, upto=None):
        """The `finally` blocks between `stmt` and `upto` (exclusive) run on the way out;
        what follows them is the exit's, not the block end's."""
        child = stmt
        for a in facts.ancestors(stmt):
            if a is fn or a is upto or isinstance(a, _DEFS):
                return
            if isinstance(a, _TRIES) and a.finalbody and field_of(a, child) != "finalbody":
                for s in a.finalbody:
                    for n in facts.walk(s):
                        if isinstance(n, ast.stmt):
                            on_exit.add(id(n))
            child = a

    start = facts.enclosing_statement(node) if not isinstance(node, ast.stmt) else node
    if start is not node and _compound(start):
        enter(start)  # `node` is in the header: the statement's blocks follow
    else:
        # from inside a `try` body, its handlers are reachable (anything after `node` may raise)
        child = start
        for a in facts.ancestors(start):
            if a is fn or isinstance(a, _DEFS):
                break
            if isinstance(a, _TRIES) and field_of(a, child) == "body":
                for h in a.handlers:
                    reached.add(id(h))
                    run(h, "body", h.body, 0)
            child = a
        if isinstance(start, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            parent = parents.get(start)
            fld = field_of(parent, start) if parent is not None else None
            # the exit statement itself: run it (as the block would)
            if fld is not None:
                seq = getattr(parent, fld)
                run(parent, fld, seq, next(k for k, s in enumerate(seq) if s is start))
        else:
            after(start)
    while work:
        run_now(*work.pop())
    return reached | on_exit


def _compound(s: ast.stmt) -> bool:
    return isinstance(s, (*_LOOPS, ast.If, ast.With, ast.AsyncWith, *_TRIES)) or type(s).__name__ == "Match"


# ---------------------------------------------------------------- exit stacks
#: contextlib's exit stacks: what is registered on one runs when its `with` exits, on
#: every path (Python docs, contextlib.ExitStack / AsyncExitStack: "callbacks are
#: invoked ... when the instance is closed (either explicitly or implicitly at the end
#: of a with statement)").
EXIT_STACK_CLASSES: frozenset[str] = frozenset({"contextlib.ExitStack", "contextlib.AsyncExitStack"})
#: Registration methods whose first argument is the callable the stack calls at exit
#: (`callback(fn, *args)`, `push_async_callback(fn, *args)`).
EXIT_STACK_CALLBACKS: frozenset[str] = frozenset({"callback", "push_async_callback"})
#: Registration methods whose first argument is a context manager the stack enters
#: and exits; their result is the value `__enter__` gave (`enter_context`,
#: `enter_async_context`).
EXIT_STACK_CONTEXTS: frozenset[str] = frozenset({"enter_context", "enter_async_context"})
#: Registration methods taking a context manager or an exit function (`push`,
#: `push_async_exit`).
EXIT_STACK_EXITS: frozenset[str] = frozenset({"push", "push_async_exit"})
#: Methods that empty the stack: `pop_all()` moves its callbacks to a new stack (so the
#: original's exit no longer runs them), `close()`/`aclose()` run them now.
EXIT_STACK_EMPTYING: frozenset[str] = frozenset({"pop_all", "close", "aclose"})


class ExitStackCover:
    """What the exit stacks enclosing a point hold there (`exit_stack_cover`).

    Attributes:
        callables: dotted texts of callables registered (`self.stop` for
            `stack.push_async_callback(self.stop, join=False)`, `h.remove` for
            `stack.callback(h.remove)`, an exit function given to `push`).
        resources: dotted texts of the objects the stacks exit (`conn` for
            `stack.enter_context(conn)` or `conn = stack.enter_context(connect())`, a
            context manager given to `push`).
    """

    __slots__ = ("callables", "resources")

    def __init__(self):
        self.callables: set[str] = set()
        self.resources: set[str] = set()

    def __bool__(self) -> bool:
        return bool(self.callables or self.resources)

    def covers(self, facts, call: ast.Call) -> bool:
        """Does one of the stacks undo what `call` undoes: the same callable
        (`self.stop(join=True)` after `push_async_callback(self.stop, join=False)`), a
        method of an object the stack exits (`conn.close()` after
        `stack.enter_context(conn)`), or a call handed such an object
        (`pool.release(conn)`)?"""
        text = facts.dotted(call.func)
        if text and text in self.callables:
            return True
        if isinstance(call.func, ast.Attribute) and facts.dotted(call.func.value) in self.resources:
            return True
        return any(facts.dotted(a) in self.resources for a in call.args if facts.dotted(a))


def exit_stack_cover(facts, node: ast.AST, fn: ast.AST) -> ExitStackCover:
    """What the `contextlib` exit stacks whose `with`/`async with` (inside `fn`)
    encloses `node` have registered before `node`: the callables and objects they
    will call or exit when the `with` exits, normally or by an exception thrown in at
    `node` (a `yield`). A stack is a name bound by `with ExitStack() as stack`, or by
    `stack = ExitStack()` used as `with stack:`. Registrations are the stack's
    `callback`/`push_async_callback` (the callable), `enter_context`/
    `enter_async_context` (the context manager and the name its result is bound to)
    and `push`/`push_async_exit` (either) in `fn`'s own body before `node`; those
    before a `pop_all()`/`close()`/`aclose()` of the same stack that also precedes
    `node` no longer count. Empty when no such stack encloses `node`."""
    out = ExitStackCover()
    stacks: dict[str, ast.AST] = {}
    for a in facts.ancestors(node):
        if a is fn:
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                name = _exit_stack_name(facts, item, fn)
                if name is not None:
                    # `with ExitStack() as s`: an earlier `s` was another object;
                    # `with s:` of `s = ExitStack()`: what `s` got before counts too
                    stacks[name] = a if item.optional_vars is not None else fn
    if not stacks:
        return out
    here = pos(node)
    calls = sorted((n for n in facts.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and isinstance(n.func.value, ast.Name) and n.func.value.id in stacks and pos(n) < here),
                   key=pos)
    held = {name: ExitStackCover() for name in stacks}
    for c in calls:
        stack, meth = c.func.value.id, c.func.attr
        if stacks[stack] is not fn and pos(c) < pos(stacks[stack]):
            continue  # the name before this `with` bound it
        got = held[stack]
        if meth in EXIT_STACK_EMPTYING:
            held[stack] = ExitStackCover()
            continue
        first = c.args[0] if c.args else None
        text = facts.dotted(first) if first is not None else None
        if meth in EXIT_STACK_CALLBACKS and text:
            got.callables.add(text)
        elif meth in EXIT_STACK_CONTEXTS:
            if text:
                got.resources.add(text)
            bound = _bound_name(facts, c)
            if bound:
                got.resources.add(bound)
        elif meth in EXIT_STACK_EXITS and text:
            got.callables.add(text)
            got.resources.add(text)
    for got in held.values():
        out.callables |= got.callables
        out.resources |= got.resources
    return out


def _exit_stack_name(facts, item: ast.withitem, fn: ast.AST) -> str | None:
    """The name of the exit stack a `with` item manages, or None."""
    expr = item.context_expr
    if isinstance(expr, ast.Call) and (facts.qualname(expr.func) or "") in EXIT_STACK_CLASSES:
        v = item.optional_vars
        return v.id if isinstance(v, ast.Name) else None
    if isinstance(expr, ast.Name):  # `stack = ExitStack()` ... `with stack:`
        values = [n.value for n in facts.walk(fn) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
        if values and all(isinstance(v, ast.Call) and (facts.qualname(v.func) or "") in EXIT_STACK_CLASSES
                          for v in values):
            return expr.id
    return None


def _bound_name(facts, call: ast.Call) -> str | None:
    """The name `call`'s result is bound to (`x = call`, `x = await call`)."""
    p = facts.parents.get(call)
    if isinstance(p, ast.Await):
        p = facts.parents.get(p)
    if isinstance(p, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
        targets = p.targets if isinstance(p, ast.Assign) else [p.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            return targets[0].id
    return None
