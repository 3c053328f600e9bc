"""Function summaries for value flow: what a function hands back to its caller and what
it does with what it is handed, followed through helpers, other modules of the project,
`functools.partial`, lambdas and wrapping decorators.

A rule that judges a value made by an API call (`var.set()`, `context.attach()`,
`asyncio.create_task()`, `tracer.start_span()`) also has to judge the same value when a
small helper of the project makes it and returns it (`token = set_trace_context(span)`,
`spawn(coro)`): the statement of the caller that receives the value is then where it is
created or lost. `call_flow(facts, call)` says what a call hands back, by the summary of
the function it runs:

    returns     `Flow`: the value kinds the function creates and returns (`OWNED`: a
                ContextVar token, an OpenTelemetry attach token, an asyncio task, a
                started span; `FRESH`: a new object per call), the ContextVars a token
                belongs to, which of its parameters it returns as they are, the items of
                a returned tuple, and the trace of calls down to the API call;
    kept        a created value it returns is also stored by the function itself (in a
                container, on an attribute, in a global): the caller is not its only owner;
    stores      parameter index -> where the function stores that parameter
                ("container", "attr", "global"), directly or through a helper;
    passes      parameter index -> the calls outside the project it hands that
                parameter to, as (import-resolved name, argument position), directly
                or through a helper (`_unary(fn)` handing `fn` to
                `grpc.unary_unary_rpc_method_handler` at position 0);
    releases    the parameters it releases, ends, resets, closes or detaches (the call
                graph's `calls.FunctionSummary.releases`);
    reads_vars  identity keys of the ContextVars it reads (`var.get()`).

A summary is computed once per function (and per decorated function, for a wrapper
that a decorator returns), lazily, only for the functions a rule asks about, and kept
with the facts of the module that defines the function (`PythonFacts.memo`), so a helper
of another module is summarised once for every file that imports it. Calls are resolved
by `values.ModuleValues.callee` in the module (a def, a method through `self`/an
instance), through a name bound to `functools.partial(f, ...)` (the bound arguments
come first) or to a `lambda`, and, only when the module cannot resolve it, through the
project index (`project_index.imported_def`: a function imported from another module
of the project). A decorator of the project that returns a nested def (the
`functools.wraps` pattern) is followed into that def, where calls of the wrapped
function run the decorated def.

Idea: the function summaries of interprocedural dataflow analysis (Sharir and Pnueli,
"Two approaches to interprocedural data flow analysis", 1981; the "summary edges" of
Reps, Horwitz and Sagiv's IFDS, POPL 1995), kept as small as the rules need.
"""

from __future__ import annotations

import ast
import os

from ctxlint.semantic.python.calls import argument_for, call_graph, function_index, params_of
from ctxlint.semantic.python.facts import FunctionNode, PythonFacts
from ctxlint.semantic.python.project_index import imported_def, imported_value
from ctxlint.semantic.python.requests import local_assignments
from ctxlint.semantic.python.tasks import is_task_factory_call, task_coroutine_arg
from ctxlint.semantic.python.values import (
    CV_TOKEN,
    OTEL_SPAN,
    OTEL_TOKEN,
    TASK,
    merge_items,
    module_values,
)

#: Value kinds a caller must release, end or keep once a function hands them back.
OWNED = frozenset({CV_TOKEN, OTEL_TOKEN, TASK, OTEL_SPAN})
#: A new object per call: a literal container, a comprehension, an instance of a class.
FRESH = "fresh"

#: Helper levels followed below the function asked about (a wrapper of a wrapper of the API).
MAX_DEPTH = 4

#: Container methods that store their last argument (stdlib list/set/deque/dict, queue).
_STORES = frozenset({"append", "appendleft", "add", "insert", "push", "put", "put_nowait", "setdefault"})


