"""Cache-key facts (read by the cache-key rules, CTX501-CTX505).

Scope ids reachable in each function (parameters, attribute paths of
parameters, fields of a parameter's annotated class, scope ContextVars), a
small flow-insensitive def-use over each function's assignments, key
closures, and the places a key is used (cache containers, hash()/hashlib
digests, key-builder returns, `*Key(...)` constructors). Computed once per
file through `cache_key_facts(facts)`; per-function results are memoized.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from functools import cached_property
from typing import Iterable

from ctxlint.semantic.python.calls import function_index
from ctxlint.semantic.python.requests import is_route_handler
from ctxlint.semantic.python.facts import FunctionNode, PythonFacts

#: Scope kind of each default scope id (CTX501 names the missing kind; CTX504
#: counts kinds). Ids not listed get a kind from their words, else themselves.
SCOPE_ID_KINDS: dict[str, str] = {
    **dict.fromkeys(("tenant_id", "tenant", "org_id", "organization_id", "account_id", "workspace_id",
                     "project_id", "customer_id", "namespace"), "tenant"),
    **dict.fromkeys(("request_id", "req_id", "rid", "seq_id", "sequence_id"), "request"),
    **dict.fromkeys(("user_id", "user", "uid"), "user"),
    **dict.fromkeys(("session_id", "conversation_id", "thread_id"), "session"),
    **dict.fromkeys(("adapter_id", "adapter_name", "lora_id", "lora_int_id", "lora_name", "lora_path",
                     "lora_request", "adapter_digest", "weights_digest", "lora_hash"), "adapter"),
    **dict.fromkeys(("cache_salt", "salt", "tenant_salt"), "salt"),
    **dict.fromkeys(("mm_hash", "mm_hashes", "image_hash", "image_digest", "image_digests", "mm_digest",
                     "multimodal_hash"), "mm"),
}
#: Ids of one unit of work, generated per run (a task, a job, a workflow run). A cache key
#: that holds one cannot be shared across tenants (skyvern's memo by
#: `task.workflow_run_id or task.task_id`), so CTX501 counts it as scoping the key; they
#: are not scope ids a key must carry, nor per-request keys for the growth rules.
PER_RUN_IDS = frozenset({"task_id", "job_id", "run_id", "workflow_run_id"})
#: Identifier words -> scope kind (for config-added ids and for naming key parts).
SCOPE_KIND_WORDS: dict[str, str] = {
    "tenant": "tenant", "org": "tenant", "organization": "tenant", "account": "tenant",
    "workspace": "tenant", "customer": "tenant",
    "request": "request", "req": "request", "rid": "request", "seq": "request",
    "user": "user", "uid": "user",
    "session": "session", "conversation": "session",
    "adapter": "adapter", "lora": "adapter",
    "salt": "salt",
    "mm": "mm", "image": "mm", "multimodal": "mm", "vision": "mm",
}
#: Priority of kinds when a message names one missing id: isolation kinds first.
SCOPE_KIND_ORDER: tuple[str, ...] = ("salt", "tenant", "adapter", "user", "session", "mm", "request")
#: Kinds whose presence obliges a shared cache key to carry them. A request id is
#: reachable in nearly every serving function, but a shared cache keyed on it
#: would never hit: request ids scope a key when present, they do not demand one.
NON_DEMANDING_KINDS = frozenset({"request"})
#: Words in a container's name that say it is a cache (the CTX501 container test).
CACHE_WORDS = frozenset({"cache", "caches", "cached", "memo", "memos", "memoized", "memoize", "prefix",
                         "prefixes", "block", "blocks", "kv", "hash", "hashes", "registry", "lru"})
#: Words in a function name that say it builds a key (its return value is a key).
KEY_FN_WORDS = frozenset({"key", "keys"})
#: With a KEY_FN_WORDS word, words in a function name that say the key is a cache key
#: (`cache_key`, `block_key`, `extra_hash_keys`) rather than a sort key.
KEY_BUILDER_WORDS = frozenset({"cache", "cached", "hash", "hashes", "prefix", "block", "blocks", "kv",
                               "memo", "extra", "lookup", "dedup", "fingerprint"})
#: Words in a function name that say its returned digest is a key.
DIGEST_FN_WORDS = frozenset({"key", "keys", "hash", "hashes", "digest", "digests", "fingerprint"})
#: Text any digest call of `digest_call` contains (`hash(`, `hashlib.`, `xxh64`, `mmh3`,
#: `blake2b`, `sha256`, `md5`): a cheap test before walking a file's calls.
_DIGEST_TEXT = re.compile(r"hash|sha\d|md5|blake|xxh|mmh3")
#: hashlib / xxhash / mmh3 callables that digest their argument.
_DIGEST_MODULES = ("hashlib.", "xxhash.", "mmh3.", "blake3.")
#: Callable names that are hash functions by convention in serving code.
_HASH_FN_NAMES = frozenset({"hash_function", "hash_fn", "hasher", "sha256", "sha256_cbor", "md5",
                            "blake2b", "blake2s", "sha1", "sha512", "xxh64", "xxh3_64", "xxh128"})
#: Callables whose result is fresh per call (a random salt, nonce or uuid): a value built
#: from one is never reproduced, so it cannot be looked up as a cache key (a bcrypt
#: password hash `hashpw(pw, gensalt())` is stored, not looked up). Sources: bcrypt
#: (`gensalt`), Python stdlib docs (`os.urandom`, `secrets`, `uuid.uuid1/uuid4`, `random`).
FRESH_VALUE_QUALNAMES = ("bcrypt.gensalt", "os.urandom", "secrets.", "uuid.uuid1", "uuid.uuid4",
                         "random.", "nacl.utils.random")
#: Lower-case constructors of an empty collection (builtins, `collections`): a value
#: created on a miss from one of these starts an accumulator, not a cached result
#: (`memo_filled`). Capitalised constructors (`OrderedDict`, `Lock`, `Queue`) are already
#: told apart by the PEP 8 class convention in `_computed`.
_EMPTY_CTORS = frozenset({"list", "dict", "set", "tuple", "frozenset", "defaultdict", "deque"})
#: Attributes that carry a human-chosen label rather than a unique identity (CTX503).
LABEL_ATTRS = frozenset({"name", "label", "display_name", "alias", "title", "lora_name", "adapter_name"})
#: Dunder methods where hashing is identity plumbing, not a cache key.
_NOT_KEY_FUNCS = frozenset({"__hash__", "__eq__", "__repr__", "__str__", "__init__", "__post_init__"})


def ident_words(name: str) -> list[str]:
    """Lower-case words of an identifier (`_kvCacheMap` -> ["kv", "cache", "map"])."""
    import re
    return re.findall(r"[a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower())


def scope_kind(scope_id: str) -> str:
    """The scope kind of a scope id ("lora_int_id" -> "adapter"); unknown ids are their own kind."""
    k = SCOPE_ID_KINDS.get(scope_id)
    if k:
        return k
    for w in ident_words(scope_id):
        if w in SCOPE_KIND_WORDS:
            return SCOPE_KIND_WORDS[w]
    return scope_id


class Def:
    """One definition of a local name: `value` flows into the name.

    kind: "assign" (x = v / x: T = v / x := v), "aug" (x += v), "mutate"
    (x.append(v), x.extend(v), x.update(v), x[i] = v, x.add(v), x.insert(i, v)),
    "iter" (for x in v / comprehension), "with" (with v as x), "unpack" (a, b = v
    where v is not a display of the same length).
    """

    __slots__ = ("value", "kind", "stmt")

    def __init__(self, value: ast.AST, kind: str, stmt: ast.AST):
        self.value = value
        self.kind = kind
        self.stmt = stmt


class ScopeReach:
    """Scope ids a function can reach.

    Attributes:
        ids: scope id -> source text of the first way to reach it ("req.adapter_id",
            "tenant_id", "current_tenant.get()"), in discovery order.
        roots: names whose whole value carries a scope id (a parameter `req` whose
            annotated class has a scope-id field, or that the body reads `req.tenant_id`
            from); passing such a name whole into a key counts as scoping it.
        item_roots: mappings an item path reads a scope id from (`kwargs` of
            `kwargs["metadata"]["tenant_id"]`, here or in a helper it is handed to):
            they carry it only where handed on whole (`handed_whole`), not where one
            of their other items is read (`kwargs[k]`, `k in kwargs`).
        self_scoped: the enclosing class's instances carry a scope id (`self.tenant_id`):
            their own `self.` containers are per-scope, not shared.
    """

    __slots__ = ("ids", "roots", "item_roots", "self_scoped")

    def __init__(self):
        self.ids: dict[str, str] = {}
        self.roots: set[str] = set()
        self.item_roots: set[str] = set()
        self.self_scoped = False

    def demanded(self, include_self: bool = True) -> list[tuple[str, str]]:
        """(scope id, text) pairs that a shared key must carry, most important kind first.

        With `include_self=False`, ids reached through `self`/`cls` are left out (a
        per-tenant object's own digests usually feed its own, per-tenant cache)."""
        items = [(i, t) for i, t in self.ids.items() if scope_kind(i) not in NON_DEMANDING_KINDS
                 and (include_self or not t.startswith(("self.", "cls.")))]
        order = {k: n for n, k in enumerate(SCOPE_KIND_ORDER)}
        return sorted(items, key=lambda it: order.get(scope_kind(it[0]), -1))


class KeySink:
    """A place a key is used.

    Attributes:
        kind: "container" (a subscript, `in`, or keyed method of a cache container),
            "hash" (a hash()/hashlib digest whose result is returned as a key),
            "return" (the return value of a key-builder function, `def cache_key(...)`),
            "keyclass" (a `SomethingKey(...)` constructor).
        node: where the finding is reported (the key's first use).
        keys: the key expressions (subscript slice, digest arguments, return value).
        function: the enclosing def.
        container: the container (`LongLivedContainer`) for "container" sinks.
        values: stored value expressions for container sinks (assignments in the function).
        part_of: for a function found only because another key is built from its result
            (`_make_buffer_key` calls `_resolve_date(metric)`), the sinks of those outer
            keys; empty for a key found on its own.
    """

    __slots__ = ("kind", "node", "keys", "function", "container", "values", "part_of")

    def __init__(self, kind, node, keys, function, container=None, values=()):
        self.kind = kind
        self.node = node
        self.keys = list(keys)
        self.function = function
        self.container = container
        self.values = list(values)
        self.part_of: list = []


class CacheKeyFacts:
    """The cache-key analysis of one file (see the section comment above).

    Args:
        facts: the file's `PythonFacts`.
    Never raises on odd code: shapes it does not understand contribute nothing.
    """

    def __init__(self, facts: "PythonFacts"):
        self.facts = facts
        self.ids = facts.scope_id_names
        self._defs: dict[int, dict[str, list[Def]]] = {}
        self._params: dict[int, dict[str, ast.arg]] = {}
        self._reach: dict[int, ScopeReach] = {}
        self._sinks: list[KeySink] | None = None

    # ------------------------------------------------------------ classes
    @cached_property
    def classes(self) -> dict[str, ast.ClassDef]:
        """Class name -> ClassDef for every class of the file (the last one wins on redefinition)."""
        return {c.name: c for c in self.facts.nodes(ast.ClassDef)}

    def module_class(self, fn: ast.AST | None, func: ast.AST) -> ast.ClassDef | None:
        """The class of this file that callee expression `func` names in def `fn` (None
        at module level): a bare name of a class of this file (`classes`) that `fn` does
        not rebind (no parameter, assignment or import of that name in it). A dotted
        callee (`other_mod.Lease`) or a shadowed name is no class of this file: the class
        is resolved by binding, never by the spelling's last segment or its case."""
        if not isinstance(func, ast.Name):
            return None
        if fn is not None and (func.id in self.params(fn) or func.id in self.defs(fn)):
            return None
        return self.classes.get(func.id)

    def receiver(self, fn: ast.AST) -> str | None:
        """The name the instance (or class) has in `fn`: the first parameter of the
        method of `fn`'s class that `fn` is (or is nested in), unless that method is a
        `@staticmethod`. None outside a class. Read from the signature, whatever it is
        spelled (`self`, `this`, `cls`, `mcs`)."""
        cls = self.facts.enclosing_class(fn)
        if cls is None:
            return None
        method, cur = fn, fn
        parents = self.facts.parents
        while True:
            p = parents.get(cur)
            if p is None:
                return None
            if p is cls:
                break
            if isinstance(p, FunctionNode):
                method = p
            cur = p
        if not isinstance(method, FunctionNode) or method not in cls.body:
            return None
        for d in method.decorator_list:
            if (PythonFacts.dotted(d) or "").split(".")[-1] == "staticmethod":
                return None
        args = method.args.posonlyargs + method.args.args
        return args[0].arg if args else None

    @cached_property
    def class_fields(self) -> dict[str, dict[str, ast.AST | None]]:
        """Class name -> field name -> annotation (or None): class-level annotated or
        assigned names (dataclass fields) and `self.X = ...` in any method."""
        out: dict[str, dict[str, ast.AST | None]] = {}
        for cls in self.classes.values():
            fields: dict[str, ast.AST | None] = {}
            for st in cls.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                    fields[st.target.id] = st.annotation
                elif isinstance(st, ast.Assign):
                    for t in st.targets:
                        if isinstance(t, ast.Name):
                            fields.setdefault(t.id, None)
            for st in cls.body:
                if not isinstance(st, FunctionNode):
                    continue
                args = st.args.posonlyargs + st.args.args
                if not args:
                    continue
                me = args[0].arg
                for n in self.facts.walk(st):
                    tgt = None
                    ann = None
                    if isinstance(n, ast.Assign):
                        for t in n.targets:
                            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                                fields.setdefault(t.attr, None)
                    elif isinstance(n, ast.AnnAssign):
                        tgt, ann = n.target, n.annotation
                        if isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name) and tgt.value.id == me:
                            fields[tgt.attr] = ann
            out[cls.name] = fields
        return out

    def annotation_class(self, ann: ast.AST | None) -> str | None:
        """The same-file class an annotation names (`Optional["Req"]`, `Req | None`, `list[Req]` -> no)."""
        for _ in range(4):
            if ann is None:
                return None
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                try:
                    ann = ast.parse(ann.value, mode="eval").body
                except (SyntaxError, ValueError):
                    return None
                continue
            if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
                left = self.annotation_class(ann.left)
                return left or self.annotation_class(ann.right)
            if isinstance(ann, ast.Subscript):
                base = (self.facts.dotted(ann.value) or "").split(".")[-1]
                if base not in ("Optional", "Union", "Annotated"):
                    return None
                sl = ann.slice
                ann = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
                continue
            d = self.facts.dotted(ann)
            if d is None:
                return None
            name = d.split(".")[-1]
            return name if name in self.classes else None
        return None

    def class_scope_fields(self, cls_name: str, depth: int = 2) -> list[tuple[str, str]]:
        """(scope id, relative path) of scope ids among a class's fields, one level of
        nesting into fields annotated with another same-file class."""
        out: list[tuple[str, str]] = []
        fields = self.class_fields.get(cls_name, {})
        for f, ann in fields.items():
            if f in self.ids:
                out.append((f, f))
        if depth > 1:
            for f, ann in fields.items():
                sub = self.annotation_class(ann)
                if sub and sub != cls_name:
                    out.extend((i, f"{f}.{p}") for i, p in self.class_scope_fields(sub, depth - 1))
        return out

    def unique_fields(self, cls_name: str) -> list[str]:
        """Fields of a class that look like a unique identity (`slot_uid`, `lora_int_id`,
        `weights_digest`, `id`): the alternative to keying on its label (CTX503)."""
        out = []
        for f in self.class_fields.get(cls_name, {}):
            w = ident_words(f)
            if f in ("id", "uid") or (w and w[-1] in ("id", "uid", "digest", "hash", "sha", "uuid")):
                if f not in LABEL_ATTRS:
                    out.append(f)
        return out

    @cached_property
    def function_names(self) -> frozenset[str]:
        """Names of every def in the file (key helpers are looked up by name)."""
        return frozenset(f.name for f in self.facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef))

    # ------------------------------------------------------------ def-use
    def params(self, fn: ast.AST) -> dict[str, ast.arg]:
        """Parameter name -> ast.arg for a def (memoized)."""
        r = self._params.get(id(fn))
        if r is None:
            a = fn.args
            r = {p.arg: p for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
            for p in (a.vararg, a.kwarg):
                if p is not None:
                    r[p.arg] = p
            self._params[id(fn)] = r
        return r

    def defs(self, fn: ast.AST) -> dict[str, list[Def]]:
        """Local name -> its definitions in `fn` (flow-insensitive, nested defs excluded)."""
        r = self._defs.get(id(fn))
        if r is not None:
            return r
        r = {}

        def add(target: ast.AST, value: ast.AST, kind: str, stmt: ast.AST):
            if isinstance(target, ast.Name):
                r.setdefault(target.id, []).append(Def(value, kind, stmt))
            elif isinstance(target, (ast.Tuple, ast.List)):
                if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
                        and not any(isinstance(e, ast.Starred) for e in (*value.elts, *target.elts)):
                    for t, v in zip(target.elts, value.elts):
                        add(t, v, kind, stmt)
                else:
                    for t in target.elts:
                        add(t.value if isinstance(t, ast.Starred) else t, value,
                            "unpack" if kind == "assign" else kind, stmt)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                r.setdefault(target.value.id, []).append(Def(value, "mutate", stmt))

        for n in self.facts.walk(fn):
            if n is fn:
                continue
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    add(t, n.value, "assign", n)
            elif isinstance(n, ast.AnnAssign) and n.value is not None:
                add(n.target, n.value, "assign", n)
            elif isinstance(n, ast.AugAssign):
                add(n.target, n.value, "aug", n)
            elif isinstance(n, ast.NamedExpr):
                add(n.target, n.value, "assign", n)
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                add(n.target, n.iter, "iter", n)
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for it in n.items:
                    if it.optional_vars is not None:
                        add(it.optional_vars, it.context_expr, "with", n)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and isinstance(n.func.value, ast.Name) and n.args \
                    and n.func.attr in ("append", "extend", "update", "add", "insert", "appendleft"):
                r.setdefault(n.func.value.id, []).append(Def(n.args[-1], "mutate", n))
        self._defs[id(fn)] = r
        return r

    def closure(self, fn: ast.AST, exprs: Iterable[ast.AST], limit: int = 1600,
                skip: Iterable[str] = (), _helpers: frozenset = frozenset()) -> list[ast.AST]:
        """Every node the expressions are built from, following local names to their
        definitions in `fn` (transitively). Nested lambdas/comprehensions are entered.
        Names in `skip` are not followed (a container walked for its keys: what `fn`
        stores into it is no part of those keys)."""
        d = self.defs(fn)
        seen_names: set[str] = set(skip)
        out: list[ast.AST] = []
        # breadth first: a name's definitions are visited in source order, nearest first,
        # so a long function (a digest fed by twenty `h.update(...)` calls) reaches its
        # first parts before the node budget runs out
        queue = deque(e for e in exprs if e is not None)
        while queue and len(out) < limit:
            e = queue.popleft()
            for n in ast.walk(e):
                out.append(n)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in seen_names:
                    seen_names.add(n.id)
                    for df in d.get(n.id, ()):
                        queue.append(df.value)
                elif isinstance(n, ast.Call):
                    helper = self._own_method_called(fn, n)
                    if helper is not None and id(helper) not in _helpers:
                        # `key = self._key(prompt)`: what the object's own key helper
                        # returns is part of the key (its parts are judged in its scope)
                        rets = [r.value for r in self.facts.walk(helper)
                                if isinstance(r, ast.Return) and r.value is not None]
                        out.extend(self.closure(helper, rets, limit=max(0, limit - len(out)),
                                                _helpers=_helpers | {id(helper)}))
        return out

    def _own_method_called(self, fn: ast.AST, call: ast.Call):
        """The method of `fn`'s class that `call` (`self.m(...)`, `self` being `fn`'s first
        parameter) calls, if defined in the class body and not `fn` itself; else None."""
        f = call.func
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)) or isinstance(fn, ast.Lambda):
            return None
        args = getattr(getattr(fn, "args", None), "args", None)
        if not args or f.value.id != args[0].arg:
            return None
        cls = self.facts.enclosing_class(fn)
        if cls is None:
            return None
        m = next((st for st in cls.body if isinstance(st, FunctionNode) and st.name == f.attr), None)
        return None if m is fn else m

    def resolve(self, fn: ast.AST, expr: ast.AST) -> tuple[ast.AST, bool]:
        """Follow a Name through single plain assignments to the expression it stands for.

        Returns (expression, exact): exact is False when the chain went through a loop
        variable, an unpacking or several definitions (the expression is then a source,
        not the value itself)."""
        d = self.defs(fn)
        seen = set()
        exact = True
        while isinstance(expr, ast.Name) and expr.id not in seen:
            seen.add(expr.id)
            ds = d.get(expr.id, [])
            if len(ds) != 1 or ds[0].kind != "assign":
                if ds:
                    exact = False
                break
            expr = ds[0].value
        return expr, exact

    # ------------------------------------------------------------ scope reach
    def reach(self, fn: ast.AST) -> ScopeReach:
        """The scope ids `fn` can reach (memoized per function). See `ScopeReach`."""
        r = self._reach.get(id(fn))
        if r is not None:
            return r
        r = ScopeReach()
        self._reach[id(fn)] = r  # a cycle of helpers sees what is known so far
        ids = self.ids
        facts = self.facts
        params = self.params(fn)
        me = self._self_param(fn)
        for name, p in params.items():
            if name == me:
                continue
            if name in ids:
                r.ids.setdefault(name, name)
            cls = self.annotation_class(p.annotation)
            if cls:
                for sid, path in self.class_scope_fields(cls):
                    r.ids.setdefault(sid, f"{name}.{path}")
                    r.roots.add(name)
        local = self.defs(fn)
        for name in local:
            if name in ids and name not in r.ids:
                r.ids[name] = name
        # attribute paths read in the body: req.lora_request.lora_int_id, self.tenant_id
        for n in facts.walk(fn):
            if isinstance(n, ast.Attribute) and not isinstance(facts.parents.get(n), ast.Attribute):
                d = facts.dotted(n)
                if not d:
                    continue
                parts = d.split(".")
                root = parts[0]
                # paths of parameters only: a local read back from a cache (`ref =
                # self._registry.get(name)`) does not put its ids in scope
                if root not in params:
                    continue
                for i in range(len(parts) - 1, 0, -1):
                    if parts[i] in ids:
                        r.ids.setdefault(parts[i], ".".join(parts[:i + 1]))
                        if root != me:
                            r.roots.add(root)
                        elif i == 1 and self.set_at_construction(fn, parts[1]):
                            # `self.namespace`, given to the constructor (here or in a base
                            # class of another file) and never reassigned by a method: the
                            # instance is built for one scope, its own containers are per scope
                            r.self_scoped = True
                        break
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                    and not n.args and facts.is_contextvar(n.func.value):
                cv = facts.dotted(n.func.value) or ""
                sid = self.scope_id_of_name(cv.split(".")[-1])
                if sid:
                    r.ids.setdefault(sid, f"{cv}.get()")
        # item paths of parameters: kwargs["metadata"]["tenant_id"], meta.get("user_id")
        for n in facts.walk(fn):
            sid = _item_scope_id(n, ids)
            if sid is None or sid in r.ids:
                continue
            root = _item_root(n)
            if root is not None and root.id in params and root.id != me:
                r.ids[sid] = facts.segment(n)
                r.item_roots.add(root.id)
        self._helper_reach(fn, r, params, me)
        # the instance itself carries a scope id: self containers are per scope
        cls = facts.enclosing_class(fn)
        if me and cls is not None and facts.parents.get(fn) is cls:
            switched = self.switched_scope_attrs(cls)
            for sid, path in self.class_scope_fields(cls.name, depth=1):
                if path.split(".")[0] in switched:
                    continue  # switched by a setter: the object serves several scopes in turn
                r.self_scoped = True
                r.ids.setdefault(sid, f"{me}.{path}")
            # a scope held on the object and switched by a setter (`use_adapter(a)`:
            # `self.active_adapter = a`) is in scope wherever a method reads it
            read = {n.attr for n in facts.walk(fn) if isinstance(n, ast.Attribute)
                    and isinstance(n.value, ast.Name) and n.value.id == me and isinstance(n.ctx, ast.Load)}
            for attr, (sid, setter) in switched.items():
                if attr in read and setter is not fn:
                    r.ids.setdefault(sid, f"{me}.{attr}")
        self._reach[id(fn)] = r
        return r

    def _helper_reach(self, fn: ast.AST, r: ScopeReach, params, me) -> None:
        """Scope ids a helper of this module reads from a parameter `fn` hands it, whole or
        a part of it (`self._call(kwargs, params)` where `_call` reads
        `kwargs["metadata"]["tenant_id"]`; `self._send(kwargs.get("metadata", {}))`; a
        helper's own helpers likewise, so two levels and more): `fn` can reach them too,
        spelled from its own parameter."""
        from ctxlint.semantic.python.calls import call_graph, params_of
        graph = call_graph(self.facts)
        for call, target in graph.calls_in(fn):
            if target is fn or isinstance(target, ast.Lambda):
                continue
            inner = self.reach(target)
            tparams = params_of(target)
            tme = self._self_param(target)
            for sid, text in list(inner.ids.items()):
                root = re.split(r"[.\[]", text, maxsplit=1)[0]
                if sid in r.ids or root == tme or root not in tparams or root == text:
                    # (a helper's parameter that is the id by its own name, `namespace`,
                    # says nothing of the argument the caller hands it under another name)
                    continue
                arg = graph.arg_for(call, target, tparams.index(root))
                base = _item_root(arg) if arg is not None else None
                if base is not None and base.id in params and base.id != me:
                    # handed `kwargs` or a part of it (`kwargs.get("metadata", {})`)
                    r.ids[sid] = self.facts.segment(arg) + text[len(root):]
                    if base is arg and root in inner.roots:
                        r.roots.add(base.id)
                    elif root in inner.roots | inner.item_roots:
                        r.item_roots.add(base.id)

    def set_at_construction(self, fn: ast.AST, attr: str) -> bool:
        """Is instance attribute `attr`, read in method `fn`, fixed for the instance's life:
        no method of `fn`'s class other than the constructors (`__init__`, `__post_init__`,
        `__new__`) assigns it (`self.attr = ...`, also as a part of a tuple target or an
        augmented assignment), nor deletes it? Such a value comes from the constructor
        (a parameter, a dataclass field, or a base class's field set by
        `super().__init__(namespace=namespace)`, possibly in another file) and is one
        value for every entry the instance's own containers ever hold: the instance IS
        the scope. A value a method switches (`self.namespace = req.namespace` per call)
        is not. A property or method of that name is no stored value."""
        cls = self.facts.enclosing_class(fn)
        if cls is None or self.facts.parents.get(fn) is not cls:
            return False
        return attr not in self._reassigned_attrs(cls)

    def _reassigned_attrs(self, cls: ast.ClassDef) -> frozenset[str]:
        """Instance attributes (and names of methods/properties) of `cls` that are not set
        once at construction (see `set_at_construction`)."""
        def build():
            out: set[str] = set()
            # the class and its same-file bases (`class Store(Base)`: `Base.bind()` may
            # switch the value too); a base of another file is not seen
            chain, todo = [], [cls]
            while todo and len(chain) < 8:
                c = todo.pop()
                if c in chain:
                    continue
                chain.append(c)
                for b in c.bases:
                    base = self.classes.get((self.facts.dotted(b) or "").split(".")[-1])
                    if base is not None:
                        todo.append(base)
            for m in (m for c in chain for m in c.body):
                if not isinstance(m, FunctionNode):
                    continue
                out.add(m.name)  # a property/method: computed, not a stored value
                me = self._self_param(m)
                if not me or m.name in ("__init__", "__post_init__", "__new__"):
                    continue
                for n in self.facts.walk(m):
                    targets: list = []
                    if isinstance(n, ast.Assign):
                        targets = list(n.targets)
                    elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
                        targets = [n.target]
                    elif isinstance(n, ast.Delete):
                        targets = list(n.targets)
                    elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" \
                            and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == me:
                        out.add("*")  # `setattr(self, name, v)`: any attribute may be switched
                    while targets:
                        t = targets.pop()
                        if isinstance(t, (ast.Tuple, ast.List)):
                            targets.extend(t.elts)
                        elif isinstance(t, ast.Starred):
                            targets.append(t.value)
                        elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                            out.add(t.attr)
            if "*" in out:
                out.update(self.ids)
            return frozenset(out)
        return self.facts.memo(f"ck_reassigned_{id(cls)}", build)

    def switched_scope_attrs(self, cls: ast.ClassDef) -> dict[str, tuple[str, ast.AST]]:
        """Attributes of `cls` that hold a scope and are switched by a setter: a method
        other than `__init__` assigns `self.A = p` from its parameter `p`, and the value
        is a scope (the parameter's annotated class has scope-id fields, or the
        parameter's or the attribute's name is a scope id or has a scope-kind word).
        Returns attr -> (scope id it stands for, the setter def)."""
        def build():
            out: dict[str, tuple[str, ast.AST]] = {}
            for m in cls.body:
                if not isinstance(m, FunctionNode) or m.name in ("__init__", "__post_init__", "__new__"):
                    continue
                me = self._self_param(m)
                if not me:
                    continue
                params = self.params(m)
                for n in self.facts.walk(m):
                    if not (isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Name)
                            and n.value.id in params and n.value.id != me):
                        continue
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    for t in targets:
                        if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me):
                            continue
                        sid = self._scope_of_value(params[n.value.id], t.attr)
                        if sid:
                            out.setdefault(t.attr, (sid, m))
            return out
        return self.facts.memo(f"ck_switched_{id(cls)}", build)

    def switch_setter(self, fn: ast.AST, text: str) -> ast.AST | None:
        """The setter def that switches `text` (`self.active_adapter`), when `text` is a
        setter-switched attribute of `fn`'s class (`switched_scope_attrs`); else None."""
        cls = self.facts.enclosing_class(fn)
        parts = text.split(".")
        if cls is None or len(parts) != 2:
            return None
        got = self.switched_scope_attrs(cls).get(parts[1])
        return got[1] if got else None

    def switched_object(self, fn: ast.AST, text: str) -> bool:
        """Is `text` (`self.active_adapter`) a setter-switched attribute holding an object of
        a same-file class (not an id)? Such an object may be None or unhashable, so CTX501
        offers no fix that puts it into a key."""
        setter = self.switch_setter(fn, text)
        if setter is None:
            return False
        parts = text.split(".")
        for n in self.facts.walk(setter):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Name):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(isinstance(t, ast.Attribute) and t.attr == parts[1] for t in targets):
                    p = self.params(setter).get(n.value.id)
                    return p is not None and self.annotation_class(p.annotation) is not None
        return False

    def _scope_of_value(self, param: ast.arg, attr: str) -> str | None:
        """The scope id a parameter stored on `self.<attr>` stands for, or None."""
        cls = self.annotation_class(param.annotation)
        if cls:
            fields = self.class_scope_fields(cls, depth=1)
            if fields:
                return fields[0][0]
        for name in (param.arg, attr):
            if name in self.ids:
                return name
            kind = scope_kind(name)
            if kind != name and kind not in NON_DEMANDING_KINDS:
                return name
        return None

    def is_cache_container(self, c) -> bool:
        """Is a container a cache: a cachetools cache, a name that says so (`CACHE_WORDS`,
        a hint), or one indexed by a digest (a hash()/hashlib value, also one a same-file
        helper returns): a content-addressed cache, whatever it is called. (Being looked
        up and filled by one key is not enough: connection pools and accumulators do
        that too, measured on vLLM/sglang.)"""
        if c.kind.endswith("Cache") or self.is_cache_name(c.attr):
            return True
        def build():
            for s in (*c.reads, *c.inserts):
                if s.key is not None and s.function is not None and self.digest_derived(s.function, s.key):
                    return True
            return self.memo_filled(c)
        return self.facts.memo(f"ck_cache_use_{id(c)}", build)

    def memo_filled(self, c) -> bool:
        """Is container `c` filled the memo way: on a miss for a key (`if key not in c:`, or
        `hit = c.get(key)` then `if hit is None:` / `if not hit:`), a function stores, under
        that same key built in that function, a value it computes by a function or method
        call (`c[key] = compute(...)`)? That is a cache whatever it is called. An empty
        collection created on a miss (`c[key] = []`, `set()`) starts an accumulator, and an
        object constructed per key (`Session(addr)`) a registry or pool: neither is
        counted, nor a key the function was handed (its caller built it)."""
        for s in c.inserts:
            if s.key is None or s.function is None:
                continue
            vals = [s.value]
            if isinstance(s.value, ast.Name):  # `hit = compute(key); c[key] = hit`
                vals = [d.value for d in self.defs(s.function).get(s.value.id, ()) if d.kind == "assign"]
            if not any(self._computed(v) and not any(r.node is v for r in c.reads) for v in vals):
                continue
            k, _exact = self.resolve(s.function, s.key)
            if isinstance(k, ast.Name) and k.id in self.params(s.function):
                continue  # a key handed in: whether it is scoped was decided by the caller
            want = ast.dump(s.key)
            for test, in_else in self._enclosing_tests(s.function, s.node):
                if self._miss_test(c, s.function, test, want, in_else):
                    return True
        return False

    @staticmethod
    def _computed(value) -> bool:
        """Is `value` a call that computes a result: a function or method call, not a
        constructor (a capitalised callable, the PEP 8 class convention: `Session(...)`,
        `[]`-like `list()`)? An object built per key on a miss is a registry or pool entry
        (a connection or session per peer), not a cached result."""
        if not isinstance(value, ast.Call):
            return False
        f = value.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return bool(name) and not name[:1].isupper() and name not in _EMPTY_CTORS

    def _path_up(self, fn: ast.AST, node: ast.AST):
        """(ancestor, child) pairs from `node` up to `fn` (included), innermost first:
        `child` is the node on the path that `ancestor` directly holds. The one walk behind
        the flow-shaped questions below (`known_none`, `pinned_exprs`, `memo_filled`)."""
        parents = self.facts.parents
        child, cur = node, parents.get(node)
        while cur is not None:
            yield cur, child
            if cur is fn:
                return
            child, cur = cur, parents.get(cur)

    @staticmethod
    def _preceding(cur: ast.AST, child: ast.AST) -> list:
        """The statements of `cur`'s block (`body`, `orelse`, `finalbody`) holding `child`
        that run before it; empty when `child` is not a statement of such a block."""
        for field in ("body", "orelse", "finalbody"):
            block = getattr(cur, field, None)
            if isinstance(block, list) and child in block:
                return block[:block.index(child)]
        return []

    def _enclosing_tests(self, fn: ast.AST, node: ast.AST):
        """(if-test, in_else) of every `if` between `node` and `fn` that `node` sits under."""
        for cur, child in self._path_up(fn, node):
            if isinstance(cur, ast.If) and (child in cur.body or child in cur.orelse):
                yield cur.test, child in cur.orelse

    def _miss_test(self, c, fn, test, key_dump: str, in_else: bool) -> bool:
        """Is `test` (taken in its body, or its else when `in_else`) the miss of `key_dump`
        in `c`: `key not in c` (`key in c` for the else), or `hit is None` / `not hit` where
        `hit = c.get(key)` in `fn`?"""
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            op = test.ops[0]
            if isinstance(op, ast.NotIn if not in_else else ast.In) and ast.dump(test.left) == key_dump:
                return any(r.kind == "in" and r.node is test for r in c.reads)
            if isinstance(op, ast.Is if not in_else else ast.IsNot) and isinstance(test.left, ast.Name) \
                    and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
                return self._got_from(c, fn, test.left.id, key_dump)
        if not in_else and isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) \
                and isinstance(test.operand, ast.Name):
            return self._got_from(c, fn, test.operand.id, key_dump)
        return False

    def _got_from(self, c, fn, name: str, key_dump: str) -> bool:
        """Is local `name` bound in `fn` to `c.get(key)` (key spelled `key_dump`)?"""
        for d in self.defs(fn).get(name, ()):
            if d.kind == "assign" and any(r.kind == "get" and r.node is d.value and r.key is not None
                                          and ast.dump(r.key) == key_dump for r in c.reads):
                return True
        return False

    def digest_derived(self, fn: ast.AST, key: ast.AST, depth: int = 2) -> bool:
        """Is `key` (followed through `fn`'s locals) a digest, or the result of a same-file
        function whose returned value is built from one? Memoised per (def, key, depth):
        a module with many same-named helpers (whylogs' constraint factories) would
        otherwise re-walk each helper's closure once per call site."""
        return self.facts.memo(f"cache_keys.digest_derived.{id(fn)}.{id(key)}.{depth}",
                               lambda: self._digest_derived(fn, key, depth))

    def _digest_derived(self, fn: ast.AST, key: ast.AST, depth: int) -> bool:
        for n in self.closure(fn, [key]):
            if self.digest_call(n):
                return True
            if depth and isinstance(n, ast.Call):
                f = n.func
                name = f.id if isinstance(f, ast.Name) else f.attr if (
                    isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls")) else None
                for d in self._defs_named(name):
                    rets = [r.value for r in self._returns(d)]
                    if rets and any(self.digest_derived(d, r, depth - 1) for r in rets):
                        return True
        return False

    def _returns(self, fn: ast.AST) -> list[ast.Return]:
        """`fn`'s own `return <value>` statements (nested defs' excluded), in source order."""
        return [r for r in function_index(self.facts, fn).returns if r.value is not None]

    def _defs_named(self, name: str | None) -> list[ast.AST]:
        if not name:
            return []
        index = self.facts.memo("ck_defs_by_name", lambda: _defs_by_name(self.facts))
        return index.get(name, [])

    def scope_id_of_name(self, name: str) -> str | None:
        """A scope id a free-form name stands for (`current_tenant` -> "tenant", `_request_id_var`
        -> "request_id"): the longest scope id whose words all occur in the name."""
        words = ident_words(name)
        best = None
        for sid in self.ids:
            sw = ident_words(sid)
            if sw and all(w in words for w in sw) and (best is None or len(sw) > len(ident_words(best))):
                best = sid
        return best

    @staticmethod
    def _self_param(fn: ast.AST) -> str | None:
        for d in fn.decorator_list:
            if (PythonFacts.dotted(d) or "").split(".")[-1] == "staticmethod":
                return None
        args = fn.args.posonlyargs + fn.args.args
        if args and args[0].arg in ("self", "cls"):
            return args[0].arg
        return None

    def hits(self, fn: ast.AST, nodes: Iterable[ast.AST]) -> list[tuple[str, ast.AST]]:
        """Scope ids the given closure nodes reach: (scope id or "<root>", node).

        A node reaches a scope id when it is a Name or attribute path naming one
        (`tenant_id`, `req.lora_request.lora_int_id`), a scope ContextVar read, or a
        whole use of a scope-carrying name (`helper(req)`, a key that is the
        `request`/`session`/`adapter` object itself)."""
        r = self.reach(fn)
        facts = self.facts
        out = []
        for n in nodes:
            whole = not (isinstance(facts.parents.get(n), ast.Attribute) and facts.parents[n].value is n)
            if isinstance(n, ast.Name):
                if n.id in self.ids:
                    out.append((n.id, n))
                elif whole and (n.id in r.roots or any(w in SCOPE_KIND_WORDS for w in ident_words(n.id))):
                    out.append(("<root>", n))
                elif n.id in r.item_roots and handed_whole(facts, n):
                    out.append(("<root>", n))
            elif isinstance(n, ast.Attribute):
                if n.attr in self.ids:
                    out.append((n.attr, n))
                elif whole and isinstance(n.value, ast.Name) and n.value.id == "self" \
                        and (cls := facts.enclosing_class(fn)) is not None \
                        and n.attr in self.switched_scope_attrs(cls):
                    out.append((self.switched_scope_attrs(cls)[n.attr][0], n))
                elif whole and any(w in SCOPE_KIND_WORDS for w in ident_words(n.attr)):
                    out.append(("<root>", n))
                elif n.attr == "get" and facts.is_contextvar(n.value):
                    sid = self.scope_id_of_name((facts.dotted(n.value) or "").split(".")[-1])
                    if sid:
                        out.append((sid, n))
            elif isinstance(n, (ast.Subscript, ast.Call)):
                sid = _item_scope_id(n, self.ids)  # `meta["tenant_id"]`, `meta.get("tenant_id")`
                if sid is not None:
                    out.append((sid, n))
        return out

    # ------------------------------------------------------------ sinks
    def is_cache_name(self, name: str) -> bool:
        """Does an identifier say it is a cache (`_prefix_blocks`, `kvCache`, `memo`)? See CACHE_WORDS."""
        return any(w in CACHE_WORDS for w in ident_words(name))

    def digest_call(self, call: ast.AST) -> bool:
        """Is `call` hash(x), a hashlib/xxhash digest constructor, or a named hash function?"""
        if not isinstance(call, ast.Call):
            return False
        f = call.func
        if isinstance(f, ast.Name) and f.id == "hash":
            return self.builtin_hash(call)
        q = self.facts.qualname(f) or ""
        if q.startswith(_DIGEST_MODULES):
            return True
        last = q.split(".")[-1]
        return last in _HASH_FN_NAMES

    def builtin_hash(self, call: ast.AST) -> bool:
        """Is `call` the builtin `hash(...)` (no def or binding of `hash` in this module)?"""
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "hash" \
            and "hash" not in self.facts.module_names

    def sinks(self) -> list[KeySink]:
        """Every key use in the file, in source order (computed once)."""
        if self._sinks is not None:
            return self._sinks
        facts = self.facts
        out: list[KeySink] = []
        # 1. cache containers: module, class and self. containers whose name says cache
        for c in facts.containers:
            if c.kind in ("list", "deque") or not self.is_cache_container(c):
                continue
            by_fn: dict[int, list] = {}
            # removals (`pop`, `del`, `discard`) are cleanup: the key was built where the
            # entry was looked up or stored, and dropping an entry serves nobody's data
            for s in (*c.reads, *c.inserts):
                if s.key is None or s.function is None or isinstance(s.key, ast.Slice):
                    continue
                if s.kind == "in" and self._guards_removal(s.node):
                    continue  # `if key in cache: del cache[key]` is part of the removal
                if isinstance(s.key, ast.Constant):
                    continue
                by_fn.setdefault(id(s.function), []).append(s)
            for sites in by_fn.values():
                sites.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
                fn = sites[0].function
                if fn.name in _NOT_KEY_FUNCS:
                    continue
                values = [s.value for s in c.inserts if s.function is fn and s.value is not None]
                # group by the key's spelling: one sink per distinct key in the function
                groups: dict[str, list] = {}
                for s in sites:
                    groups.setdefault(ast.dump(s.key), []).append(s)
                for ss in groups.values():
                    out.append(KeySink("container", ss[0].node, [ss[0].key], fn, c, values))
        # 2. `SomethingKey(...)` constructors of key classes of this module (an imported
        #    `sqlalchemy.ForeignKey` or a crypto library's `PublicKey` is no cache key)
        for call in facts.nodes(ast.Call):
            dotted = facts.dotted(call.func) or ""
            name = dotted.split(".")[-1]
            if dotted.split(".")[0] in facts.imports:
                continue
            if len(name) > 3 and name.endswith("Key") and name[0].isupper() and (call.args or call.keywords):
                fn = facts.enclosing_function(call)
                if fn is None or fn.name in _NOT_KEY_FUNCS:
                    continue
                out.append(KeySink("keyclass", call, [*call.args, *(k.value for k in call.keywords)], fn))
        # 3. key builders: functions whose name says they build a cache key
        #    (`cache_key`, `block_key`, `chain_hashes`), then — to a fixpoint — any
        #    same-file function whose result another key is built from.
        funcs: dict[str, list] = {}
        for fn in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            if fn.name not in _NOT_KEY_FUNCS:
                funcs.setdefault(fn.name, []).append(fn)
        done: set[int] = set()
        for fns in funcs.values():
            for fn in fns:
                words = set(ident_words(fn.name))
                if words & KEY_FN_WORDS and words & KEY_BUILDER_WORDS and self._returns_key_shape(fn) \
                        and not is_route_handler(facts, fn):
                    # (a web endpoint named like one, `block_key`, returns the response, not a key)
                    out.extend(self._builder_sinks(fn, True))
                    done.add(id(fn))
                elif words & DIGEST_FN_WORDS or self.returns_builtin_hash(fn) or self.digest_used_as_key(fn):
                    out.extend(s for s in self._builder_sinks(fn, False) if s.kind == "hash")
        frontier = list(out)
        for _ in range(4):
            called: dict[str, list[KeySink]] = {}
            for s in frontier:
                for n in self.closure(s.function, s.keys):
                    if isinstance(n, ast.Call):
                        f = n.func
                        if isinstance(f, ast.Name) or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                                                       and f.value.id in ("self", "cls")):
                            called.setdefault(f.id if isinstance(f, ast.Name) else f.attr, []).append(s)
            frontier = []
            for name, users in called.items():
                for fn in funcs.get(name, ()):
                    if id(fn) in done:
                        continue
                    done.add(id(fn))
                    for part in self._builder_sinks(fn, True):
                        if not any(o.node is part.node for o in out):
                            part.part_of = list(users)
                            frontier.append(part)
            out.extend(frontier)
            if not frontier:
                break
        out.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
        self._sinks = out
        return out

    def _collects_hashes(self, fn: ast.AST, value: ast.AST) -> bool:
        """Is the returned `value` a collection of builtin `hash()` results: a list
        comprehension whose element is one (`[hash(c) for c in chunks]`), or a local list
        (`out = []`) that `fn` appends such values to (`parent = hash((parent, chunk));
        out.append(parent)`, vLLM's chained block hashes), the appended name bound to a
        `hash()` call by some assignment of `fn`?"""
        if isinstance(value, (ast.ListComp, ast.GeneratorExp)):
            return self.builtin_hash(value.elt)
        if not isinstance(value, ast.Name):
            return False
        hashed = {n.id for st in self.facts.walk(fn) if isinstance(st, ast.Assign) and self.builtin_hash(st.value)
                  for n in st.targets if isinstance(n, ast.Name)}
        for c in self.facts.walk(fn):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "append" \
                    and isinstance(c.func.value, ast.Name) and c.func.value.id == value.id and len(c.args) == 1:
                a = c.args[0]
                if self.builtin_hash(a) or (isinstance(a, ast.Name) and a.id in hashed):
                    return True
        return False

    def _returns_key_shape(self, fn: ast.AST) -> bool:
        """Does some `return` of `fn` give a value that can be a key: a tuple, a string
        (a literal, an f-string, a `%`/`+` of them, `str.join`), a digest, or a name or call
        (followed by the builder's own analysis)? A function that only returns what a query
        found (`return None, False` / `return convert(row), bool(pinned)`, skyvern's
        `get_workflow_script_by_cache_key_value`) is named after its argument, the key it
        looks up with, and builds none: the name alone does not make it a builder."""
        rets = [r.value for r in self.facts.walk(fn) if isinstance(r, ast.Return) and r.value is not None]
        def keyish(v: ast.AST) -> bool:
            v = self.resolve(fn, v)[0]
            if isinstance(v, ast.Tuple):
                return bool(v.elts) and not all(isinstance(e, ast.Constant) and e.value in (None, False, True)
                                                for e in v.elts) and not any(
                    isinstance(e, ast.Call) and (self.facts.qualname(e.func) or "") in ("bool",) for e in v.elts)
            return not (isinstance(v, ast.Constant) and (v.value is None or isinstance(v.value, bool)))
        return any(keyish(v) for v in rets)

    def digest_used_as_key(self, fn: ast.AST) -> bool:
        """Does `fn` return a digest (`hashlib.blake2b(...).hexdigest()`, `hash(...)`, a
        named hash function's result) that a caller in this module uses as a container key:
        the call's value, directly or through the local it is bound to, indexes a container
        (`self._blocks[parent]`), is tested for membership (`parent not in self._blocks`) or
        is the key argument of `get`/`setdefault`/`pop`/`add`/`discard`? What the value is
        (a digest) and where it goes (a key) make `fn` a key builder, whatever it is called
        (vLLM's chained prefix-block keys)."""
        def digest_value(e: ast.AST) -> bool:
            e = self.resolve(fn, e)[0]
            while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) \
                    and e.func.attr in ("hexdigest", "digest", "intdigest") and not e.args:
                e = e.func.value
            return self.digest_call(e)
        def digesting() -> set[int]:
            # one pass over the file's calls: only a def that itself calls a digest can
            # return one (`resolve` follows the def's own locals); a file whose text names
            # no hash function has none
            if not _DIGEST_TEXT.search(self.facts.text):
                return set()
            return {id(f) for c in self.facts.nodes(ast.Call) if self.digest_call(c)
                    for f in [self.facts.enclosing_function(c)] if f is not None}
        if id(fn) not in self.facts.memo("ck_digesting_defs", digesting):
            return False
        rets = [r for r in self.facts.walk(fn) if isinstance(r, ast.Return) and r.value is not None]
        if not rets or not all(digest_value(r.value) for r in rets):
            return False
        name = getattr(fn, "name", "")
        for call in self.facts.nodes(ast.Call):
            f = call.func
            if not ((isinstance(f, ast.Name) and f.id == name) or (
                    isinstance(f, ast.Attribute) and f.attr == name and isinstance(f.value, ast.Name)
                    and f.value.id in ("self", "cls"))):
                continue
            caller = self.facts.enclosing_function(call)
            if caller is None or caller is fn:
                continue
            uses = [call]
            st = self.facts.parents.get(call)
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                var = st.targets[0].id
                uses = [n for n in self.facts.walk(caller) if isinstance(n, ast.Name) and n.id == var
                        and isinstance(n.ctx, ast.Load)]
            for u in uses:
                p = self.facts.parents.get(u)
                if isinstance(p, ast.Subscript) and p.slice is u:
                    return True
                if isinstance(p, ast.Compare) and p.left is u and any(isinstance(o, (ast.In, ast.NotIn)) for o in p.ops):
                    return True
                if isinstance(p, ast.Call) and p.args and p.args[0] is u and isinstance(p.func, ast.Attribute) \
                        and p.func.attr in ("get", "setdefault", "pop", "add", "discard"):
                    return True
        return False

    def returns_builtin_hash(self, fn: ast.AST) -> bool:
        """Does `fn` return the value of the builtin `hash()` itself (`return hash((parent,
        tuple(token_ids), extras))`, also through a plain local)? `hash()` is salted per
        process for str and bytes, so its value is no checksum or stored digest: it exists to
        key a dict or set, and a function returning it builds a key whatever it is called."""
        def build() -> set[int]:
            # one pass over the file's returns, not one walk per function
            out: set[int] = set()
            if "hash" in self.facts.module_names:
                return out
            # only a def that itself calls `hash(...)` can return its value (`resolve`
            # follows the def's own locals): resolve no other def's returns
            hashing = {id(f) for c in self.facts.nodes(ast.Call) if self.builtin_hash(c)
                       for f in [self.facts.enclosing_function(c)] if f is not None}
            if not hashing:
                return out
            for r in self.facts.nodes(ast.Return):
                f = self.facts.enclosing_function(r) if r.value is not None else None
                if f is not None and id(f) in hashing and id(f) not in out \
                        and (self.builtin_hash(self.resolve(f, r.value)[0]) or self._collects_hashes(f, r.value)):
                    out.add(id(f))
            return out
        return id(fn) in self.facts.memo("ck_returns_hash", build)

    def _guards_removal(self, compare: ast.AST) -> bool:
        """Is membership test `compare` the whole test of an `if` (no `else`) whose body
        only removes entries (`del c[k]`, `c.pop(k)`, `c.discard(k)`, `c.remove(k)`)?"""
        p = self.facts.parents.get(compare)
        if not (isinstance(p, ast.If) and p.test is compare and not p.orelse and p.body):
            return False
        for st in p.body:
            if isinstance(st, ast.Delete):
                continue
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                    and st.value.func.attr in ("pop", "discard", "remove"):
                continue
            return False
        return True

    def _builder_sinks(self, fn: ast.AST, returns: bool) -> list[KeySink]:
        """Sinks of a key-building function: the first digest its returns are built from
        ("hash"), else (when `returns`) each non-empty returned value ("return")."""
        rets = [n for n in self._returns(fn)
                if not isinstance(n.value, ast.Constant)
                and not (isinstance(n.value, (ast.Tuple, ast.List)) and not n.value.elts)
                and not self.fresh_built(fn, n.value)
                and not self.lists_stored_keys(fn, n.value)]
        if not rets:
            return []
        clo = self.closure(fn, [r.value for r in rets])
        digests = [n for n in clo if self.digest_call(n)]
        if digests:
            dg = min(digests, key=lambda n: (n.lineno, n.col_offset))
            keys = list(dg.args) + [k.value for k in dg.keywords]
            tgt = self._assigned_name(dg)
            if tgt is not None:
                keys.extend(df.value for df in self.defs(fn).get(tgt, ()) if df.kind == "mutate")
            return [KeySink("hash", dg, keys, fn)]
        if not returns:
            return []
        return [KeySink("return", rt.value, [rt.value], fn) for rt in rets
                if not isinstance(rt.value, (ast.Dict, ast.ListComp, ast.DictComp, ast.Compare, ast.BoolOp))]

    #: Builtins that copy an iterable's elements (Python docs, "Built-in Functions").
    _COPIES = ("list", "tuple", "sorted", "set", "frozenset")

    def lists_stored_keys(self, fn: ast.AST, expr: ast.AST) -> bool:
        """Is returned value `expr` a listing of keys read out of an existing store, not a
        key built here: the key view of a mapping (`list(kv._data.keys())`, `sorted(
        d.keys())`), or a local list/set that starts empty and is only filled with elements
        of a walk over a store read (`for key in batch: keys.append(key[len(prefix):])`
        where `batch` comes from `await redis.scan(...)`, `async for doc in cursor:
        keys.append(doc["_id"])`, `for k in d.keys()`)? An element is the walked item or a
        part of it (a subscript, slice, attribute or method result of it, a conditional
        choice between such). A function returning such a listing (`enumerate_kv_keys`)
        names keys whose scope was decided where they were stored; it builds none. A walk
        over a parameter's own elements (`for p in parts: out.append(p)`) copies the
        caller's parts and is still a key."""
        e, _exact = self.resolve(fn, expr)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in self._COPIES \
                and e.func.id not in self.facts.module_names and len(e.args) == 1 and not e.keywords:
            e, _exact = self.resolve(fn, e.args[0])
        if self._key_view(e):
            return True
        if not (isinstance(e, ast.Name) and e.id not in self.params(fn)):
            return False
        ds = self.defs(fn).get(e.id, [])
        filled = False
        for d in ds:
            if d.kind == "assign" and (isinstance(d.value, (ast.List, ast.Set)) and not d.value.elts
                                       or isinstance(d.value, ast.Call) and isinstance(d.value.func, ast.Name)
                                       and d.value.func.id in ("list", "set") and not d.value.args):
                continue
            if d.kind == "mutate" and isinstance(d.stmt, ast.Call) and isinstance(d.stmt.func, ast.Attribute) \
                    and d.stmt.func.attr in ("append", "add") and self._walked_element(fn, d.value):
                filled = True
                continue
            if d.kind == "mutate" and isinstance(d.stmt, ast.Call) and isinstance(d.stmt.func, ast.Attribute) \
                    and d.stmt.func.attr in ("extend", "update") and isinstance(d.value, (ast.GeneratorExp, ast.ListComp)) \
                    and not any(g.ifs for g in d.value.generators) and self._walked_element(fn, d.value.elt):
                filled = True  # `keys.extend(hit["_id"] for hit in hits)`
                continue
            return False
        return filled

    @staticmethod
    def _key_view(e: ast.AST) -> bool:
        """Is `e` the key view of a mapping, `<x>.keys()` with no argument (Python docs,
        "Mapping Types": the keys it holds)?"""
        return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "keys" \
            and not e.args and not e.keywords

    def _walked_element(self, fn: ast.AST, v: ast.AST, depth: int = 4, seen: frozenset = frozenset()) -> bool:
        """Is `v` an item of a walk over a store read, or a part of one (see
        `lists_stored_keys`)? `seen`: names already being followed (`key =
        key.decode()` refers to the walked `key` itself)."""
        if depth < 0:
            return False
        if isinstance(v, ast.IfExp):
            return self._walked_element(fn, v.body, depth - 1, seen) \
                and self._walked_element(fn, v.orelse, depth - 1, seen)
        while isinstance(v, (ast.Subscript, ast.Attribute)) or isinstance(v, ast.Call) \
                and isinstance(v.func, ast.Attribute):
            v = v.func.value if isinstance(v, ast.Call) else v.value
        if not isinstance(v, ast.Name) or v.id in self.params(fn):
            return False
        if v.id in seen:
            return True  # the walked name itself, refined (`key = key.decode()`)
        seen = seen | {v.id}
        ds = self.defs(fn).get(v.id, [])
        if not ds:
            return False
        walked = False
        for d in ds:
            if d.kind == "iter" and isinstance(d.stmt, (ast.For, ast.AsyncFor, ast.comprehension)):
                if not self._store_read(fn, d.stmt, d.value, depth - 1):
                    return False
                walked = True
            elif d.kind == "assign" and self._walked_element(fn, d.value, depth - 1, seen):
                continue  # `key = key.decode("utf-8")`
            else:
                return False
        return walked

    def _store_read(self, fn: ast.AST, loop: ast.AST, src: ast.AST, depth: int = 2) -> bool:
        """Is the iterable `src` of `loop` read out of a store: an `async for` over a cursor,
        a key view (`d.keys()`), a local bound to an awaited read (`cursor, batch =
        await redis.scan(...)`), or a batch that is an item of such a walk? A plain
        parameter or display is the caller's data."""
        if isinstance(loop, ast.AsyncFor) or isinstance(loop, ast.comprehension) and loop.is_async:
            return True
        if self._key_view(src):
            return True
        if isinstance(src, ast.Name) and src.id not in self.params(fn):
            ds = self.defs(fn).get(src.id, [])
            if ds and all(d.kind in ("assign", "unpack") and isinstance(d.value, ast.Await) for d in ds):
                return True
        # a batch that is itself an item of such a walk (`async for hits in ...: for hit in hits`)
        return self._walked_element(fn, src, depth=depth - 1)

    def fresh_built(self, fn: ast.AST, expr: ast.AST) -> bool:
        """Is `expr` (followed through `fn`'s locals) built from a per-call random value
        (`FRESH_VALUE_QUALNAMES`: `bcrypt.gensalt()`, `os.urandom(16)`, `uuid4()`)? Such a
        value differs on every call, so it is never a lookup key."""
        for n in self.closure(fn, [expr]):
            if isinstance(n, ast.Call):
                q = self.facts.qualname(n.func) or ""
                if q.startswith(FRESH_VALUE_QUALNAMES):
                    return True
        return False

    def per_call_key(self, fn: ast.AST, key: ast.AST) -> bool:
        """Is `key` an identity minted in this call, so no other call (no other tenant) can
        produce it: built from a fresh random value (`fresh_built`: `uuid4()`,
        `secrets.token_hex()`), or the own id of an object this function creates
        (`job.<field>` where `job = Job(...)` is built here and `<field>` is filled by
        the class itself from a fresh value: a dataclass `field(default_factory=uuid4)`
        or `self.<field> = uuid4()` in `__init__`, not passed by the call). An entry
        under such a key is per call by construction. (`id(obj)` is not: CPython reuses
        the address of a freed object, so a stale entry can be hit by a later call.)"""
        if self.fresh_built(fn, key):
            return True
        k, _ = self.resolve(fn, key)
        if isinstance(k, ast.Attribute) and isinstance(k.value, ast.Name):
            ctor = self._fresh_object(fn, k.value.id)
            if ctor is not None and isinstance(ctor.func, ast.Name) and ctor.func.id in self.classes \
                    and k.attr not in {kw.arg for kw in ctor.keywords}:
                return k.attr in self.fresh_fields(ctor.func.id)
        return False

    def _fresh_object(self, fn: ast.AST, name: str) -> ast.Call | None:
        """The constructor call `name` is bound to when its only definition in `fn` is a
        call of a class (a same-file class, or an imported callable whose name is
        capitalised, the PEP 8 class convention): a new object of this call."""
        ds = self.defs(fn).get(name, [])
        if name in self.params(fn) or len(ds) != 1 or ds[0].kind != "assign" or not isinstance(ds[0].value, ast.Call):
            return None
        call = ds[0].value
        last = (self.facts.dotted(call.func) or "").split(".")[-1]
        return call if last in self.classes or last[:1].isupper() else None

    def fresh_fields(self, cls_name: str) -> frozenset[str]:
        """Fields a same-file class fills from a fresh random value itself (see
        `FRESH_VALUE_QUALNAMES`): `id: str = field(default_factory=lambda: uuid4().hex)`,
        or `self.id = str(uuid.uuid4())` in `__init__`."""
        cls = self.classes.get(cls_name)
        if cls is None:
            return frozenset()

        def fresh(expr) -> bool:
            for n in ast.walk(expr):
                if isinstance(n, (ast.Name, ast.Attribute)):
                    if (self.facts.qualname(n) or "").startswith(FRESH_VALUE_QUALNAMES):
                        return True
            return False

        out = set()
        for st in cls.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None \
                    and fresh(st.value):
                out.add(st.target.id)
            elif isinstance(st, FunctionNode) and st.name == "__init__":
                for n in self.facts.walk(st):
                    if isinstance(n, ast.Assign) and fresh(n.value):
                        out.update(t.attr for t in n.targets if isinstance(t, ast.Attribute)
                                   and isinstance(t.value, ast.Name) and t.value.id == "self")
        return frozenset(out)

    def pooled_value(self, fn: ast.AST, expr: ast.AST) -> bool:
        """Is `expr` (followed through `fn`'s plain local assignments) a resource taken out of
        a pool in this call: an arbitrary element removed from a collection
        (`free_ids.pop()`, `self._free.popleft()` with no argument, `heapq.heappop(free)`)?
        The handle itself says nothing about a scope, but its content is written after this
        call by the request that took it (a KV block filled with that request's adapter's
        activations), so a cache entry mapping a key to it holds that request's data. A
        keyed `d.pop(k)` moves an existing value and is not a pool."""
        e, _exact = self.resolve(fn, expr)
        if isinstance(e, ast.Name):  # several definitions (`slot = c.get(k)`, then on a miss a pop)
            return any(d.kind == "assign" and self._pool_take(d.value) for d in self.defs(fn).get(e.id, ()))
        return self._pool_take(e)

    def _pool_take(self, e: ast.AST) -> bool:
        if not isinstance(e, ast.Call) or e.keywords:
            return False
        f = e.func
        if isinstance(f, ast.Attribute) and f.attr in ("pop", "popleft") and not e.args:
            return True
        return (self.facts.qualname(f) or "") == "heapq.heappop" and len(e.args) == 1

    def owned_scope_kinds(self, fn: ast.AST, key: ast.AST) -> set[str]:
        """Scope kinds that `key` itself determines in `fn`: the function maps the same key
        to a scope (a long-lived container stores, under it, the bare scope id or scope
        object: `_RUN_SESSION[execution_id] = session_id`, `REG[run_id] = session`), or
        reads one through it (`thread_id = self._thread_by_trace.get(trace_id)`). A key
        the program uses to find a run's scope belongs to one scope: it is no shared
        key across that scope, and adding the scope to it would defeat the lookup."""
        want = ast.dump(key)
        out: set[str] = set()
        for c in self.facts.containers:
            for s in c.inserts:
                if s.function is fn and s.key is not None and s.value is not None and ast.dump(s.key) == want:
                    out.update(self.scope_value_kinds(fn, s.value))
            for s in c.reads:
                if s.function is fn and s.key is not None and ast.dump(s.key) == want:
                    p = self.facts.parents.get(s.node)
                    if isinstance(p, ast.Assign) and p.value is s.node:
                        for t in p.targets:
                            if isinstance(t, ast.Name) and t.id in self.ids:
                                out.add(scope_kind(t.id))
        return out

    def scope_value_kinds(self, fn: ast.AST, expr: ast.AST, depth: int = 3) -> set[str]:
        """Scope kinds of a value that IS a scope (not one computed from it): a scope id
        (`session_id`, `ctx.session_id`, `getattr(ctx, "session_id", None)`), a bare
        scope object (`session`, `upstream_session`: a name whose last word is a scope-kind
        word, SCOPE_KIND_WORDS), or an `or` /
        conditional choice among such; locals are followed through plain assignments."""
        if depth < 0 or expr is None:
            return set()
        if isinstance(expr, ast.Name) and expr.id not in self.ids:
            ds = self.defs(fn).get(expr.id, [])
            if len(ds) == 1 and ds[0].kind == "assign" and expr.id not in self.params(fn):
                return self.scope_value_kinds(fn, ds[0].value, depth - 1)
        if isinstance(expr, ast.BoolOp):
            return set().union(*(self.scope_value_kinds(fn, v, depth - 1) for v in expr.values))
        if isinstance(expr, ast.IfExp):
            return self.scope_value_kinds(fn, expr.body, depth - 1) | self.scope_value_kinds(fn, expr.orelse, depth - 1)
        name = None
        if isinstance(expr, ast.Name):
            name = expr.id
        elif isinstance(expr, ast.Attribute):
            name = expr.attr
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "getattr" \
                and len(expr.args) >= 2 and isinstance(expr.args[1], ast.Constant) and isinstance(expr.args[1].value, str):
            name = expr.args[1].value
        if name is None:
            return set()
        if name in self.ids:
            return {scope_kind(name)}
        words = ident_words(name)
        # the object itself: the name's head noun (its last word) is the scope
        # (`session`, `upstream_session`), not a modifier of something else (`user_prompt`)
        return {SCOPE_KIND_WORDS[words[-1]]} if words and words[-1] in SCOPE_KIND_WORDS else set()

    def returns_using(self, fn: ast.AST, node: ast.AST) -> list[ast.AST]:
        """Returned values of `fn` (its own returns, not nested defs') whose closure contains
        `node` (the digest a key builder's result is built from)."""
        return [r.value for r in self._returns(fn) if any(n is node for n in self.closure(fn, [r.value]))]

    def known_none(self, fn: ast.AST, node: ast.AST, name: str) -> bool:
        """Is the scope value `name` (a local, `tenant_id`, or a dotted path,
        `key.cache_salt`) known to be None (or falsy) wherever `node` runs? True when
        `node` sits in the body of a test that holds only if the value is unset (`if name
        is None:`, `if not name:`, `name == ""`, an `and` with such a part, an `or` of
        them) or in the else of one that holds whenever it is set (`if name:`, `if name
        is not None:`), also as a conditional expression (`base if not salt else ...`), or
        follows, in the same block, such an `if` whose other branch always leaves (`if
        key.cache_salt: return f"{base}@{key.cache_salt}"` then `return base`). That path
        is the unscoped, shared bucket: a key there has no scope id to carry."""
        facts = self.facts
        for cur, child in self._path_up(fn, node):
            if isinstance(cur, (ast.If, ast.IfExp)):
                body = cur.body if isinstance(cur, ast.If) else [cur.body]
                orelse = cur.orelse if isinstance(cur, ast.If) else [cur.orelse]
                if child in body and _unset_if_true(facts, cur.test, name) \
                        or child in orelse and _unset_if_false(facts, cur.test, name):
                    return True
            for prev in self._preceding(cur, child):
                if isinstance(prev, ast.If) and not prev.orelse and _exits(prev.body) \
                        and _unset_if_false(facts, prev.test, name):
                    return True
        return False

    # ------------------------------------------------------------ existing entries
    def container_spelled(self, fn: ast.AST, expr: ast.AST):
        """The container (`LongLivedContainer`) that `expr` spells in `fn`: a module
        container by its name (not rebound in `fn`), a class or instance container of
        `fn`'s class as `<receiver>.<attr>` (the method's first parameter, `receiver`) /
        `Class.<attr>`. None otherwise."""
        d = self.facts.dotted(expr)
        if not d:
            return None
        parts = d.split(".")
        cls = self.facts.enclosing_class(fn)
        for c in self.facts.containers:
            if c.scope == "module":
                # a store into it (`c[k] = v`, `c.update(...)`) is no rebinding of the name
                if d == c.name and d not in self.params(fn) \
                        and all(df.kind == "mutate" for df in self.defs(fn).get(d, ())):
                    return c
            elif len(parts) == 2 and parts[1] == c.attr and cls is not None and c.owner is cls \
                    and (parts[0] == self.receiver(fn) or parts[0] == cls.name):
                return c
        return None

    def entry_of(self, fn: ast.AST, name: str) -> list[tuple[object, str]] | None:
        """What local `name` holds when every definition of it in `fn` takes an item of a
        walk over a container (`container_spelled`): (container, part) per definition,
        part "key" (`for k in c`, `c.keys()`, `list(c)`, `sorted(c)`, the first target of
        `for k, v in c.items()`), "value" (`c.values()`, the second target of `items()`) or
        "item" (a whole `items()` pair). None when some definition is anything else (a
        parameter, an assignment, a walk over a plain list). Such a name is an entry the
        container already holds, read back, not a key being built."""
        if name in self.params(fn):
            return None
        ds = self.defs(fn).get(name, [])
        if not ds:
            return None
        out = []
        for d in ds:
            if d.kind != "iter" or not isinstance(d.stmt, (ast.For, ast.AsyncFor, ast.comprehension)):
                return None
            src, method = d.value, None
            # builtins that copy an iterable in order or reversed (Python docs, "Built-in
            # Functions"), and the dict views keys()/values()/items() ("Mapping Types")
            for _ in range(2):  # `list(c)`, `sorted(c.items())`, `tuple(c.keys())`
                if isinstance(src, ast.Call) and isinstance(src.func, ast.Name) and len(src.args) == 1 \
                        and src.func.id in ("list", "tuple", "sorted", "reversed", "set", "frozenset") \
                        and src.func.id not in self.facts.module_names:
                    src = src.args[0]
            if isinstance(src, ast.Call) and isinstance(src.func, ast.Attribute) and not src.args \
                    and src.func.attr in ("keys", "values", "items"):
                method, src = src.func.attr, src.func.value
            c = self.container_spelled(fn, src)
            if c is None:
                return None
            tgt = d.stmt.target
            if isinstance(tgt, ast.Name) and tgt.id == name:
                part = {"values": "value", "items": "item"}.get(method, "key")
            elif method == "items" and isinstance(tgt, ast.Tuple) and len(tgt.elts) == 2 \
                    and isinstance(tgt.elts[0], ast.Name) and isinstance(tgt.elts[1], ast.Name):
                part = "key" if tgt.elts[0].id == name else "value" if tgt.elts[1].id == name else None
                if part is None:
                    return None
            else:
                return None
            out.append((c, part))
        return out

    def existing_key(self, fn: ast.AST, key: ast.AST, container) -> bool:
        """Is `key` a key `container` already holds, taken by walking that same container
        (`for k in self.data: self.data[k]`, `for k, v in c.items(): c[k]`)? Indexing
        the container with it reads (or removes) an entry stored under it: the key was
        built (and scoped or not) where the entry was stored, not here. Only lookups and
        removals: an insertion under such a key stores a value built here."""
        if not isinstance(key, ast.Name):
            return False
        if any(s.key is key for s in container.inserts):
            # `for k in list(c): c[k] = render(tenant_id, k)` writes a new value (built
            # here, with this call's scope) under every key: a store, not a read back
            return False
        got = self.entry_of(fn, key.id)
        return bool(got) and all(c is container and part == "key" for c, part in got)

    def rebuilt_from_entries(self, fn: ast.AST, args: Iterable[ast.AST]) -> bool:
        """Is a record built only from entries of a container being walked (`PinnedKey(key=k,
        pin_count=n) for k, n in self._pins.items()`) or constants? Such a record lists
        keys the container already holds; it is no key built here. One argument of
        other data (`BlockKey(parent, tokens)` with `parent` walked) makes it a new key."""
        args = [a for a in args if a is not None]
        if not args:
            return False
        seen = False
        for a in args:
            if isinstance(a, ast.Constant):
                continue
            if not (isinstance(a, ast.Name) and self.entry_of(fn, a.id)):
                return False
            seen = True
        return seen

    def whole_names(self, fn: ast.AST, keys: Iterable[ast.AST]) -> set[str]:
        """Local names a key is built from whole (`PinnedKey(key=key)`, `hash((k, n))`), not
        only through a part of them (`ChunkKey(k.model, k.hash)` uses `k` only through
        its attributes), following `fn`'s locals; the method's receiver (its first
        parameter, `receiver`) excluded. A whole value
        compared with the scope (`filtered_on`) brings that scope into the key."""
        parents = self.facts.parents
        me = self.receiver(fn)
        out = set()
        for n in self.closure(fn, keys):
            if isinstance(n, ast.Name) and n.id != me:
                p = parents.get(n)
                if not (isinstance(p, (ast.Attribute, ast.Subscript)) and p.value is n):
                    out.add(n.id)
        return out

    def filtered_on(self, fn: ast.AST, node: ast.AST, text: str, names: set[str]) -> bool:
        """Does `node` run only where a part of the key (a name of `names`: `key`, `entry`)
        equals the scope value `text`, or the scope value is unset? True under a test that
        implies it: a comprehension condition (`[.. for key in c if key.cache_salt ==
        cache_salt]`, also `not cache_salt or key.cache_salt == cache_salt`), an `if`
        body, or past an `if` whose mismatch branch leaves (`if k.salt != salt:
        continue`). The key carries the scope then: it is the scope's own entry."""
        facts = self.facts
        for cur, child in self._path_up(fn, node):
            if isinstance(cur, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
                    and child not in cur.generators:
                for g in cur.generators:
                    if any(_match_if_true(facts, t, text, names) for t in g.ifs):
                        return True
            elif isinstance(cur, ast.If) and child in cur.body and _match_if_true(facts, cur.test, text, names):
                return True
            for prev in self._preceding(cur, child):
                if isinstance(prev, ast.If) and not prev.orelse and prev.body \
                        and isinstance(prev.body[-1], (ast.Return, ast.Raise, ast.Continue)) \
                        and _match_if_false(facts, prev.test, text, names):
                    return True
        return False

    def tagged_kinds(self, fn: ast.AST, value: ast.AST | None, depth: int = 2) -> set[str]:
        """Scope kinds a stored value records as a field: an element of a tuple/list/set
        display, a dict display's value, or an argument of a record constructor (a
        class of this file called by its bare, unshadowed name: `module_class`) that IS a
        scope (`scope_value_kinds`: `session_id`, `session`, `tenant_id or None`):
        `self.data[emb] = (question, answer, emb, session_id)`, `Entry(result,
        tenant=tenant_id)`. An entry tagged with its owner can be told apart at read time
        (gptcache checks the stored sessions on every hit), so its key need not carry
        that scope. Nested displays count (`(answer, {session_id})`). A value only
        computed from the scope (`render(tenant_id, q)`) is not tagged: the reader cannot
        tell whose it is."""
        if value is None or depth < 0:
            return set()
        e, _exact = self.resolve(fn, value)
        elements: list[ast.AST] = []
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)):
            elements = [x for x in e.elts if not isinstance(x, ast.Starred)]
        elif isinstance(e, ast.Dict):
            elements = [v for v in e.values if v is not None]
        elif isinstance(e, ast.Call):
            if self.module_class(fn, e.func) is not None:
                elements = [*(a for a in e.args if not isinstance(a, ast.Starred)),
                            *(k.value for k in e.keywords if k.arg)]
        out: set[str] = set()
        for x in elements:
            # a field that holds the scope (`session_id`), or a display of such
            # (`{session_id}`, the set of sessions sharing the entry)
            out |= self.scope_value_kinds(fn, x) | self.tagged_kinds(fn, x, depth - 1)
        return out

    def checked_kinds(self, container) -> set[str]:
        """Scope kinds some reader of `container` compares a read entry with: a read site
        (`c.get(k)`, `c[k]`, `c.pop(k)`, or the local it is bound to, `hit = c.get(k)`)
        of which a part (`hit.tenant_id`, `entry[3]`, `c[k][3]`) is an operand of a
        comparison whose other operand IS a scope value (`scope_value_kinds`):
        `hit.tenant_id == tenant_id`, `if entry[3] != session: ...`, `session_id in
        c[k][3]`, `session.name not in hit[3]` (a field of a scope object); or is passed together with a scope value to one call (a check function,
        `check_hit(entry, session)`). A stored scope field nobody compares protects no
        one: the reader serves the entry to any scope.

        Args:
            container: a `LongLivedContainer` (its `reads` and `removals` sites).
        """
        memo = self.__dict__.setdefault("_checked", {})
        if id(container) in memo:
            return memo[id(container)]
        parents = self.facts.parents
        out: set[str] = set()
        sites = [r for r in (*container.reads, *container.removals)
                 if r.function is not None and isinstance(r.node, (ast.Subscript, ast.Call))]
        by_fn: dict[int, tuple[ast.AST, set[int], set[str]]] = {}
        for r in sites:
            f, nodes, names = by_fn.setdefault(id(r.function), (r.function, set(), set()))
            nodes.add(id(r.node))
            p = parents.get(r.node)
            if isinstance(p, ast.Assign) and p.value is r.node and len(p.targets) == 1 \
                    and isinstance(p.targets[0], ast.Name):
                names.add(p.targets[0].id)
            elif isinstance(p, ast.NamedExpr) and p.value is r.node:
                names.add(p.target.id)
        for f, nodes, names in by_fn.values():
            def of_entry(e: ast.AST) -> bool:
                while True:
                    if id(e) in nodes or (isinstance(e, ast.Name) and e.id in names):
                        return True
                    if isinstance(e, (ast.Attribute, ast.Subscript)):
                        e = e.value
                    elif isinstance(e, ast.Call) and isinstance(e.func, ast.Name) \
                            and e.func.id in ("list", "tuple", "set", "frozenset") and len(e.args) == 1:
                        e = e.args[0]
                    else:
                        return False

            for n in self.facts.walk(f):
                if isinstance(n, ast.Compare):
                    ops = [n.left, *n.comparators]
                elif isinstance(n, ast.Call):
                    ops = [*n.args, *(k.value for k in n.keywords)]
                else:
                    continue
                if any(of_entry(o) for o in ops):
                    for o in ops:
                        if not of_entry(o):
                            # the scope value, or a field of the scope object (`session.name`)
                            out |= self.scope_value_kinds(f, o)
                            if isinstance(o, ast.Attribute):
                                out |= self.scope_value_kinds(f, o.value)
        memo[id(container)] = out
        return out

    def entry_tagged_kinds(self, fn: ast.AST, container, values: list) -> set[str]:
        """Scope kinds every value stored into `container` records (`tagged_kinds`) AND
        some reader of the container compares with the scope (`checked_kinds`): the tag
        tells entries apart only where a reader checks it.

        Args:
            fn: the def of the insertion being judged.
            container: the `LongLivedContainer` inserted into.
            values: the value expressions `fn` stores into `container` (`KeySink.values`);
                when empty, every insertion of the file is used instead.
        """
        pairs = [(fn, v) for v in values if v is not None] or \
            [(s.function, s.value) for s in container.inserts if s.value is not None and s.function is not None]
        kinds: set[str] | None = None
        for f, v in pairs:
            k = self.tagged_kinds(f, v)
            kinds = k if kinds is None else kinds & k
            if not kinds:
                return set()
        return (kinds or set()) & self.checked_kinds(container)

    # ------------------------------------------------------------ pin guards
    def pinned_exprs(self, fn: ast.AST, node: ast.AST) -> set[str]:
        """Parameter values (dotted texts, `session_id`, `session.session_id`) that `fn`
        pins to the instance's own value before `node` runs.

        A value is pinned when a statement that runs before `node` (in `node`'s block or
        an enclosing one) leaves the function unless the value equals a `self.` attribute
        path: `if session_id != self.config.session_id: raise ...` / `return None`,
        `if a != self.a or b != self.b: raise`, `assert session_id == self.session_id`, or
        a call statement of a same-file helper (`self._check(session_id)`) whose own body
        raises on such a mismatch. Past the guard the method serves only the instance's
        own scope, so a key of the instance's own cache needs no id of it. A guard that
        only logs pins nothing. Decided by the guard's shape, never by names.
        """
        me = self._self_param(fn)
        if me is None:
            return set()
        params = set(self.params(fn)) - {me}
        out: set[str] = set()
        for cur, child in self._path_up(fn, node):
            for prev in self._preceding(cur, child):
                out |= self._stmt_pins(prev, params, me, fn)
            if isinstance(cur, ast.If) and child in cur.orelse and _exits(cur.body):
                out |= self._test_pins(cur.test, params, me, negated=False)
        return out

    def _stmt_pins(self, st: ast.AST, params: set[str], me: str, fn: ast.AST, raise_only: bool = False,
                   depth: int = 2) -> set[str]:
        """Values statement `st` pins (see `pinned_exprs`)."""
        if isinstance(st, ast.If) and _exits(st.body, raise_only):
            return self._test_pins(st.test, params, me, negated=False)
        if isinstance(st, ast.Assert):
            return self._test_pins(st.test, params, me, negated=True)
        call = st.value if isinstance(st, ast.Expr) else None
        if isinstance(call, ast.Await):
            call = call.value
        if depth <= 0 or not isinstance(call, ast.Call):
            return set()
        f = call.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == me:
            name, bound = f.attr, True
        elif isinstance(f, ast.Name):
            name, bound = f.id, False
        else:
            return set()
        out: set[str] = set()
        for helper in self._defs_named(name):
            if helper is fn:
                continue
            hme = self._self_param(helper)
            if bound and hme is None or not bound and hme is not None:
                continue
            hargs = [a.arg for a in (*helper.args.posonlyargs, *helper.args.args)]
            if hme is not None:
                hargs = hargs[1:]
            passed: dict[str, str] = {}
            for a, p in zip(call.args, hargs):
                t = self.facts.dotted(a) if not isinstance(a, ast.Starred) else None
                if t and t.split(".")[0] in params:
                    passed[p] = t
            for k in call.keywords:
                t = self.facts.dotted(k.value) if k.arg else None
                if t and t.split(".")[0] in params:
                    passed[k.arg] = t
            if not passed:
                continue
            hparams = set(self.params(helper)) - {hme}
            for h_st in helper.body:
                for text in self._stmt_pins(h_st, hparams, hme or me, helper, raise_only=True, depth=depth - 1):
                    root, _, rest = text.partition(".")
                    if root in passed:
                        out.add(passed[root] + ("." + rest if rest else ""))
        return out

    def _test_pins(self, test: ast.AST, params: set[str], me: str, negated: bool) -> set[str]:
        """Values a guard test pins: with `negated=False` the test is true on a mismatch
        (`x != self.a`, `x is not self.a`, `not x == self.a`, or-ed); with `negated=True` it
        is true on a match (`x == self.a`, and-ed; an `assert`)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._test_pins(test.operand, params, me, not negated)
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And if negated else ast.Or):
            out: set[str] = set()
            for v in test.values:
                out |= self._test_pins(v, params, me, negated)
            return out
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return set()
        ops = (ast.Eq, ast.Is) if negated else (ast.NotEq, ast.IsNot)
        if not isinstance(test.ops[0], ops):
            return set()
        a, b = self.facts.dotted(test.left), self.facts.dotted(test.comparators[0])
        for x, y in ((a, b), (b, a)):
            if x and y and x.split(".")[0] in params and y.startswith(me + "."):
                return {x}
        return set()

    def pinned_kinds(self, fn: ast.AST, node: ast.AST) -> set[str]:
        """Scope kinds (`scope_kind`) of the values `fn` pins before `node` (see `pinned_exprs`)."""
        out = set()
        for text in self.pinned_exprs(fn, node):
            last = text.split(".")[-1]
            sid = last if last in self.ids else self.scope_id_of_name(last)
            if sid:
                out.add(scope_kind(sid))
        return out

    def filled_pinned_kinds(self, c) -> set[str]:
        """Scope kinds every insertion into instance container `c` is pinned to: each
        insertion runs in a method past a guard that pins a value of that kind to the
        instance's own (`if session_id != self.config.session_id: raise`). Such a cache
        only ever holds the instance's own scope's entries, so a read of it elsewhere
        (also in a method without the guard) cannot see another scope's entry. Empty for
        module and class containers (shared by every instance) and for a container with
        an unguarded or no insertion."""
        if c.scope in ("module", "class"):
            return set()
        memo = self.facts.memo("ck_filled_pinned", dict)
        if id(c) in memo:
            return memo[id(c)]
        kinds: set[str] | None = None
        for s in c.inserts:
            if s.function is None:
                kinds = set()
                break
            k = self.pinned_kinds(s.function, s.node)
            kinds = k if kinds is None else kinds & k
            if not kinds:
                break
        memo[id(c)] = kinds or set()
        return memo[id(c)]

    def _assigned_name(self, node: ast.AST) -> str | None:
        p = self.facts.parents.get(node)
        if isinstance(p, ast.Assign) and p.value is node and len(p.targets) == 1 and isinstance(p.targets[0], ast.Name):
            return p.targets[0].id
        return None

    def container_shared(self, fn: ast.AST, c) -> bool:
        """Is the container shared across scopes (module/class level, or a `self.` container
        of a class whose instances are not themselves per tenant/request/adapter)?"""
        if c.scope in ("module", "class"):
            return True
        return not self.reach(fn).self_scoped


def _is_value(facts, expr: ast.AST, name: str) -> bool:
    """Is `expr` the value spelled `name` (`salt`, `key.cache_salt`)?"""
    return isinstance(expr, (ast.Name, ast.Attribute)) and facts.dotted(expr) == name


def _unset_if_true(facts, test: ast.AST, name: str) -> bool:
    """Does `test` hold only when the value `name` is unset (None or falsy): `name is
    None`, `name == None`, `name == ""`, `not name`, an `and` with such a part, an `or`
    of such parts?"""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _unset_if_false(facts, test.operand, name)
    if isinstance(test, ast.BoolOp):
        parts = [_unset_if_true(facts, v, name) for v in test.values]
        return any(parts) if isinstance(test.op, ast.And) else all(parts)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
        a, b = test.left, test.comparators[0]
        for x, y in ((a, b), (b, a)):
            if _is_value(facts, x, name) and isinstance(y, ast.Constant) and y.value in (None, ""):
                return True
    return False


def _unset_if_false(facts, test: ast.AST, name: str) -> bool:
    """Does `test` hold whenever the value `name` is set, so its failure means it is
    unset: `name`, `name is not None`, `name != ""`, `not <unset test>`, an `or` with
    such a part, an `and` of such parts?"""
    if _is_value(facts, test, name):
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _unset_if_true(facts, test.operand, name)
    if isinstance(test, ast.BoolOp):
        parts = [_unset_if_false(facts, v, name) for v in test.values]
        return any(parts) if isinstance(test.op, ast.Or) else all(parts)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
        a, b = test.left, test.comparators[0]
        for x, y in ((a, b), (b, a)):
            if _is_value(facts, x, name) and isinstance(y, ast.Constant) and y.value in (None, ""):
                return True
    return False


def _key_part(names: set[str], expr: ast.AST) -> bool:
    """Is `expr` read from a key part (`key.cache_salt`, `entry[0]`, `k`): its root name
    is one of `names`?"""
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id in names


def _match_if_true(facts, test: ast.AST, text: str, names: set[str]) -> bool:
    """Does `test` hold only when a key part equals the scope value `text` (`key.salt ==
    salt`), or the scope value is unset (an `or` branch `not salt`)?"""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _match_if_false(facts, test.operand, text, names)
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And):
            return any(_match_if_true(facts, v, text, names) for v in test.values)
        return all(_match_if_true(facts, v, text, names) or _unset_if_true(facts, v, text) for v in test.values) \
            and any(_match_if_true(facts, v, text, names) for v in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
        a, b = test.left, test.comparators[0]
        return any(_is_value(facts, x, text) and _key_part(names, y) for x, y in ((a, b), (b, a)))
    return False


def _match_if_false(facts, test: ast.AST, text: str, names: set[str]) -> bool:
    """Does the failure of `test` mean a key part equals the scope value `text` (`key.salt
    != salt`), or the scope value is unset (`salt and key.salt != salt`)?"""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _match_if_true(facts, test.operand, text, names)
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.Or):
            return any(_match_if_false(facts, v, text, names) for v in test.values)
        return all(_match_if_false(facts, v, text, names) or _unset_if_false(facts, v, text) for v in test.values) \
            and any(_match_if_false(facts, v, text, names) for v in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.NotEq, ast.IsNot)):
        a, b = test.left, test.comparators[0]
        return any(_is_value(facts, x, text) and _key_part(names, y) for x, y in ((a, b), (b, a)))
    return False


def _exits(body: list, raise_only: bool = False) -> bool:
    """Does a block always leave the function (its last statement a `raise`, or a
    `return` unless `raise_only`)? A helper's `return` leaves only the helper."""
    if not body:
        return False
    last = body[-1]
    return isinstance(last, ast.Raise) or not raise_only and isinstance(last, ast.Return)


