"""CTX402 cached-method-holds-self: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast
import os
import re

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.decorators import CACHE_QUALNAMES, applied_cache, cache_bound, tiny_bound
from ctxlint.semantic.python.hooks import PER_CALL_PROTOCOL
from ctxlint.semantic.python.instances import (
    from_parameters,
    in_module_classes,
    is_enum,
    is_plain_value_type,
    is_torch_module,
    many_instances,
    model_base,
    per_request_init,
    returns_tensors,
    subclasses,
)

class CachedMethodHoldsSelf(Rule):
    code = "CTX402"
    name = "cached-method-holds-self"
    summary = ("functools.lru_cache/cache on an instance method of a class whose instances are many, "
               "short-lived or heavy (built per call or loop, per-request, a loadable model) or that grows "
               "without bound: the class-wide cache keeps them alive; the message states the bound.")
    tokens = ("lru_cache", "cache")
    fix_safety = SAFE
    doc = """\
## What it does
Flags `@functools.lru_cache`/`@functools.cache` (however imported) on an instance
method when the module shows that keeping `self` in a class-wide cache keeps
something alive that would otherwise be freed. The cache may be applied through a
project decorator, followed by value (`semantic/python/decorators.py`), never by its
name: a helper returning `functools.lru_cache(maxsize=None)(fn)` (or a helper that
returns one), a factory returning `lru_cache(maxsize=...)` (its `maxsize` read from the
call), an alias bound once (`memo = lru_cache(maxsize=512)`), a `functools.wraps`
wrapper that calls a cached copy of the method, and such a decorator imported from
another module of the project. A project decorator that memoizes anywhere else (in the
instance's own dict) is no class-wide cache. Such a finding offers no fix (the
decorator is the project's to change) and its trace is the path to the cache. The precondition is one of:
- *many or short-lived instances*: the class (or a subclass defined in the module)
  is constructed in a loop, or on every call of a function (a factory, a handler),
  other than as part of an owner (in `__init__`, stored on `self` or another
  object), into a module global, as a lazily built singleton (under `if <global or
  class attribute> is None:`, a lock and second check allowed, and stored into that
  slot, directly or through a local), by a memoized factory, by the class's own
  alternate constructors, or in a function this module calls only at module level
  or from `__init__` (`main()` under `if __name__ == "__main__"`);
- *per-request data*: its `__init__` takes a web framework's request object;
- *a loadable model*: it derives from a well-known class of checkpoint-loaded models
  (transformers `PreTrainedModel`, diffusers `ModelMixin`, ...; the table is
  `semantic/python/instances.py`): such models are loaded and deleted any number of
  times per process, and the cache keeps the deleted ones, weights and all;
- *unbounded growth*: an unbounded cache (`@cache`, `maxsize=None`) on a torch module
  whose method returns tensors and is called from `forward`/`__call__` with values
  computed from that call's inputs: every new shape adds an entry never evicted.

Not reported: instances that evidently live as long as the process (a module-level
singleton, an `Enum` member, a service, engine or submodule built once by its
owner), static methods, class methods, a cache under any other outer decorator than
`@property`/`@abstractmethod`/`@override` (Django's `@classproperty` calls it with the
class, not an instance: what the first argument is, the outer decorator decides),
`maxsize=1` (or 0), and a line already
carrying ruff's `# noqa: B019`. flake8-bugbear/ruff B019 reports every cached
method; this rule reports the ones with evidence of harm. The message states the
cache's bound (`maxsize`) and what it keeps.

Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

Not flagged: a value type whose instances hold only plain immutable data, a
`typing.NamedTuple` or `@dataclass(frozen=True)` whose fields are all `int`, `float`,
`bool`, `str`, `bytes` or `None` (also optional or as tuples) and that stores nothing
else on `self` (textual's `Color(NamedTuple)` of ints and a float,
`instances.is_plain_value_type`): the cache keys on its value (equal instances share an
entry) and keeping one alive keeps only those few values. A NamedTuple that carries a
model or any other object is still judged as above.

## Why is this bad
The cache belongs to the function, i.e. to the class, and its keys include
`self`. Every instance that ever called the method (a per-request view, a
per-block reader, a deleted model) stays alive in the cache, with all it
references, until `maxsize` pushes it out — forever with `@cache`.

## Example
```python
class SettingsView:
    @functools.lru_cache(maxsize=256)
    def get_setting(self, key):
        return self._read_state(self._root, key)

def view_for_block(read_state, root):
    return SettingsView(read_state, root)   # one view per block
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
results are still cached, per instance. Offered only for a method whose one decorator
is the cache: rebinding a `@property` on the instance would fail (it has no setter). No fix for unbounded growth: a per-instance
cache would grow the same way, and the bound is the author's choice.

## Source
ruff/flake8-bugbear B019; hyperledger-archives/sawtooth-core#2104;
python/cpython#96851 (docs FAQ "How do I cache method calls?").
"""

    def check(self, facts):
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        for cls in facts.nodes(ast.ClassDef):
            enum = None
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                decos = [(facts.qualname(d.func if isinstance(d, ast.Call) else d) or "") for d in fn.decorator_list]
                if any(q.split(".")[-1] in ("staticmethod", "classmethod") for q in decos):
                    continue
                args = fn.args.posonlyargs + fn.args.args
                if not args:
                    continue
                for i, (d, q) in enumerate(zip(fn.decorator_list, decos)):
                    # the cache itself, or a project decorator that applies it
                    # (`return functools.lru_cache(maxsize=None)(fn)`, a factory, an alias)
                    app = None if q in CACHE_QUALNAMES else applied_cache(facts, d)
                    if q not in CACHE_QUALNAMES and app is None:
                        continue
                    if any(o.split(".")[-1] not in _INSTANCE_BINDING for o in decos[:i]):
                        break  # an outer decorator decides what the first argument is
                    site = app or d
                    if tiny_bound(site):
                        continue  # keeps at most the last instance: bounded, no growth
                    line = facts.lines[d.lineno - 1] if d.lineno <= len(facts.lines) else ""
                    if re.search(r"noqa:[^#]*\bB019\b", line):
                        continue  # the same check, already acknowledged for ruff/flake8-bugbear
                    if enum is None:
                        enum = is_enum(facts, cls)
                    if enum:
                        continue  # the instances are the members, made once at import
                    if is_plain_value_type(facts, cls):
                        continue  # a NamedTuple of ints: keyed by value, keeps only those values
                    size = cache_bound(app.site_facts if app else facts, site)
                    why = _evidence(facts, cls, fn, size)
                    if why is None:
                        continue
                    reason, growth = why
                    # a per-instance cache would still grow without bound: the bound is the
                    # author's choice, so unbounded growth gets no fix
                    # the codemod rebinds the method on the instance: only a plain method
                    # (a property over it has no setter, another decorator would be lost)
                    # (a project decorator that applies the cache is the project's to change)
                    fix = None if growth or app or len(fn.decorator_list) != 1 else Fix(
                        description="cache per instance instead of on the class", safety=SAFE,
                        codemod="per_instance_cache",
                        data={"line": d.lineno, "col": d.col_offset, "method": fn.name})
                    keeps = growth or _what_it_keeps(app.site_facts if app else facts, size)
                    via = "" if app is None else \
                        f" (it applies `{app.site_facts.segment(app.site)}`{_where(facts, app)})"
                    # the path from the decorator to the cache it applies (another module's
                    # steps keep their own file)
                    trace = () if app is None else (
                        *(sf.step(n, m) for sf, n, m in app.steps),
                        app.site_facts.step(app.site, f"`{app.site_facts.segment(app.site)}` wraps the method in one "
                                                      "cache for the whole class, keyed on `self` and the arguments"))
                    yield facts.finding(self, d,
                                        f"`@{facts.segment(d)}`{via} on instance method `{cls.name}.{fn.name}` "
                                        f"keys the class-wide cache on `self`, and {reason}: {keeps}",
                                        fix=fix, trace=trace)


#: Decorators that, applied over the cache, still call it with the instance first
#: (`@property @lru_cache` keys on `self`). Any other outer decorator (Django's
#: `@classproperty`, a project's descriptor) decides the first argument itself, so the
#: rule cannot tell that the cache holds instances and reports nothing.
_INSTANCE_BINDING = frozenset({"property", "abstractmethod", "override"})


def _evidence(facts, cls: ast.ClassDef, fn: ast.AST, size: ast.AST) -> tuple[str, str | None] | None:
    """Why keeping `self` (or the entries) in this cache costs memory, in words, and,
    for unbounded growth, what grows; None without evidence (see the doc)."""
    req = per_request_init(facts, cls)
    if req:
        return f"`{cls.name}` holds per-request data (its `__init__` takes a `{req}`)", None
    many = many_instances(facts, cls)
    if many:
        return many[1], None
    base = model_base(facts, cls)
    if base:
        return (f"`{cls.name}` is a loadable model (a `{base.split('.')[-1]}`) holding its weights, which "
                "programs load and delete any number of times"), None
    if isinstance(size, ast.Constant) and size.value is None:
        caller = _per_call_filler(facts, cls, fn)
        if caller is not None:
            site, key = caller
            growth = (f"the cache has no bound and `{fn.name}` returns tensors, so every new key adds an "
                      "entry that is never evicted, and memory grows for the life of the process")
            return f"`{site.name}()` fills it with values computed from each call's inputs ({key})", growth
    return None


def _per_call_filler(facts, cls: ast.ClassDef, fn: ast.AST):
    """(per-call method, key text) when `fn` returns tensors, its class is a torch
    module, and `forward`/`__call__` of the class (or of a base or subclass defined
    here) calls `self.<fn>(...)` with arguments computed from that call's inputs."""
    if not is_torch_module(facts, cls) or not returns_tensors(facts, fn, cls):
        return None
    for k in subclasses(facts, cls) + [c for c in in_module_classes(facts).values()
                                        if c.name in {getattr(b, "id", None) for b in cls.bases}]:
        for m in k.body:
            if not isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) or m.name not in PER_CALL_PROTOCOL:
                continue
            for n in facts.walk(m):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == fn.name \
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == "self":
                    args = [*n.args, *(kw.value for kw in n.keywords)]
                    if any(from_parameters(facts, m, a) for a in args):
                        return m, ", ".join(facts.segment(a) for a in args)
    return None


def _where(facts, app) -> str:
    """` in <file>` when the cache call is in another module of the project (relative to
    the working directory when it is below it)."""
    if app.site_facts is facts:
        return ""
    path = str(app.site_facts.path)
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        rel = path
    return f" in `{path if rel.startswith('..') else rel}`"


def _what_it_keeps(facts, size: ast.AST) -> str:
    """The cache's bound and what it keeps alive, in words (each entry is one
    (self, arguments) call)."""
    if isinstance(size, ast.Constant) and size.value is None:
        return ("the cache has no bound, so every instance that ever called it stays alive, with "
                "everything it references, until the process exits")
    if isinstance(size, ast.Constant) and isinstance(size.value, int):
        n = size.value
        return (f"the cache keeps up to {n} entries, one per (instance, arguments) call, so up to {n} "
                "instances no longer used elsewhere stay alive, with everything they reference, until newer "
                "calls evict them")
    return (f"the cache keeps up to `{facts.segment(size)}` entries, one per (instance, arguments) call, so "
            "that many instances no longer used elsewhere stay alive until newer calls evict them")
