"""Key facts shared by the cache-key rules (CTX501, CTX503, CTX504, CTX505): how a key
is spelled in a message, label attributes of scope objects, ids of scope objects and the
anchor of CTX501's fix. Built on `cache_keys.py` (`CacheKeyFacts`).
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.cache_keys import LABEL_ATTRS, SCOPE_KIND_WORDS, ident_words

KEY_TOKENS = ("cache", "Cache", "CACHE", "memo", "Memo", "MEMO", "prefix", "Prefix", "PREFIX",
              "block", "Block", "BLOCK", "kv", "Kv", "KV", "hash", "Hash", "HASH", "registry",
              "Registry", "REGISTRY", "key", "Key", "KEY", "lru", "LRU", "digest", "sha", "md5",
              "setdefault")

#: How a message names one value of each scope kind ("the key does not include the tenant").
KIND_NOUN = {"tenant": "tenant", "user": "user", "session": "session", "adapter": "adapter",
             "salt": "cache salt", "mm": "multimodal input hash", "request": "request"}
KIND_PLURAL = {"tenant": "tenants", "user": "users", "session": "sessions", "adapter": "adapters",
                "salt": "cache salts", "mm": "multimodal inputs", "request": "requests"}


def key_text(facts, expr: ast.AST, limit: int = 40) -> str:
    s = " ".join(facts.segment(expr).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def label_use(ck, fn, nodes) -> tuple[ast.Attribute, str] | None:
    """A label attribute of a scope object in `nodes` (`adapter.label`, `req.lora_request.lora_name`)
    whose object has a unique id, as (node, unique attribute)."""
    facts = ck.facts
    for n in nodes:
        if not (isinstance(n, ast.Attribute) and n.attr in LABEL_ATTRS):
            continue
        obj = facts.dotted(n.value)
        if not obj:
            continue
        uid = unique_of(ck, fn, obj)
        if uid:
            return n, uid
    return None


def unique_of(ck, fn, obj: str) -> str | None:
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
        if uniq and (ck.class_scope_fields(cls, depth=1) or scope_named(cls)):
            return uniq[0]
        return None
    last = parts[-1]
    if not scope_named(last):
        return None
    for attr in attrs_read_on(ck, last):
        w = ident_words(attr)
        if attr not in LABEL_ATTRS and w and (attr in ("id", "uid") or w[-1] in ("id", "uid", "digest")):
            return attr
    return None


OBJECT_ID_ATTRS = frozenset({"id", "uid", "uuid", "guid", "pk"})
ID_OWNER_KINDS = frozenset({"request", "session", "tenant", "user", "adapter"})


def scope_object_id(facts, nodes) -> ast.Attribute | None:
    """An id attribute of a scope object among `nodes` (`request.id`, `seq.uuid`,
    `session.id`, `self.tenant.pk`): the object's name has a scope-kind word
    (request/req/seq/session/tenant/user/adapter, see SCOPE_KIND_WORDS). A key that
    holds a request's own id is per-request and cannot hit across tenants; one that
    holds a tenant's or adapter's id is scoped already."""
    for n in nodes:
        if not (isinstance(n, ast.Attribute) and n.attr.lower() in OBJECT_ID_ATTRS):
            continue
        owner = (facts.dotted(n.value) or "").split(".")[-1]
        if owner and any(SCOPE_KIND_WORDS.get(w) in ID_OWNER_KINDS for w in ident_words(owner)):
            return n
    return None


def scope_named(name: str) -> bool:
    return any(SCOPE_KIND_WORDS.get(w) in ("adapter", "tenant", "user", "session") for w in ident_words(name))


def attrs_read_on(ck, owner: str) -> set[str]:
    """Attributes read anywhere in the file on an object whose name ends in `owner`."""
    index = ck.facts.memo("ck_attr_owners", lambda: attr_owner_index(ck.facts))
    return index.get(owner, set())


def attr_owner_index(facts) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for n in facts.nodes(ast.Attribute):
        v = n.value
        name = v.attr if isinstance(v, ast.Attribute) else v.id if isinstance(v, ast.Name) else None
        if name:
            out.setdefault(name, set()).add(n.attr)
    return out


def fix_anchor(ck, sink) -> tuple[ast.AST, str] | None:
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


#: Decorators that memoize a function on its arguments (functools, cachetools, async-lru,
#: and the `memoize` helpers common in serving code).
MEMO_DECORATORS = frozenset({"lru_cache", "cache", "cached", "memoize", "memoized", "alru_cache",
                             "ttl_cache", "cached_function", "memoize_method"})


def is_memoized(facts, fn) -> bool:
    """Is def `fn` decorated with a memoizing decorator (`MEMO_DECORATORS`, by the last
    component of its import-resolved name)?"""
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        q = facts.qualname(target) or ""
        if q.split(".")[-1] in MEMO_DECORATORS:
            return True
    return False


def module_class(ck, fn, func: ast.AST) -> ast.ClassDef | None:
    """The class of this file that callee expression `func` (in def `fn`, or None at
    module level) names: a bare name bound to a module-level-visible class of this file
    and not rebound in `fn` (no parameter, local assignment or import of that name there).
    `other_mod.Lease` or a name shadowed locally is no class of this file: resolution by
    binding, not by the last dotted segment.

    Args:
        ck: the file's `CacheKeyFacts`.
        fn: the def the call is in (None when not in a def).
        func: the call's `func` expression.
    """
    return ck.module_class(fn, func)


def ctor_fields(ck, call: ast.Call, fn=None) -> dict[str, ast.AST] | None:
    """Field name -> argument expression for a constructor call of a same-file class
    (`_OperationLease(owner, release, shared=shared)` -> {"owner": owner, "release":
    release, "shared": shared}): through its `__init__` (a parameter stored as
    `self.F = param`), else its class-level annotated fields in order (a dataclass,
    NamedTuple or attrs class). None when the callee is no class of this file.

    Args:
        ck: the file's `CacheKeyFacts` (for `classes`, `facts`).
        call: the constructor call expression.
        fn: the def the call is in, used to reject a class name rebound there
            (`module_class`); None at module level.
    """
    cls = module_class(ck, fn, call.func)
    if cls is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    init = next((st for st in cls.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and st.name == "__init__"), None)
    out: dict[str, ast.AST] = {}
    if init is not None:
        a = init.args
        params = [p.arg for p in (*a.posonlyargs, *a.args)][1:]
        passed = dict(zip(params, call.args))
        passed.update({k.arg: k.value for k in call.keywords if k.arg})
        me = (a.posonlyargs + a.args)[0].arg if (a.posonlyargs + a.args) else "self"
        for n in ck.facts.walk(init):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Name) and n.value.id in passed:
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                        out[t.attr] = passed[n.value.id]
        return out
    fields = [st.target.id for st in cls.body if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)]
    out.update(zip(fields, call.args))
    out.update({k.arg: k.value for k in call.keywords if k.arg})
    return out


def stored_key_fields(ck, site) -> tuple[set[str], set[str]]:
    """(fields, classes) for an insertion `c[key] = obj`: the attributes of the stored
    object the inserting function fills with that very key — a constructor argument of a
    same-file class (`lease = _OperationLease(owner, ...)`, field `owner`) or an
    assignment `obj.F = key` there — and the classes the object is built from. Empty
    when the value carries no copy of its key.

    The key spelling must denote the same value at the constructor and at the
    insertion: a name of the key rebound in between (`lease = Lease(owner); owner =
    norm(owner); c[owner] = lease`) makes the field a copy of an older value, not the key.

    Args:
        ck: the file's `CacheKeyFacts`.
        site: an insertion `ContainerSite` of the container (`site.key`, `site.value`,
            `site.function`).
    Returns:
        (field names of the stored object that hold the key, names of the classes the
        stored object is built from).
    """
    fn, key, value = site.function, site.key, site.value
    if fn is None or key is None or value is None:
        return set(), set()
    want = ast.dump(key)
    key_names = {n.id for n in ast.walk(key) if isinstance(n, ast.Name)}
    at = getattr(site.node, "lineno", 0)
    exprs = [value]
    obj = value.id if isinstance(value, ast.Name) else None
    if obj is not None:
        exprs = [d.value for d in ck.defs(fn).get(obj, ()) if d.kind == "assign"]

    def rebound_after(line: int) -> bool:
        # a definition of a key name after the constructor line and before the insertion
        return any(line < getattr(d.stmt, "lineno", 0) < at
                   for nm in key_names for d in ck.defs(fn).get(nm, ()))

    fields: set[str] | None = None
    classes: set[str] = set()
    for e in exprs:
        got = ctor_fields(ck, e, fn) if isinstance(e, ast.Call) else None
        if got is None:
            fields = set()
            break
        classes.add(e.func.id)
        mine = {f for f, arg in got.items() if ast.dump(arg) == want}
        if mine and rebound_after(getattr(e, "lineno", at)):
            mine = set()
        fields = mine if fields is None else fields & mine
    fields = fields or set()
    if obj is not None:
        for n in ck.facts.walk(fn):
            if isinstance(n, ast.Assign) and ast.dump(n.value) == want and not rebound_after(n.lineno):
                fields.update(t.attr for t in n.targets if isinstance(t, ast.Attribute)
                              and isinstance(t.value, ast.Name) and t.value.id == obj)
    return fields, classes


def reads_stored_key(ck, container, acquire: list[str], fn, expr: ast.AST) -> bool:
    """Is release key `expr` (`lease.owner`) the copy of the acquire key that every acquire
    side of `container` stored on the object it inserted (`stored_key_fields`), read back
    from such an object: a parameter annotated with its class (or the value class the
    container's annotation declares, `Dict[int, Request]`) or narrowed to it by an
    `isinstance` guard, `self` in a method of that class, or a local read out of the same
    container (`entry = c.get(k)`, `for e in c.values()`)? Value flow key -> attribute of the stored object -> release key: the
    same value on both sides, whatever the acquire side derived it with.

    Every acquire-side insertion must be seen into: one whose stored value this analysis
    cannot read (an opaque object, a helper's result) may store entries that carry no
    copy of their key, so it proves nothing and the answer is False.

    Args:
        ck: the file's `CacheKeyFacts`.
        container: the `LongLivedContainer` acquired into and released from.
        acquire: names of the methods that acquire (insert) into `container`.
        fn: the releasing def.
        expr: the release key expression in `fn`.
    """
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name)):
        return False
    fields: set[str] | None = None
    classes: set[str] = set()
    for s in container.inserts:
        if s.method is not None and s.method.name in acquire:
            f, c = stored_key_fields(ck, s)
            if not (f or c):
                return False  # a value this analysis cannot see into: proves nothing
            # every object the acquire side stores must carry its key in that field
            fields = f if fields is None else fields & f
            classes |= c
    declared = container_value_class(ck, container)
    if declared:
        classes.add(declared)  # `Dict[int, Request]`: a `Request` is one of its entries
    if not fields or expr.attr not in fields:
        return False
    return _holds_entry(ck, container, fn, expr.value.id, classes, expr)


def _holds_entry(ck, container, fn, obj: str, classes: set[str], at: ast.AST | None = None) -> bool:
    """Does name `obj` in `fn` hold an object of one of `classes` (the classes stored
    into `container`)? A parameter annotated with (or narrowed by an `isinstance` guard
    to) such a class, `self` in a method of one, or a local that every definition reads
    out of the container (`c.get(k)`, `for e in c.values()`) or builds from such a class."""
    params = ck.params(fn)
    if obj in params:
        return object_class(ck, fn, ast.Name(id=obj, ctx=ast.Load()), at) in classes
    ds = ck.defs(fn).get(obj, [])
    if not ds:
        return False
    reads = {id(r.node) for r in container.reads}
    for d in ds:
        if d.kind == "assign" and id(d.value) in reads:
            continue
        if d.kind == "assign" and isinstance(d.value, ast.Call) \
                and (cls := module_class(ck, fn, d.value.func)) is not None and cls.name in classes:
            continue
        if d.kind == "iter" and (got := ck.entry_of(fn, obj)) and all(c is container and p == "value" for c, p in got):
            continue
        return False
    return True


def _slot_of(ck, fn, expr: ast.AST, depth: int = 2):
    """Where value `expr` (in `fn`) is read from, when it is a read of a stored slot: a
    ContextVar read (`_level.get()`, with or without a default) -> ("cv", dotted name), an
    attribute of the instance (`self._current`) -> ("attr", class, attr), or a read-only
    `@property` of the instance's class (`self.level`) whose only statement returns such a
    read -> that slot. Locals are followed through single plain assignments. None for
    anything else."""
    expr, _exact = ck.resolve(fn, expr)
    facts = ck.facts
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
            and len(expr.args) <= 1 and not expr.keywords and facts.is_contextvar(expr.func.value):
        return ("cv", facts.dotted(expr.func.value))
    me = ck._self_param(fn)
    if me and isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == me:
        cls = facts.enclosing_class(fn)
        if cls is None:
            return None
        for m in cls.body:
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == expr.attr:
                if depth <= 0 or not any((facts.dotted(d) or "") == "property" for d in m.decorator_list):
                    return None
                body = [st for st in m.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
                if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
                    return _slot_of(ck, m, body[0].value, depth - 1)
                return None
        return ("attr", id(cls), expr.attr)
    return None


def _stores_key_in(ck, fn, key: ast.AST, slot) -> bool:
    """Does `fn` store the key value `key` (the same spelling, or the local it is) into
    `slot` (`_slot_of`): `CV.set(key)` for a ContextVar, `self.<attr> = key` for an
    instance attribute of the same class?"""
    facts = ck.facts
    want = ast.dump(key)
    me = ck._self_param(fn)
    for n in facts.walk(fn):
        if slot[0] == "cv" and isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr == "set" and len(n.args) == 1 and facts.is_contextvar(n.func.value) \
                and facts.dotted(n.func.value) == slot[1] and ast.dump(n.args[0]) == want:
            return True
        if slot[0] == "attr" and me and isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None \
                and ast.dump(n.value) == want:
            cls = facts.enclosing_class(fn)
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if cls is not None and id(cls) == slot[1] and any(
                    isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
                    and t.attr == slot[2] for t in targets):
                return True
    return False


def reads_key_back(ck, container, acquire: list[str], fn, expr: ast.AST) -> bool:
    """Is release key `expr` read back from the place where every acquire side of
    `container` put the very key it inserted under: a ContextVar the acquire side sets to
    its key (`token = _level.set(level)`; `self._levels[level] = ...`), read on release
    as `_level.get()` or through a read-only property returning it (`self.level`), or an
    attribute of the instance the acquire side assigns its key to (`self._current = key`;
    released by `self._current`)? Value flow key -> slot -> release key, the same value
    on both sides, whatever helper derived it; the generalisation of `reads_stored_key`
    from the stored object's field to any slot the acquire side writes. A slot some
    acquire side does not write (another ContextVar, an attribute set from another value)
    proves nothing."""
    slot = _slot_of(ck, fn, expr)
    if slot is None:
        return False
    seen = False
    for s in container.inserts:
        if s.method is None or s.method.name not in acquire or s.key is None or s.function is None:
            continue
        if not _stores_key_in(ck, s.function, s.key, slot):
            return False
        seen = True
    return seen


def _narrowed_to(ck, fn, name: str, before: int) -> str | None:
    """The same-file class a guard at the top of `fn`, before line `before`, narrows
    parameter `name` to: `if not isinstance(name, C): raise/return ...` or `assert
    isinstance(name, C)`. After such a guard every later statement sees a `C`, whatever
    the annotation says (`handle: asyncio.TimerHandle`, narrowed to `_TimerHandle`)."""

    def names_class(test: ast.AST) -> str | None:
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" \
                and "isinstance" not in ck.facts.module_names and len(test.args) == 2 \
                and isinstance(test.args[0], ast.Name) and test.args[0].id == name:
            cls = module_class(ck, fn, test.args[1])
            return cls.name if cls is not None else None
        return None

    for st in fn.body:
        if getattr(st, "lineno", before) >= before:
            break
        if isinstance(st, ast.Assert) and (got := names_class(st.test)):
            return got
        if isinstance(st, ast.If) and not st.orelse and isinstance(st.test, ast.UnaryOp) \
                and isinstance(st.test.op, ast.Not) and st.body \
                and isinstance(st.body[-1], (ast.Raise, ast.Return)) and (got := names_class(st.test.operand)):
            return got
    return None


def object_class(ck, fn, obj: ast.AST, at: ast.AST | None = None) -> str | None:
    """The name of the same-file class whose instance `obj` (an expression in def `fn`)
    is, or None when unknown: the receiver in a method of a class, a parameter annotated
    with a class of this file (`lease: Lease`, `Optional["Lease"]`) or narrowed to one
    by an `isinstance` guard before `at` (`_narrowed_to`), a local every definition of
    which constructs that class, or a receiver attribute annotated with one
    (`self.current: Req`). Resolution by binding and annotation, never by the spelling
    of the object's name.

    Args:
        ck: the file's `CacheKeyFacts`.
        fn: the def `obj` is read in.
        obj: the object expression (a Name, or an attribute of the receiver).
        at: the node the object is used at (a guard must come before it); None for the
            end of `fn`.
    """
    facts = ck.facts
    me = ck._self_param(fn)
    if isinstance(obj, ast.Name):
        if obj.id == me:
            cls = facts.enclosing_class(fn)
            return cls.name if cls is not None else None
        params = ck.params(fn)
        if obj.id in params:
            got = ck.annotation_class(params[obj.id].annotation)
            line = getattr(at, "lineno", None) or (max((getattr(n, "lineno", 0) for n in ast.walk(fn)), default=0) + 1)
            return got or _narrowed_to(ck, fn, obj.id, line)
        ds = ck.defs(fn).get(obj.id, [])
        names = {cls.name if (d.kind == "assign" and isinstance(d.value, ast.Call)
                              and (cls := module_class(ck, fn, d.value.func)) is not None) else None for d in ds}
        return names.pop() if len(names) == 1 else None
    if isinstance(obj, ast.Attribute) and isinstance(obj.value, ast.Name) and me and obj.value.id == me:
        cls = facts.enclosing_class(fn)
        if cls is not None:
            return ck.annotation_class(ck.class_fields.get(cls.name, {}).get(obj.attr))
    return None


def container_value_class(ck, container) -> str | None:
    """The same-file class a container is declared to hold as values: the second
    parameter of its annotation (`_held: Dict[str, "Lease"] = {}`, `self.timers:
    dict[int, _Timer] = {}`, or a class-level annotation of the attribute). None when it
    is not annotated so, or the value type is no class of this file."""
    ann = None
    parent = ck.facts.parents.get(container.creation) if container.creation is not None else None
    if isinstance(parent, ast.AnnAssign) and parent.value is container.creation:
        ann = parent.annotation
    elif container.owner is not None:
        ann = ck.class_fields.get(container.owner.name, {}).get(container.attr)
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except (SyntaxError, ValueError):
            return None
    if isinstance(ann, ast.Subscript) and isinstance(ann.slice, ast.Tuple) and len(ann.slice.elts) == 2:
        return ck.annotation_class(ann.slice.elts[1])
    return None


def entry_classes(ck, container, acquire: list[str]) -> set[str]:
    """Names of the same-file classes whose instances are the entries of `container`:
    those an acquire side constructs and stores (`stored_key_fields`), and the value
    class its annotation declares (`container_value_class`)."""
    return ck.facts.memo(f"ck_entry_classes:{id(container)}:{','.join(acquire)}",
                         lambda: _entry_classes(ck, container, acquire))


def _entry_classes(ck, container, acquire: list[str]) -> set[str]:
    out: set[str] = set()
    for s in container.inserts:
        if s.method is not None and s.method.name in acquire:
            out |= stored_key_fields(ck, s)[1]
    declared = container_value_class(ck, container)
    if declared:
        out.add(declared)
    return out


def holds_entry(ck, container, acquire: list[str], fn, obj: ast.AST, at: ast.AST | None = None) -> bool:
    """Is `obj` (in `fn`) an entry of `container`: an object of one of its
    `entry_classes` (`object_class`), or a local read out of the container? A field of
    such an object is the entry's own field: whether it holds the key is decided by what
    the acquire sides stored (`reads_stored_key`), not left unknown."""
    classes = entry_classes(ck, container, acquire)
    if isinstance(obj, ast.Name):
        return _holds_entry(ck, container, fn, obj.id, classes, at)
    return object_class(ck, fn, obj, at) in classes


def key_written_fields(ck, container, acquire: list[str]) -> set[str]:
    """Fields into which an acquire side of `container` writes the very key it inserts
    under, so that the key travels on with another object: an assignment `req.req_id =
    req_id` or `command.start.seq = seq`, a keyword `Request(req_id=req_id)`, or a
    constructor argument that a same-file class stores in a field (`_Timer(seq, ...)`
    stored as `self._seq`). A key sent out in a field comes back in that field of the
    reply (the peer echoes it): a release keyed by that field of an inbound object
    reads the same value, not another derivation.

    Args:
        ck: the file's `CacheKeyFacts`.
        container: the `LongLivedContainer` acquired into.
        acquire: names of the methods that acquire (insert) into `container`.
    Returns:
        The field names (attribute or keyword names).
    """
    return ck.facts.memo(f"ck_key_written:{id(container)}:{','.join(acquire)}",
                         lambda: _key_written_fields(ck, container, acquire))


def _key_written_fields(ck, container, acquire: list[str]) -> set[str]:
    out: set[str] = set()
    for s in container.inserts:
        fn, key = s.function, s.key
        if s.method is None or s.method.name not in acquire or fn is None or key is None:
            continue
        want = ast.dump(key)
        for n in ck.facts.walk(fn):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None and ast.dump(n.value) == want:
                out.update(t.attr for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                           if isinstance(t, ast.Attribute))
            elif isinstance(n, ast.Call):
                out.update(k.arg for k in n.keywords if k.arg and ast.dump(k.value) == want)
                got = ctor_fields(ck, n, fn)
                if got:
                    out.update(f for f, a in got.items() if ast.dump(a) == want)
    return out


def class_field_values(ck, cls_name: str, field: str) -> list[tuple[ast.AST, ast.AST]] | None:
    """Every value a same-file class assigns to its own field `field` in its methods:
    (method, value expression) per `self.<field> = value`. None when unknown: no such
    class, or the field declared in the class body (a dataclass/NamedTuple field is set
    by whoever constructs it). Assignments to the field from outside the class are not
    seen; callers check those separately when they matter (`key_written_fields`)."""
    cls = ck.classes.get(cls_name)
    if cls is None:
        return None
    for st in cls.body:
        targets = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == field for t in targets):
            return None
    from ctxlint.semantic.python.requests import self_attr_values
    return list(self_attr_values(ck.facts, cls).get(field, ()))
