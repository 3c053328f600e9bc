"""CTX206 context-not-propagated, Python half: one rule module (see the Rule's doc).

The Go half (`rules/go/ctx206_context_not_propagated_go.py`) registers the same
code with `language = "go"`; the registry joins the two (`rules.LanguageDispatch`).
"""

from __future__ import annotations

import ast

from ctxlint.findings import UNSAFE, Edit, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.asyncness import is_thread_executor
from ctxlint.semantic.python.calls import call_graph, params_of
from ctxlint.semantic.python.project_index import project_mentions
from ctxlint.semantic.python.requests import current_context_at, is_otel_tracer
from ctxlint.semantic.python.syntax import FunctionNode

FUNCS = FunctionNode
#: Reads of the current Context (contextvars / OpenTelemetry API docs).
_CONTEXT_READS = {"opentelemetry.trace.get_current_span": "the current span",
                  "opentelemetry.context.get_current": "the current OpenTelemetry context",
                  "opentelemetry.context.get_value": "an OpenTelemetry context value",
                  "opentelemetry.baggage.get_baggage": "OpenTelemetry baggage",
                  "opentelemetry.baggage.get_all": "OpenTelemetry baggage"}
#: Calls that re-apply captured values in the worker (propagation done by the job itself).
_CONTEXT_APPLIES = {"opentelemetry.context.attach"}


