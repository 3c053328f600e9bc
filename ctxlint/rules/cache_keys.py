"""CTX5xx (Python): cache keys — scope ids missing from shared cache keys, memoized
functions that read the request scope, keys built on reusable labels, untagged key
parts of different scope kinds, and acquire/release paths indexing one container by
different keys.

All five rules read the shared cache-key facts of `ctxlint.semantic.python.cache_keys`
(`cache_key_facts`): the scope ids reachable in each function, a def-use over each
function's assignments, and the places keys are used (cache containers, digests,
key-builder returns, `*Key(...)` constructors).
"""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, UNSAFE, Fix
from ctxlint.semantic.python.cache_keys import (
    LABEL_ATTRS, NON_DEMANDING_KINDS, SCOPE_KIND_WORDS, cache_key_facts, ident_words, scope_kind,
)
from ctxlint.rules import Rule

#: Prefilter literals shared by the key rules: a cache-ish name, a digest, a key.
_KEY_TOKENS = ("cache", "Cache", "CACHE", "memo", "Memo", "MEMO", "prefix", "Prefix", "PREFIX",
               "block", "Block", "BLOCK", "kv", "Kv", "KV", "hash", "Hash", "HASH", "registry",
               "Registry", "REGISTRY", "key", "Key", "KEY", "lru", "LRU", "digest", "sha", "md5")

_KIND_PLURAL = {"tenant": "tenants", "user": "users", "session": "sessions", "adapter": "adapters",
                "salt": "cache salts", "mm": "multimodal inputs", "request": "requests"}