class Flow:
    """What an expression of one function may hold, by where it comes from.

    Attributes:
        kinds: `OWNED` kinds (and `FRESH`) of the values created by calls of this
            function or of the helpers it calls.
        vars: for a `CV_TOKEN`: identity keys of its ContextVars (in the key space of the
            module that called `set()`).
        params: positional indices of the function's own parameters the value may be.
        items: per item, for a tuple (None when not a tuple or unknown).
        coro: (facts, async def) pairs whose coroutine a created task runs, where known.
        coro_params: parameters whose coroutine object a created task runs.
        trace: ((facts, node, message), ...) from the outermost call down to the API
            call that made the value.
    """

    __slots__ = ("kinds", "vars", "params", "items", "coro", "coro_params", "trace")

    def __init__(self, kinds=frozenset(), vars=frozenset(), params=frozenset(), items=None, coro=(),
                 coro_params=frozenset(), trace=()):
        self.kinds = frozenset(kinds)
        self.vars = frozenset(vars)
        self.params = frozenset(params)
        self.items = items
        self.coro = tuple(coro)
        self.coro_params = frozenset(coro_params)
        self.trace = tuple(trace)

    def __bool__(self) -> bool:
        return bool(self.kinds or self.params or self.items or self.coro or self.coro_params)

    def __repr__(self) -> str:
        return f"Flow(kinds={sorted(self.kinds)}, params={sorted(self.params)}, items={self.items})"

    def merge(self, other: "Flow") -> "Flow":
        """Union of two flows (tuple items kept only when both have the same length)."""
        if not other:
            return self
        if not self:
            return other
        return Flow(self.kinds | other.kinds, self.vars | other.vars, self.params | other.params,
                    merge_items(self.items, other.items),
                    self.coro + other.coro, self.coro_params | other.coro_params, self.trace or other.trace)


EMPTY = Flow()


class Target:
    """The function a call runs, as seen from the call.

    Attributes:
        facts: `PythonFacts` of the module that defines `fn`.
        fn: the def (or lambda) that runs.
        call: the call whose arguments fill `fn`'s parameters (a synthetic call for a
            `functools.partial`, with the bound arguments first).
        offset: leading parameters filled implicitly (1 for a method through an instance).
        bound: for a wrapper a decorator returned: (name of the decorator's parameter,
            Target of the decorated def), else None.
    """

    __slots__ = ("facts", "fn", "call", "offset", "bound")

    def __init__(self, facts, fn, call, offset=0, bound=None):
        self.facts = facts
        self.fn = fn
        self.call = call
        self.offset = offset
        self.bound = bound

    def arg(self, index: int) -> ast.AST | None:
        """The argument expression of the call that fills positional parameter `index`
        of `fn` (the receiver for an implicit `self`), or None."""
        return argument_for(self.call, self.fn, index, self.offset)


class Summary:
    """What one function does with values (see the module docstring).

    Attributes:
        facts, fn: the module's facts and the def (or lambda).
        returns: `Flow` of what it returns.
        kept: a value it creates and returns is also stored by it.
        stores: parameter index -> "container" | "attr" | "global".
        passes: parameter index -> {(qualified name of an outside call, argument position)}.
        releases: indices of the parameters it releases.
        reads_vars: identity keys of the ContextVars it reads.
    """

    __slots__ = ("facts", "fn", "returns", "kept", "stores", "passes", "releases", "reads_vars")

    def __init__(self, facts, fn):
        self.facts = facts
        self.fn = fn
        self.returns: Flow = EMPTY
        self.kept = False
        self.stores: dict[int, str] = {}
        self.passes: dict[int, set[tuple[str, int]]] = {}
        self.releases: frozenset[int] = frozenset()
        self.reads_vars: frozenset[str] = frozenset()

    def __repr__(self) -> str:
        return f"<summary {getattr(self.fn, 'name', 'lambda')} returns={self.returns} kept={self.kept}>"


def _cache(facts: PythonFacts) -> dict:
    return facts.memo("summaries", dict)