class ContextNotPropagated(Rule):
    code = "CTX206"
    manifest = "reached"
    reported_when = (
        "the function that hands work to a pool or thread is reached from an entry point (route, handler, task, consumer): the request's context is lost once per request."
    )
    name = "context-not-propagated"
    language = "python"
    summary = "run_in_executor/submit of code that reads ContextVars or the current span, without copying the Context."
    tokens = ("run_in_executor", "submit", "Executor")
    fix_safety = UNSAFE
    doc = """\
## What it does
Flags `loop.run_in_executor(executor, fn, ...)`, `executor.submit(fn, ...)` and
`executor.map(fn, ...)` on a thread pool (a `ThreadPoolExecutor` by where the receiver comes from) that
hand `fn` to a worker thread without a copy of the caller's Context, when either

- the calling function has set a `ContextVar` (itself or through a helper of
  this module), attached an OpenTelemetry context, or has a current span
  (`with tracer.start_as_current_span(...)`, or that decorator on the function)
  at the call, and `fn` — a
  function of this module, followed through the module's own calls — reads a
  ContextVar, the current span or context, or opens a span that should nest
  under the caller's; or
- `fn` reads a ContextVar, the current span or the current OpenTelemetry
  context (as above) and the executor is a thread pool (`run_in_executor(None,
  ...)`, a `ThreadPoolExecutor`), wherever the value was set — a middleware or a
  dependency upstream of the caller sets it, and the worker reads the default; or
- the function is a helper whose job is to run *any* callable it was given (a
  parameter, called by the submitted job or submitted itself): every caller's
  context is lost there.

Not flagged: `asyncio.to_thread(...)` and `contextvars.copy_context().run`
(both copy the Context); a job that re-applies captured values itself (it
calls `ctx.run`, `ContextVar.set`, `opentelemetry.context.attach`, or enters a
carrier object of this module whose `__enter__` does so); process pools (a
Context cannot cross a process boundary); an executor class's own `submit`
method delegating to the executor it wraps (`def submit(self, fn, *a): return
self._inner.submit(fn, *a)`): it is an executor, like `ThreadPoolExecutor`, and
the copy is its callers' to make.

An exported runner (no call in its module) is reported only in a project that has
a Context to lose: some module of its package makes a `ContextVar`, calls
`copy_context()` or imports `contextvars` or OpenTelemetry.

A call of the project's own function reached through an imported module
(`_utils.run_in_executor(cb, arg)`, pydantic-ai) is not the loop's method of that name:
it is judged in its own module, where it calls the loop.

## Why is this bad
A worker thread runs in its own, empty Context. The tenant id, request id and
current span the caller set are not there: the job logs under no tenant, reads
a ContextVar's default, and its spans start new traces instead of nesting
under the request's — "spans show up as separate traces". Worse, a job that
sets a ContextVar in the worker leaves it set for the next job on that thread.

## Example
```python
async def handle(text: str, tenant: str) -> list[int]:
    token = tenant_id.set(tenant)
    try:
        with tracer.start_as_current_span("tokenize"):
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(None, tokenize, text)  # tokenize reads tenant_id
    finally:
        tenant_id.reset(token)
```

## Use instead
```python
            return await asyncio.to_thread(tokenize, text)
# or
            ctx = contextvars.copy_context()
            return await loop.run_in_executor(None, ctx.run, tokenize, text)
```

## Fix safety
Unsafe: it changes what the job sees, which is the rule's point (a ContextVar
unset in the worker thread now has the caller's value: aiomisc's services read
one). Offered where the call passes the callable positionally, never for `map`
(whose jobs would share one Context across threads): the submitted callable is
wrapped as `contextvars.copy_context().run, fn, ...` (one fresh copy per call, so
two jobs never enter the same Context). `import contextvars` is added where isort
sorts it; a line that would grow past the project's line length (ruff, black or
flake8 settings) is wrapped.

## Source
Python docs, `contextvars` ("each thread has its own current context") and
`asyncio.to_thread` ("the current contextvars.Context is propagated");
OpenTelemetry Python context docs (trace context lost across a thread hop); agent/pipeline frameworks' "spans show up as separate traces" reports.
"""

    def check(self, facts):
        for call in facts.nodes(ast.Call):
            f = call.func
            if not isinstance(f, ast.Attribute) or f.attr not in ("run_in_executor", "submit", "map"):
                continue
            fn = facts.enclosing_function(call)
            if _project_function(facts, call):
                continue  # `_utils.run_in_executor(cb, arg)`: the project's own helper, judged where it calls the loop
            if f.attr == "run_in_executor":
                idx = 1
                submitted = call.args[1] if len(call.args) > 1 else next(
                    (k.value for k in call.keywords if k.arg == "func"), None)
            else:
                if not is_thread_executor(facts, f.value, fn):
                    continue
                idx = 0
                submitted = call.args[0] if call.args else next(
                    (k.value for k in call.keywords if k.arg == "fn"), None)
            if submitted is None or isinstance(submitted, ast.Starred):
                continue
            extra = [*call.args[idx + 1:], *(k.value for k in call.keywords if k.arg not in ("fn", "func"))]
            job = _Job(facts, submitted, fn, extra)
            if job.copies_context or job.reapplies():
                continue
            why = self._why(facts, call, fn, job)
            if why is None:
                continue
            # `pool.map(ctx.run, fn, items)` would enter one Context from several threads
            # at once (RuntimeError): no fix for `map`
            # Manifest whoever calls it when this function itself put the lost state in the
            # Context (a `ContextVar.set()` or a current span before the hop); else an entry
            # point must reach it (`manifest = "reached"`).
            own = current_context_at(facts, fn, call) if fn is not None else None
            yield facts.finding(self, call, why, fix=_fix(facts, call, idx) if f.attr != "map" else None,
                                confidence="high" if own else None,
                                trace=[(call, f"this function put {own} in the Context before the hop")] if own else ())

    @staticmethod
    def _why(facts, call: ast.Call, fn, job: "_Job") -> str | None:
        what = f.attr if isinstance((f := call.func), ast.Attribute) else "submit"
        # (b) a helper running any callable it was given
        param = job.runs_parameter()
        if param is not None and fn is not None:
            if fn.name == what and _is_method(facts, fn):
                return None  # an executor's own `submit` delegating to another: it is an executor
            if not _runner_loses_context(facts, fn, param):
                return None
            return (f"`{fn.name}` runs any callable it is given (`{param}`) through `{what}` without a copy of "
                    "the Context: every caller's contextvars and current span are lost in the worker thread "
                    "(use `asyncio.to_thread` or `contextvars.copy_context().run`)")
        # (a) the caller has context the job reads (or a span the job's own should nest under)
        have = current_context_at(facts, fn, call)
        # (c) else the job reads a ContextVar or the current span/context that the caller's
        # Context holds wherever it was set (a middleware, a dependency upstream): the
        # worker reads the default instead
        if have is None and what == "run_in_executor" and not _default_or_thread_pool(facts, call, fn):
            return None  # a process pool (no Context crosses it) or an executor we cannot see
        reads = job.reads_context(opens=have is not None)
        if reads is None:
            return None
        sees = f"it does not see {have}" if have is not None else \
            "it sees the worker's empty Context, not the caller's values"
        return (f"`{job.label}` {reads}, but `{what}` runs it in a worker thread without a copy of the Context: "
                f"{sees} (use `asyncio.to_thread` or `contextvars.copy_context().run`)")


