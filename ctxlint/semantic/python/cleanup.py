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
    pos(node)                   (line, column) for source-order comparisons.

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


def is_pool_return_name(name: str) -> bool:
    """Does a callee's name say it hands a pooled resource back (see `POOL_RETURN_CALLS`)?"""
    return name in POOL_RETURN_CALLS or name.startswith(POOL_RETURN_PREFIXES)
