"""Long-lived containers: module-, class- and long-lived-instance dicts/lists/sets
with their insertion, removal, read and escape sites.

Read by the retention rules (CTX401/CTX404), CTX108 and CTX203. Computed once per
file through `PythonFacts.containers` / `PythonFacts.long_lived_containers`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ctxlint.semantic.python.cleanup import pos
from ctxlint.semantic.python.syntax import FunctionNode, dotted

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts

#: Constructor (last dotted component) -> container kind.
CONTAINER_KINDS: dict[str, str] = {
    "dict": "dict", "list": "list", "set": "set", "OrderedDict": "OrderedDict",
    "defaultdict": "defaultdict", "deque": "deque", "Counter": "Counter", "ChainMap": "dict",
    "Dict": "dict", "List": "list", "Set": "set",
    "WeakValueDictionary": "WeakValueDictionary", "WeakKeyDictionary": "WeakKeyDictionary",
    "WeakSet": "WeakSet",
    "LRUCache": "LRUCache", "TTLCache": "TTLCache", "LFUCache": "LFUCache", "RRCache": "RRCache",
    "FIFOCache": "FIFOCache", "MRUCache": "MRUCache", "TLRUCache": "TLRUCache",
}
#: Kinds bounded by construction, with the reason.
_BOUNDED_KINDS: dict[str, str] = {
    "WeakValueDictionary": "weak", "WeakKeyDictionary": "weak", "WeakSet": "weak",
    "LRUCache": "maxsize", "TTLCache": "maxsize", "LFUCache": "maxsize", "RRCache": "maxsize",
    "FIFOCache": "maxsize", "MRUCache": "maxsize", "TLRUCache": "maxsize",
}
#: Method calls on a container that insert (receiver method name -> how the key is found).
INSERT_METHODS = frozenset({"setdefault", "append", "appendleft", "add", "update", "put",
                            "put_nowait", "insert", "extend", "extendleft", "__setitem__"})
#: Method calls that remove entries.
REMOVE_METHODS = frozenset({"pop", "popitem", "popleft", "clear", "discard", "remove",
                            "__delitem__", "difference_update", "intersection_update"})
#: Methods that add elements to the list/set/deque they are called on (stdlib docs):
#: an entry grown so (`d[k].append(x)`) gets longer on every call.
GROWING_METHODS = frozenset({"append", "appendleft", "add", "insert", "extend", "extendleft", "update"})
# methods that take one given element back out of a collection (an entry's list or set):
# the element's own removal, as on a member's leave; not `pop()`/`clear()`, which trim
SHRINKING_METHODS = frozenset({"remove", "discard"})
#: Method-name words that mean an eviction call on the container (`self.cache.expire()`).
EVICT_WORDS = frozenset({"evict", "expire", "prune", "trim", "purge", "cleanup", "shrink",
                         "gc", "collect", "reset", "free", "release", "drop"})
#: Methods whose first positional argument is the key.
_KEYED = frozenset({"setdefault", "pop", "discard", "remove", "add", "__setitem__",
                    "__delitem__", "get", "__getitem__", "put", "put_nowait"})
#: Builtins that only read a container passed to them (no escape).
_READ_ONLY_CALLS = frozenset({"len", "list", "tuple", "sorted", "set", "frozenset", "iter", "any",
                              "all", "sum", "min", "max", "enumerate", "zip", "isinstance", "print",
                              "repr", "str", "bool", "dict", "reversed", "next", "map", "filter",
                              "id", "hash", "format", "type", "copy", "deepcopy", "json.dumps"})


class ContainerSite:
    """One insertion, removal, read or escape of a long-lived container.

    Attributes:
        node: the ast node of the site (the Subscript, the method Call, the
            `del`/assignment statement, or the reference that escapes).
        kind: "subscript" | "augassign" | a method name (`setdefault`, `append`, `add`,
            `update`, `put`, `pop`, `popitem`, `clear`, `discard`, `remove`, ...) |
            "del" (`del c[k]`) | "del-container" (`del self.c`) | "reassign" |
            "evict" (an eviction-style method, `c.expire()`) | "get" | "in" |
            "escape" (passed to a call, returned, aliased outside the function, or
            the attribute named by a string literal of the file: reached reflectively).
        key: the key expression (subscript slice, first argument of keyed methods,
            left operand of `in`), or None (append, clear, popitem, reassign).
        value: the stored value expression for insertions (assigned value,
            setdefault's second argument, appended item), else None.
        function: the innermost enclosing def (None at module or class level).
        method: the outermost def inside the owner (the class method, or the module
            function) — "the method the site is in" for cross-method analyses.
    """

    __slots__ = ("node", "kind", "key", "value", "function", "method")

    def __init__(self, node, kind, key=None, value=None, function=None, method=None):
        self.node = node
        self.kind = kind
        self.key = key
        self.value = value
        self.function = function
        self.method = method

    @property
    def method_name(self) -> str:
        """Name of `method`, or "<module>" for module/class level code."""
        return self.method.name if self.method is not None else "<module>"

    def __repr__(self) -> str:
        return f"<{self.kind} at {getattr(self.node, 'lineno', '?')} in {self.method_name}>"


class LongLivedContainer:
    """A container that outlives one call: module-level, class-level, or a `self.` attribute.

    Attributes:
        name: how code spells it: "_CACHE" (module), "Engine.table" (class), "self.requests".
        attr: the bare attribute/variable name ("requests").
        scope: "module" | "class" | "instance".
        owner: the `ast.ClassDef` for class/instance containers, else None.
        long_lived: True for module and class containers, and for instance containers of a
            class that is instantiated at module level, that indexes its containers by
            per-call keys in one method and removes by per-call keys in another (a registry:
            `_serves_many_keys`), that an `async def` fills under its own call's key and
            empties again itself (a registry of its concurrent calls: `_registers_own_calls`),
            or that is built once (`lifetime`: never decided by the class's name); never for an
            instance container of a class
            whose every instance is an entry of a container that drops its entries
            (`per_invocation`).
        per_invocation: True for an instance container of a class whose every
            instance this module makes is stored as an entry of a container that
            drops entries (`_per_invocation_class`): created per task/request and
            removed or evicted with its entry, so not long-lived whatever its name.
        kind: "dict" | "list" | "set" | "OrderedDict" | "defaultdict" | "deque" | "Counter" |
            "WeakValueDictionary" | "WeakKeyDictionary" | "WeakSet" | "LRUCache" | "TTLCache" | ...
        creation: the value expression that creates it (`{}`, `dict()`, `OrderedDict()`);
            this is the anchor of CTX401's fix.
        creation_method: the def the creation is in (`__init__`), None at module/class level.
        bound: None when unbounded, else "weak" (weak references), "maxsize" (a cachetools
            cache or explicit maxsize=), "maxlen" (a bounded deque), "lru" (an OrderedDict /
            dict evicted with popitem/popleft or `next(iter(...))` + pop).
        inserts, removals, reads, escapes: `ContainerSite` lists in source order.

    Built by `collect_containers(facts)`; the receivers understood are `self.x`/`cls.x`
    (the method's first parameter, also inside closures of the method), `Class.x`, the
    module name (unless a function rebinds it locally without `global`), and local
    aliases (`reqs = self.requests`).
    """

    def __init__(self, name, attr, scope, owner, kind, creation, creation_method):
        self.name = name
        self.attr = attr
        self.scope = scope
        self.owner = owner
        self.kind = kind
        self.creation = creation
        self.creation_method = creation_method
        self.long_lived = scope != "instance"
        #: Why it outlives a request, from where its owner is allocated: "module",
        #: "class" (a class attribute), "import-time instance" (the owner class is
        #: instantiated at module level), "singleton" (a singleton metaclass or accessor),
        #: "registry" (value facts: per-call keys, own calls), "unknown" (an instance
        #: container whose class this module never allocates: maybe long-lived, latent),
        #: or None (short-lived: every allocation is a local of one call).
        self.lifetime: str | None = {"module": "module", "class": "class"}.get(scope)
        self.inserts: list[ContainerSite] = []
        self.removals: list[ContainerSite] = []
        self.reads: list[ContainerSite] = []
        self.escapes: list[ContainerSite] = []
        self._explicit_bound: str | None = None
        self.per_invocation = False

    @property
    def bound(self) -> str | None:
        """Why this container cannot grow without limit, or None."""
        if self._explicit_bound:
            return self._explicit_bound
        if self.kind in _BOUNDED_KINDS:
            return _BOUNDED_KINDS[self.kind]
        if any(s.kind in ("popitem", "popleft") for s in self.removals):
            return "lru"
        return None

    @property
    def bounded(self) -> bool:
        return self.bound is not None

    def removal_methods(self) -> set[str]:
        """Names of the methods/functions that contain a removal site."""
        return {s.method_name for s in self.removals}

    def __repr__(self) -> str:
        return (f"<{self.scope} container {self.name} ({self.kind}) +{len(self.inserts)} "
                f"-{len(self.removals)} bound={self.bound}>")


def _container_kind(facts: "PythonFacts", value: ast.AST | None) -> tuple[str | None, str | None]:
    """(kind, explicit bound) of a container-creating expression, else (None, None)."""
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return "dict", None
    if isinstance(value, (ast.List, ast.ListComp)):
        return "list", None
    if isinstance(value, (ast.Set, ast.SetComp)):
        return "set", None
    if isinstance(value, ast.Call):
        q = facts.qualname(value.func) or ""
        last = q.split(".")[-1]
        # dataclass field(default_factory=dict)
        if last == "field":
            for kw in value.keywords:
                if kw.arg == "default_factory":
                    fq = facts.qualname(kw.value) or ""
                    k = CONTAINER_KINDS.get(fq.split(".")[-1])
                    return (k, None) if k else (None, None)
            return None, None
        kind = CONTAINER_KINDS.get(last)
        if last == "fromkeys" and "." in q:
            # `dict.fromkeys(keys, v)` / `OrderedDict.fromkeys(...)`: a dict built from its keys
            kind = CONTAINER_KINDS.get(q.split(".")[-2])
            kind = kind if kind in ("dict", "OrderedDict") else None
        if kind is None:
            return None, None
        bound = None
        for kw in value.keywords:
            if kw.arg in ("maxsize", "maxlen") and not (isinstance(kw.value, ast.Constant) and kw.value.value is None):
                bound = "maxlen" if kw.arg == "maxlen" else "maxsize"
        if kind == "deque" and len(value.args) >= 2:
            bound = "maxlen"
        return kind, bound
    return None, None


def _method_of(facts: "PythonFacts", node: ast.AST, owner: ast.AST) -> ast.AST | None:
    """The outermost def between `node` and `owner` (a ClassDef or the Module)."""
    found = None
    for a in facts.ancestors(node):
        if a is owner:
            return found
        if isinstance(a, FunctionNode):
            found = a
    return found


def _self_name(method: ast.AST | None) -> str | None:
    if method is None or not isinstance(method, FunctionNode):
        return None
    args = method.args.posonlyargs + method.args.args
    for d in method.decorator_list:
        if (dotted(d) or "").split(".")[-1] == "staticmethod":
            # a staticmethod that names its first parameter `self` is called with the instance
            return "self" if args and args[0].arg == "self" else None
    return args[0].arg if args else None


def _allocation_lifetime(facts: "PythonFacts", cls: ast.ClassDef, module_instantiated: set,
                         classes: dict) -> str | None:
    """How long instances of `cls` live, from where this module allocates them (Infer
    Pulse's allocation-site reasoning): "import-time instance" (built at module level),
    "singleton" (a metaclass whose `__call__` caches instances, a class attribute holding
    `cls(...)` set by a classmethod, or a module global filled once by an accessor), None
    (every allocation is a local of a function that neither returns, stores nor passes it
    on: one call's object), "unknown" (no allocation in this module). Never decided by
    the class's name."""
    if cls.name in module_instantiated:
        return "import-time instance"
    if _singleton_metaclass(facts, cls, classes) or _singleton_accessor(facts, cls):
        return "singleton"
    sites = _allocation_sites(facts, cls)
    if not sites:
        return "unknown"
    if all(_call_local(facts, call) for call in sites):
        return None
    return "unknown"


def _allocation_sites(facts: "PythonFacts", cls: ast.ClassDef) -> list[ast.Call]:
    index = facts.memo("containers.alloc_sites", lambda: _index_allocations(facts))
    return index.get(cls.name, [])


def _index_allocations(facts: "PythonFacts") -> dict[str, list[ast.Call]]:
    out: dict[str, list[ast.Call]] = {}
    for call in facts.nodes(ast.Call):
        if isinstance(call.func, ast.Name):
            out.setdefault(call.func.id, []).append(call)
    return out


def _call_local(facts: "PythonFacts", call: ast.Call) -> bool:
    """Is the object `call` builds one call's own: bound to a local of a function (or used
    as a receiver right away) that the function never returns, yields, stores in an
    attribute, subscript or global, nor passes to another call?"""
    fn = facts.enclosing_function(call)
    if fn is None:
        return False
    parent = facts.parents.get(call)
    if isinstance(parent, ast.Attribute) and facts.parents.get(parent) is not None \
            and isinstance(facts.parents.get(parent), ast.Call):
        return True  # `Tally().record(x)`: used once and dropped
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    name = parent.targets[0].id
    for n in ast.walk(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return False
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            up = facts.parents.get(n)
            if isinstance(up, ast.Attribute) and up.value is n:
                continue  # a method call or attribute read on it
            return False  # returned, stored, passed on or aliased
    return True


def _singleton_metaclass(facts: "PythonFacts", cls: ast.ClassDef, classes: dict) -> bool:
    """`class C(metaclass=M)` where M (a class of this module) defines `__call__` that
    stores the instance it builds in a subscript (the singleton-metaclass idiom)."""
    for kw in cls.keywords:
        if kw.arg != "metaclass" or not isinstance(kw.value, ast.Name):
            continue
        meta = classes.get(kw.value.id)
        if meta is None:
            continue
        for item in meta.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__call__":
                for n in ast.walk(item):
                    if isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets) \
                            and isinstance(n.value, ast.Call):
                        return True
    return False


def _singleton_accessor(facts: "PythonFacts", cls: ast.ClassDef) -> bool:
    """The class's instance is kept for the process: a classmethod assigns `cls(...)`
    (or the class itself) to a `cls.`/class attribute, or a function assigns `C(...)` to
    a module global it declares `global`."""
    for call in _allocation_sites(facts, cls):
        parent = facts.parents.get(call)
        if isinstance(parent, ast.Assign):
            for t in parent.targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in ("cls", cls.name):
                    return True
                if isinstance(t, ast.Name):
                    fn = facts.enclosing_function(call)
                    if fn is not None and any(isinstance(n, ast.Global) and t.id in n.names for n in ast.walk(fn)):
                        return True
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for n in ast.walk(item):
                if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) \
                        and isinstance(n.value.func, ast.Name) and n.value.func.id == "cls" \
                        and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                and t.value.id == "cls" for t in n.targets):
                    return True
    return False


def collect_containers(facts: "PythonFacts") -> list[LongLivedContainer]:
    """Find every module-level, class-level and `self.` container and its sites.

    Returns containers in source order of their creation. See `LongLivedContainer`.
    Never raises on odd code: unrecognised shapes are simply not containers.
    """
    out: list[LongLivedContainer] = []
    module_by_name: dict[str, LongLivedContainer] = {}
    class_by_key: dict[tuple[int, str], LongLivedContainer] = {}   # (id(ClassDef), attr)
    inst_by_key: dict[tuple[int, str], LongLivedContainer] = {}
    classes = {c.name: c for c in facts.nodes(ast.ClassDef)}
    chains: dict[int, list[ast.ClassDef]] = {}
    module_instantiated = set()
    for vals in facts.module_assignments.values():
        for v in vals:
            if isinstance(v, ast.Call):
                d = facts.dotted(v.func)
                if d in classes:
                    module_instantiated.add(d)

    # 1. creations
    for stmt in facts.nodes(ast.Assign, ast.AnnAssign):
        value = stmt.value
        kind, bound = _container_kind(facts, value)
        if kind is None:
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        parent = facts.parents.get(stmt)
        scope_node = facts.enclosing_scope(stmt)
        for t in targets:
            c = None
            if isinstance(t, ast.Name) and scope_node is facts.tree:
                if t.id in module_by_name:
                    continue
                c = LongLivedContainer(t.id, t.id, "module", None, kind, value, None)
                module_by_name[t.id] = c
            elif isinstance(t, ast.Name) and isinstance(scope_node, ast.ClassDef) and parent is scope_node:
                key = (id(scope_node), t.id)
                if key in class_by_key:
                    continue
                is_field = isinstance(value, ast.Call) and (facts.qualname(value.func) or "").endswith("field")
                if is_field:
                    c = LongLivedContainer(f"self.{t.id}", t.id, "instance", scope_node, kind, value, None)
                    inst_by_key[key] = c
                else:
                    c = LongLivedContainer(f"{scope_node.name}.{t.id}", t.id, "class", scope_node, kind, value, None)
                    class_by_key[key] = c
            elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                cls = facts.enclosing_class(stmt)
                if cls is None:
                    continue
                meth = _method_of(facts, stmt, cls)
                if meth is None or t.value.id != _self_name(meth):
                    continue
                key = (id(cls), t.attr)
                if key in inst_by_key or any((id(b), t.attr) in inst_by_key or (id(b), t.attr) in class_by_key
                                             for b in _class_chain(cls, classes, chains)[1:]):
                    continue  # a reassignment of its own or an inherited container
                c = LongLivedContainer(f"self.{t.attr}", t.attr, "instance", cls, kind, value, meth)
                inst_by_key[key] = c
            if c is not None:
                c._explicit_bound = bound
                if c.scope == "instance":
                    c.lifetime = _allocation_lifetime(facts, c.owner, module_instantiated, classes)
                    c.long_lived = c.lifetime in ("import-time instance", "singleton")
                out.append(c)
    if not out:
        return out

    # 2. references: map each reference node to its container
    refs: list[tuple[ast.AST, LongLivedContainer, ast.AST | None]] = []   # (ref, container, method)
    by_attr: dict[str, list[LongLivedContainer]] = {}
    for c in out:
        if c.scope != "module":
            by_attr.setdefault(c.attr, []).append(c)
    if by_attr:
        for node in facts.nodes(ast.Attribute):
            cands = by_attr.get(node.attr)
            if not cands or not isinstance(node.value, ast.Name):
                continue
            recv = node.value.id
            cls = facts.enclosing_class(node)
            chain = _class_chain(cls, classes, chains) if cls is not None else []
            best = None
            for c in cands:
                if recv == c.owner.name and c.scope == "class":
                    best = (node, c, facts.enclosing_function(node))
                    break
                if c.owner not in chain:
                    continue
                meth = _method_of(facts, node, cls)
                if meth is not None and recv == _self_name(meth):
                    # the most derived owner wins (a subclass re-creating the attribute)
                    if best is None or chain.index(c.owner) < chain.index(best[1].owner):
                        best = (node, c, meth)
            if best is not None:
                refs.append(best)
    if module_by_name:
        local_cache: dict[int, set[str]] = {}
        for node in facts.nodes(ast.Name):
            c = module_by_name.get(node.id)
            if c is None:
                continue
            fn = facts.enclosing_function(node)
            if fn is not None:
                loc = local_cache.get(id(fn))
                if loc is None:
                    loc = _locally_bound(facts, fn)
                    local_cache[id(fn)] = loc
                if node.id in loc:
                    continue
            if isinstance(node.ctx, ast.Store) and node is c.creation and fn is None:
                continue
            refs.append((node, c, _method_of(facts, node, facts.tree)))

    # 3. local aliases (`reqs = self.requests`) extend references inside one function
    aliases: dict[tuple[int, str], LongLivedContainer] = {}
    for ref, c, _m in refs:
        p = facts.parents.get(ref)
        if isinstance(p, ast.Assign) and p.value is ref and len(p.targets) == 1 and isinstance(p.targets[0], ast.Name):
            fn = facts.enclosing_function(ref)
            if fn is not None:
                aliases[(id(fn), p.targets[0].id)] = c
    if aliases:
        for node in facts.nodes(ast.Name):
            if not isinstance(node.ctx, (ast.Load, ast.Del)):
                continue
            fn = facts.enclosing_function(node)
            if fn is None:
                continue
            c = aliases.get((id(fn), node.id))
            if c is not None:
                owner = c.owner if c.scope != "module" else facts.tree
                refs.append((node, c, _method_of(facts, node, owner) or fn))

    # 4. classify each reference
    for ref, c, meth in refs:
        _classify(facts, ref, c, meth)
    # 4c. a class whose every instance is an entry of a container that drops its entries
    #     (created per task/request, evicted or removed with its entry) is per invocation:
    #     its containers live as long as that entry, not as long as the process (value
    #     fact, which overrides the name hint and the registry shape below)
    per_invocation: dict[int, bool] = {}
    uses: _ClassUses | None = None
    for c in out:
        if c.scope == "instance":
            if id(c.owner) not in per_invocation:
                if uses is None:
                    uses = _ClassUses(facts, out)
                per_invocation[id(c.owner)] = _per_invocation_class(facts, c.owner, uses, classes)
            if per_invocation[id(c.owner)]:
                c.long_lived = False
                c.per_invocation = True
                c.lifetime = None
    # 5. a class that indexes its containers by per-call keys in several methods is a
    #    registry serving many requests: its instances outlive each key (value fact)
    by_class: dict[int, list[LongLivedContainer]] = {}
    for c in out:
        if c.scope == "instance" and not c.long_lived and not c.per_invocation:
            by_class.setdefault(id(c.owner), []).append(c)
    for group in by_class.values():
        if _serves_many_keys(facts, group):
            for c in group:
                c.long_lived = True
                c.lifetime = "registry"
        else:  # a container one `async def` fills and empties per call outlives each call
            for c in group:
                c.long_lived = _registers_own_calls(facts, c)
                if c.long_lived:
                    c.lifetime = "registry"
    # 4b. an attribute named by a string in the file (`other_param_names = ("r", "scaling")`,
    #     `getattr(self, name).pop(adapter)`) is reached reflectively: it may be cleared
    #     there, so it escapes the analysis (peft's layers delete adapters this way)
    strings = facts.memo("containers.strings", lambda: {n.value for n in facts.nodes(ast.Constant)
                                                         if isinstance(n.value, str)})
    for c in out:
        if c.scope != "module" and c.attr in strings and c.creation is not None:
            c.escapes.append(ContainerSite(c.creation, "escape", None, None, None, c.creation_method))
    for c in out:
        for lst in (c.inserts, c.removals, c.reads, c.escapes):
            lst.sort(key=lambda s: (getattr(s.node, "lineno", 0), getattr(s.node, "col_offset", 0)))
    return out


def _annotation_nodes(facts: "PythonFacts") -> set[int]:
    """Ids of every node inside an annotation (parameter, return, `x: T`): a class named
    there is a type, not an instance."""
    def compute():
        out: set[int] = set()
        roots = []
        for fn in facts.nodes(*FunctionNode):
            a = fn.args
            roots.extend(p.annotation for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
                         if p is not None and p.annotation is not None)
            if fn.returns is not None:
                roots.append(fn.returns)
        roots.extend(s.annotation for s in facts.nodes(ast.AnnAssign))
        for r in roots:
            out.update(id(n) for n in ast.walk(r))
        return out
    return facts.memo("containers.annotation_nodes", compute)


def _drops_entries(c: LongLivedContainer) -> bool:
    """Does container `c` lose entries: a bound (weak, maxsize, LRU), or any removal site?"""
    return c.bounded or bool(c.removals)


class _ClassUses:
    """What `_per_invocation_class` asks of the whole module, indexed once per file
    rather than once per class: the names classes derive from (last dotted part), the
    entry values stored into the containers (id -> container), the `defaultdict`
    factories (id -> container), the annotation nodes, and the loaded Names by id.

    Args:
        facts: the file's `PythonFacts`.
        containers: the module's `LongLivedContainer`s (their inserts and creations).
    """

    def __init__(self, facts: "PythonFacts", containers: list[LongLivedContainer]):
        self.base_names: set[str] = {(dotted(b) or "").split(".")[-1]
                                     for k in facts.nodes(ast.ClassDef) for b in k.bases}
        self.values: dict[int, LongLivedContainer] = {}
        for c in containers:
            for s in c.inserts:
                if s.value is not None and s.kind in ("subscript", "setdefault", "__setitem__"):
                    self.values[id(s.value)] = c
        self.factories: dict[int, LongLivedContainer] = {}
        for c in containers:
            v = c.creation
            if isinstance(v, ast.Call) and (dotted(v.func) or "").split(".")[-1] == "defaultdict" and v.args:
                self.factories[id(v.args[0])] = c
        self.annotations = _annotation_nodes(facts)
        self.loads: dict[str, list[ast.Name]] = {}
        for ref in facts.nodes(ast.Name):
            if isinstance(ref.ctx, ast.Load) and id(ref) not in self.annotations:
                self.loads.setdefault(ref.id, []).append(ref)


def _per_invocation_class(facts: "PythonFacts", cls: ast.ClassDef, uses: _ClassUses,
                          classes: dict[str, ast.ClassDef]) -> bool:
    """Is every instance of `cls` made in this module an entry of a container that drops
    its entries, so that each instance lives as long as its entry (one task's, one
    request's), not as long as the process?

    True when `cls` has no subclass in the module, is referenced by name (outside
    annotations and `isinstance`/`issubclass` checks) only to construct it, at least once,
    and every construction, inside a def, is stored as an entry's value into a
    container of the module that drops entries (`_drops_entries`: a bound or a removal)
    — directly (`self.queues[k] = Queue()`, `.setdefault(k, Queue())`, through a
    conditional expression or `or`) or through a local of that def whose every other use
    only reads or calls its attributes (`q = self.queues[k] if k in self.queues else
    Queue()`; `q.enqueue(x)`; `self.queues[k] = q`) — or is the factory of a
    `defaultdict(cls)` container that drops entries. A construction at module level,
    one returned, passed on, aliased or stored anywhere else, and a reference of any
    other kind (a factory handed on, `cls.create()`), make it False: some instance may
    then live as long as the process. Source: hatchet-sdk's `OrderedCompletionQueue`,
    one per task invocation in a TTL cache that `cleanup_task_state` also empties."""
    name = cls.name
    if classes.get(name) is not cls:
        return False
    if name in uses.base_names:  # a subclass here (`class B(A)`, `class B(mod.A)`)
        return False
    values, factories = uses.values, uses.factories
    made = 0
    for ref in uses.loads.get(name, ()):
        p = facts.parents.get(ref)
        if isinstance(p, ast.Tuple):
            p = facts.parents.get(p)
        if isinstance(p, ast.Call) and p.func is not ref and isinstance(p.func, ast.Name) \
                and p.func.id in ("isinstance", "issubclass"):
            continue
        if id(ref) in factories:
            if not _drops_entries(factories[id(ref)]):
                return False
            made += 1
            continue
        p = facts.parents.get(ref)
        if not (isinstance(p, ast.Call) and p.func is ref):
            return False
        fn = facts.enclosing_function(p)
        if fn is None:
            return False
        value = p
        up = facts.parents.get(value)
        while isinstance(up, (ast.IfExp, ast.BoolOp)) and (not isinstance(up, ast.IfExp) or up.test is not value):
            value, up = up, facts.parents.get(up)
        holder = values.get(id(value))
        if holder is not None:
            if not _drops_entries(holder):
                return False
            made += 1
            continue
        if not (isinstance(up, ast.Assign) and len(up.targets) == 1 and isinstance(up.targets[0], ast.Name)):
            return False
        if not _local_only_stored(facts, fn, up.targets[0].id, up, values):
            return False
        made += 1
    return made > 0


def _local_only_stored(facts: "PythonFacts", fn: ast.AST, local: str, binding: ast.AST,
                       values: dict[int, LongLivedContainer]) -> bool:
    """Is every use of local `local` of `fn` (other than its binding) a read of one of
    its attributes (`q.items`, `q.put(x)`), a test of it, or its store as the value of an
    entry of a container that drops entries — at least one such store — and is it not
    rebound in a nested def?"""
    stored = False
    for n in facts.walk(fn, into_defs=True):
        if not (isinstance(n, ast.Name) and n.id == local):
            continue
        if isinstance(n.ctx, ast.Store):
            if facts.enclosing_function(n) is not fn:
                return False
            continue
        if facts.enclosing_function(n) is not fn:
            return False  # a closure holds it
        p = facts.parents.get(n)
        holder = values.get(id(n))
        if holder is not None:
            if not _drops_entries(holder):
                return False
            stored = True
        elif isinstance(p, ast.Attribute) and p.value is n:
            continue
        elif isinstance(p, ast.Compare) or (isinstance(p, (ast.If, ast.While, ast.IfExp)) and p.test is n) or \
                (isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not)):
            continue
        else:
            return False
    return stored


def _varies_per_call(facts: "PythonFacts", key: ast.AST) -> bool:
    """Is a key built from per-call values: it reads a name that is neither `self`/`cls`
    nor bound at module level (a parameter, a local, a loop variable)?"""
    mod = facts.module_names
    for n in ast.walk(key):
        if isinstance(n, ast.Name) and n.id not in ("self", "cls") and n.id not in mod:
            return True
    return False


def _serves_many_keys(facts: "PythonFacts", group: list[LongLivedContainer]) -> bool:
    """Does the class give its containers a per-key lifecycle — one method (other than
    `__init__`) inserts under a per-call key and another removes by a per-call key?
    Such an object is a registry that requests, sessions or groups come and go
    through, not a per-request value. (Reads alone do not count: peft's layers read
    their per-adapter dicts in `forward` but are not registries of requests.)"""
    ins: set[str] = set()
    rm: set[str] = set()
    for c in group:
        for dest, sites in ((ins, c.inserts), (rm, c.removals)):
            for s in sites:
                if s.key is None or s.method is None or s.method.name in ("__init__", "__post_init__"):
                    continue
                if isinstance(s.key, ast.Constant) or not _varies_per_call(facts, s.key):
                    continue
                dest.add(s.method.name)
    return bool(ins) and bool(rm) and bool(ins - rm or rm - ins) and len(ins | rm) >= 2


def _registers_own_calls(facts: "PythonFacts", c: LongLivedContainer) -> bool:
    """Does an `async def` of the class use the instance container `c` as a registry of
    its own calls: it inserts under a key built from its parameters or locals (no
    module-level name) and removes the same key itself later (`self.queues[rid] = q`
    ... `self.queues.pop(rid)`, in a `finally` or on the normal path)?

    A dict keyed by the call's own id that the call empties again only makes sense
    while several calls of the object are in flight at once: the object outlives each
    call, and an entry a cancelled call leaves behind stays for the object's life.
    (What decides is where the key comes from and that the same call removes it; the
    class's name plays no part.) `__init__`/`__aenter__` set the object up and do not
    count."""
    for ins in c.inserts:
        fn = ins.function
        if not isinstance(fn, ast.AsyncFunctionDef) or ins.key is None or fn.name in ("__init__", "__aenter__"):
            continue
        names = {n.id for n in ast.walk(ins.key) if isinstance(n, ast.Name)} - {"self", "cls"}
        if not names or names & facts.module_names:
            continue
        key = ast.dump(ins.key)
        if any(r.function is fn and r.key is not None and pos(r.node) > pos(ins.node)
               and ast.dump(r.key) == key for r in c.removals):
            return True
    return False


def _class_chain(cls: ast.ClassDef, classes: dict[str, ast.ClassDef],
                 memo: dict[int, list[ast.ClassDef]]) -> list[ast.ClassDef]:
    """`cls` and its base classes defined in the same file (by name), nearest first."""
    got = memo.get(id(cls))
    if got is not None:
        return got
    out = [cls]
    memo[id(cls)] = out  # guards against cycles
    todo = [cls]
    while todo:
        k = todo.pop(0)
        for b in k.bases:
            name = dotted(b)
            base = classes.get(name.split(".")[-1]) if name else None
            if base is not None and base not in out:
                out.append(base)
                todo.append(base)
    return out


def _locally_bound(facts: "PythonFacts", fn: ast.AST) -> set[str]:
    """Names a function binds locally (params, assignments) minus its `global` names."""
    names = {a.arg for a in (fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs)}
    if fn.args.vararg:
        names.add(fn.args.vararg.arg)
    if fn.args.kwarg:
        names.add(fn.args.kwarg.arg)
    glob: set[str] = set()
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            glob.update(n.names)
    return names - glob


def _classify(facts: "PythonFacts", ref: ast.AST, c: LongLivedContainer, meth) -> None:
    fn = facts.enclosing_function(ref)
    p = facts.parents.get(ref)

    def site(node, kind, key=None, value=None):
        return ContainerSite(node, kind, key, value, fn, meth)

    ctx = getattr(ref, "ctx", None)
    if isinstance(ctx, ast.Store):
        while isinstance(p, (ast.Tuple, ast.List, ast.Starred)):  # `old, self.c = self.c, {}`
            p = facts.parents.get(p)
            if isinstance(p, (ast.Assign, ast.For, ast.AsyncFor, ast.withitem, ast.comprehension)):
                c.removals.append(site(p, "reassign"))
                return
        if ref is not getattr(p, "targets", [None])[0] and getattr(p, "target", None) is not ref:
            return
        if getattr(p, "value", None) is c.creation:
            return
        c.removals.append(site(p, "reassign"))
        return
    if isinstance(ctx, ast.Del):
        c.removals.append(site(p, "del-container"))
        return
    if isinstance(p, ast.Subscript) and p.value is ref:
        if isinstance(p.ctx, ast.Store):
            stmt = facts.parents.get(p)
            if isinstance(stmt, ast.AugAssign):
                c.inserts.append(site(p, "augassign", p.slice, stmt.value))
            else:
                c.inserts.append(site(p, "subscript", p.slice, getattr(stmt, "value", None)))
        elif isinstance(p.ctx, ast.Del):
            c.removals.append(site(p, "del", p.slice))
        else:
            c.reads.append(site(p, "subscript", p.slice))
            if c.kind == "defaultdict":
                # a missing key read from a defaultdict is inserted (`__missing__` stores
                # the factory's value: Python docs, collections.defaultdict), so
                # `d[user_id].append(event)` files an entry under `user_id`
                # (counted where the entry is used as a container: a method called on it or
                # a nested subscript; a bare test `d[k] == 0` is a read)
                outer = facts.parents.get(p)
                call = facts.parents.get(outer) if isinstance(outer, ast.Attribute) else None
                if isinstance(call, ast.Call) and call.func is outer:
                    c.inserts.append(site(p, "defaultdict", p.slice, call.args[-1] if call.args else None))
                elif isinstance(outer, ast.Subscript) and outer.value is p:
                    c.inserts.append(site(p, "defaultdict", p.slice, None))
        return
    if isinstance(p, ast.Attribute) and p.value is ref:
        call = facts.parents.get(p)
        if not (isinstance(call, ast.Call) and call.func is p):
            # a bound method handed on (`task.add_done_callback(self.tasks.discard)`)
            if p.attr in REMOVE_METHODS:
                c.removals.append(site(p, p.attr))
            elif p.attr not in INSERT_METHODS and p.attr not in ("get", "keys", "values", "items", "copy"):
                c.escapes.append(site(p, "escape"))
            return
        m = p.attr
        first = call.args[0] if call.args else None
        key = first if m in _KEYED else None
        if m == "update" and isinstance(first, ast.Dict) and len(call.args) == 1 and not call.keywords \
                and first.keys and all(k is not None for k in first.keys):
            # `d.update({sid: session})`: an insertion under each key of the display
            for k, v in zip(first.keys, first.values):
                c.inserts.append(site(call, m, k, v))
            return
        if m in INSERT_METHODS:
            if m == "setdefault" or m == "__setitem__":
                value = call.args[1] if len(call.args) > 1 else None
            elif m in ("append", "appendleft", "insert", "extend", "extendleft", "update"):
                value = call.args[-1] if call.args else None
            else:
                value = first
            c.inserts.append(site(call, m, key, value))
        elif m in REMOVE_METHODS:
            c.removals.append(site(call, m, key))
        elif any(w in m.lower().split("_") for w in EVICT_WORDS) or m.lower().startswith(tuple(EVICT_WORDS)):
            c.removals.append(site(call, "evict"))
        elif m in ("get", "__getitem__", "__contains__"):
            c.reads.append(site(call, "get", first))
        return
    if isinstance(p, ast.Compare) and ref in p.comparators:
        c.reads.append(site(p, "in", p.left))
        return
    if isinstance(p, ast.Call) and ref in p.args or isinstance(p, ast.keyword):
        call = p if isinstance(p, ast.Call) else facts.parents.get(p)
        q = facts.qualname(call.func) if isinstance(call, ast.Call) else None
        if q in _READ_ONLY_CALLS or (q or "").split(".")[-1] in _READ_ONLY_CALLS:
            return
        c.escapes.append(site(ref, "escape"))
        return
    if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom)):
        c.escapes.append(site(ref, "escape"))
        return
    if isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is ref:
        targets = p.targets if isinstance(p, ast.Assign) else [p.target]
        if not (len(targets) == 1 and isinstance(targets[0], ast.Name) and fn is not None):
            c.escapes.append(site(ref, "escape"))


def _container_ref_index(facts: "PythonFacts") -> dict[int, LongLivedContainer]:
    """id(receiver node) -> container, for `PythonFacts.container_at`."""
    index: dict[int, LongLivedContainer] = {}
    for c in facts.containers:
        for s in (*c.inserts, *c.removals, *c.reads):
            n = s.node
            recv = None
            if isinstance(n, ast.Subscript):
                recv = n.value
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                recv = n.func.value
            if recv is not None:
                index[id(recv)] = c
        for s in c.escapes:
            index[id(s.node)] = c
    return index