def _project_function(facts, call: ast.Call) -> bool:
    """Is `call` (`mod.run_in_executor(...)`, `helpers.submit(...)`) a call of a def of this
    project, reached through an imported module (`project_index.resolve_function`), not
    the asyncio loop's or an Executor's method? pydantic-ai's `_utils.run_in_executor(fn,
    arg)` copies the Context itself; whatever it does is judged in its own module."""
    from ctxlint.semantic.python.project_index import resolve_function
    recv = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not isinstance(recv, ast.Name) or recv.id not in facts.imports:
        return False
    return resolve_function(facts, call.func) is not None


def _default_or_thread_pool(facts, call: ast.Call, fn) -> bool:
    """Does `loop.run_in_executor(executor, ...)` run on the loop's default executor
    (`None`, a thread pool) or on an executor that holds a `ThreadPoolExecutor`?"""
    ex = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "executor"), None)
    if ex is None or (isinstance(ex, ast.Constant) and ex.value is None):
        return True
    if is_thread_executor(facts, ex, fn):
        return True
    # an executor handed in from outside (`self.executor` set from a constructor
    # parameter): `run_in_executor` takes thread pools far more often than process pools,
    # and the job reads a ContextVar; only one that may be a process pool is left out
    return _opaque_executor(facts, ex, fn)


def _opaque_executor(facts, ex: ast.AST, fn) -> bool:
    """Is `ex` a parameter of `fn` or an attribute of the object set only from parameters
    of its methods, with no annotation and no call anywhere that mentions a process pool
    (`ProcessPoolExecutor`, `multiprocessing`) in this module? Then nothing says the
    executor is not a thread pool."""
    if "ProcessPool" in facts.text or "multiprocessing" in facts.text or "loky" in facts.text:
        return False
    def from_param(v, f) -> bool:
        if not (isinstance(v, ast.Name) and f is not None):
            return False
        return any(a.arg == v.id and a.annotation is None
                   for a in [*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs])
    if isinstance(ex, ast.Name):
        return from_param(ex, fn)
    if isinstance(ex, ast.Attribute) and isinstance(ex.value, ast.Name) and fn is not None:
        cls = facts.enclosing_class(fn)
        if cls is None:
            return False
        nodes = facts.attr_assignments(cls).get(ex.attr, ())
        return bool(nodes) and all(isinstance(n, ast.Assign) and from_param(n.value, facts.enclosing_function(n))
                                   for n in nodes)
    return False


