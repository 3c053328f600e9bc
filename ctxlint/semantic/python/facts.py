"""Per-file Python facts: the one traversal and the lazily derived analyses.

`PythonFacts` is the shared analysis every Python rule reads (the go/analysis
model: facts computed once per file and reused by every analyzer). The tree is
walked exactly once, building a parent map and a node-type index; every other
fact (imports and qualified names, scopes, ContextVar bindings, long-lived
containers, scope ids reachable in a function) is derived lazily from that index
and cached on the facts object. No inference engine is used: values are followed
within the module (see `values`, `calls`, `owners`), and across the modules of one
project only where a semantic module reads a sibling file itself (template
environments, `semantic.jinja.call_sites`). astroid was dropped: it cost 115 s on the
1.54M-line benchmark corpus against 7.1 s for `ast` and no rule needed its inference.
"""

from __future__ import annotations

import ast
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

from ctxlint.config import Config
from ctxlint.findings import Finding, Fix

if TYPE_CHECKING:
    from ctxlint.semantic.python.containers import LongLivedContainer

N = TypeVar("N", bound=ast.AST)


from ctxlint.semantic.python.syntax import FunctionNode, ScopeNode, add_import_names, dotted as _dotted  # noqa: E402,F401


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
    def is_test_code(self) -> bool:
        """Is this file test code: a module pytest collects or configures by default
        (`test_*.py`, `*_test.py`, `conftest.py`: pytest "Conventions for Python test
        discovery"), or one that imports a test driver (`pytest`, `unittest`)?
        A directory's name decides nothing: a project (or a checkout) may live under
        any `tests` folder, and a helper module there is judged by what it imports.

        State a test keeps lives for one test (a fake's dict, a fixture's registry); the
        rules about growth over a server's lifetime (CTX108, CTX401, CTX402, CTX404,
        CTX405, CTX406) and about dropped tasks (CTX107: the test's loop is closed when it
        ends) do not check it, as the Go rules skip `GoFacts.is_test_code`.
        Rules about values that bleed into the next test (CTX103, CTX106) skip only the
        project's own test modules (`is_test_module`), not the testing utilities it ships.
        """
        return self._pytest_name in ("conftest", "test") or any(self.imports_module(m) for m in ("pytest", "unittest"))

    @cached_property
    def _pytest_name(self) -> str:
        """"conftest" for `conftest.py`, "test" for a name pytest collects (`test_*.py`,
        `*_test.py`), else ""."""
        name = self.path.replace("\\", "/").rsplit("/", 1)[-1]
        if name == "conftest.py":
            return "conftest"
        return "test" if (name.startswith("test_") and name.endswith(".py")) or name.endswith("_test.py") else ""

    @cached_property
    def is_test_module(self) -> bool:
        """Is this file one of the project's own test modules, by pytest's collection
        rules (`test_*.py`, `*_test.py` holding a top-level `test*` function or a `Test*`
        class without `__init__`) or its per-directory configuration (`conftest.py`;
        pytest "Conventions for Python test discovery")? Narrower than
        `is_test_code`: a testing utility a library ships for its users' tests
        (`aiohttp/pytest_plugin.py`, `flytekit/core/testing.py`) imports pytest but is
        API, and its leftovers reach the users' suites; a test module's leftovers reach
        only the later tests of a run that has already failed (CTX103, CTX106)."""
        if self._pytest_name != "test":
            return self._pytest_name == "conftest"
        # pytest collects a top-level `test_*` function, or a `Test*` class without an
        # `__init__`; a module of that name holding neither (aiohttp's `test_utils.py` of
        # `TestServer`/`TestClient`, detectron2's `test_time_augmentation.py`) is a library
        # module that pytest would collect nothing from
        # (an inherited `__init__` counts too: pytest's `hasinit` compares the class's
        # `__init__` with `object.__init__`; a base class of this module is followed)
        classes = {st.name: st for st in self.tree.body if isinstance(st, ast.ClassDef)}

        def has_init(cls: ast.ClassDef, seen: frozenset = frozenset()) -> bool:
            if any(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == "__init__" for m in cls.body):
                return True
            return any(isinstance(b, ast.Name) and b.id in classes and b.id not in seen
                       and has_init(classes[b.id], seen | {cls.name}) for b in cls.bases)

        for st in self.tree.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name.startswith("test"):
                return True
            if isinstance(st, ast.ClassDef) and st.name.startswith("Test") and not has_init(st):
                return True
        return False

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

    def ancestors_until(self, node: ast.AST, stop: ast.AST) -> list[ast.AST]:
        """Parents of `node`, innermost first, up to (not including) `stop`."""
        out = []
        for a in self.ancestors(node):
            if a is stop:
                break
            out.append(a)
        return out

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

    def receiver_param(self, fn: ast.AST) -> str | None:
        """The receiver parameter of the def `fn` (`self`, `cls`, whatever it is spelled):
        its first positional parameter when `fn` is defined directly in a class body and
        is not a `@staticmethod`; None for a plain function, a nested def or a lambda."""
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                not isinstance(self.enclosing_scope(fn), ast.ClassDef):
            return None
        if any((self.dotted(d) or "").split(".")[-1] == "staticmethod" for d in fn.decorator_list):
            return None
        ps = [*fn.args.posonlyargs, *fn.args.args]
        return ps[0].arg if ps else None

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
            add_import_names(node, out)
        for node in self.nodes(ast.ImportFrom):
            mod = "." * node.level + (node.module or "")
            for a in node.names:
                if a.name == "*":
                    continue
                out[a.asname or a.name] = f"{mod}.{a.name}" if mod and not mod.endswith(".") else mod + a.name
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
        return _dotted(expr)

    def imports_module(self, prefix: str) -> bool:
        return any(q == prefix or q.startswith(prefix + ".") for q in self.imports.values())

    @cached_property
    def classes_by_name(self) -> dict[str, ast.ClassDef]:
        """Class name -> the first `class` statement of that name in this module (any depth)."""
        out: dict[str, ast.ClassDef] = {}
        for c in self.nodes(ast.ClassDef):
            out.setdefault(c.name, c)
        return out

    def attr_assignments(self, cls: ast.ClassDef) -> dict[str, list[ast.Assign | ast.AnnAssign]]:
        """attr -> the assignments in `cls` (its body and every def in it, in source order)
        that bind that name: `<name>.attr = v` / `<name>.attr: T = v` in a method, or a
        class-level `attr = v`. Callers check the receiver (`self`, `cls`) as they need;
        one walk of the class, memoized."""
        def build():
            out: dict[str, list] = {}
            for n in self.walk(cls, into_defs=True):
                if not isinstance(n, (ast.Assign, ast.AnnAssign)):
                    continue
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                        out.setdefault(t.attr, []).append(n)
                    elif isinstance(t, ast.Name) and self.enclosing_function(n) is None:
                        out.setdefault(t.id, []).append(n)
            return out
        return self.memo(f"attr_assignments.{id(cls)}", build)

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
        from ctxlint.semantic.python.containers import collect_containers
        return collect_containers(self)

    @cached_property
    def long_lived_containers(self) -> list["LongLivedContainer"]:
        """The containers that outlive a request: module and class level, and `self.`
        attributes of classes whose lifetime the allocation site shows (built at import
        time, a singleton) or that serve many calls' keys (`LongLivedContainer.lifetime`)."""
        return [c for c in self.containers if c.long_lived]

    def container_at(self, expr: ast.AST) -> "LongLivedContainer | None":
        """The container a receiver expression (`self.requests`, `_CACHE`, an alias) refers to,
        when `expr` is one of the references the container analysis resolved."""
        from ctxlint.semantic.python.containers import _container_ref_index
        index = self.memo("container_ref_index", lambda: _container_ref_index(self))
        return index.get(id(expr))

    # ------------------------------------------------------------- findings
    def finding(self, rule, node: ast.AST, message: str, fix: Fix | None = None,
                end: ast.AST | None = None, confidence: str | None = None, trace=()) -> Finding:
        """Build a Finding for `rule` at `node`'s range (1-based columns).

        Args:
            confidence: "high" (manifest) or "low" (latent), see `ctxlint.findings.HIGH`;
                None lets the rule's `manifest` policy decide: "reached" asks
                `evidence.reach_trace` whether an entry point reaches the def holding
                `node` (and puts that path first in the trace); "shown" is high.
            trace: the evidence, as `TraceStep`s or `(node_or_line, message)` pairs
                (a node of this file, or a 1-based line number).
        """
        reach_from = None
        if confidence is None:
            confidence = "high"
            if getattr(rule, "manifest", "shown") == "reached":
                # decided by `semantic.python.lint.run_rules` (semantic.python.evidence),
                # which needs the call graph: facts stays below it in the layering
                confidence = ""
                reach_from = node if isinstance(node, FunctionNode) else self.enclosing_function(node)
        end_node = end or node
        f = Finding(
            code=rule.code,
            name=rule.name,
            path=self.path,
            line=getattr(node, "lineno", 1),
            col=getattr(node, "col_offset", 0) + 1,
            end_line=getattr(end_node, "end_lineno", None) or getattr(node, "lineno", 1),
            end_col=(getattr(end_node, "end_col_offset", None) or getattr(node, "col_offset", 0)) + 1,
            message=message,
            fix=fix,
            confidence=confidence,
            trace=tuple(self.step(*t) if isinstance(t, tuple) else t for t in trace),
        )
        return f if reach_from is None else _pending_reach(f, reach_from)

    def step(self, where, message: str) -> "TraceStep":
        """A `TraceStep` of this file at `where` (an `ast` node or a 1-based line)."""
        from ctxlint.findings import TraceStep
        if isinstance(where, int):
            return TraceStep(self.path, where, 1, message)
        line = getattr(where, "lineno", 1)
        return TraceStep(self.path, line, self.char_col(line, getattr(where, "col_offset", 0)) + 1, message)

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



def _pending_reach(finding: Finding, fn) -> Finding:
    """Mark `finding` as waiting for its tier: `semantic.python.lint.run_rules` asks
    `semantic.python.evidence.reach_trace` whether an entry point reaches `fn`."""
    finding._reach_from = fn  # type: ignore[attr-defined]
    return finding