# ------------------------------------------------------------------ resolution
_BUILTINS = __import__("builtins")


def target(facts: PythonFacts, call: ast.Call, bound: tuple | None = None, depth: int = 0) -> Target | None:
    """The function of this project that `call` (a node of `facts`' module) runs, or
    None: a def or method of the module (`ModuleValues.callee`), a name bound to
    `functools.partial(f, ...)` or to a lambda, a function imported from another module
    of the project; a wrapper returned by a decorator of the project is followed
    (`Target.bound`). `bound` is the enclosing wrapper's (parameter name, Target of the
    decorated def). Never raises."""
    if depth > MAX_DEPTH:
        return None
    f = call.func
    if bound is not None and isinstance(f, ast.Name) and f.id == bound[0]:
        inner = bound[1]
        return Target(inner.facts, inner.fn, call, inner.offset, inner.bound)
    if isinstance(f, ast.Name) and f.id not in facts.imports and f.id not in _module_def_names(facts) \
            and hasattr(_BUILTINS, f.id) and _single_binding(facts, f) is None:
        return None  # `len(x)`, `isinstance(...)`: a builtin runs no function of the project
    values = module_values(facts)
    if isinstance(f, ast.Name):
        src = _single_binding(facts, f)
        if isinstance(src, ast.Lambda):
            return Target(facts, src, call)
        unwrapped = unpartial(facts, call)
        if unwrapped is not call:
            return target(facts, unwrapped, bound, depth + 1)
    d = values.callee(call)
    if isinstance(d, FunctionNode):
        return _wrapped(Target(facts, d, call, call_graph(facts).bound_offset(call, d)), depth)
    if d is None and isinstance(f, ast.Name) and f.id in facts.imports:
        got = imported_def(facts, f, any_def=True)
        if got is not None:
            return _wrapped(Target(got[0], got[1], call), depth)
    return None


def unpartial(facts: PythonFacts, call: ast.Call) -> ast.Call:
    """For a call of a name bound to `functools.partial(f, *a, **k)`, the call of `f` it
    makes (a synthetic `ast.Call` with the bound arguments first, kept with `facts` so
    its identity stays valid while the facts live); else `call` itself."""
    f = call.func
    if not isinstance(f, ast.Name):
        return call
    made = facts.memo("summaries.partials", dict)
    got = made.get(id(call))
    if got is None:
        src = _single_binding(facts, f)
        got = call
        if isinstance(src, ast.Call) and src.args and (facts.qualname(src.func) or "") == "functools.partial":
            got = ast.Call(func=src.args[0], args=[*src.args[1:], *call.args],
                           keywords=[*src.keywords, *call.keywords])
            ast.copy_location(got, call)
        made[id(call)] = got
    return got


def _single_binding(facts: PythonFacts, name: ast.Name) -> ast.AST | None:
    """The one expression the variable `name` reads is bound to (a local of the enclosing
    def, else a module-level name), or None (a parameter, several bindings, none)."""
    fn = facts.enclosing_function(name)
    if fn is not None:
        if name.id in call_graph(facts).local_names(fn):
            got = local_assignments(facts, fn).get(name.id, ())
            return got[0] if len(got) == 1 else None
    got = facts.module_assignments.get(name.id, ())
    return got[0] if len(got) == 1 else None


def _wrapped(t: Target, depth: int) -> Target:
    """`t`, or the wrapper def its decorator of the project returns in its place (the
    innermost such decorator: `@background` over `async def persist`, where
    `background(fn)` returns `wrapper`, which calls `fn`)."""
    fn = t.fn
    for dec in reversed(getattr(fn, "decorator_list", ())):
        if not isinstance(dec, ast.Name):
            continue
        deco = target(t.facts, ast.Call(func=dec, args=[], keywords=[]), None, depth + 1)
        if deco is None or not isinstance(deco.fn, FunctionNode) or not params_of(deco.fn):
            continue
        wrapper = _returned_nested_def(deco.facts, deco.fn)
        if wrapper is None:
            continue
        return Target(deco.facts, wrapper, t.call, 0, (params_of(deco.fn)[0], t))
    return t