class _Job:
    """The callable handed to an executor, resolved within this module where possible."""

    def __init__(self, facts, expr: ast.AST, fn, extra: list[ast.AST] = ()):
        self.facts = facts
        self.fn = fn
        self.copies_context = False
        #: the arguments the job is called with: the executor call's extras, plus
        #: those a `functools.partial` binds
        self.args: list[ast.AST] = list(extra)
        expr = self._unwrap(expr)
        self.expr = expr
        self.defs = self._resolve(expr)
        self.label = facts.segment(expr) or "the job"

    def _unwrap(self, expr: ast.AST, depth: int = 0) -> ast.AST:
        facts = self.facts
        if isinstance(expr, ast.Call) and (facts.qualname(expr.func) or "") in ("functools.partial", "partial") \
                and expr.args:
            self.args.extend([*expr.args[1:], *(k.value for k in expr.keywords)])
            return self._unwrap(expr.args[0], depth + 1)
        if isinstance(expr, ast.Call) and (facts.qualname(expr.func) or "") in ("typing.cast", "cast") \
                and len(expr.args) == 2:
            return self._unwrap(expr.args[1], depth + 1)
        if isinstance(expr, ast.Attribute) and expr.attr == "run" and _is_copied_context(facts, expr.value, self.fn):
            self.copies_context = True
        if isinstance(expr, ast.Name) and self.fn is not None and depth < 3:
            # a local bound once to a wrapper: `call = functools.partial(step, *args)`
            values = [n.value for n in facts.walk(self.fn) if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
            if len(values) == 1 and isinstance(values[0], ast.Call):
                inner = self._unwrap(values[0], depth + 1)
                if inner is not values[0]:
                    return inner
        return expr

    def _resolve(self, expr: ast.AST) -> list[ast.AST]:
        """Defs (or a lambda) the job runs, found in this module; [] when unknown."""
        facts = self.facts
        if isinstance(expr, ast.Lambda):
            return [expr]
        if isinstance(expr, ast.Name):
            scope = self.fn
            while scope is not None:
                local = [n for n in facts.walk(scope) if isinstance(n, FUNCS) and n.name == expr.id and n is not scope]
                if local:
                    return local[:1]
                for n in facts.walk(scope):
                    if isinstance(n, ast.Assign) and isinstance(n.value, ast.Lambda) and any(
                            isinstance(t, ast.Name) and t.id == expr.id for t in n.targets):
                        return [n.value]
                scope = facts.enclosing_function(scope)
            tops = [s for s in facts.tree.body if isinstance(s, FUNCS) and s.name == expr.id]
            return tops[:1]
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and self.fn is not None:
            cls = facts.enclosing_class(self.fn)
            if cls is not None:
                return [m for m in cls.body if isinstance(m, FUNCS) and m.name == expr.attr][:1]
        return []

    # ---------------------------------------------------------------- (b)
    def runs_parameter(self) -> str | None:
        """The parameter of the enclosing function the job runs: submitted as is, via
        `functools.partial`, or called by a nested def/lambda that is submitted."""
        fn = self.fn
        if fn is None:
            return None
        params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
        pos = [*fn.args.posonlyargs, *fn.args.args]
        if pos and _is_method(self.facts, fn):
            params.discard(pos[0].arg)
        params |= {x.arg for x in (fn.args.vararg, fn.args.kwarg) if x is not None}
        forwarded = _only_names_from(self.args, params)
        if isinstance(self.expr, ast.Name) and self.expr.id in params:
            return self.expr.id if forwarded else None
        if not forwarded:
            return None
        for d in self.defs:
            if d is not self.expr and not self._nested_in(d, fn):
                continue
            inner = params | _params_of(d)
            for n in self._body_nodes(d):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in params \
                        and _only_names_from([*n.args, *(k.value for k in n.keywords)], inner):
                    return n.func.id
        return None

    def _nested_in(self, d: ast.AST, fn) -> bool:
        return any(a is fn for a in self.facts.ancestors(d))

    def _body_nodes(self, d: ast.AST):
        if isinstance(d, ast.Lambda):
            return ast.walk(d.body)
        return self.facts.walk(d)

    # ---------------------------------------------------------------- (a)
    def reads_context(self, opens: bool = True) -> str | None:
        """What the job reads of the current Context ("reads `tenant_id`", "reads the
        current span", and with `opens` "opens a span"), following this module's calls
        two levels."""
        return _reads_context(self.facts, self.defs, 0, set(), opens)

    def reapplies(self) -> bool:
        """Does the job re-apply captured values itself (propagation by hand)?"""
        return any(_reapplies(self.facts, d, 0) for d in self.defs)


#: What a project's use of a Context looks like in its code: a `ContextVar(...)` made or
#: annotated, a `copy_context()`, an import of `contextvars` or of OpenTelemetry (whose
#: current span lives in a ContextVar); not the words in prose.
_CONTEXT_USE = rb"(?m)\bContextVar\s*[(\[]|\bcopy_context\s*\(|^\s*(?:import|from)\s+(?:contextvars|opentelemetry)\b"


def _runner_loses_context(facts, fn, param: str) -> bool:
    """Is there evidence that the generic runner `fn` (it runs its parameter `param`
    in an executor) loses a caller's context?

    The helper's in-module call sites decide. With none, it is an exported runner
    whose callers are elsewhere: every caller's context is lost, report — when the
    project has a Context to lose at all (some module of its package tree uses
    `contextvars` or OpenTelemetry: `_CONTEXT_USE`; sqlmesh's and khoj's runners sit in
    projects with neither, and their blind reviews found nothing lost). With some,
    the helper runs what those call sites hand it: report only when one of them has
    a current Context of its own (a ContextVar set, a current span, an attached OTel
    context: `requests.current_context_at`) or hands it a callable of this module
    that reads the Context, or when a call site cannot be read (its callable comes
    through `*args`). Call sites that hand it only callables that read no Context
    (an SDK method, a regex compile, a model's load) lose nothing: the blind review
    of the tuning set found those harmless (a single-thread executor pinning MLX work
    to one thread, a throwaway pool joined at once)."""
    cg = call_graph(facts)
    names = params_of(fn)
    if param not in names:
        return True  # `*args`/`**kwargs` runner: positions unknown
    index = names.index(param)
    sites = []
    for call in facts.nodes(ast.Call):
        f = call.func
        last = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if last == fn.name and cg.resolve(call) is fn:
            sites.append(call)
    if not sites:
        # an exported runner: its callers are elsewhere in the project. Only a project
        # that has a Context to lose (a ContextVar, an OTel span) loses one there
        return project_mentions(facts, _CONTEXT_USE)
    for call in sites:
        caller = facts.enclosing_function(call)
        if current_context_at(facts, caller, call) is not None:
            return True
        arg = cg.arg_for(call, fn, index)
        if arg is None:
            return True
        job = _Job(facts, arg, caller)
        if job.copies_context:
            continue
        if job.reads_context() is not None:
            return True
        if caller is not None and job.runs_parameter() is not None:
            return True  # forwarded from the caller's own parameter: a runner chain
    return False


def _params_of(d: ast.AST) -> set[str]:
    a = d.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None}


