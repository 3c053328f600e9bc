"""CTX503 cache-key-unstable-identity: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import (
    LABEL_ATTRS, cache_key_facts, ident_words,
)
from ctxlint.semantic.python.keys import (
    KEY_TOKENS, is_memoized, key_text, label_use, unique_of,
)
from ctxlint.semantic.python.syntax import FunctionNode


class CacheKeyUnstableIdentity(Rule):
    code = "CTX503"
    name = "cache-key-unstable-identity"
    summary = "A cache key built from a scope object's label/name/repr() while the object has a unique id."
    tokens = KEY_TOKENS
    doc = """\
## What it does
Flags a cache key (a cache container's key, a digest returned as a key — any
function returning the builtin `hash()` returns one, whatever it is called — a
key-builder's return value, also of a helper such a digest is built from) that identifies an adapter, tenant, user or session
object by its human-chosen label — `.name`, `.label`, `.lora_name`,
`.adapter_name`, `repr(obj)`/`str(obj)` — while the object carries a unique id
(a field such as `slot_uid`, `lora_int_id` or `weights_digest` of its class in the
same file, or an id attribute the file reads on it). Also flags a key that goes
through an object's own `__repr__`/`__str__` (`repr(x)`, `str(x)`, `f"{x!r}"`) or
`__hash__` (the object itself in the key, a memoized function's argument, or `self`
of a memoized method) when that dunder is built from attributes that leave out every
field identifying the object (its unique or scope-id fields).

## Why is this bad
Labels are reused: unloading adapter "sql-expert" and loading new weights under the
same name keeps the old cache entries (KV blocks, compiled graphs) alive and serves
them for the new weights; two tenants may both call their adapter "default".

## Example
```python
def adapter_extra_keys(adapter: AdapterHandle):
    return (adapter.label,)
```

## Use instead
```python
def adapter_extra_keys(adapter: AdapterHandle):
    return ("adapter", adapter.weights_digest)
```

## Fix safety
No automatic fix: which unique id is right (load slot, content digest) is a
design decision.

## Source
vllm-project/vllm#30931 (prefix-cache extra key used the LoRA name; a reload under
the same name reused stale KV).
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        done: set[int] = set()
        for sink in ck.sinks():
            fn = sink.function
            clo = ck.closure(fn, sink.keys)
            dunder = _dunder_use(ck, fn, clo)
            if dunder is not None:
                node, cls, (meth, uid, attrs) = dunder
                if id(node) not in done:
                    done.add(id(node))
                    yield facts.finding(self, sink.node, _dunder_message(facts, node, cls, meth, uid, attrs))
                continue
            lu = label_use(ck, fn, clo) or self._repr_use(ck, fn, clo)
            if lu is None or id(lu[0]) in done:
                continue
            if sink.kind == "container" and self._name_index(facts, sink, lu[0]):
                continue
            if self._unique_also_keyed(facts, clo, lu):
                continue
            node, uid = lu
            done.add(id(node))
            obj = facts.dotted(node.value if isinstance(node, ast.Attribute) else node.args[0]) or "?"
            yield facts.finding(
                self, sink.node,
                f"cache key uses `{key_text(facts, node)}`, a label that can be reused for "
                f"different {obj.split('.')[-1]} instances; key on `{obj}.{uid}` (unique) instead")
        # any long-lived container keyed through an object's own dunder is a memo by
        # construction (whatever the container is called)
        for c in facts.containers:
            if not c.long_lived or c.kind in ("list", "deque"):
                continue
            for site in sorted((*c.reads, *c.inserts), key=lambda x: (x.node.lineno, x.node.col_offset)):
                if site.key is None or site.function is None:
                    continue
                dunder = _dunder_use(ck, site.function, ck.closure(site.function, [site.key]))
                if dunder is None or id(dunder[0]) in done:
                    continue
                node, cls, (meth, uid, attrs) = dunder
                done.add(id(node))
                yield facts.finding(self, site.node, _dunder_message(facts, node, cls, meth, uid, attrs))
        yield from self._memoized_on_label_hash(ck)

    @staticmethod
    def _unique_also_keyed(facts, nodes, lu) -> bool:
        """Does the key also carry the object's unique id (`(seq.lora_name, seq.weights_digest)`)?
        Then the label only makes the key readable; a reload under the same label with
        new weights still gets a new key."""
        label, uid = lu
        obj = facts.dotted(label.value if isinstance(label, ast.Attribute) else label.args[0])
        if not obj:
            return False
        for n in nodes:
            if isinstance(n, ast.Attribute) and n.attr not in LABEL_ATTRS and facts.dotted(n.value) == obj:
                w = ident_words(n.attr)
                if n.attr == uid or n.attr in ("id", "uid") or (w and w[-1] in ("id", "uid", "digest", "uuid")):
                    return True
        return False

    @staticmethod
    def _name_index(facts, sink, label) -> bool:
        """A registry that maps a name to the object itself (`self._registry[ref.name] = ref`)
        is a lookup table by that name, not a cache of data derived from the object."""
        if "registry" in ident_words(sink.container.attr):
            return True
        owner = facts.dotted(label.value) if isinstance(label, ast.Attribute) else None
        return bool(owner) and any(facts.dotted(v) == owner for v in sink.values)

    @staticmethod
    def _repr_use(ck, fn, nodes):
        facts = ck.facts
        for n in nodes:
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("repr", "str") \
                    and len(n.args) == 1 and isinstance(n.args[0], (ast.Name, ast.Attribute)):
                obj = facts.dotted(n.args[0])
                cls = _class_of(ck, fn, n.args[0])
                if cls and _defines(ck, cls, ("__repr__",) if n.func.id == "repr" else ("__str__", "__repr__")):
                    continue  # its own repr: judged by `_dunder_use` (silent when it includes the id)
                uid = unique_of(ck, fn, obj) if obj else None
                if uid:
                    return n, uid
        return None

    def _memoized_on_label_hash(self, ck):
        """Memoized functions keyed (through `__hash__`) on an object whose class hashes
        without its unique id: a parameter annotated with such a class, or `self` of a
        memoized method of it."""
        facts = ck.facts
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not is_memoized(facts, fn):
                continue
            owner = facts.parents.get(fn)
            for i, (name, p) in enumerate(ck.params(fn).items()):
                if i == 0 and isinstance(owner, ast.ClassDef) and not _static(facts, fn):
                    cls = owner.name  # `self` is part of the memo key
                else:
                    cls = ck.annotation_class(p.annotation)
                if not cls:
                    continue
                omitted = identity_omitted(ck, cls, ("__hash__",))
                if omitted:
                    _meth, uid, attrs = omitted
                    yield facts.finding(
                        self, p,
                        f"memoized `{fn.name}()` is keyed on `{name}`, whose `{cls}.__hash__` uses only "
                        f"{', '.join(f'`{a}`' for a in attrs)} and leaves out `{uid}`: two different {cls} "
                        f"objects with the same {', '.join(attrs)} share one cached result; key on "
                        f"`{name}.{uid}` instead")


