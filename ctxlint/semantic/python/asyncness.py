"""Where code runs: on the event loop thread, or in an executor's worker threads.

Facts:
    async_only_functions(facts): the sync defs of this module that run only inside
        async code, because every call of them in the file is made from an
        `async def` (or from another such function) and they are never passed
        around as values. A thread-local read there is read on the loop thread
        (CTX204); a registration there is an `async def`'s registration (CTX108).
    runs_on_loop(facts, fn): `fn` is an `async def` or one of those functions.
    is_thread_executor(facts, expr, fn): `expr` holds a thread-pool executor
        (`THREAD_EXECUTOR_TYPES`), by where it comes from: a constructor call, a
        name bound by assignment or `with ... as`, an annotated parameter, a module
        global, or a `self.` attribute assigned or annotated in the class. Work
        submitted there runs in another thread, in an empty Context (CTX206).

Computed once per file on the shared `PythonFacts` index and memoized there.
Resolution is by the def's name inside this module (a method called as
`self.m()` or `obj.m()` resolves to the one def of that name); a name with two
defs in the file is never taken for async-only.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts


def async_only_functions(facts: "PythonFacts") -> set[int]:
    """ids (`id(node)`) of sync defs called only from async code in this file.

    A def qualifies when it is the only def of its name, it is called at least
    once, every call's enclosing function is an `async def` or itself qualifies
    (fixpoint), and the name is never loaded other than as a callee (so it is
    not handed to an executor, a callback registry or a thread). A call inside a
    lambda handed to a worker thread (`asyncio.to_thread(lambda: f())`) is not an
    async caller. Never raises.
    """
    def compute():
        sync_defs: dict[str, list[ast.AST]] = {}
        for f in facts.nodes(ast.FunctionDef):
            sync_defs.setdefault(f.name, []).append(f)
        if not sync_defs:
            return set()
        callers: dict[str, list[ast.AST | None]] = {}
        other_refs: set[str] = set()
        for n in facts.nodes(ast.Name, ast.Attribute):
            name = n.id if isinstance(n, ast.Name) else n.attr
            if name not in sync_defs or not isinstance(n.ctx, ast.Load):
                continue
            p = facts.parents.get(n)
            if isinstance(p, ast.Call) and p.func is n:
                # a call inside a lambda handed to a worker thread runs off the loop:
                # `asyncio.to_thread(lambda: self._client().get(k))`
                callers.setdefault(name, []).append(None if _in_offloaded_lambda(facts, n)
                                                     else facts.enclosing_function(n))
            else:
                other_refs.add(name)
        async_only: set[int] = set()
        changed = True
        while changed:
            changed = False
            for name, fs in sync_defs.items():
                if name in other_refs or name not in callers or len(fs) != 1 or id(fs[0]) in async_only:
                    continue
                if all(c is not None and (isinstance(c, ast.AsyncFunctionDef) or id(c) in async_only)
                       for c in callers[name]):
                    async_only.add(id(fs[0]))
                    changed = True
        return async_only
    return facts.memo("asyncness.async_only", compute)


#: Calls that run a callable argument on a worker thread (Python docs: `asyncio.to_thread`,
#: `loop.run_in_executor`, `Executor.submit`, `threading.Thread(target=...)`; anyio's
#: `to_thread.run_sync`).
OFFLOAD_CALLS = frozenset({"to_thread", "run_in_executor", "submit", "run_sync", "Thread"})


def _in_offloaded_lambda(facts: "PythonFacts", node: ast.AST) -> bool:
    """Is `node` inside a lambda passed to an `OFFLOAD_CALLS` call (before its def)?"""
    cur = facts.parents.get(node)
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(cur, ast.Lambda):
            call = facts.parents.get(cur)
            if isinstance(call, ast.keyword):
                call = facts.parents.get(call)
            if isinstance(call, ast.Call):
                f = call.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in OFFLOAD_CALLS:
                    return True
        cur = facts.parents.get(cur)
    return False


def runs_on_loop(facts: "PythonFacts", fn: ast.AST | None) -> bool:
    """Does `fn` (a def node, or None for module level) run on the event loop thread:
    an `async def`, or a sync def that only async code of this module calls?"""
    if fn is None:
        return False
    return isinstance(fn, ast.AsyncFunctionDef) or id(fn) in async_only_functions(facts)


# ============================================================ executors
#: Thread-pool executors (concurrent.futures docs: `Executor`, `ThreadPoolExecutor`).
#: A process pool is left out on purpose: a Context cannot be sent to another
#: process, so copying it is no remedy there.
THREAD_EXECUTOR_TYPES = frozenset({"concurrent.futures.ThreadPoolExecutor", "concurrent.futures.Executor",
                                   "concurrent.futures.thread.ThreadPoolExecutor",
                                   "concurrent.futures._base.Executor"})


def _is_executor_type(facts: "PythonFacts", expr: ast.AST | None) -> bool:
    if expr is None:
        return False
    for n in ast.walk(expr):
        if isinstance(n, (ast.Name, ast.Attribute)):
            q = facts.qualname(n) or ""
            if q in THREAD_EXECUTOR_TYPES:
                return True
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            if n.value.split("[")[0].split(".")[-1] in ("ThreadPoolExecutor", "Executor"):
                return True
    return False


def is_thread_executor(facts: "PythonFacts", expr: ast.AST, fn, depth: int = 0) -> bool:
    """Does `expr` (inside `fn`, None at module level) hold a thread-pool executor?

    By value origin: a `ThreadPoolExecutor(...)` call; a name bound to one (an
    assignment, `with ThreadPoolExecutor() as pool`, a parameter or variable
    annotated with an executor type, a module global); a `self.` attribute assigned
    one in any method of the class (or annotated so at class level). Unresolved
    receivers are not executors."""
    if depth > 3 or expr is None:
        return False
    if isinstance(expr, ast.Call):
        return _is_executor_type(facts, expr.func)
    if isinstance(expr, ast.Name):
        if fn is not None:
            for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
                if a.arg == expr.id:
                    return _is_executor_type(facts, a.annotation)
            for n in facts.walk(fn):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets):
                    if is_thread_executor(facts, n.value, fn, depth + 1):
                        return True
                elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == expr.id:
                    if _is_executor_type(facts, n.annotation) or is_thread_executor(facts, n.value, fn, depth + 1):
                        return True
                elif isinstance(n, (ast.With, ast.AsyncWith)):
                    for item in n.items:
                        if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == expr.id:
                            if is_thread_executor(facts, item.context_expr, fn, depth + 1):
                                return True
            outer = facts.enclosing_function(fn)
            if outer is not None and expr.id not in _bound_in(facts, fn):
                return is_thread_executor(facts, expr, outer, depth + 1)
        return any(is_thread_executor(facts, v, None, depth + 1) or _is_executor_type(facts, v)
                   for v in facts.module_assignments.get(expr.id, ()) if not isinstance(v, ast.Constant))
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and fn is not None:
        cls = facts.enclosing_class(fn)
        if cls is None:
            return False
        for node in facts.attr_assignments(cls).get(expr.attr, ()):
            if isinstance(node, ast.AnnAssign) and _is_executor_type(facts, node.annotation):
                return True
            if node.value is not None and is_thread_executor(facts, node.value, facts.enclosing_function(node),
                                                             depth + 1):
                return True
    return False


def _bound_in(facts: "PythonFacts", fn) -> set[str]:
    a = fn.args
    out = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
    return out