def _returned_nested_def(facts: PythonFacts, fn: ast.AST) -> ast.AST | None:
    """The def nested directly in `fn` that `fn` returns by name (`return wrapper`)."""
    nested = {s.name: s for s in fn.body if isinstance(s, FunctionNode)}
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id in nested:
            return nested[n.value.id]
    return None


# ------------------------------------------------------------------ summaries
def summary(facts: PythonFacts, fn: ast.AST, bound: tuple | None = None, depth: int = 0) -> Summary:
    """The (memoized) summary of `fn`, a def or lambda of `facts`' module (`bound`: the
    decorated def when `fn` is a decorator's wrapper, see `Target.bound`). A cycle of
    calls sees an empty summary for the function being computed."""
    cache = _cache(facts)
    key = (id(fn), id(bound[1].fn) if bound else 0)
    got = cache.get(key)
    if got is not None:
        return got
    s = Summary(facts, fn)
    cache[key] = s  # cycle guard: the partial summary
    try:
        _summarise(s, bound, depth)
    except RecursionError:
        pass
    return s


def _summarise(s: Summary, bound: tuple | None, depth: int) -> None:
    facts, fn = s.facts, s.fn
    values = module_values(facts)
    if isinstance(fn, ast.Lambda):
        s.returns = flow(facts, fn, fn.body, bound, depth)
        return
    index = {p: i for i, p in enumerate(params_of(fn))}
    fx = function_index(facts, fn)
    out = EMPTY
    returned_names: set[str] = set()
    for r in fx.returns:
        if r.value is None:
            continue
        out = out.merge(flow(facts, fn, r.value, bound, depth))
        for e in (r.value.elts if isinstance(r.value, ast.Tuple) else [r.value]):
            if isinstance(e, ast.Name) and e.id not in index:
                returned_names.add(e.id)
    s.returns = out
    stores: dict[int, str] = {}
    passes: dict[int, set[tuple[str, int]]] = {}
    reads: set[str] = set()
    for c in fx.calls:
        f = c.func
        if isinstance(f, ast.Attribute) and f.attr == "get" and not c.args:
            reads |= values.contextvar_keys(f.value)
        if isinstance(f, ast.Attribute) and f.attr in _STORES and c.args and isinstance(c.args[-1], ast.Name):
            a = c.args[-1].id
            if a in index:
                stores.setdefault(index[a], "container")
            elif a in returned_names:
                s.kept = True
        t = target(facts, c, bound, depth + 1) if depth < MAX_DEPTH else None
        if t is None:
            q = facts.qualname(f) if isinstance(f, (ast.Name, ast.Attribute)) else None
            if q:
                for k, a in enumerate(c.args):
                    if isinstance(a, ast.Name) and a.id in index:
                        passes.setdefault(index[a.id], set()).add((q, k))
        if t is not None and t.fn is not fn:
            inner = summary(t.facts, t.fn, t.bound, depth + 1)
            reads |= inner.reads_vars
            for i, outside in inner.passes.items():
                a = t.arg(i)
                if isinstance(a, ast.Name) and a.id in index:
                    passes.setdefault(index[a.id], set()).update(outside)
            for i, where in inner.stores.items():
                a = t.arg(i)
                if isinstance(a, ast.Name):
                    if a.id in index:
                        stores.setdefault(index[a.id], where)
                    elif a.id in returned_names:
                        s.kept = True
    globals_ = {g for n in facts.walk(fn) if isinstance(n, ast.Global) for g in n.names}
    for n in facts.walk(fn):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Name):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for tg in targets:
                where = ("attr" if isinstance(tg, ast.Attribute) else "container" if isinstance(tg, ast.Subscript)
                         else "global" if isinstance(tg, ast.Name) and tg.id in globals_ else None)
                if where is None:
                    continue
                if n.value.id in index:
                    stores.setdefault(index[n.value.id], where)
                elif n.value.id in returned_names:
                    s.kept = True
    s.stores = stores
    s.passes = passes
    s.reads_vars = frozenset(reads)
    if isinstance(fn, FunctionNode) and facts.enclosing_function(fn) is None:
        s.releases = frozenset(call_graph(facts).summary(fn).releases)