def _only_names_from(exprs: list[ast.AST], allowed: set[str]) -> bool:
    """Are `exprs` pure forwarding: every name they read is in `allowed` (the helper's
    parameters), with no call computing a value of its own? Then the callable is run
    as its caller gave it, which is what makes the helper a generic runner."""
    for e in exprs:
        for n in ast.walk(e):
            if isinstance(n, ast.Name) and n.id not in allowed:
                return False
            if isinstance(n, (ast.Call, ast.Await, ast.Lambda, ast.comprehension)):
                return False
    return True


def _is_method(facts, fn) -> bool:
    """Is `fn` a method (its first parameter the instance or class)?"""
    cls = facts.enclosing_class(fn)
    if cls is None or facts.parents.get(fn) is not cls:
        return False
    return not any((facts.dotted(d) or "") in ("staticmethod",) for d in fn.decorator_list)


def _is_copied_context(facts, expr: ast.AST, fn, depth: int = 0) -> bool:
    """Is `expr` a `contextvars.copy_context()` result (directly or via a local)?"""
    if depth > 3:
        return False
    if isinstance(expr, ast.Call):
        return (facts.qualname(expr.func) or "") in ("contextvars.copy_context", "contextvars.Context")
    if isinstance(expr, ast.Name):
        scope = fn
        while scope is not None:
            for n in facts.walk(scope):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets):
                    if _is_copied_context(facts, n.value, scope, depth + 1):
                        return True
            scope = facts.enclosing_function(scope)
    if isinstance(expr, ast.Attribute) and fn is not None:
        cls = facts.enclosing_class(fn)
        if cls is not None:
            for n in facts.attr_assignments(cls).get(expr.attr, ()):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) for t in n.targets) \
                        and _is_copied_context(facts, n.value, facts.enclosing_function(n), depth + 1):
                    return True
    return False


def _callees(facts, d: ast.AST) -> list[ast.AST]:
    """Defs of this module that `d` (a def or a lambda) calls, resolved by the shared
    call graph (`calls.CallGraph.resolve`: module functions, nested defs, methods)."""
    graph = call_graph(facts)
    nodes = ast.walk(d.body) if isinstance(d, ast.Lambda) else facts.walk(d)
    return [t for n in nodes if isinstance(n, ast.Call) and (t := graph.resolve(n)) is not None and t is not d]

