"""The intra-module call graph with function summaries.

What a function of this module does to long-lived state and to its arguments,
composed through the helpers it calls (the "function summaries" of DESIGN.md):

    registers   it inserts into a long-lived container X (directly, or by calling a
                helper of this module that does); `RegisterSummary` keeps the
                container, the innermost key/value expressions and which of the
                function's parameters flow into them;
    removes     the containers it removes entries from (directly or through helpers);
    releases    which of its parameters it releases, ends, resets, closes or detaches
                (`p.release()`, `p.aclose()`, `var.reset(p)`, `pool.putconn(p)`, or a
                helper that releases the argument it was given);
(What a function returns - a token, a task, a span, a fresh value, one of its
parameters - is the value-flow summary's, `summaries.Summary.returns`.)

So `self._init_req_state(obj)` inside an `async def` is that async def's insertion
(the helper's summary registers into `self.rid_to_state` under `obj.rid`), and a
streaming generator that is handed a semaphore and releases it in `finally`
releases that parameter.

Call resolution (`CallGraph.resolve`) is by binding, not by name match across the
file: a bare name resolves to the module-level def it names (unless the caller
binds that name locally); `self.m()`/`cls.m()` to the method of the enclosing class
or of a base class defined in this module; `super().m()` to a base class's method;
`Class.m()` to that class's method; `x.m()` where `x` is a module-level instance
of a class of this module (`pool = SlotPool(8)`) to that class's method, and so for a
local bound once to such a constructor (`updater = PushUpdater(core)`, also read from a
closure); a nested def called by its name inside its parent. Anything else (other modules, unknown
receivers) resolves to None: the summary is unknown, never guessed.

Computed lazily and memoized on `PythonFacts` (`call_graph(facts)`): each
function's own nodes of interest (`function_index`) are collected by one walk and
memoized per def node, each call is resolved once, and `registrations_by_calls`
only resolves calls whose callee name can reach an insertion at all (resolution
always lands on a def of that name, so this prefilter never drops a result).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from ctxlint.semantic.python.cleanup import last_name, pos
from ctxlint.semantic.python.facts import FunctionNode, PythonFacts

#: Methods that release, end, close or reset the object they are called on
#: (asyncio/threading `Semaphore.release`, `Lock.release`; httpx/aiohttp
#: `Response.aclose`/`close`/`release`; OpenTelemetry `Span.end`; `Task.cancel`;
#: file-like `close`). Source: the Python stdlib docs (asyncio-sync, threading,
#: contextlib), httpx and aiohttp client reference, OpenTelemetry API.
RELEASE_METHODS: frozenset[str] = frozenset({
    "release", "close", "aclose", "end", "cancel", "shutdown", "terminate", "disconnect",
    "__exit__", "__aexit__", "unlock",
})
#: Calls that release the object passed to them as first argument
#: (`ContextVar.reset(token)`, `opentelemetry.context.detach(token)`,
#: asyncpg/aiopg `pool.release(conn)`, psycopg2 `pool.putconn(conn)`,
#: SQLAlchemy `checkin`). Same sources as above.
RELEASE_ARG_CALLS: frozenset[str] = frozenset({
    "reset", "detach", "release", "putconn", "checkin", "put_connection", "return_connection",
})
#: Calls whose result is a Task/Future scheduled on the loop (asyncio docs).
TASK_FACTORY_QUALNAMES: frozenset[str] = frozenset({
    "asyncio.create_task", "asyncio.ensure_future", "asyncio.tasks.create_task",
    "asyncio.tasks.ensure_future",
})


class RegisterSummary:
    """One insertion into a long-lived container that a function performs.

    Attributes:
        container: the `LongLivedContainer` filled.
        key, value: the innermost key and value expressions (in the function that
            does the insertion, possibly a helper several calls down).
        params: indices (into the summarised function's positional parameters,
            `self` included for methods) of the parameters the key or value is
            built from. Empty when the entry does not depend on the caller.
        site: the innermost insertion site (`ContainerSite`).
        awaits_after: the inserting function itself awaits after the insertion
            (then it is its own CTX108 candidate, not its caller's).
    """

    __slots__ = ("container", "key", "value", "params", "site", "awaits_after")

    def __init__(self, container, key, value, params, site, awaits_after=False):
        self.container = container
        self.key = key
        self.value = value
        self.params = frozenset(params)
        self.site = site
        self.awaits_after = awaits_after

    def __repr__(self) -> str:
        return f"<registers {self.container.name} params={sorted(self.params)}>"


class FunctionSummary:
    """What one function of the module does (see the module docstring).

    Attributes:
        fn: the def node.
        registers: `RegisterSummary` list (direct insertions first, then through helpers).
        removes: ids of the containers it removes from (directly or through helpers).
        releases: indices of the positional parameters it releases.
    """

    __slots__ = ("fn", "registers", "removes", "releases")

    def __init__(self, fn):
        self.fn = fn
        self.registers: list[RegisterSummary] = []
        self.removes: set[int] = set()
        self.releases: set[int] = set()


def params_of(fn: ast.AST) -> list[str]:
    """Positional parameter names of a def, `self`/`cls` included ([] for a module or
    class body, which has none)."""
    a = getattr(fn, "args", None)
    if a is None:
        return []
    return [p.arg for p in (*a.posonlyargs, *a.args)]


def argument_for(call: ast.Call, target: ast.AST, index: int, offset: int) -> ast.AST | None:
    """The argument expression that fills positional parameter `index` of `target` (a
    def or lambda) at `call`, when the first `offset` parameters are filled implicitly
    (1: the receiver of `obj.m(...)` fills `self`, returned for index 0), or None
    (not passed, or after a `*args`)."""
    if offset and index == 0:
        return call.func.value if isinstance(call.func, ast.Attribute) else None
    i = index - offset
    if 0 <= i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:i + 1]):
        return call.args[i]
    names = params_of(target)
    if 0 <= index < len(names):
        for kw in call.keywords:
            if kw.arg == names[index]:
                return kw.value
    return None


def _names(expr: ast.AST | None) -> set[str]:
    if expr is None:
        return set()
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)}


class FunctionIndex:
    """The nodes of one def's own body (nested defs excluded) that the call-graph
    analyses ask about, collected by one walk (`function_index(facts, fn)`).

    Attributes:
        calls: every `ast.Call`, in source order.
        awaits: every `Await`/`async for`/`async with`, in source order.
        returns: every `ast.Return`, in source order.
    """

    __slots__ = ("calls", "awaits", "returns")

    def __init__(self, facts: PythonFacts, fn: ast.AST):
        calls, awaits, returns = [], [], []
        for n in facts.walk(fn):
            t = n.__class__
            if t is ast.Call:
                calls.append(n)
            elif t is ast.Await or t is ast.AsyncFor or t is ast.AsyncWith:
                awaits.append(n)
            elif t is ast.Return:
                returns.append(n)
        key = pos
        calls.sort(key=key)
        awaits.sort(key=key)
        returns.sort(key=key)
        self.calls, self.awaits, self.returns = calls, awaits, returns


def function_index(facts: PythonFacts, fn: ast.AST) -> FunctionIndex:
    """`FunctionIndex` of `fn` (any node with a body, usually a def), memoized per
    node on `facts` (one walk per def per file)."""
    return facts.memo(f"calls.index.{id(fn)}", lambda: FunctionIndex(facts, fn))


_UNRESOLVED = object()


class CallGraph:
    """Resolution of calls to defs of this module, and memoized summaries.

    Args:
        facts: the file's `PythonFacts`.
    Never raises on odd code: what cannot be resolved resolves to None.
    """

    def __init__(self, facts: PythonFacts):
        self.facts = facts
        self._summaries: dict[int, FunctionSummary] = {}
        self._in_progress: set[int] = set()
        classes: dict[str, ast.ClassDef] = {}
        for c in facts.nodes(ast.ClassDef):
            classes.setdefault(c.name, c)
        self.classes = classes
        self.module_functions: dict[str, ast.AST] = {}
        for s in facts.tree.body:
            if isinstance(s, FunctionNode):
                self.module_functions[s.name] = s
        self._locals: dict[int, set[str]] = {}
        self._nested: dict[int, dict[str, ast.AST]] = {}
        self._resolved: dict[int, ast.AST | None] = {}
        self._calls_in: dict[int, list] = {}
        self._callers: dict[int, list] | None = None
        self._regs_by_calls: dict[int, list] = {}
        self._registering_names: frozenset[str] | None = None
        #: id(def) -> its calls whose last name is in `registering_names()`
        self._candidate_calls: dict[int, list[ast.Call]] = {}
        self._sites: tuple[dict, dict] | None = None
        # module-level `x = SomeClass(...)` instances of classes of this module
        self.module_instances: dict[str, ast.ClassDef] = {}
        for name, vals in facts.module_assignments.items():
            for v in vals:
                if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in classes:
                    self.module_instances[name] = classes[v.func.id]

    # ------------------------------------------------------------ resolution
    def methods(self, cls: ast.ClassDef) -> dict[str, ast.AST]:
        """Methods defined directly in `cls`'s body."""
        return {s.name: s for s in cls.body if isinstance(s, FunctionNode)}

    def class_chain(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """`cls` and its bases defined in this module, nearest first."""
        out, todo = [cls], [cls]
        while todo:
            k = todo.pop(0)
            for b in k.bases:
                base = self.classes.get(last_name(b))
                if base is not None and base not in out:
                    out.append(base)
                    todo.append(base)
        return out

    def find_method(self, cls: ast.ClassDef, name: str, skip_self: bool = False) -> ast.AST | None:
        """The method `name` of `cls` or of its nearest base defined in this module."""
        chain = self.class_chain(cls)
        for k in chain[1:] if skip_self else chain:
            m = self.methods(k).get(name)
            if m is not None:
                return m
        return None

    def resolve(self, call: ast.Call) -> ast.AST | None:
        """The def of this module that `call` runs, or None (see the module docstring).
        Memoized per call node."""
        got = self._resolved.get(id(call), _UNRESOLVED)
        if got is _UNRESOLVED:
            got = self._resolved[id(call)] = self._resolve(call)
        return got

    def _resolve(self, call: ast.Call) -> ast.AST | None:
        f = call.func
        facts = self.facts
        if isinstance(f, ast.Name):
            caller = facts.enclosing_function(call)
            # a nested def of an enclosing function, by lexical scope
            scope = caller
            while scope is not None:
                nested = self._nested_defs(scope).get(f.id)
                if nested is not None and nested is not caller:
                    return nested
                scope = facts.enclosing_function(scope)
            if caller is not None and f.id in self.local_names(caller):
                return None
            return self.module_functions.get(f.id)
        if not isinstance(f, ast.Attribute):
            return None
        recv = f.value
        if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "super":
            cls = facts.enclosing_class(call)
            return self.find_method(cls, f.attr, skip_self=True) if cls is not None else None
        if isinstance(recv, ast.Name):
            meth = facts.enclosing_function(call)
            # the method's own first parameter (also from closures inside the method)
            cls = facts.enclosing_class(call)
            if cls is not None:
                outer = None
                for a in facts.ancestors(call):
                    if a is cls:
                        break
                    if isinstance(a, FunctionNode):
                        outer = a
                if outer is not None and params_of(outer)[:1] == [recv.id] and not _is_static(outer):
                    return self.find_method(cls, f.attr)
            if recv.id in self.classes:
                return self.find_method(self.classes[recv.id], f.attr)
            inst = self.module_instances.get(recv.id)
            if inst is not None and not (meth is not None and recv.id in self.local_names(meth)):
                return self.find_method(inst, f.attr)
            local = self._local_instance(call, recv.id)
            if local is not None:
                return self.find_method(local, f.attr)
        return None

    def _local_instance(self, node: ast.AST, name: str) -> ast.ClassDef | None:
        """The class of this module whose instance the local `name` holds where `node`
        reads it: the innermost def binding `name` (the reading def itself, or an
        enclosing one for a closure: `updater = PushUpdater(core)` in `setup()`, read by a
        nested class's method) binds it exactly once, by a plain assignment of a
        constructor call of that class, and nothing rebinds it: no parameter (`*x`,
        `**x` included), loop or `with` target, `except ... as`, import, nested `def` or
        class of that name, no `nonlocal` rebinding in a nested def, and the class's
        name is not shadowed on the way. A `global` declaration, a read in a class body
        that binds the name, or anything unknown gives None: the value is not known."""
        facts = self.facts
        for a in facts.ancestors(node):
            if isinstance(a, FunctionNode):
                break
            if isinstance(a, ast.ClassDef) and _binds(facts, a, name):
                return None  # a class body's own binding (visible only in that body)
            if isinstance(a, ast.Lambda) and name in {p.arg for p in (
                    *a.args.posonlyargs, *a.args.args, *a.args.kwonlyargs, a.args.vararg, a.args.kwarg)
                    if p is not None}:
                return None  # a lambda's parameter
            if isinstance(a, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) and any(
                    isinstance(t, ast.Name) and t.id == name and isinstance(t.ctx, ast.Store)
                    for g in a.generators for t in ast.walk(g.target)):
                return None  # a comprehension's own target
        scope = facts.enclosing_function(node)
        while scope is not None:
            if _declares(facts, scope, name, ast.Global):
                return None
            if not _declares(facts, scope, name, ast.Nonlocal):
                sites = _binding_sites(facts, scope, name)
                if sites:
                    if len(sites) != 1 or _rebound_from_nested(facts, scope, name):
                        return None
                    stmt = facts.parents.get(sites[0])
                    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                            and stmt.targets[0] is sites[0] and isinstance(stmt.value, ast.Call)
                            and isinstance(stmt.value.func, ast.Name)):
                        return None
                    cls_name = stmt.value.func.id
                    s2 = scope
                    while s2 is not None:  # the constructor's name must reach the module's class
                        if _binds(facts, s2, cls_name):
                            return None
                        s2 = facts.enclosing_function(s2)
                    return self.classes.get(cls_name)
            scope = facts.enclosing_function(scope)
        return None

    def local_names(self, fn: ast.AST) -> set[str]:
        """Names `fn` binds (parameters and assignments), memoized."""
        got = self._locals.get(id(fn))
        if got is None:
            got = self._locals[id(fn)] = _local_names(fn, self.facts)
        return got

    def _nested_defs(self, scope: ast.AST) -> dict[str, ast.AST]:
        """Defs that bind a name in `scope` itself, by name (the first wins), memoized: its
        direct children and the defs under its `if`/`try`/`with`/loop blocks (a def inside
        an `if` binds a local of the enclosing function all the same), not those of
        nested functions or classes."""
        got = self._nested.get(id(scope))
        if got is None:
            got = {}
            stack = list(ast.iter_child_nodes(scope))[::-1]
            while stack:
                s = stack.pop()
                if isinstance(s, FunctionNode):
                    got.setdefault(s.name, s)
                    continue
                if isinstance(s, (ast.ClassDef, ast.Lambda)) or not isinstance(s, (ast.stmt, ast.excepthandler)):
                    continue
                stack.extend(list(ast.iter_child_nodes(s))[::-1])
            self._nested[id(scope)] = got
        return got

    def _container_sites(self) -> tuple[dict, dict]:
        """(id(def) -> [(container, insert site)], id(def) -> {id(container)}) for
        the long-lived containers' insertions and removals, indexed once."""
        if self._sites is None:
            ins: dict[int, list] = {}
            rem: dict[int, set[int]] = {}
            for c in self.facts.long_lived_containers:
                for site in c.inserts:
                    if site.function is not None:
                        ins.setdefault(id(site.function), []).append((c, site))
                for r in c.removals:
                    if r.function is not None:
                        rem.setdefault(id(r.function), set()).add(id(c))
            self._sites = (ins, rem)
        return self._sites

    def bound_offset(self, call: ast.Call, target: ast.AST) -> int:
        """How many leading parameters of `target` the call fills implicitly (1 for a
        method called through an instance or `self`, else 0)."""
        if not isinstance(call.func, ast.Attribute):
            return 0
        if _is_static(target):
            return 0
        recv = call.func.value
        if isinstance(recv, ast.Name) and recv.id in self.classes and not _is_classmethod(target):
            return 0  # `Class.m(obj, ...)`: explicit self
        return 1

    def arg_for(self, call: ast.Call, target: ast.AST, index: int) -> ast.AST | None:
        """The argument expression that fills parameter `index` of `target` at `call`
        (the receiver for the implicit `self`), or None."""
        return argument_for(call, target, index, self.bound_offset(call, target))

    def calls_in(self, fn: ast.AST) -> Iterable[tuple[ast.Call, ast.AST]]:
        """(call, resolved def) for every call in `fn`'s own body that resolves, in
        source order (computed once per def)."""
        got = self._calls_in.get(id(fn))
        if got is None:
            got = []
            for n in function_index(self.facts, fn).calls:
                t = self.resolve(n)
                if t is not None and t is not fn:
                    got.append((n, t))
            self._calls_in[id(fn)] = got
        return got

    def callers(self, fn: ast.AST) -> list[tuple[ast.Call, ast.AST]]:
        """(call, calling def) for every call of the module's defs that `resolve`s to
        `fn`: the reverse of `calls_in`, indexed once per module on first use."""
        if self._callers is None:
            index: dict[int, list[tuple[ast.Call, ast.AST]]] = {}
            for f in self.facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
                for call, target in self.calls_in(f):
                    index.setdefault(id(target), []).append((call, f))
            self._callers = index
        return self._callers.get(id(fn), [])

    def registering_names(self) -> frozenset[str]:
        """Names a call must end in to run a def of this module that may register: the
        names of the defs that insert into a long-lived container, closed under "a def
        containing a call ending in one of these names" (an over-approximation by
        name). `resolve` only returns a def whose name is the call's last name, so
        skipping other calls loses no registration; it saves resolving and
        summarising calls that cannot register."""
        if self._registering_names is None:
            facts = self.facts
            ins, _ = self._container_sites()
            names = {sites[0][1].function.name for sites in ins.values() if sites}
            if names:
                by_name: dict[str, list[ast.Call]] = {}
                for c in facts.nodes(ast.Call):
                    by_name.setdefault(last_name(c.func), []).append(c)
                todo = list(names)
                cand = self._candidate_calls
                while todo:
                    for c in by_name.get(todo.pop(), ()):
                        caller = facts.enclosing_scope(c)  # the scope `facts.walk(def)` stops at
                        if not isinstance(caller, FunctionNode):
                            continue
                        cand.setdefault(id(caller), []).append(c)
                        if caller.name not in names:
                            names.add(caller.name)
                            todo.append(caller.name)
                for calls in cand.values():
                    calls.sort(key=pos)
            self._registering_names = frozenset(names)
        return self._registering_names

    # ------------------------------------------------------------- summaries
    def summary(self, fn: ast.AST) -> FunctionSummary:
        """The (memoized) summary of a def of this module. Recursion through a cycle
        of calls sees the partial summary of the function being computed."""
        key = id(fn)
        got = self._summaries.get(key)
        if got is not None:
            return got
        s = FunctionSummary(fn)
        self._summaries[key] = s
        self._in_progress.add(key)
        try:
            self._summarise(fn, s)
        finally:
            self._in_progress.discard(key)
        return s

    def _summarise(self, fn: ast.AST, s: FunctionSummary) -> None:
        facts = self.facts
        pnames = params_of(fn)
        index = {p: i for i, p in enumerate(pnames)}
        fx = function_index(facts, fn)
        awaits = fx.awaits
        last_await = pos(awaits[-1]) if awaits else None

        # direct insertions / removals of long-lived containers
        ins, rem = self._container_sites()
        for c, site in ins.get(id(fn), ()):
            params = {index[x] for x in _names(site.key) | _names(site.value) if x in index}
            after = last_await is not None and last_await > pos(site.node)
            s.registers.append(RegisterSummary(c, site.key, site.value, params, site, after))
        s.removes |= rem.get(id(fn), set())
        # releases of parameters
        for n in fx.calls:
            if True:
                f = n.func
                if isinstance(f, ast.Attribute) and f.attr in RELEASE_METHODS and isinstance(f.value, ast.Name) \
                        and f.value.id in index:
                    s.releases.add(index[f.value.id])
                if last_name(f) in RELEASE_ARG_CALLS and n.args and isinstance(n.args[0], ast.Name) \
                        and n.args[0].id in index:
                    s.releases.add(index[n.args[0].id])
        # composition through helpers
        for call, target in self.calls_in(fn):
            if id(target) in self._in_progress and id(target) != id(fn):
                inner = self._summaries.get(id(target))
            else:
                inner = self.summary(target)
            if inner is None:
                continue
            after = last_await is not None and last_await > pos(call)
            for reg in inner.registers:
                params: set[int] = set()
                for i in reg.params:
                    arg = self.arg_for(call, target, i)
                    params |= {index[x] for x in _names(arg) if x in index}
                s.registers.append(RegisterSummary(reg.container, reg.key, reg.value, params, reg.site,
                                                   reg.awaits_after or after))
            s.removes |= inner.removes
            for i in inner.releases:
                arg = self.arg_for(call, target, i)
                if isinstance(arg, ast.Name) and arg.id in index:
                    s.releases.add(index[arg.id])

    # ------------------------------------------------------------- queries
    def registrations_by_calls(self, fn: ast.AST) -> list[tuple[ast.Call, RegisterSummary]]:
        """(call in `fn`, what it registers) for every call of a helper of this module
        that inserts into a long-lived container: the helper's insertion counts as
        `fn`'s own at the call (issue 11: `self._init_req_state(obj)`)."""
        got = self._regs_by_calls.get(id(fn))
        if got is not None:
            return got
        out = []
        if self.registering_names():
            for call in self._candidate_calls.get(id(fn), ()):
                target = self.resolve(call)
                if target is None or target is fn:
                    continue
                for reg in self.summary(target).registers:
                    out.append((call, reg))
        self._regs_by_calls[id(fn)] = out
        return out

    def removes_from(self, call: ast.Call, container) -> bool:
        """Does `call` run a def of this module that removes from `container`?"""
        t = self.resolve(call)
        return t is not None and id(container) in self.summary(t).removes


def call_graph(facts: PythonFacts) -> CallGraph:
    """The file's call graph (built once per file, on first use)."""
    return facts.memo("calls.graph", lambda: CallGraph(facts))



def _scope_table(facts: PythonFacts, scope: ast.AST) -> dict:
    """One walk of `scope` (a def or a class body, not its nested scopes), memoized on
    `facts`: {"binds": name -> binding nodes, "global": names, "nonlocal": names}. The
    binding nodes are parameters (with `*args`/`**kwargs`), assignment, loop, `with` and
    walrus targets, `del`, `except ... as`, imports, nested `def`/`class` statements and
    match captures."""
    def compute():
        binds: dict[str, list] = {}
        glob: set[str] = set()
        nonloc: set[str] = set()
        a = getattr(scope, "args", None)
        if a is not None:
            for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                if p is not None:
                    binds.setdefault(p.arg, []).append(p)
        for n in facts.walk(scope):
            if n is scope:
                continue
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                binds.setdefault(n.id, []).append(n)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                binds.setdefault(n.name, []).append(n)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                binds.setdefault(n.name, []).append(n)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for al in n.names:
                    binds.setdefault(al.asname or al.name.split(".")[0], []).append(n)
            elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and getattr(n, "name", None):
                binds.setdefault(n.name, []).append(n)
            elif isinstance(n, ast.Global):
                glob.update(n.names)
            elif isinstance(n, ast.Nonlocal):
                nonloc.update(n.names)
        return {"binds": binds, "global": glob, "nonlocal": nonloc}
    return facts.memo(("calls.scope_table", id(scope)), compute)


def _binding_sites(facts: PythonFacts, scope: ast.AST, name: str) -> list[ast.AST]:
    """The nodes that bind `name` in `scope` itself (see `_scope_table`)."""
    return _scope_table(facts, scope)["binds"].get(name, [])


def _binds(facts: PythonFacts, scope: ast.AST, name: str) -> bool:
    """Does `scope` (a def or a class body) bind `name` itself?"""
    return bool(_binding_sites(facts, scope, name))


def _declares(facts: PythonFacts, scope: ast.AST, name: str, kind: type) -> bool:
    """Does `scope` itself hold a `global name` / `nonlocal name` (`kind`)?"""
    return name in _scope_table(facts, scope)["global" if kind is ast.Global else "nonlocal"]


def _rebound_from_nested(facts: PythonFacts, scope: ast.AST, name: str) -> bool:
    """Does a def nested (at any depth) in `scope` declare `nonlocal name` and bind it?"""
    def compute():
        out: set[str] = set()
        for n in facts.walk(scope, into_defs=True):
            if n is not scope and isinstance(n, FunctionNode):
                t = _scope_table(facts, n)
                out.update(x for x in t["nonlocal"] if x in t["binds"])
        return out
    return name in facts.memo(("calls.nested_nonlocal", id(scope)), compute)


def _local_names(fn: ast.AST, facts: PythonFacts | None = None) -> set[str]:
    out = set(params_of(fn))
    a = fn.args
    out.update(p.arg for p in a.kwonlyargs)
    for n in (facts.walk(fn, into_defs=True) if facts is not None else ast.walk(fn)):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
    return out


def _is_static(fn: ast.AST) -> bool:
    return any(last_name(d) == "staticmethod" for d in getattr(fn, "decorator_list", ()))


def _is_classmethod(fn: ast.AST) -> bool:
    return any(last_name(d) == "classmethod" for d in getattr(fn, "decorator_list", ()))