def flow(facts: PythonFacts, fn: ast.AST, expr: ast.AST | None, bound: tuple | None = None,
         depth: int = 0, _seen: frozenset = frozenset()) -> Flow:
    """Where the value of `expr` (a node of `fn`, a def or lambda of `facts`' module)
    comes from (see `Flow`): the calls that create it, the parameters it passes
    through, locals and re-bindings followed inside `fn`."""
    if expr is None or depth > MAX_DEPTH:
        return EMPTY
    if isinstance(expr, (ast.Await, ast.NamedExpr)):
        return flow(facts, fn, expr.value, bound, depth, _seen)
    if isinstance(expr, ast.IfExp):
        return flow(facts, fn, expr.body, bound, depth, _seen).merge(flow(facts, fn, expr.orelse, bound, depth, _seen))
    if isinstance(expr, ast.BoolOp):
        out = EMPTY
        for v in expr.values:
            out = out.merge(flow(facts, fn, v, bound, depth, _seen))
        return out
    if isinstance(expr, ast.Tuple):
        return Flow(items=tuple(flow(facts, fn, e, bound, depth, _seen) for e in expr.elts))
    if isinstance(expr, (ast.List, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)):
        return Flow({FRESH})
    if isinstance(expr, ast.Name):
        params = params_of(fn)
        if expr.id in params:
            return Flow(params={params.index(expr.id)})
        if expr.id in _seen or isinstance(fn, ast.Lambda):
            return EMPTY
        out = EMPTY
        for v in local_assignments(facts, fn).get(expr.id, ()):
            out = out.merge(flow(facts, fn, v, bound, depth, _seen | {expr.id}))
        for src, i in _unpacked(facts, fn, expr.id):
            got = flow(facts, fn, src, bound, depth, _seen | {expr.id})
            if got.items is not None and i < len(got.items):
                out = out.merge(got.items[i])
        return out
    if not isinstance(expr, ast.Call):
        return EMPTY
    t = target(facts, expr, bound, depth)
    if t is None:
        if is_task_factory_call(facts, expr):
            coro = task_coroutine_arg(expr)
            inner = flow(facts, fn, coro, bound, depth, _seen) if isinstance(coro, ast.Name) else EMPTY
            where = ()
            if isinstance(coro, ast.Call):
                ct = target(facts, coro, bound, depth + 1)
                if ct is not None and isinstance(ct.fn, ast.AsyncFunctionDef):
                    where = ((ct.facts, ct.fn),)
            return Flow({TASK}, coro=where, coro_params=inner.params, trace=((facts, expr, "creates the task"),))
        v = module_values(facts).value(expr)
        kinds = v.kinds & OWNED
        if not kinds:
            d = module_values(facts).callee(expr)
            return Flow({FRESH}) if isinstance(d, ast.ClassDef) else EMPTY
        return Flow(kinds, v.vars if CV_TOKEN in kinds else (), trace=((facts, expr, "creates the value"),))
    if t.fn is fn:
        return EMPTY
    s = summary(t.facts, t.fn, t.bound, depth + 1)
    r = s.returns
    out = Flow(r.kinds, r.vars, (), r.items, r.coro, (),
               ((facts, expr, f"calls `{getattr(t.fn, 'name', 'lambda')}`, which returns it"), *r.trace) if r.kinds else ())
    for i in r.params | r.coro_params:
        a = t.arg(i)
        if a is None:
            continue
        got = flow(facts, fn, a, bound, depth, _seen)
        if i in r.params:
            out = out.merge(got)
        if i in r.coro_params:
            where = ()
            if isinstance(a, ast.Call):
                ct = target(facts, a, bound, depth + 1)
                if ct is not None and isinstance(ct.fn, ast.AsyncFunctionDef):
                    where = ((ct.facts, ct.fn),)
            out = out.merge(Flow(coro=where, coro_params=got.params))
    if s.kept:
        # the helper keeps what it made: the caller holds a second reference, not the only one
        out = Flow(out.kinds - OWNED, out.vars, out.params, out.items, out.coro, out.coro_params, out.trace)
    return out