def _reads_context(facts, defs: list[ast.AST], depth: int, seen: set[int], opens: bool = True) -> str | None:
    for d in defs:
        if id(d) in seen:
            continue
        seen.add(id(d))
        nodes = ast.walk(d.body) if isinstance(d, ast.Lambda) else facts.walk(d)
        fn = d if isinstance(d, FUNCS) else facts.enclosing_function(d)
        for n in nodes:
            if not isinstance(n, ast.Call):
                continue
            q = facts.qualname(n.func) or ""
            if q in _CONTEXT_READS:
                return f"reads {_CONTEXT_READS[q]}"
            if isinstance(n.func, ast.Attribute):
                if n.func.attr == "get" and facts.is_contextvar(n.func.value):
                    return f"reads `{facts.dotted(n.func.value)}`"
                if opens and n.func.attr in ("start_as_current_span", "start_span") \
                        and is_otel_tracer(facts, n.func.value, fn):
                    return "opens a span that should nest under the caller's"
        if depth < 2:
            why = _reads_context(facts, _callees(facts, d), depth + 1, seen, opens)
            if why:
                return why
    return None


def _sets_context(facts, d: ast.AST) -> bool:
    nodes = ast.walk(d.body) if isinstance(d, ast.Lambda) else facts.walk(d)
    fn = d if isinstance(d, FUNCS) else facts.enclosing_function(d)
    for n in nodes:
        if not isinstance(n, ast.Call):
            continue
        q = facts.qualname(n.func) or ""
        if q in _CONTEXT_APPLIES:
            return True
        if isinstance(n.func, ast.Attribute):
            if n.func.attr == "set" and (facts.is_contextvar(n.func.value)
                                         or _iterated_contextvar(facts, n.func.value, fn)):
                return True
            if n.func.attr == "run" and _is_copied_context(facts, n.func.value, fn):
                return True
    return False


def _iterated_contextvar(facts, expr: ast.AST, fn) -> bool:
    """A loop variable over pairs holding ContextVars (`for var, value in self._pairs: var.set(value)`):
    the pairs are built from ContextVars of this module (`(tenant_var, tenant_var.get())`)."""
    if not isinstance(expr, ast.Name) or fn is None:
        return False
    for n in facts.walk(fn):
        if isinstance(n, (ast.For, ast.comprehension)):
            names = {x.id for x in ast.walk(n.target) if isinstance(x, ast.Name)}
            if expr.id in names:
                return True if _holds_contextvars(facts, n.iter, fn) else False
    return False


def _holds_contextvars(facts, expr: ast.AST, fn) -> bool:
    """Does the iterable `expr` (a literal, a name, a `self.` attribute of this class) hold ContextVars?"""
    values: list[ast.AST] = [expr]
    if isinstance(expr, ast.Attribute) and fn is not None:
        cls = facts.enclosing_class(fn)
        if cls is not None:
            values = [n.value for n in facts.attr_assignments(cls).get(expr.attr, ()) if isinstance(n, ast.Assign)
                      and any(isinstance(t, ast.Attribute) for t in n.targets)]
    for v in values:
        for x in ast.walk(v):
            if isinstance(x, (ast.Name, ast.Attribute)) and facts.is_contextvar(x):
                return True
            if isinstance(x, ast.Call) and (facts.qualname(x.func) or "") == "contextvars.copy_context":
                return True
    return False


def _reapplies(facts, d: ast.AST, depth: int) -> bool:
    """Does job `d` re-apply captured context: set/attach/ctx.run itself, through a
    module call, or by entering a carrier of this module whose `__enter__` does?"""
    if _sets_context(facts, d):
        return True
    if depth >= 2:
        return False
    fn = d if isinstance(d, FUNCS) else facts.enclosing_function(d)
    nodes = ast.walk(d.body) if isinstance(d, ast.Lambda) else facts.walk(d)
    for n in nodes:
        if isinstance(n, (ast.With, ast.AsyncWith)):
            for item in n.items:
                cls = _class_of(facts, item.context_expr, fn)
                if cls is None:
                    continue
                enter = [m for m in cls.body if isinstance(m, FUNCS) and m.name in ("__enter__", "__aenter__")]
                if any(_reapplies(facts, m, depth + 1) for m in enter):
                    return True
    return any(_reapplies(facts, c, depth + 1) for c in _callees(facts, d))


def _class_of(facts, expr: ast.AST, fn) -> ast.ClassDef | None:
    """The class of this module `expr` is an instance of (`Carrier()`, or a name
    assigned one in this function or an enclosing one)."""
    classes = {c.name: c for c in facts.nodes(ast.ClassDef)}
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        return classes.get(expr.func.id)
    if isinstance(expr, ast.Name):
        scope = fn
        while scope is not None:
            for n in facts.walk(scope):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets) \
                        and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name):
                    return classes.get(n.value.func.id)
            scope = facts.enclosing_function(scope)
    return None


