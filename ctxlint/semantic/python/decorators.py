"""What a decorator does to the function it decorates: does it put it in functools'
class-wide cache?

`@functools.lru_cache` on a method is visible at the decorator. Real code often hides it
behind a project helper, and the cache is the same:

    def cached_method(fn):                          # a decorator returning lru_cache(fn)
        return functools.lru_cache(maxsize=None)(fn)

    def memoize(maxsize=256):                       # a decorator factory
        return functools.lru_cache(maxsize=maxsize)

    memo = functools.lru_cache(maxsize=None)        # an alias bound once

    def cached(fn):                                 # a wrapper around a cached function
        inner = functools.lru_cache()(fn)
        @functools.wraps(fn)
        def wrapper(*args, **kw):
            return inner(*args, **kw)
        return wrapper

Facts:
    applied_cache(facts, deco) -> CacheApplication | None: the functools cache call that
        applying `deco` (one entry of a `decorator_list`) puts the decorated function in,
        followed through: aliases bound at module level or locally, decorator factories,
        helpers that return `lru_cache(fn)` (and helpers that return those, two levels),
        local re-binding, `functools.wraps(fn)(wrapper)` / `functools.update_wrapper`, and
        a returned wrapper that calls the cached function; a decorator imported from
        another module of the project is read there (`project_index.imported_def`). None
        when the decorator memoizes anywhere else (on the instance, in its own dict) or
        cannot be resolved: never guessed from its name.
    cache_bound(facts, site) -> ast.AST: the `maxsize` the cache call keeps
        (`Constant(None)` for `functools.cache` and `maxsize=None`).
    tiny_bound(site): `maxsize` is 0 or 1 (keeps at most one entry).

Read by CTX402. Sources: Python docs, functools (`lru_cache(user_function)` form since
3.8, `cache`, `wraps`, `update_wrapper`); ruff/flake8-bugbear B019.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ctxlint.semantic.python.syntax import FunctionNode

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts

#: functools' caches, whose one cache belongs to the function (Python docs, functools).
CACHE_QUALNAMES: frozenset[str] = frozenset({"functools.lru_cache", "functools.cache"})
#: Calls that return the wrapper they are given, dressed as the wrapped function
#: (Python docs, functools.wraps / update_wrapper): `wraps(fn)(w)`, `update_wrapper(w, fn)`.
_WRAPS = "functools.wraps"
_UPDATE_WRAPPER = "functools.update_wrapper"
#: How many helper levels (decorator -> helper -> helper) are followed.
_DEPTH = 3


@dataclass(frozen=True)
class CacheApplication:
    """The class-wide cache a decorator applies.

    site: the functools cache expression (`functools.lru_cache(maxsize=None)`, a bare
        `functools.cache`, `lru_cache(fn)`), in `site_facts`' tree.
    site_facts: the PythonFacts of the module holding `site` (another module of the
        project when the decorator is imported).
    qualname: "functools.lru_cache" or "functools.cache".
    takes_function: the site is the `lru_cache(fn)` form (its argument is the function,
        not a `maxsize`).
    steps: the path from the decorator to the cache, `(facts, node, message)` triples
        (empty when the decorator is the cache itself); a step's node is in its facts'
        module.
    """

    site: ast.AST
    site_facts: "PythonFacts"
    qualname: str
    takes_function: bool = False
    steps: tuple = field(default=())
    #: the `maxsize` a decorator factory's caller chose (`@memoize(maxsize=4096)` for
    #: `lru_cache(maxsize=maxsize)`), or its default; None when the site says it itself
    bound: ast.AST | None = None


def _cache_qual(facts: "PythonFacts", e: ast.AST) -> str | None:
    q = facts.qualname(e) if isinstance(e, (ast.Name, ast.Attribute)) else None
    return q if q in CACHE_QUALNAMES else None


def _is_function_arg(a: ast.AST, facts: "PythonFacts | None" = None) -> bool:
    """Is the first positional argument of `lru_cache(a)` the function (3.8's
    `lru_cache(user_function)`), not a `maxsize`? A literal is a size, and so is a
    module-level name bound only to literals (`lru_cache(CACHE_SIZE)`)."""
    if isinstance(a, ast.Constant):
        return False
    if facts is not None and isinstance(a, ast.Name) and a.id not in facts.imports:
        vals = facts.module_assignments.get(a.id, ())
        if vals and all(isinstance(v, ast.Constant) for v in vals):
            return False
    return True


def applied_cache(facts: "PythonFacts", deco: ast.AST) -> CacheApplication | None:
    """The functools cache that applying `deco` puts the decorated function in (see the
    module doc), or None. Never raises on odd code."""
    try:
        return _Resolver().decorator(facts, deco, None, _DEPTH)
    except RecursionError:
        return None


def cache_bound(facts: "PythonFacts", site, takes_function: bool = False) -> ast.AST:
    """The cache's bound (`site`: the cache expression, or a `CacheApplication`, whose
    forwarded `bound` wins): `cache` and `maxsize=None` are unbounded (`Constant(None)`),
    bare `lru_cache`/`lru_cache()`/`lru_cache(fn)` keep 128 (functools docs).
    `takes_function`: the call's first argument is the function (`lru_cache(fn)`)."""
    if isinstance(site, CacheApplication):
        if site.bound is not None:
            return site.bound
        site, takes_function = site.site, site.takes_function
    q = _cache_qual(facts, site.func if isinstance(site, ast.Call) else site) or ""
    if q.endswith(".cache"):
        return ast.Constant(None)
    if isinstance(site, ast.Call):
        vals = [kw.value for kw in site.keywords if kw.arg == "maxsize"] + \
            ([] if takes_function else list(site.args[:1]))
        return vals[0] if vals else ast.Constant(128)
    return ast.Constant(128)