def _key_text(facts, expr: ast.AST, limit: int = 40) -> str:
    s = " ".join(facts.segment(expr).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _label_use(ck, fn, nodes) -> tuple[ast.Attribute, str] | None:
    """A label attribute of a scope object in `nodes` (`adapter.label`, `req.lora_request.lora_name`)
    whose object has a unique id, as (node, unique attribute)."""
    facts = ck.facts
    for n in nodes:
        if not (isinstance(n, ast.Attribute) and n.attr in LABEL_ATTRS):
            continue
        obj = facts.dotted(n.value)
        if not obj:
            continue
        uid = _unique_of(ck, fn, obj)
        if uid:
            return n, uid
    return None


def _unique_of(ck, fn, obj: str) -> str | None:
    """A unique-id attribute of the scope object spelled `obj` (dotted), or None.

    The object is a scope object when its annotated class (a same-file class, followed
    through field annotations) has scope-id or unique fields, or its name says it is an
    adapter/tenant/user/session object; its unique id is a class field (`slot_uid`,
    `weights_digest`) or an id attribute read on the same name elsewhere in the file."""
    parts = obj.split(".")
    params = ck.params(fn)
    cls = None
    if parts[0] in params:
        cls = ck.annotation_class(params[parts[0]].annotation)
        for p in parts[1:]:
            if cls is None:
                break
            cls = ck.annotation_class(ck.class_fields.get(cls, {}).get(p))
    if cls:
        uniq = [f for f in ck.unique_fields(cls) if f not in LABEL_ATTRS]
        if uniq and (ck.class_scope_fields(cls, depth=1) or _scope_named(cls)):
            return uniq[0]
        return None
    last = parts[-1]
    if not _scope_named(last):
        return None
    for attr in _attrs_read_on(ck, last):
        w = ident_words(attr)
        if attr not in LABEL_ATTRS and w and (attr in ("id", "uid") or w[-1] in ("id", "uid", "digest")):
            return attr
    return None


_OBJECT_ID_ATTRS = frozenset({"id", "uid", "uuid", "guid", "pk"})
_ID_OWNER_KINDS = frozenset({"request", "session", "tenant", "user", "adapter"})


def _scope_object_id(facts, nodes) -> ast.Attribute | None:
    """An id attribute of a scope object among `nodes` (`request.id`, `seq.uuid`,
    `session.id`, `self.tenant.pk`): the object's name has a scope-kind word
    (request/req/seq/session/tenant/user/adapter, see SCOPE_KIND_WORDS). A key that
    holds a request's own id is per-request and cannot hit across tenants; one that
    holds a tenant's or adapter's id is scoped already."""
    for n in nodes:
        if not (isinstance(n, ast.Attribute) and n.attr.lower() in _OBJECT_ID_ATTRS):
            continue
        owner = (facts.dotted(n.value) or "").split(".")[-1]
        if owner and any(SCOPE_KIND_WORDS.get(w) in _ID_OWNER_KINDS for w in ident_words(owner)):
            return n
    return None


def _scope_named(name: str) -> bool:
    return any(SCOPE_KIND_WORDS.get(w) in ("adapter", "tenant", "user", "session") for w in ident_words(name))


def _attrs_read_on(ck, owner: str) -> set[str]:
    """Attributes read anywhere in the file on an object whose name ends in `owner`."""
    index = ck.facts.memo("ck_attr_owners", lambda: _attr_owner_index(ck.facts))
    return index.get(owner, set())


def _attr_owner_index(facts) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for n in facts.nodes(ast.Attribute):
        v = n.value
        name = v.attr if isinstance(v, ast.Attribute) else v.id if isinstance(v, ast.Name) else None
        if name:
            out.setdefault(name, set()).add(n.attr)
    return out


def _fix_anchor(ck, sink) -> tuple[ast.AST, str] | None:
    """(node, mode) the CTX501 codemod rewrites: a tuple/list display of the key to append
    the scope id to ("append"), or the key expression to wrap as `(key, scope)` ("wrap").

    A hashlib/xxhash digest takes bytes, never a tuple: its key gains the id inside the
    `repr(...)`/`str(...)` the bytes come from ("append" to a tuple there, else "inside":
    wrap that argument as `(arg, scope)` without following local names), else as bytes
    ("bytes": `key + repr(scope).encode()`)."""
    fn = sink.function
    if sink.kind == "hash" and sink.keys and not (isinstance(sink.node, ast.Call)
                                                  and isinstance(sink.node.func, ast.Name)
                                                  and sink.node.func.id == "hash"):
        key = sink.keys[0]
        for n in ast.walk(key):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("repr", "str") \
                    and len(n.args) == 1 and not n.keywords:
                arg = n.args[0]
                if isinstance(arg, (ast.Tuple, ast.List)) and arg.elts \
                        and not any(isinstance(e, ast.Starred) for e in arg.elts):
                    return arg, "append"
                return arg, "inside"
        return key, "bytes"
    if sink.kind == "container":
        key = sink.keys[0]
        if not isinstance(key, ast.Name):
            return None
        ds = ck.defs(fn).get(key.id, [])
        if len(ds) != 1 or ds[0].kind != "assign":
            return None
        key = ds[0].value
    elif sink.kind == "return":
        key = sink.keys[0]
    elif sink.kind == "hash":
        if not sink.keys:
            return None
        key = sink.keys[0]
    else:
        return None
    for n in ast.walk(key):
        if isinstance(n, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in n.elts):
            return n, "append"
    return key, "wrap"


class CacheKeyMissingScope(Rule):
    code = "CTX501"
    name = "cache-key-missing-scope"
    summary = ("A shared cache key (or the digest that builds it) reaches none of the scope ids "
               "while one is in scope: entries are shared across tenants/adapters/users.")
    tokens = _KEY_TOKENS
    fix_safety = UNSAFE
    doc = """\
## What it does
Finds a key used with a shared cache — a module-level, class-level or long-lived
`self.` container whose name or type says cache/memo/prefix/block/kv/hash/registry
(dict, OrderedDict, cachetools caches), a `hash()`/`hashlib` digest that a
key-building function returns, a key-builder's return value (`cache_key()`,
`block_key()`, or any same-file helper another key is built from), or a
`SomethingKey(...)` constructor — when the key,
followed through the function's local assignments, reaches none of the scope ids
(tenant, user, session, adapter/LoRA, cache salt, multimodal hash; configurable with
`scope-ids` / `extend-scope-ids`) although the function can reach one: a parameter
named as a scope id, an attribute path of a parameter (`req.lora_request.lora_int_id`,
or a field of the parameter's annotated class in the same file), or a scope
ContextVar read. A request id alone does not demand scoping (a shared cache keyed on
it would never hit), a key holding a scope object's own id (`request.id`, `seq.uuid`,
`session.id`) is per-request or already scoped, and a container stored in the value must depend on the scope:
a cache of scope-independent values is not reported.

## Why is this bad
A cache that outlives one request serves every tenant. If the key does not say
whose entry it is, tenant B gets tenant A's cached answer, a request with LoRA
adapter 2 reuses KV blocks computed with adapter 1 (wrong output), and shared
prefix blocks let one tenant time another's prompts (CVE-2025-46570).

## Example
```python
_ASSET_CACHE = LRUCache(maxsize=4096)

def execute(run: Run, generate):
    for step in run.steps:
        key = step_cache_key(step)
        if key not in _ASSET_CACHE:          # run.tenant_id is not in the key
            _ASSET_CACHE[key] = generate(run.tenant_id, step)
```

## Use instead
```python
        key = step_cache_key(run.tenant_id, step)
```
or append the id to the hashed tuple: `hash((parent, chunk, req.adapter_id))`.

## Fix safety
Unsafe (applied with `--fix --unsafe-fixes`): the fix adds the in-scope id to the
key — appended to the key's tuple, or the key wrapped as `(key, id)`. A hashlib or
xxhash digest takes bytes, never a tuple, so there the id goes inside the
`repr(...)`/`str(...)` the bytes come from (`repr((chunk, id))`), or is appended as
bytes (`data + repr(id).encode()`). No fix is offered for an inline key spelled at
several uses. The rewrite changes the key's shape, so existing entries stop
matching (the cache refills); code that decodes keys must be checked.

## Source
vllm-project/vllm#3263 (prefix caching ignored the LoRA adapter), vllm-project/vllm#17045
and CVE-2025-46570 (cache_salt for tenant-isolated prefix caching),
backblaze-labs/genblaze#68 (asset cache keyed on step fields only).
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        done: set[tuple[int, str]] = set()
        for sink in ck.sinks():
            fn = sink.function
            reach = ck.reach(fn)
            demanded = self._demanded(ck, sink, reach.demanded(include_self=self._self_ids_count(facts, sink)))
            if not demanded:
                continue
            if sink.kind == "container" and not ck.container_shared(fn, sink.container):
                continue
            clo = ck.closure(fn, sink.keys)
            if ck.hits(fn, clo) or _label_use(ck, fn, clo) or _scope_object_id(facts, clo):
                continue
            if sink.kind == "container" and not self._value_depends_on_scope(ck, sink):
                continue
            ident = (id(fn), ast.dump(ck.resolve(fn, sink.keys[0])[0]) if sink.keys else "")
            if ident in done:
                continue
            done.add(ident)
            sid, text = demanded[0]
            kind = scope_kind(sid)
            plural = _KIND_PLURAL.get(kind, f"values of {sid}")
            if sink.kind == "container":
                what = f"key `{_key_text(facts, sink.keys[0])}` of shared cache `{sink.container.name}`"
            elif sink.kind == "hash":
                what = f"digest `{_key_text(facts, sink.node)}` returned as a key by `{fn.name}()`"
            elif sink.kind == "keyclass":
                what = f"key `{_key_text(facts, sink.node)}`"
            else:
                what = f"key `{_key_text(facts, sink.node)}` built by `{fn.name}()`"
            fix = None
            anchor = _fix_anchor(ck, sink)
            if anchor is not None:
                node, mode = anchor
                fix = Fix(
                    description=f"add `{text}` to the cache key",
                    safety=UNSAFE,
                    codemod="add_scope_id_to_key",
                    data={"line": node.lineno, "col": node.col_offset, "end_line": node.end_lineno,
                          "end_col": node.end_col_offset, "scope_expr": text, "mode": mode},
                )
            yield facts.finding(
                self, sink.node,
                f"{what} reaches no scope id, but `{text}` ({sid}) is in scope: "
                f"entries are shared across {plural}; add `{text}` to the key",
                fix=fix)

    @staticmethod
    def _self_ids_count(facts, sink) -> bool:
        """Do ids of a per-scope `self` oblige this key? For containers, yes (a module cache
        written by a per-tenant object). For digests and key builders only when they hash
        prefix/KV blocks (`Sequence.hash_of_block`), whose table is global by nature; a
        per-session object's own memo digests feed its own cache."""
        if sink.kind == "container":
            return True
        cls = facts.enclosing_class(sink.function)
        words = set(ident_words(sink.function.name)) | set(ident_words(cls.name if cls else ""))
        return bool(words & {"block", "blocks", "prefix", "kv"})

    @staticmethod
    def _demanded(ck, sink, demanded):
        """Drop locals named like a scope id that are the cache's own data: the value it
        stores (`project_id = fetch(); cache[name] = project_id`) or a name bound from the
        key itself (`user = sha256(username)...`)."""
        fn = sink.function
        local = ck.defs(fn)
        params = ck.params(fn)
        out = []
        value_names = {v.id for v in sink.values if isinstance(v, ast.Name)}
        for sid, text in demanded:
            if text in local and text not in params:
                if text in value_names:
                    continue
                if any(n is sink.node for n in ck.closure(fn, [d.value for d in local[text]])):
                    continue
            out.append((sid, text))
        return out

    @staticmethod
    def _value_depends_on_scope(ck, sink) -> bool:
        """Does what the container stores depend on a scope? (in this function, else
        at its other insertion sites in the file). Scope-independent values (a tokenizer
        per model name) may be shared whatever the key."""
        def touches(f, values) -> bool:
            clo = ck.closure(f, values)
            roots = ck.reach(f).roots
            return bool(ck.hits(f, clo)) or any(isinstance(n, ast.Name) and n.id in roots for n in clo)

        fn = sink.function
        if sink.values:
            return touches(fn, sink.values)
        return any(s.value is not None and s.function is not None and touches(s.function, [s.value])
                   for s in sink.container.inserts)


_MEMO_DECORATORS = frozenset({"lru_cache", "cache", "cached", "memoize", "memoized", "alru_cache",
                              "ttl_cache", "cached_function", "memoize_method"})
#: Import-resolved names that are the current request scope in web frameworks.
_SCOPE_GLOBALS = {
    "flask.g": "flask.g", "flask.request": "flask.request", "flask.session": "flask.session",
    "flask_login.current_user": "current_user", "quart.g": "quart.g", "quart.request": "quart.request",
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
`session`, `flask_login.current_user`, or a `get_current_tenant()`-style accessor.
The finding is at the read.

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
            if not self._memoized(facts, fn):
                continue
            seen: set[str] = set()
            for n in facts.walk(fn):
                src = self._scope_source(facts, fn, n)
                if src and src not in seen:
                    seen.add(src)
                    yield facts.finding(
                        self, n,
                        f"memoized function `{fn.name}()` reads `{src}`: the result of the first "
                        "caller's scope is cached and served to every other scope; pass the id "
                        "as a parameter instead")

    @staticmethod
    def _memoized(facts, fn) -> bool:
        for d in fn.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            q = facts.qualname(target) or ""
            if q.split(".")[-1] in _MEMO_DECORATORS:
                return True
        return False

    @staticmethod
    def _scope_source(facts, fn, n) -> str | None:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and not n.args and facts.is_contextvar(n.func.value):
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


def _local_names(facts, fn) -> set[str]:
    return facts.memo(f"ck_locals_{id(fn)}", lambda: {
        *(a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)),
        *(n.id for n in facts.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)),
    })


