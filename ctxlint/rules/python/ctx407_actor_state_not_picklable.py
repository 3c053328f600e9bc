"""CTX407 actor-state-not-picklable: one rule module (see the Rule's doc).

The fix is the codemod "actor_plain_state" in `ctxlint/fixers/ctx407_codemod.py`.
"""

from __future__ import annotations

import ast

from ctxlint.findings import UNSAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.picklability import (class_of_value, defines_pickling, has_external_pickling_base,
                                                  unpicklable_fields)

#: Ray's send points (Ray docs, "Objects" and "Tasks"/"Actors"): `ray.put(x)` and
#: every argument of `f.remote(...)` / `Actor.remote(...)` / `h.method.remote(...)`.
_PUT = frozenset({"ray.put"})
_EMPTY = frozenset({"{}", "[]", "dict()", "list()", "set()", "None"})


def _sent_values(facts, call: ast.Call) -> tuple[str, list[ast.AST]] | None:
    q = facts.qualname(call.func) or ""
    if q in _PUT:
        return "ray.put", call.args[:1]
    if isinstance(call.func, ast.Attribute) and call.func.attr == "remote" and q != "ray.remote":
        return f"`{facts.segment(call.func) or '.remote'}(...)`", [
            *(a.value if isinstance(a, ast.Starred) else a for a in call.args), *(k.value for k in call.keywords)]
    return None


def _elements(values: list[ast.AST]) -> list[ast.AST]:
    """The values, with list/tuple/set/dict literals opened (`ray.put([index])` sends `index`)."""
    out: list[ast.AST] = []
    for v in values:
        if isinstance(v, (ast.List, ast.Tuple, ast.Set)):
            out.extend(_elements([e.value if isinstance(e, ast.Starred) else e for e in v.elts]))
        elif isinstance(v, ast.Dict):
            out.extend(_elements([x for x in [*v.keys, *v.values] if x is not None]))
        else:
            out.append(v)
    return out


def _is_ray_actor_class(facts, cls: ast.ClassDef) -> bool:
    for d in cls.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if (facts.qualname(target) or "") == "ray.remote":
            return True
    return False