def tiny_bound(site, takes_function: bool = False) -> bool:
    """`lru_cache(maxsize=1)` / `lru_cache(0)`: at most one entry, so at most one `self`.
    `site`: the cache expression, or a `CacheApplication` (its forwarded bound counts)."""
    if isinstance(site, CacheApplication):
        if site.bound is not None:
            v = site.bound
            return isinstance(v, ast.Constant) and isinstance(v.value, int) and not isinstance(v.value, bool) \
                and v.value <= 1
        site, takes_function = site.site, site.takes_function
    if not isinstance(site, ast.Call):
        return False
    vals = [kw.value for kw in site.keywords if kw.arg == "maxsize"] + ([] if takes_function else list(site.args[:1]))
    return any(isinstance(v, ast.Constant) and isinstance(v.value, int) and not isinstance(v.value, bool)
               and v.value <= 1 for v in vals)


class _Resolver:
    """One question's walk (a guard against cycles: `seen` holds (def, role) pairs)."""

    def __init__(self):
        self.seen: set[tuple[int, str]] = set()

    # a decorator expression: what applying it does ---------------------------------
    def decorator(self, facts, e, scope, depth) -> CacheApplication | None:
        """`e` evaluates to a decorator that wraps its argument in a functools cache."""
        if depth < 0 or e is None:
            return None
        q = _cache_qual(facts, e)
        if q is not None:
            return CacheApplication(e, facts, q)
        if isinstance(e, ast.Call):
            q = _cache_qual(facts, e.func)
            if q is not None:
                # `lru_cache(maxsize=None)` is a decorator; `lru_cache(fn)` is already the
                # cached function, not a decorator
                return None if e.args and _is_function_arg(e.args[0], facts) else CacheApplication(e, facts, q)
            # a decorator factory: `@memoize(maxsize=None)` -> what `memoize` returns
            for ffacts, fdef, how in self._defs(facts, e.func, scope):
                got = self._returned(ffacts, fdef, "decorator", depth - 1)
                if got is not None:
                    got = _bound_from_call(got, e, fdef)
                    return self._step(facts, e, got, f"`{facts.segment(e.func)}(...)` returns a decorator "
                                                     "that applies the cache", how)
            return None
        if isinstance(e, (ast.Name, ast.Attribute)):
            for val, vscope in self._bound_values(facts, e, scope):
                got = self.decorator(facts, val, vscope, depth - 1)
                if got is not None:
                    return self._step(facts, e, got, f"`{facts.segment(e)}` is bound to `{facts.segment(val)}`")
            for ffacts, fdef, how in self._defs(facts, e, scope):
                got = self._returned(ffacts, fdef, "cached", depth - 1)
                if got is not None:
                    return self._step(facts, e, got, f"`{fdef.name}()` returns its argument wrapped in "
                                                     "functools' class-wide cache", how)
        return None

    # an expression: is it a function wrapped in a functools cache? ------------------
    def cached(self, facts, e, scope, depth) -> CacheApplication | None:
        """`e` (in `scope`, a def or None for module level) evaluates to a function
        wrapped in a functools cache: `lru_cache(fn)`, `lru_cache(maxsize=n)(fn)`, a
        project decorator applied to it, `wraps(fn)(wrapper)` of such a wrapper, a local
        bound to one, or a nested def that calls one (`_delegates`)."""
        if depth < 0 or e is None:
            return None
        if isinstance(e, ast.Call):
            q = _cache_qual(facts, e.func)
            if q is not None and e.args and _is_function_arg(e.args[0], facts):
                return CacheApplication(e, facts, q, True)  # `lru_cache(fn)`, `cache(fn)`
            qf = facts.qualname(e.func.func) if isinstance(e.func, ast.Call) \
                and isinstance(e.func.func, (ast.Name, ast.Attribute)) else None
            if qf == _WRAPS and e.args:
                return self.cached(facts, e.args[0], scope, depth)  # `wraps(fn)(wrapper)`
            if isinstance(e.func, (ast.Name, ast.Attribute)) and facts.qualname(e.func) == _UPDATE_WRAPPER and e.args:
                return self.cached(facts, e.args[0], scope, depth)
            got = self.decorator(facts, e.func, scope, depth)  # `lru_cache(maxsize=None)(fn)`, `memo(fn)`
            if got is not None:
                return got
            return None
        if isinstance(e, ast.Name):
            nested = self._nested_def(facts, e, scope)
            if nested is not None:
                return self._delegates(facts, nested, depth)
            for val, vscope in self._bound_values(facts, e, scope):
                got = self.cached(facts, val, vscope, depth - 1)
                if got is not None:
                    return got
        return None

    # helpers -------------------------------------------------------------------------
    def _returned(self, facts, fdef, role: str, depth) -> CacheApplication | None:
        """Does some `return` of `fdef` give a cached function (role "cached") or a cache
        decorator (role "decorator")?"""
        key = (id(fdef), role)
        if key in self.seen or depth < 0:
            return None
        self.seen.add(key)
        ask = self.cached if role == "cached" else self.decorator
        for n in facts.walk(fdef):
            if isinstance(n, ast.Return) and n.value is not None:
                got = ask(facts, n.value, fdef, depth)
                if got is not None:
                    return got
        if role == "decorator":
            # a factory returning a nested decorator: `def deco(fn): return lru_cache()(fn)`
            for n in facts.walk(fdef):
                if isinstance(n, ast.Return) and isinstance(n.value, ast.Name):
                    inner = self._nested_def(facts, n.value, fdef)
                    if inner is not None:
                        got = self._returned(facts, inner, "cached", depth - 1)
                        if got is not None:
                            return got
        return None

    def _delegates(self, facts, wrapper, depth) -> CacheApplication | None:
        """A wrapper def that calls a cached function with its own arguments (the
        instance among them): `def wrapper(*a, **k): return inner(*a, **k)`."""
        key = (id(wrapper), "wrapper")
        if key in self.seen:
            return None
        self.seen.add(key)
        params = {a.arg for a in (*wrapper.args.posonlyargs, *wrapper.args.args)}
        if wrapper.args.vararg is not None:
            params.add(wrapper.args.vararg.arg)
        for n in facts.walk(wrapper):
            if not isinstance(n, ast.Call) or not isinstance(n.func, ast.Name):
                continue
            passes = any(isinstance(a, ast.Name) and a.id in params
                         or isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id in params
                         for a in n.args[:1])
            if not passes:
                continue
            for val, vscope in self._bound_values(facts, n.func, wrapper):
                got = self.cached(facts, val, vscope, depth - 1)
                if got is not None:
                    return self._step(facts, n, got, f"the wrapper calls `{n.func.id}`, the cached function")
        return None

    def _bound_values(self, facts, e, scope):
        """(value, scope of the value) for every assignment of the name `e` in `scope`
        or, for a name it does not bind, the enclosing defs and the module."""
        if not isinstance(e, ast.Name):
            return []
        s = scope
        while s is not None:
            vals = [(v, s) for v in _assigned_in(facts, s).get(e.id, ())]
            params = {a.arg for a in (*s.args.posonlyargs, *s.args.args, *s.args.kwonlyargs)}
            if vals or e.id in params:
                return vals
            s = facts.enclosing_function(s)
        return [(v, None) for v in facts.module_assignments.get(e.id, ())]

    def _nested_def(self, facts, e, scope):
        """The def named `e` inside `scope` (a wrapper returned by a decorator)."""
        if scope is None or not isinstance(e, ast.Name):
            return None
        for n in facts.walk(scope):
            if isinstance(n, FunctionNode) and n.name == e.id and facts.enclosing_function(n) is scope:
                return n
        return None

    def _defs(self, facts, e, scope):
        """(facts, def, how) for the def `e` names: a def of this module (nested in
        `scope`, or at module level), or a top-level def of another module of the project."""
        nested = self._nested_def(facts, e, scope)
        if nested is not None:
            return [(facts, nested, None)]
        if isinstance(e, ast.Name):
            if e.id in facts.module_names and e.id not in facts.imports:
                return [(facts, s, None) for s in facts.tree.body if isinstance(s, FunctionNode) and s.name == e.id]
            if e.id in facts.imports:
                from ctxlint.semantic.python.project_index import imported_def
                got = imported_def(facts, e)
                if got is not None:
                    return [(got[0], got[1], f"imported from `{facts.imports[e.id]}`")]
        return []

    @staticmethod
    def _step(facts, node, got: CacheApplication, message: str, how: str | None = None) -> CacheApplication:
        msg = f"{message} ({how})" if how else message
        return CacheApplication(got.site, got.site_facts, got.qualname, got.takes_function,
                                ((facts, node, msg), *got.steps), got.bound)