def _unpacked(facts: PythonFacts, fn: ast.AST, name: str) -> list[tuple[ast.AST, int]]:
    """(source, index) for each `a, name = source` tuple unpacking of `fn` (one level)."""
    out = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], (ast.Tuple, ast.List)):
            for i, e in enumerate(n.targets[0].elts):
                if isinstance(e, ast.Name) and e.id == name:
                    out.append((n.value, i))
    return out


# ------------------------------------------------------------------ queries
def call_flow(facts: PythonFacts, call: ast.Call) -> Flow:
    """What `call` (a node of `facts`' module) hands back to the statement it is in,
    by the summary of the function of the project it runs (`EMPTY` when it runs no
    function of the project: API calls are the value layer's)."""
    cache = facts.memo("summaries.calls", dict)
    got = cache.get(id(call))
    if got is None:
        got = EMPTY
        unwrapped = unpartial(facts, call)
        if unwrapped is not call or target(facts, call) is not None:
            fn = facts.enclosing_function(call) or facts.tree
            got = flow(facts, fn, unwrapped)
        cache[id(call)] = got
    return got


def handed_out(facts: PythonFacts, call: ast.Call, kind: str) -> Flow | None:
    """The flow of `call` when it runs a function of the project that creates a value
    of `kind` (an `OWNED` kind), returns it and keeps no reference of its own, so the
    statement holding `call` is where that value is created for its caller
    (`_activate(self.span)` returning `context.attach(...)`'s token; `spawn(coro)`
    returning `asyncio.create_task(coro)`); else None. The API call itself is not a
    handed-out value (the rules judge it directly)."""
    if not _may_hand_out(facts, call, kind):
        return None
    got = call_flow(facts, call)
    if kind in got.kinds or any(kind in i.kinds for i in got.items or ()):
        return got
    return None


#: Text an API call that creates each owned kind spells (values.py's sources): a def that
#: hands one out mentions it, or calls (by name) a def of the module that does.
_KIND_SPELLING = {CV_TOKEN: ".set(", OTEL_TOKEN: "attach", TASK: "task", OTEL_SPAN: "span"}
_WORD = __import__("re").compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _may_hand_out(facts: PythonFacts, call: ast.Call, kind: str) -> bool:
    """A cheap gate before a summary: can `call` run a def that hands out `kind`? The
    callee's name must be a def of this module that spells the kind's API (or calls, by
    name, a def that does: closed over the module), or a name imported from elsewhere
    (another module's helper, judged by its summary). Over-inclusive by construction:
    only calls that cannot reach such a def are skipped (a module of 1,350 calls, one of
    which could: transformers' trainer.py, 1.7 s -> a few ms)."""
    f = call.func
    name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else None)
    if name is None:
        return True
    if isinstance(f, ast.Name) and name in facts.imports:
        return _from_project(facts, facts.imports[name])
    root = f
    while isinstance(root, ast.Attribute):
        root = root.value
    if isinstance(f, ast.Attribute) and isinstance(root, ast.Name) and root.id in facts.imports:
        # `helpers.spawn(...)`: a function of an imported module of the project
        return _from_project(facts, facts.imports[root.id]) or name in _producers(facts, kind)
    if isinstance(f, ast.Name) and name not in _module_def_names(facts):
        return not hasattr(__import__("builtins"), name)  # a local callable, not `len()`
    return name in _producers(facts, kind)


