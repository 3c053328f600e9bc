"""Python: parse once with stdlib `ast`, compute per-file facts lazily, run rules.

`PythonFacts` is the shared analysis every Python rule reads (the go/analysis
model: facts computed once per file and reused by every analyzer). The tree is
walked exactly once, building a parent map and a node-type index; every other
fact (imports and qualified names, scopes, ContextVar bindings, long-lived
containers, scope ids reachable in a function) is derived lazily from that index
and cached on the facts object. astroid is never imported here; a rule that needs
inference asks `facts.astroid_module()` which imports it on demand.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import Callable, Iterable, Iterator, TypeVar

from ctxlint.config import Config
from ctxlint.findings import Finding, Fix

N = TypeVar("N", bound=ast.AST)

SUFFIXES = (".py", ".pyi")

FunctionNode = (ast.FunctionDef, ast.AsyncFunctionDef)
ScopeNode = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class PythonFacts:
    """Per-file facts for Python rules.

    Args:
        path: the path to report in findings (as given on the command line).
        text: the decoded source.
        tree: the `ast.Module` (parsed once by the caller, or handed in by flake8).
        config: the resolved `Config` (scope ids live there).

    All properties are computed on first use and cached; rules must use them
    rather than walking the tree themselves.
    """

    def __init__(self, path: str, text: str, tree: ast.Module, config: Config):
        self.path = path
        self.text = text
        self.tree = tree
        self.config = config
        self._memo: dict[str, object] = {}
        self.parents: dict[ast.AST, ast.AST] = {}
        self._by_type: dict[type, list[ast.AST]] = {}
        # The one traversal: parent links and a type index, in source order.
        stack: list[ast.AST] = [tree]
        order: list[ast.AST] = []
        parents = self.parents
        while stack:
            node = stack.pop()
            order.append(node)
            children = list(ast.iter_child_nodes(node))
            for child in children:
                parents[child] = node
            stack.extend(reversed(children))
        by_type = self._by_type
        for node in order:
            by_type.setdefault(type(node), []).append(node)

    # ------------------------------------------------------------------ basics
    def nodes(self, *types: type[N]) -> list[N]:
        """All nodes of the given ast types, in source (pre-)order."""
        if len(types) == 1:
            return self._by_type.get(types[0], [])  # type: ignore[return-value]
        out: list = []
        for t in types:
            out.extend(self._by_type.get(t, ()))
        out.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        return out

    def memo(self, key: str, compute: Callable[[], object]):
        """Cache a derived fact under `key` (for facts one rule family shares)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        """Parents of `node`, innermost first, up to the Module."""
        p = self.parents.get(node)
        while p is not None:
            yield p
            p = self.parents.get(p)

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The innermost def (not lambda) containing `node`, or None at module/class level."""
        for a in self.ancestors(node):
            if isinstance(a, FunctionNode):
                return a
        return None

    def enclosing_scope(self, node: ast.AST) -> ast.AST:
        for a in self.ancestors(node):
            if isinstance(a, ScopeNode):
                return a
        return self.tree

    def enclosing_class(self, node: ast.AST) -> ast.ClassDef | None:
        for a in self.ancestors(node):
            if isinstance(a, ast.ClassDef):
                return a
        return None

    def enclosing_statement(self, node: ast.AST) -> ast.stmt:
        n = node
        while not isinstance(n, ast.stmt):
            n = self.parents[n]
        return n

    def walk(self, node: ast.AST, into_defs: bool = False) -> Iterator[ast.AST]:
        """Walk a subtree (pre-order) using the shared parent-indexed tree.

        With `into_defs=False`, nested function/class bodies are not entered
        (a nested def is its own scope), though the def node itself is yielded.
        """
        stack = [node]
        while stack:
            n = stack.pop()
            yield n
            if n is not node and not into_defs and isinstance(n, (*FunctionNode, ast.ClassDef, ast.Lambda)):
                continue
            stack.extend(reversed(list(ast.iter_child_nodes(n))))

    def is_async_context(self, node: ast.AST) -> bool:
        f = self.enclosing_function(node)
        return isinstance(f, ast.AsyncFunctionDef)

    # ------------------------------------------------------------------ imports
    @cached_property
    def imports(self) -> dict[str, str]:
        """Local name -> qualified name for every import in the file (any depth).

        `import contextvars as cv` gives {"cv": "contextvars"};
        `from opentelemetry import context as otel_ctx` gives
        {"otel_ctx": "opentelemetry.context"}. Relative imports keep their dots.
        """
        out: dict[str, str] = {}
        for node in self.nodes(ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    out.setdefault(top, top)
        for node in self.nodes(ast.ImportFrom):
            mod = "." * node.level + (node.module or "")
            for a in node.names:
                if a.name == "*":
                    continue
                out[a.asname or a.name] = f"{mod}.{a.name}" if mod else a.name
        return out

    def qualname(self, expr: ast.AST) -> str | None:
        """Import-resolved dotted name of a Name/Attribute chain, else None.

        `cv.ContextVar` with `import contextvars as cv` -> "contextvars.ContextVar".
        A name that is not imported resolves to itself ("foo.bar").
        """
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if isinstance(expr, ast.Name):
            base = self.imports.get(expr.id, expr.id)
            parts.append(base)
            return ".".join(reversed(parts))
        return None

    def call_qualname(self, call: ast.Call) -> str | None:
        return self.qualname(call.func)

    @staticmethod
    def dotted(expr: ast.AST) -> str | None:
        """Unresolved dotted text of a Name/Attribute chain (`self.cache.get`)."""
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if isinstance(expr, ast.Name):
            parts.append(expr.id)
            return ".".join(reversed(parts))
        return None

    def imports_module(self, prefix: str) -> bool:
        return any(q == prefix or q.startswith(prefix + ".") for q in self.imports.values())

    # ------------------------------------------------------------ module scope
    @cached_property
    def module_assignments(self) -> dict[str, list[ast.AST]]:
        """Module-level name -> the value expressions assigned to it (incl. AnnAssign)."""
        out: dict[str, list[ast.AST]] = {}
        for stmt in self._module_level_statements():
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    for name in _target_names(t):
                        out.setdefault(name, []).append(stmt.value)
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                out.setdefault(stmt.target.id, []).append(stmt.value if stmt.value is not None else stmt.annotation)
        return out

    def _module_level_statements(self) -> Iterator[ast.stmt]:
        """Module statements, descending into if/try/with blocks but not defs."""
        stack = list(reversed(self.tree.body))
        while stack:
            s = stack.pop()
            yield s
            if isinstance(s, (ast.If, ast.Try, ast.With, ast.For, ast.While)) or type(s).__name__ == "TryStar":
                for fld in ("body", "orelse", "finalbody"):
                    stack.extend(reversed(getattr(s, fld, []) or []))
                for h in getattr(s, "handlers", []) or []:
                    stack.extend(reversed(h.body))

    @cached_property
    def module_names(self) -> set[str]:
        """Names bound at module level (assignments, defs, classes, imports)."""
        names = set(self.module_assignments)
        for s in self._module_level_statements():
            if isinstance(s, (*FunctionNode, ast.ClassDef)):
                names.add(s.name)
        names.update(self.imports)
        return names

    # ---------------------------------------------------------- ContextVars
    @cached_property
    def contextvar_names(self) -> set[str]:
        """Dotted names bound to a `contextvars.ContextVar(...)`.

        Module globals (`_tenant = ContextVar(...)`), class attributes (reported as
        `Class.attr` and `self.attr`/`cls.attr`), and names annotated
        `ContextVar[...]`. Receivers are resolved by qualified name, so
        `cv.ContextVar` and `from contextvars import ContextVar as CV` both count.
        """
        names: set[str] = set()

        def is_cv(expr: ast.AST | None) -> bool:
            if isinstance(expr, ast.Call):
                q = self.qualname(expr.func)
                return q is not None and (q == "contextvars.ContextVar" or q.endswith(".ContextVar") or q == "ContextVar")
            if isinstance(expr, ast.Subscript):
                return is_cv_type(expr.value)
            return is_cv_type(expr)

        def is_cv_type(expr: ast.AST | None) -> bool:
            if isinstance(expr, ast.Subscript):
                expr = expr.value
            if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
                return "ContextVar" in expr.value
            q = self.qualname(expr) if expr is not None else None
            return q is not None and q.split(".")[-1] == "ContextVar"

        for node in self.nodes(ast.Assign, ast.AnnAssign):
            value = node.value
            ann = getattr(node, "annotation", None)
            if not (is_cv(value) or (ann is not None and is_cv_type(ann))):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            cls = self.enclosing_class(node)
            fn = self.enclosing_function(node)
            for t in targets:
                d = self.dotted(t)
                if not d:
                    continue
                names.add(d)
                if cls is not None and fn is None and isinstance(t, ast.Name):
                    names.update({f"{cls.name}.{t.id}", f"self.{t.id}", f"cls.{t.id}"})
                if d.startswith("self."):
                    names.add(d)
        return names

    def is_contextvar(self, expr: ast.AST) -> bool:
        """Is `expr` (the receiver of `.set()`) a known ContextVar binding?"""
        d = self.dotted(expr)
        if d is None:
            return False
        if d in self.contextvar_names:
            return True
        q = self.qualname(expr)
        # An imported ContextVar (from .ctx import current_tenant) resolves by name
        # only when the imported name looks like one: the other module is not
        # parsed, so inference is left to rules that opt in.
        return q is not None and q != d and q.split(".")[-1] in self.contextvar_names

    # ------------------------------------------------------------- scope ids
    @cached_property
    def scope_id_names(self) -> frozenset[str]:
        return frozenset(self.config.scope_ids)

    def scope_id_in(self, name: str) -> str | None:
        """The scope id a dotted path ends in (`req.lora_request.lora_int_id` -> lora_int_id)."""
        ids = self.scope_id_names
        for part in reversed(name.split(".")):
            if part in ids:
                return part
        return None

    # ------------------------------------------------ long-lived containers
    # (section owned by the retention rules; implementation at the end of this module)
    @cached_property
    def containers(self) -> list["LongLivedContainer"]:
        """Every module-level, class-level and `self.` attribute container of the file,
        with its insertion, removal, read and escape sites (see `LongLivedContainer`).
        Instance containers of short-lived classes are included with `long_lived=False`."""
        return collect_containers(self)

    @cached_property
    def long_lived_containers(self) -> list["LongLivedContainer"]:
        """The containers that outlive a request: module and class level, and `self.`
        attributes of long-lived classes (engine/scheduler/manager/server/frontend/
        registry/cache/pool/... by name, or instantiated at module level)."""
        return [c for c in self.containers if c.long_lived]

    def container_at(self, expr: ast.AST) -> "LongLivedContainer | None":
        """The container a receiver expression (`self.requests`, `_CACHE`, an alias) refers to,
        when `expr` is one of the references the container analysis resolved."""
        index = self.memo("container_ref_index", lambda: _container_ref_index(self))
        return index.get(id(expr))

    # ------------------------------------------------------------- findings
    def finding(self, rule, node: ast.AST, message: str, fix: Fix | None = None,
                end: ast.AST | None = None) -> Finding:
        """Build a Finding for `rule` at `node`'s range (1-based columns)."""
        end_node = end or node
        return Finding(
            code=rule.code,
            name=rule.name,
            path=self.path,
            line=getattr(node, "lineno", 1),
            col=getattr(node, "col_offset", 0) + 1,
            end_line=getattr(end_node, "end_lineno", None) or getattr(node, "lineno", 1),
            end_col=(getattr(end_node, "end_col_offset", None) or getattr(node, "col_offset", 0)) + 1,
            message=message,
            fix=fix,
        )

    def offset(self, line: int, col: int) -> int:
        """Character offset of a 1-based line and 0-based column."""
        return self._line_starts[line - 1] + col

    @cached_property
    def _line_starts(self) -> list[int]:
        starts = [0]
        for ln in self.text.splitlines(keepends=True):
            starts.append(starts[-1] + len(ln))
        return starts

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment(self.text, node) or ""

    def astroid_module(self):
        """The file as an astroid module, built on first use (slow: only for inference)."""
        def build():
            import astroid  # heavy; imported only here
            try:
                return astroid.parse(self.text, path=self.path)
            except Exception:  # astroid raises many types on odd input
                return None
        return self.memo("astroid", build)