def _fix(facts, call: ast.Call, idx: int) -> Fix | None:
    """Insert `contextvars.copy_context().run, ` before the positional callable.

    `import contextvars` goes where isort puts it (`style.import_insertion`: the
    project's `ruff check` stays clean). When the insertion would make the line longer
    than the project's limit (`style.line_length`: ruff/black/flake8 settings), the
    callable and what follows move to a new line (indented one level deeper than the
    call's line), or, when the callable already starts its line, the inserted
    argument gets a line of its own."""
    from ctxlint.fixers.style import import_insertion, line_length
    if len(call.args) <= idx or any(isinstance(a, ast.Starred) for a in call.args[:idx + 1]):
        return None
    ref = None
    for local, q in facts.imports.items():
        if q == "contextvars":
            ref = f"{local}.copy_context"
        elif q == "contextvars.copy_context" and ref is None:
            ref = local
    edits = []
    lines = facts.text.split("\n")
    if ref is None:
        where = import_insertion(facts.tree, lines, "import contextvars", "import", "contextvars")
        if where is None:
            return None
        line_no, insert = where
        ref = "contextvars.copy_context"
        at = facts.offset(line_no, 0) if line_no <= len(lines) else len(facts.text)
        if line_no > len(lines) and not facts.text.endswith("\n"):
            insert = "\n" + insert
        edits.append(Edit(at, at, insert))
    arg = call.args[idx]
    start = facts.offset(arg.lineno, arg.col_offset)
    before = facts.text[:start].rstrip()
    func_end = facts.offset(call.func.end_lineno, call.func.end_col_offset)
    if not before or (before[-1] != "," and len(before) - 1 != func_end + len(facts.text[func_end:].split("(", 1)[0])):
        return None  # a parenthesised callable: an insertion there would build a tuple
    added = f"{ref}().run, "
    line_text = lines[arg.lineno - 1] if arg.lineno <= len(lines) else ""
    limit = line_length(facts.path)
    if len(line_text) + len(added) <= limit:
        edit = Edit(start, start, added)
    elif not line_text[:arg.col_offset].strip():
        # the callable starts its line: the new argument takes a line of its own above it
        edit = Edit(start, start, f"{ref}().run,\n{line_text[:arg.col_offset]}")
    else:
        paren = facts.text.find("(", func_end)
        if paren < 0 or facts.text.count("\n", paren, start):
            # a continuation line with earlier arguments: break before the callable,
            # aligned with that line's first argument
            indent = line_text[:len(line_text) - len(line_text.lstrip())]
            gap = len(facts.text[:start]) - len(facts.text[:start].rstrip(" \t"))
            edit = Edit(start - gap, start, f"\n{indent}{added}")
        else:
            # the arguments start on the call's line: a hanging indent after `(`
            # (no visual indent to keep: pycodestyle E128 stays quiet)
            call_line = lines[call.lineno - 1] if call.lineno <= len(lines) else ""
            indent = call_line[:len(call_line) - len(call_line.lstrip())] + "    "
            after = len(facts.text[paren + 1:]) - len(facts.text[paren + 1:].lstrip(" \t"))
            first = paren + 1 + after
            rest = facts.text[start:].split("\n", 1)[0]
            if first < start and len(indent) + len(added) + len(rest) <= limit < (
                    len(indent) + len(facts.text[first:start]) + len(added) + len(rest)):
                # the arguments before the callable stay on the first line, the callable
                # and the rest start the next one
                gap = len(facts.text[:start]) - len(facts.text[:start].rstrip(" \t"))
                second = Edit(start - gap, start, f"\n{indent}{added}")
            else:
                second = Edit(start, start, added)
            return Fix(description="run the job in a copy of the caller's Context (`copy_context().run`)",
                       safety=UNSAFE, edits=(*edits, Edit(paren + 1, first, f"\n{indent}"), second))
    return Fix(description="run the job in a copy of the caller's Context (`copy_context().run`)", safety=UNSAFE,
               edits=(*edits, edit))
