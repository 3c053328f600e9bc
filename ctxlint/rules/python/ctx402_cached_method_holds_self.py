"""CTX402 cached-method-holds-self: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast
import re

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule


_CACHE_DECORATORS = {"functools.lru_cache", "functools.cache"}


class CachedMethodHoldsSelf(Rule):
    code = "CTX402"
    name = "cached-method-holds-self"
    summary = "functools.lru_cache/cache on an instance method: the shared cache keeps every self alive."
    tokens = ("lru_cache", "cache")
    fix_safety = SAFE
    doc = """\
## What it does
Flags `@functools.lru_cache`/`@functools.cache` (however imported) on an instance
method. Static methods are not instance methods and are skipped; class methods
are fine (the class lives as long as the process anyway). `maxsize=1` (or 0)
keeps at most the last instance and is not reported; a line already carrying
ruff's `# noqa: B019` (the same check) is not reported either.

## Why is this bad
The cache belongs to the function, i.e. to the class, and its keys include
`self`. Every instance that ever called the method (a per-request view, a
per-block reader, a per-model wrapper) stays alive in the cache, with all it
references, until `maxsize` pushes it out — forever with `@cache`.

## Example
```python
class SettingsView:
    @functools.lru_cache(maxsize=256)
    def get_setting(self, key):
        return self._read_state(self._root, key)
```

## Use instead
```python
class SettingsView:
    def __init__(self, read_state, root):
        self._read_state, self._root = read_state, root
        self._cache = {}

    def get_setting(self, key):
        if key not in self._cache:
            self._cache[key] = self._read_state(self._root, key)
        return self._cache[key]
```
or `functools.cached_property` for argument-less methods.

## Fix safety
Safe: the codemod moves the cache onto the instance (created in `__init__`), so
results are still cached, per instance.

## Source
ruff/flake8-bugbear B019; hyperledger-archives/sawtooth-core#2104;
python/cpython#96851 (docs FAQ "How do I cache method calls?").
"""

    def check(self, facts):
        for cls in facts.nodes(ast.ClassDef):
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                decos = [(facts.qualname(d.func if isinstance(d, ast.Call) else d) or "") for d in fn.decorator_list]
                if any(q.split(".")[-1] in ("staticmethod", "classmethod") for q in decos):
                    continue
                args = fn.args.posonlyargs + fn.args.args
                if not args:
                    continue
                for d, q in zip(fn.decorator_list, decos):
                    if q not in _CACHE_DECORATORS:
                        continue
                    if _tiny_maxsize(d):
                        continue  # keeps at most the last instance: bounded, no growth
                    line = facts.lines[d.lineno - 1] if d.lineno <= len(facts.lines) else ""
                    if re.search(r"noqa:[^#]*\bB019\b", line):
                        continue  # the same check, already acknowledged for ruff/flake8-bugbear
                    fix = Fix(description="cache per instance instead of on the class",
                              safety=SAFE, codemod="per_instance_cache",
                              data={"line": d.lineno, "col": d.col_offset, "method": fn.name})
                    yield facts.finding(self, d,
                                        f"`@{q.split('.')[-1]}` on instance method `{cls.name}.{fn.name}` "
                                        f"keys the class-wide cache on `self`: {_what_it_keeps(facts, d, q)}",
                                        fix=fix)


def _tiny_maxsize(deco: ast.AST) -> bool:
    """`@lru_cache(maxsize=1)` / `@lru_cache(0)`: at most one entry, so at most one `self`."""
    if not isinstance(deco, ast.Call):
        return False
    vals = [kw.value for kw in deco.keywords if kw.arg == "maxsize"] + list(deco.args[:1])
    return any(isinstance(v, ast.Constant) and isinstance(v.value, int) and not isinstance(v.value, bool)
               and v.value <= 1 for v in vals)


def _what_it_keeps(facts, deco: ast.AST, qualname: str) -> str:
    """The cache's bound and what it keeps alive, in words, from the decorator's
    `maxsize` (functools: `cache` and `maxsize=None` are unbounded, `lru_cache()` keeps
    128 entries; each entry is one (self, args) call)."""
    size: ast.AST | None = None
    if qualname.endswith(".cache"):
        size = ast.Constant(None)
    elif isinstance(deco, ast.Call):
        vals = [kw.value for kw in deco.keywords if kw.arg == "maxsize"] + list(deco.args[:1])
        size = vals[0] if vals else ast.Constant(128)
    else:
        size = ast.Constant(128)
    if isinstance(size, ast.Constant) and size.value is None:
        return ("the cache has no bound, so every instance that ever called it stays alive, with "
                "everything it references, until the process exits")
    if isinstance(size, ast.Constant) and isinstance(size.value, int):
        n = size.value
        return (f"the cache keeps up to {n} entries, one per (instance, arguments) call, so up to {n} "
                "recently used instances stay alive, with everything they reference, after their last use")
    return (f"the cache keeps up to `{facts.segment(size)}` entries, one per (instance, arguments) call, so "
            "that many recently used instances stay alive after their last use")