def _from_project(facts: PythonFacts, qual: str) -> bool:
    """Is `qual` (an imported name's qualified name) from this project: a relative import,
    or a package whose name is a directory on this file's path?"""
    if qual.startswith("."):
        return True
    top = qual.split(".", 1)[0]
    return bool(top) and top in __import__("pathlib").Path(facts.path or "").parts[:-1]


def _module_def_names(facts: PythonFacts) -> frozenset:
    return facts.memo("summaries.def_names", lambda: frozenset(
        d.name for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)))


def _producers(facts: PythonFacts, kind: str) -> frozenset:
    def compute():
        spelling = _KIND_SPELLING.get(kind, "")
        defs = facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)
        text = {id(d): facts.segment(d) for d in defs}
        words = {id(d): set(_WORD.findall(text[id(d)])) for d in defs}
        out = {d.name for d in defs if spelling.lower() in text[id(d)].lower()}

        def wrapped_by_producer(d) -> bool:
            # `@fire_and_forget` (a def of the module that spells the API) or a decorator
            # imported from the project (a relative import): it may schedule each call
            for dec in d.decorator_list:
                t = dec.func if isinstance(dec, ast.Call) else dec
                root = t
                while isinstance(root, ast.Attribute):
                    root = root.value
                n = t.id if isinstance(t, ast.Name) else getattr(t, "attr", "")
                if n in out or (isinstance(root, ast.Name) and facts.imports.get(root.id, "x").startswith(".")):
                    return True
            return False
        out |= {d.name for d in defs if d.decorator_list and wrapped_by_producer(d)}
        changed = True
        while changed:
            changed = False
            for d in defs:
                if d.name not in out and words[id(d)] & out:
                    out.add(d.name)
                    changed = True
        return frozenset(out)
    return facts.memo(f"summaries.producers:{kind}", compute)


def unpacked_target(facts: PythonFacts, call: ast.Call, got: Flow, kind: str) -> ast.Name | None:
    """The name that receives the `kind` item when the tuple `call` hands back (`got`)
    is unpacked (`span, token = start_request_span(name)`), else None."""
    st = facts.parents.get(call)
    if not (isinstance(st, ast.Assign) and st.value is call and len(st.targets) == 1
            and isinstance(st.targets[0], (ast.Tuple, ast.List)) and got.items is not None):
        return None
    elts = st.targets[0].elts
    for i, item in enumerate(got.items):
        if kind in item.kinds and i < len(elts) and isinstance(elts[i], ast.Name) \
                and not any(isinstance(e, ast.Starred) for e in elts):
            return elts[i]
    return None


def trace_steps(got: Flow) -> list:
    """The path `got` (a `Flow`) followed, as `findings.TraceStep`s for a finding's
    evidence: each helper call from the caller's statement down to the API call that
    made the value, in whichever module each lies."""
    from ctxlint.findings import TraceStep
    trace = got.trace or next((i.trace for i in got.items or () if i.trace), ())
    return [TraceStep(where.path, node.lineno, node.col_offset + 1, msg) for where, node, msg in trace]


def made_at(facts: PythonFacts, got: Flow) -> str:
    """" (line N)" or " (line N of `module.py`)": where the API call that made the value
    of `got` (a `Flow` seen from `facts`' module) is, for a finding's text; "" when unknown."""
    trace = got.trace or next((i.trace for i in got.items or () if i.trace), ())
    if not trace:
        return ""
    where, node, _ = trace[-1]
    if where is facts:
        return f" (line {node.lineno})"
    return f" (line {node.lineno} of `{os.path.basename(where.path or '?')}`)"