def _bound_from_call(got: CacheApplication, call: ast.Call, fdef) -> CacheApplication:
    """`got` with the `maxsize` its factory `fdef` forwards (`lru_cache(maxsize=maxsize)`)
    read from the factory's call (`memoize(maxsize=4096)`) or the parameter's default."""
    site = got.site
    if got.bound is not None or not isinstance(site, ast.Call):
        return got
    size = next((k.value for k in site.keywords if k.arg == "maxsize"), None)
    if size is None and site.args and not got.takes_function:
        size = site.args[0]
    if not isinstance(size, ast.Name):
        return got
    a = fdef.args
    pos = [*a.posonlyargs, *a.args]
    for i, p in enumerate(pos):
        if p.arg == size.id:
            val = call.args[i] if i < len(call.args) and not any(isinstance(x, ast.Starred) for x in call.args[:i + 1]) \
                else next((k.value for k in call.keywords if k.arg == p.arg), None)
            if val is None:
                defaults = dict(zip([q.arg for q in pos][len(pos) - len(a.defaults):], a.defaults))
                val = defaults.get(p.arg)
            return CacheApplication(got.site, got.site_facts, got.qualname, got.takes_function, got.steps, val) \
                if val is not None else got
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if p.arg == size.id:
            val = next((k.value for k in call.keywords if k.arg == p.arg), d)
            return CacheApplication(got.site, got.site_facts, got.qualname, got.takes_function, got.steps, val) \
                if val is not None else got
    return got


def _assigned_in(facts, scope) -> dict:
    """name -> the values assigned to it anywhere in `scope` (`x = v`, `x: T = v`), in
    source order: one walk per scope, memoized (was one walk per lookup)."""
    def compute():
        out: dict = {}
        for n in facts.walk(scope):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, []).append(n.value)
        return out
    return facts.memo(f"decorators.assigned:{id(scope)}", compute)
