"""CTX1xx (Python): lifecycle of request-scoped context — ContextVar tokens,
OpenTelemetry context tokens and spans, contextmanager cleanup, asyncio tasks,
cancellation-safe registration.
"""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule

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


def _class_functions(facts, cls: ast.ClassDef):
    for n in facts.walk(cls, into_defs=True):
        if isinstance(n, FUNCS):
            yield n


FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


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


def _yields(facts, fn):
    return [n for n in facts.walk(fn) if isinstance(n, (ast.Yield, ast.YieldFrom))]


def _pos(n: ast.AST) -> tuple[int, int]:
    return (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))