def _static(facts, fn) -> bool:
    return any((facts.dotted(d) or "").split(".")[-1] in ("staticmethod", "classmethod") for d in fn.decorator_list)


def identity_omitted(ck, cls_name: str, dunders: tuple[str, ...]):
    """(dunder, unique field, attributes used) when class `cls_name` defines one of
    `dunders` (`__hash__`, `__repr__`, `__str__`) from attributes of the object that leave
    out every field identifying it (a unique field, `CacheKeyFacts.unique_fields`, or a
    scope-id field); else None. The default `object.__repr__`/`__hash__` is identity
    based and is never reported."""
    cls = ck.classes.get(cls_name)
    if cls is None:
        return None
    ident = list(dict.fromkeys([*ck.unique_fields(cls_name),
                                *(f for f, _p in ck.class_scope_fields(cls_name, depth=1) if "." not in f)]))
    if not ident:
        return None
    for st in cls.body:
        if isinstance(st, FunctionDefTypes) and st.name in dunders:
            args = st.args.posonlyargs + st.args.args
            if not args:
                continue
            me = args[0].arg
            attrs = sorted({n.attr for n in ast.walk(st) if isinstance(n, ast.Attribute)
                            and isinstance(n.value, ast.Name) and n.value.id == me and not n.attr.startswith("__")})
            if attrs and not set(attrs) & set(ident):
                return st.name, ident[0], attrs
    return None


def _defines(ck, cls_name: str, dunders: tuple[str, ...]) -> bool:
    cls = ck.classes.get(cls_name)
    return cls is not None and any(isinstance(st, FunctionDefTypes) and st.name in dunders for st in cls.body)


def _class_of(ck, fn, expr) -> str | None:
    """The same-file class of a parameter or a parameter's attribute path (by annotations)."""
    d = ck.facts.dotted(expr)
    if not d:
        return None
    parts = d.split(".")
    p = ck.params(fn).get(parts[0])
    cls = ck.annotation_class(p.annotation) if p is not None else None
    for attr in parts[1:]:
        if cls is None:
            return None
        cls = ck.annotation_class(ck.class_fields.get(cls, {}).get(attr))
    return cls


def _dunder_use(ck, fn, nodes):
    """A key part that goes through an object's own `__repr__`/`__str__` (`repr(x)`,
    `str(x)`, `f"{x}"`) or `__hash__` (the object itself in the key) whose class leaves
    its unique id out: (node, class, identity_omitted(...))."""
    facts = ck.facts
    for n in nodes:
        target, dunders = None, ()
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("repr", "str") \
                and len(n.args) == 1:
            target = n.args[0]
            dunders = ("__repr__",) if n.func.id == "repr" else ("__str__", "__repr__")
        elif isinstance(n, ast.FormattedValue):
            target = n.value
            dunders = ("__repr__",) if n.conversion == ord("r") else ("__str__", "__repr__", "__format__")
        elif isinstance(n, (ast.Name, ast.Attribute)) and isinstance(getattr(n, "ctx", None), ast.Load):
            p = facts.parents.get(n)
            if isinstance(p, (ast.Tuple, ast.List)) or (isinstance(p, ast.Subscript) and p.slice is n):
                target, dunders = n, ("__hash__",)
        if target is None or not isinstance(target, (ast.Name, ast.Attribute)):
            continue
        cls = _class_of(ck, fn, target)
        if not cls:
            continue
        omitted = identity_omitted(ck, cls, dunders)
        if omitted:
            return n, cls, omitted
    return None


FunctionDefTypes = FunctionNode


def _dunder_message(facts, node, cls: str, meth: str, uid: str, attrs) -> str:
    """The message for a key built by a `__repr__`/`__hash__` that leaves out the id."""
    return (f"cache key uses `{key_text(facts, node)}`, and `{cls}.{meth}` builds it from "
            f"{', '.join(f'`{a}`' for a in attrs)} only, leaving out `{uid}`: two different "
            f"{cls} objects with the same {', '.join(attrs)} share one entry; key on `.{uid}`")