def _target_names(t: ast.AST) -> Iterable[str]:
    if isinstance(t, ast.Name):
        yield t.id
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            yield from _target_names(e)
    elif isinstance(t, ast.Starred):
        yield from _target_names(t.value)


def parse(path: str, text: str) -> tuple[ast.Module | None, Finding | None]:
    """Parse Python source; on failure return a CTX000 finding at the parser's location."""
    try:
        return ast.parse(text, filename=path, type_comments=False), None
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = max(exc.offset or 1, 1)
        return None, Finding("CTX000", "parse-error", path, line, col, line, col + 1,
                             f"cannot parse Python: {exc.msg}")
    except (ValueError, RecursionError, MemoryError) as exc:
        # ValueError: source contains null bytes; RecursionError: absurdly deep nesting.
        return None, Finding("CTX000", "parse-error", path, 1, 1, 1, 1,
                             f"cannot parse Python: {type(exc).__name__}: {exc}")


def run_rules(facts: PythonFacts, rules: list) -> list[Finding]:
    """Run each rule's check over the shared facts; a rule that crashes is reported, not fatal."""
    out: list[Finding] = []
    for rule in rules:
        try:
            out.extend(rule.check(facts))
        except RecursionError:
            continue
    return out


def lint(path: str, text: str, rules: list, config: Config, tree: ast.Module | None = None) -> list[Finding]:
    """Lint one Python source with the given (already prefiltered) rules.

    Args:
        tree: an already-parsed `ast.Module` (flake8 hands in its own); parsed here otherwise.
    Returns findings before suppression. Never raises on bad input.
    """
    if not rules:
        return []
    if tree is None:
        tree, err = parse(path, text)
        if err is not None:
            return [err]
    facts = PythonFacts(path, text, tree, config)
    return run_rules(facts, rules)


