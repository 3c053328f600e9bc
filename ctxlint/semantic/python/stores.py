"""Stores that outlive the function call making them (module globals, class attributes).

Facts:
    globals_of(facts, fn)   names `fn` declares `global`.
    locals_of(facts, fn)    names `fn` binds (parameters, assignment targets) minus its globals.
    store_kind(facts, target, fn)  "module global `X`" / "class attribute `C.x`" when the
        assignment target `target` (inside `fn`) writes a binding that outlives the
        call: a `global` name, an attribute of a class of this module (`C.x = ...`,
        `cls.x` in a classmethod, `type(self).x`, `self.__class__.x`); else None.
        `self.x` is not such a store (its lifetime is the instance's).
    app_state_store(facts, target, fn)  "application state `app.state.x`" when the target
        is an attribute of the web application or its `state` (`app = FastAPI()` at
        module level, `request.app` of a request parameter); else None.
    module_instantiated(facts, cls)  the class is instantiated at module level
        (`engine = Engine(...)`): its instances live as long as the module.

Read by CTX203 (request-scoped values stored globally) and CTX205 (tasks stored
where they outlive the request). Memoized per file on the shared `PythonFacts`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ctxlint.semantic.python.requests import ASGI_APP_CLASSES, request_params

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts


def globals_of(facts: "PythonFacts", fn) -> set[str]:
    """Names `fn` declares `global` (computed once per file for every def)."""
    def compute():
        out: dict[int, set[str]] = {}
        for g in facts.nodes(ast.Global):
            f = facts.enclosing_function(g)
            if f is not None:
                out.setdefault(id(f), set()).update(g.names)
        return out
    return facts.memo("stores.globals", compute).get(id(fn), set())


def locals_of(facts: "PythonFacts", fn) -> set[str]:
    """Names `fn` binds locally (parameters, assignments) minus its `global`s."""
    def compute():
        a = fn.args
        names = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
        for n in facts.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
        return names - globals_of(facts, fn)
    return facts.memo(f"stores.locals.{id(fn)}", compute)


def class_names(facts: "PythonFacts") -> set[str]:
    """Names of the classes defined in this module."""
    return facts.memo("stores.class_names", lambda: {c.name for c in facts.nodes(ast.ClassDef)})


def _first_param(fn) -> str | None:
    args = fn.args.posonlyargs + fn.args.args
    return args[0].arg if args else None


def _is_classmethod(facts: "PythonFacts", fn) -> bool:
    return any((facts.qualname(d) or "") in ("classmethod", "builtins.classmethod") for d in fn.decorator_list)


def store_kind(facts: "PythonFacts", target: ast.AST, fn) -> str | None:
    """How the store `target` (an assignment target inside `fn`) outlives the call, else None."""
    if isinstance(target, ast.Name) and target.id in globals_of(facts, fn):
        return f"module global `{target.id}`"
    if isinstance(target, ast.Attribute):
        recv = target.value
        if isinstance(recv, ast.Name):
            if recv.id in class_names(facts) and recv.id not in locals_of(facts, fn):
                return f"class attribute `{recv.id}.{target.attr}`"
            if recv.id == _first_param(fn) and _is_classmethod(facts, fn):
                return f"class attribute `{recv.id}.{target.attr}`"
        if (isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "type"
                and len(recv.args) == 1):
            return f"class attribute `type(...).{target.attr}`"
        if isinstance(recv, ast.Attribute) and recv.attr == "__class__":
            return f"class attribute `__class__.{target.attr}`"
    return None


def _is_application(facts: "PythonFacts", expr: ast.AST, fn) -> bool:
    """Does `expr` hold the ASGI/web application: a module global assigned one of
    `requests.ASGI_APP_CLASSES` (`app = FastAPI()`), or `<request>.app` of a request
    parameter of `fn` (Starlette/aiohttp `request.app`)?"""
    if isinstance(expr, ast.Name):
        if fn is not None and expr.id in locals_of(facts, fn):
            return False
        return any(isinstance(v, ast.Call) and (facts.qualname(v.func) or "") in ASGI_APP_CLASSES
                   for v in facts.module_assignments.get(expr.id, ()))
    if isinstance(expr, ast.Attribute) and expr.attr == "app" and isinstance(expr.value, ast.Name):
        return expr.value.id in request_params(facts, fn)
    return False


def app_state_store(facts: "PythonFacts", target: ast.AST, fn) -> str | None:
    """"application state `app.state.client`" when the assignment target `target` (inside
    `fn`) is an attribute of the application's state (`app.state.x`, `request.app.state.x`,
    `app.x`): it lives as long as the application and every request reads it; else None."""
    if not isinstance(target, ast.Attribute):
        return None
    recv = target.value
    if isinstance(recv, ast.Attribute) and recv.attr == "state":
        recv = recv.value
    if _is_application(facts, recv, fn):
        return f"application state `{facts.dotted(target) or target.attr}`"
    return None


def module_instantiated(facts: "PythonFacts", cls: ast.ClassDef | None) -> bool:
    """Is `cls` instantiated by a module-level assignment (`x = Cls(...)`)?"""
    if cls is None:
        return False
    for vals in facts.module_assignments.values():
        for v in vals:
            if isinstance(v, ast.Call) and facts.dotted(v.func) == cls.name:
                return True
    return False