class CacheKeyUnstableIdentity(Rule):
    code = "CTX503"
    name = "cache-key-unstable-identity"
    summary = "A cache key built from a scope object's label/name/repr() while the object has a unique id."
    tokens = _KEY_TOKENS
    doc = """\
## What it does
Flags a cache key (a cache container's key, a digest returned as a key, a
key-builder's return value) that identifies an adapter, tenant, user or session
object by its human-chosen label — `.name`, `.label`, `.lora_name`,
`.adapter_name`, `repr(obj)`/`str(obj)` — while the object carries a unique id
(a field such as `slot_uid`, `lora_int_id` or `weights_digest` of its class in the
same file, or an id attribute the file reads on it). Also flags an
`lru_cache`-style function keyed on such an object whose class hashes by its label.

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
            lu = _label_use(ck, fn, clo) or self._repr_use(ck, fn, clo)
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
                f"cache key uses `{_key_text(facts, node)}`, a label that can be reused for "
                f"different {obj.split('.')[-1]} instances; key on `{obj}.{uid}` (unique) instead")
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
                uid = _unique_of(ck, fn, obj) if obj else None
                if uid:
                    return n, uid
        return None

    def _memoized_on_label_hash(self, ck):
        facts = ck.facts
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if not MemoizedScopeRead._memoized(facts, fn):
                continue
            for name, p in ck.params(fn).items():
                cls = ck.annotation_class(p.annotation)
                if not cls:
                    continue
                uniq = ck.unique_fields(cls)
                label = self._hash_label(ck, cls)
                if uniq and label:
                    yield facts.finding(
                        self, p,
                        f"memoized `{fn.name}()` is keyed on `{name}`, whose `{cls}.__hash__` uses only "
                        f"`{label}` (a reusable label); key on `{name}.{uniq[0]}` instead")

    @staticmethod
    def _hash_label(ck, cls_name: str) -> str | None:
        cls = ck.classes.get(cls_name)
        for st in cls.body if cls else ():
            if isinstance(st, FunctionDefTypes) and st.name == "__hash__":
                attrs = {n.attr for n in ast.walk(st) if isinstance(n, ast.Attribute)}
                uniq = set(ck.unique_fields(cls_name))
                labels = attrs & LABEL_ATTRS
                if labels and not attrs & uniq:
                    return sorted(labels)[0]
        return None


FunctionDefTypes = (ast.FunctionDef, ast.AsyncFunctionDef)


def _part_kinds(ck, fn, part: ast.AST) -> set[str]:
    """Scope kinds a key part carries: scope ids it reaches (not whole objects), else the
    kind its own name or callee says (`lora_extra_keys`, `_gen_mm_keys(...)`)."""
    kinds = {scope_kind(sid) for sid, _n in ck.hits(fn, ck.closure(fn, [part])) if sid != "<root>"}
    if kinds:
        return kinds
    name = None
    if isinstance(part, ast.Name):
        name = part.id
    elif isinstance(part, ast.Call):
        name = (ck.facts.dotted(part.func) or "").split(".")[-1]
    elif isinstance(part, ast.Attribute):
        name = part.attr
    # naming evidence only from variables and helper calls, never from constants
    # (`_TENANT_SCOPE_FIELDS` holds field names, not a tenant's value)
    if name and not name.isupper() and not isinstance(part, ast.Attribute):
        return {SCOPE_KIND_WORDS[w] for w in ident_words(name) if w in SCOPE_KIND_WORDS
                and SCOPE_KIND_WORDS[w] not in NON_DEMANDING_KINDS}
    return set()


def _tagged(ck, fn, part: ast.AST, depth: int = 0) -> bool:
    """Is a key part labelled with its kind (`("salt", s)`, `[("lora", name)]`, `{"tenant": t}`)
    or empty? Names are followed through their definitions."""
    if depth > 4:
        return False
    if isinstance(part, ast.Constant):
        return True
    if isinstance(part, ast.JoinedStr):
        # f"salt={s}", f"lora:{name!r}": a word before the first formatted value
        head = part.values[0] if part.values else None
        return isinstance(head, ast.Constant) and isinstance(head.value, str) and any(c.isalpha() for c in head.value)
    if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add):
        # "adapter:" + name
        left = part.left
        while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
            left = left.left
        return isinstance(left, ast.Constant) and isinstance(left.value, str) and any(c.isalpha() for c in left.value)
    if isinstance(part, ast.Call) and _tagging_call(ck, part):
        return True
    if isinstance(part, (ast.Tuple, ast.List)):
        if not part.elts:
            return True
        first = part.elts[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return True
        return all(isinstance(e, (ast.Tuple, ast.List, ast.Dict)) and _tagged(ck, fn, e, depth + 1)
                   for e in part.elts)
    if isinstance(part, ast.Dict):
        return all(isinstance(k, ast.Constant) for k in part.keys)
    if isinstance(part, ast.IfExp):
        return _tagged(ck, fn, part.body, depth + 1) and _tagged(ck, fn, part.orelse, depth + 1)
    if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id in ("tuple", "list") \
            and len(part.args) == 1:
        return _tagged(ck, fn, part.args[0], depth + 1)
    if isinstance(part, ast.Name):
        ds = ck.defs(fn).get(part.id, [])
        return bool(ds) and all(_tagged(ck, fn, d.value, depth + 1) for d in ds if d.kind in ("assign", "aug", "mutate"))
    return False


def _distinct_tags(parts: list[ast.AST], tags: list[str]) -> list[str]:
    """Two parts of one kind (`lora_keys`, `weight_keys`: both adapter) get tags from
    their own names (`lora`, `weight`), so they cannot stand in for each other either."""
    out = list(tags)
    for i, (p, t) in enumerate(zip(parts, tags)):
        if t and tags.count(t) > 1:
            name = p.id if isinstance(p, ast.Name) else p.attr if isinstance(p, ast.Attribute) else ""
            words = [w for w in ident_words(name) if w not in ("key", "keys", "part", "parts", "extra")]
            if words:
                out[i] = "_".join(words)
    return out if len(set(filter(None, out))) == len([t for t in out if t]) else tags


_TAG_PARAMS = frozenset({"kind", "tag", "label", "namespace", "scope"})


def _tagging_call(ck, call: ast.Call) -> bool:
    """A helper that labels a part with a kind given as a string literal:
    `_key_part("lora", keys)` (what the `tag_key_parts` codemod writes), `tagged("salt", s)`
    — the first argument is a str literal and the callee is a same-file function whose
    first parameter is named kind/tag/label, or whose name says it tags."""
    if len(call.args) < 2 or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
        return False
    name = (ck.facts.dotted(call.func) or "").split(".")[-1]
    if not name:
        return False
    if {"tag", "tagged", "label", "labelled", "labeled"} & set(ident_words(name)):
        return True
    index = ck.facts.memo("ck_first_params", lambda: {
        fn.name: (fn.args.posonlyargs + fn.args.args)[0].arg if (fn.args.posonlyargs + fn.args.args) else ""
        for fn in ck.facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)})
    return index.get(name) in _TAG_PARAMS


def _concat_parts(node: ast.AST) -> list[ast.AST] | None:
    """Operands of a sequence concatenation `a + b + c`, or the elements of a display with
    a starred part (`(*a, *b)`): the variable-length key shapes whose parts can slide."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts: list[ast.AST] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
                stack.append(n.right)
                stack.append(n.left)
            else:
                parts.append(n)
        if any(isinstance(p, (ast.Constant, ast.JoinedStr)) and not isinstance(getattr(p, "value", None), (tuple, list))
               for p in parts):
            return None  # string/number arithmetic, not a sequence key
        return parts
    if isinstance(node, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Starred) for e in node.elts):
        return [e.value if isinstance(e, ast.Starred) else e for e in node.elts]
    return None