def handed_whole(facts, n: ast.Name) -> bool:
    """Is the name `n` handed on as a whole value: a call's argument, an item of a
    display or f-string, a starred or keyword argument (not `n[k]`, `n.x`, `k in n`)?"""
    p = facts.parents.get(n)
    if isinstance(p, ast.Call):
        return n in p.args
    return isinstance(p, (ast.keyword, ast.Starred, ast.Tuple, ast.List, ast.Set, ast.FormattedValue)) \
        or (isinstance(p, ast.Dict) and n in p.values)


def _item_scope_id(n: ast.AST, ids) -> str | None:
    """The scope id an item read names by its string key: `meta["tenant_id"]`,
    `meta.get("tenant_id")` / `meta.get("tenant_id", default)`, a header's spelling
    (`headers["X-Tenant-ID"]`); None otherwise."""
    key = None
    if isinstance(n, ast.Subscript):
        key = n.slice
    elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
            and 1 <= len(n.args) <= 2 and not n.keywords:
        key = n.args[0]
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        # a header's spelling names the same id (`headers["X-Tenant-ID"]` -> tenant_id)
        k = key.value.strip().lower().replace("-", "_")
        k = k[2:] if k.startswith("x_") else k
        if k in ids:
            return k
    return None


def _item_root(n: ast.AST) -> ast.Name | None:
    """The name an item/attribute path starts from (`kwargs` of
    `kwargs["metadata"].get("tenant_id")`), or None (a call result, a literal)."""
    while True:
        if isinstance(n, (ast.Subscript, ast.Attribute)):
            n = n.value
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get":
            n = n.func.value
        else:
            break
    return n if isinstance(n, ast.Name) else None


def _defs_by_name(facts: "PythonFacts") -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
        out.setdefault(d.name, []).append(d)
    return out


def cache_key_facts(facts: "PythonFacts") -> CacheKeyFacts:
    """The file's `CacheKeyFacts`, built once and shared by CTX501-CTX505."""
    return facts.memo("cache_key_facts", lambda: CacheKeyFacts(facts))