# =============================================================================
# Long-lived containers (section owned by the retention rules, CTX401/CTX404;
# also read by CTX108 and CTX203). Computed once per file through
# `PythonFacts.containers` / `PythonFacts.long_lived_containers`.
# =============================================================================

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
#: Method-name words that mean an eviction call on the container (`self.cache.expire()`).
EVICT_WORDS = frozenset({"evict", "expire", "prune", "trim", "purge", "cleanup", "shrink",
                         "gc", "collect", "reset", "free", "release", "drop"})
#: Methods whose first positional argument is the key.
_KEYED = frozenset({"setdefault", "pop", "discard", "remove", "add", "__setitem__",
                    "__delitem__", "get", "__getitem__", "put", "put_nowait"})
#: Class-name words marking classes whose instances live as long as the process.
LONG_LIVED_CLASS_WORDS: tuple[str, ...] = (
    "engine", "scheduler", "manager", "server", "frontend", "registry", "cache", "pool",
    "router", "service", "allocator", "tracker", "controller", "orchestrator", "coordinator",
    "executor", "worker", "store", "broker", "dispatcher", "gateway", "daemon", "app",
    "backend", "client", "processor", "handler", "loader",
)
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
            "escape" (passed to a call, returned, or aliased outside the function).
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
            class whose name says it is long-lived (engine, scheduler, manager, server,
            frontend, registry, cache, pool, ...) or that is instantiated at module level.
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
        self.inserts: list[ContainerSite] = []
        self.removals: list[ContainerSite] = []
        self.reads: list[ContainerSite] = []
        self.escapes: list[ContainerSite] = []
        self._explicit_bound: str | None = None

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
    for d in method.decorator_list:
        if (PythonFacts.dotted(d) or "").split(".")[-1] == "staticmethod":
            return None
    args = method.args.posonlyargs + method.args.args
    return args[0].arg if args else None