def _accumulated_parts(ck, fn, node: ast.AST, done: set) -> list[ast.AST] | None:
    """The parts of a key list built by `append`/`extend`/`+=` in `fn` (`extra = [];
    if lora: extra.append(lora.name); if salt: extra.append(salt)`), when `node` is a
    use of that list with at least two such additions; each list is judged once."""
    if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
        return None
    ds = ck.defs(fn).get(node.id, [])
    adds = [d.value for d in ds if d.kind in ("mutate", "aug")]
    if len(adds) < 2 or ("acc", id(fn), node.id) in done:
        return None
    done.add(("acc", id(fn), node.id))
    firsts = [e for d in ds if d.kind == "assign" and isinstance(d.value, (ast.List, ast.Tuple))
              for e in d.value.elts]
    return [*firsts, *adds]


class CacheKeyPartsUntagged(Rule):
    code = "CTX504"
    name = "cache-key-parts-untagged"
    summary = "A key concatenates bare values of two or more scope kinds: adapter name \"X\" equals salt \"X\"."
    tokens = _KEY_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Flags a cache key (or its extra-key list) assembled by concatenating
variable-length parts — `lora_keys + mm_keys + salt_keys`, `(*adapter_keys,
*salt_keys)`, a list that `append`s whichever ids are present — where two or more
parts carry different scope kinds (tenant, user, session, adapter/LoRA, cache salt,
multimodal hash) as bare values. Parts labelled with their kind
(`[("salt", s)]`, `{"tenant": t}`) are fine. The finding is at the key expression.