class ActorStateNotPicklable(Rule):
    code = "CTX407"
    name = "actor-state-not-picklable"
    summary = "An object sent through Ray whose class holds locks, loops, CUDA tensors, clients or context values."
    tokens = ("ray",)
    fix_safety = UNSAFE
    doc = """\
## What it does
Flags an object sent through Ray — `ray.put(x)`, an argument of a remote
function or actor method (`f.remote(x)`, `handle.method.remote(x)`), or an
actor's constructor argument (`Actor.remote(x)`) — when `x` is an instance of a
class of this module that holds, in `self`, any of: a `threading`/`asyncio`/
`multiprocessing` lock, event, condition or semaphore; an event loop or a
thread; an open client, session, socket, connection or file; a ContextVar, a
ContextVar's value or a copied Context; a CUDA tensor or a dict/list of them; or,
one object deeper, an instance of another class of this module that holds one of
these and does not take over its own pickling (a config whose `registry` field holds
a lock, also declared by a class-level annotation, or reached as `self.cfg.registry`) —
and neither the class nor a base of this module defines `__getstate__`,
`__reduce__` or `__reduce_ex__`. What a field holds is decided by where its
value comes from (the constructor called, the device a tensor is moved to,
followed through `self.` attributes and parameter defaults), never by its name.

The object's class is followed through a module-level factory whose every `return`
makes one class of the module (`table = build_table(n); ray.put(table)`). A field's
value is followed through a local of the method (`lock = threading.Lock(); self._lock =
lock`) and into dict/list/tuple displays (`self.clients = {"a": httpx.Client()}`). For
a field one object deeper, the fix mends the class that holds the primitive, and the
trace names each class on the way.

## Why is this bad
Ray pickles every object it sends (cloudpickle). A lock, a loop or a socket
makes that fail at run time (`TypeError: cannot pickle '_thread.lock' object`),
usually on the first real deployment. Where it succeeds, CUDA tensors are
copied to every reader (GPU memory on each worker, for data the reader never
uses), and a request's ContextVar values or Context travel to processes that
serve other tenants.

## Example
```python
class PrefixIndex:
    def __init__(self, device: str = "cuda") -> None:
        self.blocks: dict[int, torch.Tensor] = {}
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()

    def add(self, block_hash: int, kv: torch.Tensor) -> None:
        with self.lock:
            self.blocks[block_hash] = kv.to(self.device)

def publish(index: PrefixIndex):
    return ray.put(index)
```

## Use instead
```python
    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        for name in ("blocks", "lock", "loop"):   # plain data only
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.blocks = {}
        self.lock = threading.Lock()
        self.loop = None
```
or send only the plain data the reader needs (`ray.put(index.hashes())`).

## Fix safety
Unsafe: the fix adds `__getstate__`/`__setstate__` that drop the listed fields
(named in the finding) and re-create locks and empty containers on the
receiving side; anything else dropped arrives as `None`, so a reader that used
those fields behaves differently. Offered only for a class of this module
without a pickling dunder.

## Source
Ray docs, "Serialization" (objects that cannot be pickled, `__reduce__`
customisation); Python `pickle` docs, "Pickling Class Instances" (an actor's state pickled with its CUDA tensors,
locks and contexts).
"""

    def check(self, facts):
        if not facts.imports_module("ray"):
            return
        for call in facts.nodes(ast.Call):
            sent = _sent_values(facts, call)
            if sent is None:
                continue
            how, values = sent
            fn = facts.enclosing_function(call)
            for v in _elements(values):
                cls = class_of_value(facts, v, fn)
                if cls is None or _is_ray_actor_class(facts, cls):
                    continue
                if defines_pickling(facts, cls) or has_external_pickling_base(facts, cls):
                    continue
                fields = unpicklable_fields(facts, cls)
                if not fields:
                    continue
                held = ", ".join(f"{f.what} in `self.{f.attr}`" for f in fields)
                fails = [f for f in fields if f.kind in ("lock", "loop", "thread", "client", "context-object")]
                copied = [f for f in fields if f not in fails]
                effects = []
                if fails:
                    effects.append(f"pickling fails on `self.{fails[0].attr}`")
                if any(f.kind == "cuda" for f in copied):
                    effects.append("the GPU tensors are copied to every reader")
                if any(f.kind == "context" for f in copied):
                    effects.append("one request's context values travel to every reader")
                effect = ", or ".join(effects)
                # the class to mend: the one holding the primitives (one object deeper when
                # the sent object's only such field is an instance of another class)
                owner, own = cls, fields
                while len(own) == 1 and own[0].inner is not None:
                    owner, own = own[0].inner, list(own[0].inner_fields)
                fix = None if any(f.inner is not None for f in own) else Fix(
                    description=f"add `__getstate__`/`__setstate__` to `{owner.name}` that drop "
                                + ", ".join(f"`{f.attr}`" for f in own),
                    safety=UNSAFE, codemod="actor_plain_state",
                    data={"line": owner.lineno, "col": owner.col_offset, "cls": owner.name,
                          "drop": [f.attr for f in own],
                          "recreate": {f.attr: f.init for f in own if _recreatable(f)}})
                # one object deeper: each class on the way to the primitive
                trace, k, chain = [], cls, fields
                while len(chain) >= 1 and chain[0].inner is not None:
                    f0 = chain[0]
                    trace.append((f0.inner, f"`{k.name}.{f0.attr}` holds an instance of `{f0.inner.name}`, which "
                                            f"holds {f0.inner_fields[0].what} in `self.{f0.inner_fields[0].attr}` "
                                            "and defines no `__getstate__`/`__reduce__`"))
                    k, chain = f0.inner, list(f0.inner_fields)
                yield facts.finding(
                    self, call,
                    f"`{facts.segment(v)}` (an instance of `{cls.name}`) is sent through {how}, "
                    f"but `{cls.name}` holds {held} "
                    f"and defines no `__getstate__`/`__reduce__`: {effect}",
                    fix=fix, trace=trace)
                break


def _recreatable(f) -> bool:
    """A dropped field the receiving side can re-create from its `__init__` value:
    a fresh lock, event or semaphore (no arguments), or an empty container."""
    init = f.init.replace(" ", "")
    if init in _EMPTY:
        return True
    return f.kind == "lock" and init.endswith("()")
