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
        # The one traversal: parent links and a type index, in source (pre-)order.
        self.parents, self._by_type, self._children = _index_tree(tree)

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
        """Source lines as the parser numbers them (split on "\n" only; the engine
        normalises CRLF/CR, and form feeds or U+2028 are not line breaks to `ast`)."""
        return self.text.split("\n")

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
        children = self._children
        stack = [node]
        scopes = _SCOPE_TYPES
        while stack:
            n = stack.pop()
            yield n
            if n is not node and not into_defs and n.__class__ in scopes:
                continue
            kids = children.get(n)
            if kids is None:
                if n in self.parents or n is self.tree:
                    continue  # an indexed leaf
                kids = list(ast.iter_child_nodes(n))  # a node built outside this tree
            stack.extend(reversed(kids))

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
        """Character offset into `text` of a 1-based line and an `ast` column
        (`col_offset` counts UTF-8 bytes; converted to characters here)."""
        return self._line_starts[line - 1] + self.char_col(line, col)

    def char_col(self, line: int, col: int) -> int:
        """Convert an `ast` byte column on 1-based `line` to a character column."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return col
        return len(text.encode("utf-8")[:col].decode("utf-8", "ignore"))

    @cached_property
    def _line_starts(self) -> list[int]:
        starts = [0]
        for ln in self.lines:
            starts.append(starts[-1] + len(ln) + 1)
        return starts

    def segment(self, node: ast.AST) -> str:
        """Source text of `node` (like `ast.get_source_segment`, without re-splitting
        the whole file on every call: that made big files quadratic)."""
        try:
            l1, l2 = node.lineno, node.end_lineno
            c1, c2 = node.col_offset, node.end_col_offset
        except AttributeError:
            return ""
        if l2 is None or c2 is None or not (0 < l1 <= l2 <= len(self.lines)):
            return ""
        lines = self.lines

        def cut(text: str, a: int | None, b: int | None) -> str:
            if text.isascii():
                return text[a:b]
            return text.encode("utf-8")[a:b].decode("utf-8", "replace")

        if l1 == l2:
            return cut(lines[l1 - 1], c1, c2)
        return "\n".join([cut(lines[l1 - 1], c1, None), *lines[l1:l2 - 1], cut(lines[l2 - 1], None, c2)])

    def astroid_module(self):
        """The file as an astroid module, built on first use (slow: only for inference)."""
        def build():
            import astroid  # heavy; imported only here
            try:
                return astroid.parse(self.text, path=self.path)
            except Exception:  # astroid raises many types on odd input
                return None
        return self.memo("astroid", build)


#: Per node class, the fields that can hold child nodes. `ctx` (Load/Store/Del)
#: and operator fields hold shared singleton leaves that no rule indexes, so they
#: are not visited: that, and reading `_fields` directly rather than through
#: `ast.iter_child_nodes`' generators, makes the one traversal ~3x faster.
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "type_comment"})
#: Fields that hold only strings/numbers on these classes (skipped without a getattr).
_SCALAR_FIELDS: dict[str, frozenset[str]] = {
    "Constant": frozenset({"value", "kind"}), "Name": frozenset({"id"}), "Attribute": frozenset({"attr"}),
    "alias": frozenset({"name", "asname"}), "arg": frozenset({"arg"}), "keyword": frozenset({"arg"}),
    "ImportFrom": frozenset({"module", "level"}), "FunctionDef": frozenset({"name"}),
    "AsyncFunctionDef": frozenset({"name"}), "ClassDef": frozenset({"name"}), "Global": frozenset({"names"}),
    "Nonlocal": frozenset({"names"}), "FormattedValue": frozenset({"conversion"}),
    "comprehension": frozenset({"is_async"}), "ExceptHandler": frozenset({"name"}),
    "MatchAs": frozenset({"name"}), "MatchStar": frozenset({"name"}), "MatchClass": frozenset({"kwd_attrs"}),
    "MatchMapping": frozenset({"rest"}),
}


_SCOPE_TYPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})


def _index_tree(tree: ast.AST) -> tuple[dict, dict, dict]:
    """One pre-order pass over `tree`: (child -> parent, node class -> nodes in
    source order, node -> its child nodes in order; leaves have no entry)."""
    parents: dict[ast.AST, ast.AST] = {}
    children: dict[ast.AST, list] = {}
    by_type: dict[type, list[ast.AST]] = {}
    child_fields = _CHILD_FIELDS
    leaf = _LEAF_FIELDS
    AST = ast.AST
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        cls = node.__class__
        lst = by_type.get(cls)
        if lst is None:
            lst = by_type[cls] = []
        lst.append(node)
        fields = child_fields.get(cls)
        if fields is None:
            scalar = _SCALAR_FIELDS.get(cls.__name__, frozenset())
            fields = child_fields[cls] = tuple(f for f in cls._fields if f not in leaf and f not in scalar)
        if not fields:
            continue  # Name, Constant, Pass, ...: no children
        kids = []
        for name in fields:
            v = getattr(node, name, None)
            if v is None:
                continue
            if v.__class__ is list:
                for item in v:
                    if isinstance(item, AST):
                        kids.append(item)
            elif isinstance(v, AST):
                kids.append(v)
        if kids:
            children[node] = kids
            for k in reversed(kids):
                parents[k] = node
                push(k)
    return parents, by_type, children


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
    """Run the rules over the shared facts (see `ctxlint.rules.run_checks`)."""
    from ctxlint.rules import run_checks
    return run_checks(facts, rules)


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
    "backend", "client", "connector", "limiter",
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
    args = method.args.posonlyargs + method.args.args
    for d in method.decorator_list:
        if (PythonFacts.dotted(d) or "").split(".")[-1] == "staticmethod":
            # a staticmethod that names its first parameter `self` is called with the instance
            return "self" if args and args[0].arg == "self" else None
    return args[0].arg if args else None


def _is_long_lived_class(name: str) -> bool:
    """By the CamelCase words of the name: `LLMEngine`, `TokenizerManager`, `KVCachePool`."""
    import re
    words = [w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+", name)]
    if not words:
        return False
    head = words[-1]  # the head noun: `ConnectorMetadata` is metadata, `KVConnector` a connector
    return head in LONG_LIVED_CLASS_WORDS or (head.endswith("s") and head[:-1] in LONG_LIVED_CLASS_WORDS)


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
    for c in out:
        for lst in (c.inserts, c.removals, c.reads, c.escapes):
            lst.sort(key=lambda s: (getattr(s.node, "lineno", 0), getattr(s.node, "col_offset", 0)))
    return out


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
            name = PythonFacts.dotted(b)
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


# =============================================================================
# Cache-key facts (section owned by the cache-key rules, CTX501-CTX505).
# Scope ids reachable in each function (parameters, attribute paths of
# parameters, fields of a parameter's annotated class, scope ContextVars), a
# small flow-insensitive def-use over each function's assignments, key
# closures, and the places a key is used (cache containers, hash()/hashlib
# digests, key-builder returns, `*Key(...)` constructors). Computed once per
# file through `cache_key_facts(facts)`; per-function results are memoized.
# =============================================================================

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
#: Container methods whose first argument is a key.
KEY_METHODS = frozenset({"get", "setdefault", "pop", "put", "set", "add", "discard", "__getitem__",
                         "__setitem__", "__contains__", "__delitem__"})
#: hashlib / xxhash / mmh3 callables that digest their argument.
_DIGEST_MODULES = ("hashlib.", "xxhash.", "mmh3.", "blake3.")
#: Callable names that are hash functions by convention in serving code.
_HASH_FN_NAMES = frozenset({"hash_function", "hash_fn", "hasher", "sha256", "sha256_cbor", "md5",
                            "blake2b", "blake2s", "sha1", "sha512", "xxh64", "xxh3_64", "xxh128"})
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
        self_scoped: the enclosing class's instances carry a scope id (`self.tenant_id`):
            their own `self.` containers are per-scope, not shared.
    """

    __slots__ = ("ids", "roots", "self_scoped")

    def __init__(self):
        self.ids: dict[str, str] = {}
        self.roots: set[str] = set()
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
    """

    __slots__ = ("kind", "node", "keys", "function", "container", "values")

    def __init__(self, kind, node, keys, function, container=None, values=()):
        self.kind = kind
        self.node = node
        self.keys = list(keys)
        self.function = function
        self.container = container
        self.values = list(values)


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

    def closure(self, fn: ast.AST, exprs: Iterable[ast.AST], limit: int = 400) -> list[ast.AST]:
        """Every node the expressions are built from, following local names to their
        definitions in `fn` (transitively). Nested lambdas/comprehensions are entered."""
        d = self.defs(fn)
        seen_names: set[str] = set()
        out: list[ast.AST] = []
        stack = [e for e in exprs if e is not None]
        while stack and len(out) < limit:
            e = stack.pop()
            for n in ast.walk(e):
                out.append(n)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in seen_names:
                    seen_names.add(n.id)
                    for df in d.get(n.id, ()):
                        stack.append(df.value)
        return out

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
                        break
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                    and not n.args and facts.is_contextvar(n.func.value):
                cv = facts.dotted(n.func.value) or ""
                sid = self.scope_id_of_name(cv.split(".")[-1])
                if sid:
                    r.ids.setdefault(sid, f"{cv}.get()")
        # the instance itself carries a scope id: self containers are per scope
        cls = facts.enclosing_class(fn)
        if me and cls is not None and facts.parents.get(fn) is cls:
            for sid, path in self.class_scope_fields(cls.name, depth=1):
                r.self_scoped = True
                r.ids.setdefault(sid, f"{me}.{path}")
        self._reach[id(fn)] = r
        return r

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
            elif isinstance(n, ast.Attribute):
                if n.attr in self.ids:
                    out.append((n.attr, n))
                elif whole and any(w in SCOPE_KIND_WORDS for w in ident_words(n.attr)):
                    out.append(("<root>", n))
                elif n.attr == "get" and facts.is_contextvar(n.value):
                    sid = self.scope_id_of_name((facts.dotted(n.value) or "").split(".")[-1])
                    if sid:
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
            return "hash" not in self.facts.module_names
        q = self.facts.qualname(f) or ""
        if q.startswith(_DIGEST_MODULES):
            return True
        last = q.split(".")[-1]
        return last in _HASH_FN_NAMES

    def sinks(self) -> list[KeySink]:
        """Every key use in the file, in source order (computed once)."""
        if self._sinks is not None:
            return self._sinks
        facts = self.facts
        out: list[KeySink] = []
        # 1. cache containers: module, class and self. containers whose name says cache
        for c in facts.containers:
            if c.kind in ("list", "deque") or not (self.is_cache_name(c.attr) or c.kind.endswith("Cache")):
                continue
            by_fn: dict[int, list] = {}
            for s in (*c.reads, *c.inserts, *c.removals):
                if s.key is None or s.function is None or isinstance(s.key, ast.Slice):
                    continue
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
        # 2. `SomethingKey(...)` constructors
        for call in facts.nodes(ast.Call):
            name = (facts.dotted(call.func) or "").split(".")[-1]
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
                if words & KEY_FN_WORDS and words & KEY_BUILDER_WORDS:
                    out.extend(self._builder_sinks(fn, True))
                    done.add(id(fn))
                elif words & DIGEST_FN_WORDS:
                    out.extend(s for s in self._builder_sinks(fn, False) if s.kind == "hash")
        frontier = list(out)
        for _ in range(4):
            called: set[str] = set()
            for s in frontier:
                for n in self.closure(s.function, s.keys):
                    if isinstance(n, ast.Call):
                        f = n.func
                        if isinstance(f, ast.Name) or (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                                                       and f.value.id in ("self", "cls")):
                            called.add(f.id if isinstance(f, ast.Name) else f.attr)
            frontier = []
            for name in called:
                for fn in funcs.get(name, ()):
                    if id(fn) in done:
                        continue
                    done.add(id(fn))
                    frontier.extend(s for s in self._builder_sinks(fn, True) if not any(o.node is s.node for o in out))
            out.extend(frontier)
            if not frontier:
                break
        out.sort(key=lambda s: (s.node.lineno, s.node.col_offset))
        self._sinks = out
        return out

    def _builder_sinks(self, fn: ast.AST, returns: bool) -> list[KeySink]:
        """Sinks of a key-building function: the first digest its returns are built from
        ("hash"), else (when `returns`) each non-empty returned value ("return")."""
        facts = self.facts
        rets = [n for n in facts.walk(fn) if isinstance(n, ast.Return) and n.value is not None
                and not isinstance(n.value, ast.Constant)
                and not (isinstance(n.value, (ast.Tuple, ast.List)) and not n.value.elts)]
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


def cache_key_facts(facts: "PythonFacts") -> CacheKeyFacts:
    """The file's `CacheKeyFacts`, built once and shared by CTX501-CTX505."""
    return facts.memo("cache_key_facts", lambda: CacheKeyFacts(facts))