## Why is this bad
When a part may be empty, the parts slide: a request with LoRA "acme" and no salt
and a request with no LoRA and salt "acme" produce the same key, so one reuses the
other's cached KV blocks — an isolation break between adapters and tenants.

## Example
```python
lora_keys = [req.lora_name] if req.lora_name else []
salt_keys = [req.cache_salt] if req.cache_salt else []
extra_keys = lora_keys + salt_keys
```

## Use instead
```python
lora_keys = [("lora", req.lora_name)] if req.lora_name else []
salt_keys = [("cache_salt", req.cache_salt)] if req.cache_salt else []
extra_keys = lora_keys + salt_keys
```

## Fix safety
Safe: the fix (`tag_key_parts`) wraps each scope part as `(tag, part)`; keys change
shape but stay equal exactly when the tagged parts are equal. `data.tags` has one
string per part, "" for parts left as they are.

## Source
vllm-project/vllm prefix-caching extra keys (LoRA name, multimodal hashes and
cache_salt concatenated untagged before the tagged-key change); the cache_salt
design of vllm-project/vllm#17045.
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        done: set[int] = set()
        for sink in ck.sinks():
            fn = sink.function
            clo = sorted((n for n in ck.closure(fn, sink.keys) if hasattr(n, "lineno")),
                         key=lambda n: (n.lineno, n.col_offset))
            for n in clo:
                if id(n) in done:
                    continue
                p = facts.parents.get(n)
                if isinstance(n, ast.BinOp) and isinstance(p, ast.BinOp) and isinstance(p.op, ast.Add) and p.left is n:
                    continue  # the outermost `a + b + c` is judged as a whole
                parts = _concat_parts(n) or _accumulated_parts(ck, fn, n, done)
                if not parts:
                    continue
                done.add(id(n))
                tags: list[str] = []
                bare_kinds: list[str] = []
                for p in parts:
                    ks = _part_kinds(ck, fn, p)
                    if len(ks) == 1 and not _tagged(ck, fn, p):
                        k = next(iter(ks))
                        tags.append("cache_salt" if k == "salt" else "lora" if k == "adapter" else k)
                        bare_kinds.append(k)
                    else:
                        tags.append("")
                kinds = sorted(set(bare_kinds))
                if len(kinds) < 2:
                    continue
                tags = _distinct_tags(parts, tags)
                fix = Fix(description="tag each key part with its kind", safety=SAFE,
                          codemod="tag_key_parts",
                          data={"line": n.lineno, "col": n.col_offset, "end_line": n.end_lineno,
                                "end_col": n.end_col_offset, "tags": tags,
                                "parts": [[q.lineno, q.col_offset, q.end_lineno, q.end_col_offset]
                                          for q in parts]})
                yield facts.finding(
                    self, n,
                    f"key concatenates bare {', '.join(kinds)} parts: a value of one kind can equal "
                    "a value of another when a part is empty (adapter \"X\" = salt \"X\"); tag each part, "
                    "e.g. `(\"cache_salt\", salt)`", fix=fix)