def _is_long_lived_class(name: str) -> bool:
    low = name.lower()
    return any(w in low for w in LONG_LIVED_CLASS_WORDS)


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
                if key in inst_by_key:
                    continue
                c = LongLivedContainer(f"self.{t.attr}", t.attr, "instance", cls, kind, value, meth)
                inst_by_key[key] = c
            if c is not None:
                c._explicit_bound = bound
                if c.scope == "instance":
                    c.long_lived = _is_long_lived_class(c.owner.name) or c.owner.name in module_instantiated
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
            for c in cands:
                if recv == c.owner.name and c.scope == "class":
                    refs.append((node, c, facts.enclosing_function(node)))
                    break
                cls = facts.enclosing_class(node)
                if cls is not c.owner:
                    continue
                meth = _method_of(facts, node, cls)
                if meth is not None and recv == _self_name(meth):
                    refs.append((node, c, meth))
                    break
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
    for c in out:
        for lst in (c.inserts, c.removals, c.reads, c.escapes):
            lst.sort(key=lambda s: (getattr(s.node, "lineno", 0), getattr(s.node, "col_offset", 0)))
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
        return
    if isinstance(p, ast.Attribute) and p.value is ref:
        call = facts.parents.get(p)
        if not (isinstance(call, ast.Call) and call.func is p):
            return
        m = p.attr
        first = call.args[0] if call.args else None
        key = first if m in _KEYED else None
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
