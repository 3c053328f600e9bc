"""CTX502 memoized-scope-read: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.values import module_values
from ctxlint.semantic.python.cache_keys import (
    SCOPE_KIND_WORDS, ident_words,
)
from ctxlint.semantic.python.calls import call_graph, function_index
from ctxlint.semantic.python.keys import (
    is_memoized,
)


#: Import-resolved names that are the current request scope in web frameworks.
_SCOPE_GLOBALS = {
    "flask.g": "flask.g", "flask.request": "flask.request", "flask.session": "flask.session",
    "flask_login.current_user": "current_user", "quart.g": "quart.g", "quart.request": "quart.request",
    # starlette-context: `context` is a module-level mapping backed by a ContextVar that its
    # middleware fills per request (https://starlette-context.readthedocs.io/)
    "starlette_context.context": "starlette_context.context",
}


class MemoizedScopeRead(Rule):
    code = "CTX502"
    name = "memoized-scope-read"
    summary = "An lru_cache/cache/cached/memoize function reads a scope ContextVar, flask.g, the current user or request."
    tokens = ("cache", "memo", "Memo", "cached")
    doc = """\
## What it does
Flags, inside a function decorated with `functools.lru_cache`/`cache`,
`cachetools.cached`, `memoize` or similar, a read of request-scoped state that is
not one of the function's parameters: a `ContextVar.get()`, `flask.g`/`request`/
`session`, `flask_login.current_user`, starlette-context's `context`, a
`get_current_tenant()`-style accessor, or the call of a function of this module
that returns one of these (`def get_tenant(): return _tenant.get()`, followed
through a local it returns and two levels of such helpers). The finding is at
the read.

A ContextVar is recognised by value, also through a module-level alias (`USER =
_current_user`).

## Why is this bad
The memo key is the argument tuple only. The first caller's tenant (or user, or
request) is baked into the cached result and served to every later caller with the
same arguments: tenant B sees tenant A's system prompt, permissions or data.

## Example
```python
@lru_cache(maxsize=256)
def system_prompt(model: str) -> str:
    tenant = current_tenant.get()
    return f"{TENANT_PROMPTS[tenant]} Answer with {model}."
```

## Use instead
```python
@lru_cache(maxsize=256)
def system_prompt(tenant: str, model: str) -> str:
    return f"{TENANT_PROMPTS[tenant]} Answer with {model}."

prompt = system_prompt(current_tenant.get(), model)
```

## Fix safety
No automatic fix: the id must become a parameter and every caller must pass it.

## Source
The cross-tenant memoization shape of ../shared/cases (C01); Python docs for
`functools.lru_cache` ("the cache key is the arguments"); flask docs on `g` being
per-request.
"""

    def check(self, facts):
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not is_memoized(facts, fn):
                continue
            seen: set[str] = set()
            for n in facts.walk(fn):
                src = self._scope_source(facts, fn, n) or self._helper_source(facts, n)
                if src and src not in seen:
                    seen.add(src)
                    yield facts.finding(
                        self, n,
                        f"memoized function `{fn.name}()` reads `{src}`: the result of the first "
                        "caller's scope is cached and served to every other scope; pass the id "
                        "as a parameter instead")

    @staticmethod
    def _helper_source(facts, n) -> str | None:
        """`get_tenant()` where `get_tenant` is a def of this module that returns a scope
        read (`return _tenant.get()`, through a local or a further helper)."""
        if not isinstance(n, ast.Call):
            return None
        callee = call_graph(facts).resolve(n)
        if not isinstance(callee, (ast.FunctionDef, ast.AsyncFunctionDef)) or is_memoized(facts, callee):
            return None
        src = facts.memo(f"ctx502.returns.{id(callee)}", lambda: _returned_scope(facts, callee, 0, set()) or "")
        if not src:
            return None
        return f"{facts.dotted(n.func) or callee.name}()`, which returns `{src}"

    @staticmethod
    def _scope_source(facts, fn, n) -> str | None:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and len(n.args) <= 1 and not n.keywords and (
                    facts.is_contextvar(n.func.value)
                    or "contextvar" in module_values(facts).kinds(n.func.value)):  # `USER = _current_user`
            return f"{facts.dotted(n.func.value)}.get()"
        if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(getattr(n, "ctx", None), ast.Load):
            if isinstance(facts.parents.get(n), ast.Attribute):
                return None  # report the outermost chain once (`g.tenant`, not `g`)
            base = n
            while isinstance(base, ast.Attribute):
                base = base.value
            if not isinstance(base, ast.Name) or base.id in _local_names(facts, fn):
                return None
            q = facts.qualname(base) or ""
            if q in _SCOPE_GLOBALS and _SCOPE_GLOBALS[q] and q != base.id:
                return facts.dotted(n) or base.id
        if isinstance(n, ast.Call) and not n.args and not n.keywords:
            name = (facts.dotted(n.func) or "").split(".")[-1]
            w = ident_words(name)
            if w and w[0] in ("get", "current") and ("current" in w or w[0] == "current") \
                    and any(SCOPE_KIND_WORDS.get(x) in ("tenant", "user", "request", "session") for x in w):
                return f"{name}()"
        return None


def _returned_scope(facts, d, depth: int, seen: set[int]) -> str | None:
    """The scope source a def of this module returns: a scope read (`_scope_source`)
    inside a `return` value or inside the value of a local that a `return` reads, or
    the call of another such helper there (two levels), else None."""
    if id(d) in seen or depth > 2:
        return None
    seen.add(id(d))
    graph = call_graph(facts)
    returns = [r.value for r in function_index(facts, d).returns if r.value is not None]
    returned_names = {n.id for r in returns for n in ast.walk(r) if isinstance(n, ast.Name)}
    roots = list(returns)
    for n in facts.walk(d):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and any(
                isinstance(t, ast.Name) and t.id in returned_names
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])):
            roots.append(n.value)
    for root in roots:
        for n in ast.walk(root):
            src = MemoizedScopeRead._scope_source(facts, d, n)
            if src:
                return src
            if isinstance(n, ast.Call):
                callee = graph.resolve(n)
                if callee is not None and callee is not d and isinstance(callee, (ast.FunctionDef,
                                                                                  ast.AsyncFunctionDef)):
                    src = _returned_scope(facts, callee, depth + 1, seen)
                    if src:
                        return src
    return None


def _local_names(facts, fn) -> set[str]:
    return facts.memo(f"ck_locals_{id(fn)}", lambda: {
        *(a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)),
        *(n.id for n in facts.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)),
    })