#: Paired method words: an acquire-side word and the release-side words that undo it.
_PAIRS: tuple[tuple[frozenset, frozenset], ...] = (
    (frozenset({"acquire"}), frozenset({"release"})),
    (frozenset({"alloc", "allocate"}), frozenset({"free", "dealloc", "deallocate", "release"})),
    (frozenset({"inc", "incref", "increment", "incr"}), frozenset({"dec", "decref", "decrement", "decr"})),
    (frozenset({"retain"}), frozenset({"release"})),
    (frozenset({"ref"}), frozenset({"unref", "deref"})),
    (frozenset({"pin"}), frozenset({"unpin"})),
    (frozenset({"lock"}), frozenset({"unlock"})),
    (frozenset({"register"}), frozenset({"unregister", "deregister"})),
    (frozenset({"attach"}), frozenset({"detach"})),
    (frozenset({"load"}), frozenset({"unload"})),
    (frozenset({"reserve"}), frozenset({"release", "unreserve"})),
    (frozenset({"borrow"}), frozenset({"return"})),
    (frozenset({"put"}), frozenset({"free", "release"})),
)


def _key_signature(ck, fn, key: ast.AST):
    """How a key is derived, for comparing acquire and release: ("call", helper) for a
    helper's result, ("attr", name) for an attribute or parameter (`item.digest`,
    `digest`), None when unknown (loop variables, several definitions)."""
    expr, exact = ck.resolve(fn, key)
    if not exact:
        return None
    if isinstance(expr, ast.Call):
        # only a key helper of this file (or a digest) is a derivation worth comparing;
        # `self._free.pop()` or `uuid4()` hand out fresh ids
        name = (ck.facts.dotted(expr.func) or "").split(".")[-1]
        if name and (name in ck.function_names or ck.digest_call(expr)):
            return ("call", name)
        return None
    if isinstance(expr, ast.Attribute):
        return ("attr", _id_words(expr.attr))
    if isinstance(expr, ast.Name):
        if expr.id in ck.defs(fn):
            return None
        return ("attr", _id_words(expr.id))
    return None


def _id_words(name: str) -> frozenset:
    """Words of an id name without counter prefixes (`_next_slot_id` -> {slot, id})."""
    return frozenset(w for w in ident_words(name) if w not in ("next", "new", "cur", "current", "last"))


def _same_key(a, b) -> bool:
    """Do two key signatures name the same derivation? Attribute spellings match when the
    words of one contain the other's (`req.request_id` ~ `request_id`, `_next_lease_id` ~
    `lease_id`)."""
    if a[0] != b[0]:
        return False
    if a[0] == "call":
        return a[1] == b[1]
    return a[1] <= b[1] or b[1] <= a[1]


class AcquireReleaseKeyMismatch(Rule):
    code = "CTX505"
    name = "acquire-release-key-mismatch"
    summary = "Paired methods (acquire/release, alloc/free, inc/dec) index one container by keys built differently."
    tokens = ("release", "free", "dec", "unref", "unpin", "unlock", "unregister", "deregister", "detach",
              "unload", "return", "Release", "Free")
    doc = """\
## What it does
For a class (or module) with paired methods — acquire/release, alloc/free,
inc/dec, incref/decref, ref/unref, pin/unpin, register/unregister, attach/detach,
load/unload, reserve/release, put/free — finds a container both sides index where
the release side derives its key differently from the acquire side: one calls a
key helper (`combine(digests)`), the other reads a raw attribute (`item.digest`),
or they call different helpers or read different attributes. The finding is at the
release side's key expression.

## Why is this bad
The release looks up a key that acquire never stored: the refcount never drops,
the entry is never evicted, and the cached data (vision embeddings, KV blocks,
adapter weights) outlives every request that used it — a leak that only shows
under load.

## Example
```python
def acquire(self, items):
    key = combine([it.digest for it in items])
    self.refs[key] = self.refs.get(key, 0) + 1

def release(self, item):
    key = item.digest                  # not the key acquire used
    if key in self.refs:
        self.refs[key] -= 1
```

## Use instead
Derive both keys from one helper: `key = combine([it.digest for it in items])` in both.

## Fix safety
No automatic fix: the release side's signature usually has to change.

## Source
sgl-project/sglang#20162 (multimodal embedding cache released by a per-item digest
while acquired by the combined digest).
"""

    def check(self, facts):
        ck = cache_key_facts(facts)
        for c in facts.containers:
            if c.kind in ("list", "deque"):
                continue
            sites = [s for s in (*c.inserts, *c.reads, *c.removals) if s.key is not None and s.method is not None]
            by_method: dict[str, list] = {}
            for s in sorted(sites, key=lambda s: (s.node.lineno, s.node.col_offset)):
                by_method.setdefault(s.method.name, []).append(s)
            for acq_words, rel_words in _PAIRS:
                acq = [m for m in by_method if set(ident_words(m)) & acq_words]
                rel = [m for m in by_method if set(ident_words(m)) & rel_words]
                if not acq or not rel:
                    continue
                acq_sigs = set()
                for m in acq:
                    for s in by_method[m]:
                        acq_sigs.add(_key_signature(ck, s.function, s.key))
                if None in acq_sigs or not acq_sigs:
                    continue
                for m in rel:
                    # a release method that also indexes by the acquire-side key handles
                    # several roles (writer/follower): the other key is deliberate
                    reported = any(_same_key(sg, a) for s in by_method[m]
                                   if (sg := _key_signature(ck, s.function, s.key)) for a in acq_sigs)
                    for s in by_method[m]:
                        sig = _key_signature(ck, s.function, s.key)
                        if sig is None or reported or any(_same_key(sig, a) for a in acq_sigs):
                            continue
                        expr, _ = ck.resolve(s.function, s.key)
                        reported = True
                        acq_desc = ", ".join(sorted(f"`{n}()`" if k == "call" else f"`{'_'.join(sorted(n))}`"
                                                    for k, n in acq_sigs))
                        yield facts.finding(
                            self, expr,
                            f"`{m}()` indexes `{c.name}` by `{_key_text(facts, expr)}`, but "
                            f"`{', '.join(acq)}()` keyed it by {acq_desc}: the entry is never found "
                            "and never released; derive both keys from one helper")
