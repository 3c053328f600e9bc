"""Ownership and release of request-scoped resources (ContextVar tokens, OTel attach
tokens, spans), and the Context a function runs in.

Facts (each function's docstring says exactly what it answers):

* **Protection** - is a release in `finally` / an except-all handler (`protected`),
  or straight after the acquisition with nothing between that can raise
  (`straight_line`), or after statements none of which can raise an ordinary
  `Exception` (`nothing_raises_between`: no-raise calls, plain assignments, a `try`
  guarded by a catch-all that does not re-raise)?
* **Hand-off** (`handoff`) - a resource passed to a call is
    - *released* when the callee of this module releases it (a function that resets /
      ends / detaches that parameter; a class that stores it and releases it on its
      close paths: `close`/`aclose`, `__exit__`/`__aexit__`, `__del__` and, for an
      iterator, both exhaustion (`__next__`) *and* early exit);
    - *not released* when the receiving class keeps it and never releases it, or, for
      an iterator, releases it only on exhaustion;
    - *across a yield* when the callee is a generator that releases it after a `yield`;
    - *borrowed* when a function of this module only reads it (the caller still owns it);
    - *escaped* when it goes out of the module (unknown code, a container of another
      object): the receiver's responsibility, as a returned value is the caller's.
* **Enter/exit pairing** (`enter_exit_of`) - a value set while `__enter__` runs (in it
  or a method it calls through `self`) must be undone by what `__exit__` runs.
* **Restoring** (`restores_previous`) - `var.set(prev)` where `prev` is a value read
  from the same ContextVar with `var.get()` (kept in a local, on `self`, on a stack)
  *is* the cleanup, never a leak.
* **Token fate** (`token_fate`) - where the token of `var.set()` / `context.attach()`
  ends up inside its function and class.
* **Execution Context** (`runs_in_task_context`, `fresh_context_functions`,
  `directly_awaited`) - does a function run in a Context of its own (an asyncio task,
  `Context.run`, a new thread), so that a value it leaves set dies with it?

Name tables (framework decorators, APIs that only read their argument) live here with
their sources; rules never decide by a variable's or function's name.
"""

from __future__ import annotations

import ast
from typing import Callable, Iterable

from ctxlint.semantic.python.cleanup import (  # noqa: F401
    cannot_raise, catches_cancellation, field_of, is_contextmanager, is_generator, pos, protected, yields,
)
from ctxlint.semantic.python.containers import GROWING_METHODS
from ctxlint.semantic.python.facts import FunctionNode, PythonFacts
from ctxlint.semantic.python.syntax import container_root, dotted
from ctxlint.semantic.python.values import CONTEXT, CV_VALUE, ModuleValues, module_values

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

#: A release predicate: given a call, the expressions whose resource it releases
#: (`var.reset(tok)` -> [tok]; `detach(tok)` -> [tok]; `span.end()` -> [span]).
Release = Callable[[ast.Call], list]

# ------------------------------------------------------------------ tables
#: Route decorators of ASGI frameworks (`@app.get(...)`, `@router.post(...)`): the
#: framework runs each request's handler in a task of its own. Sources: Starlette /
#: FastAPI routing docs (`APIRouter.get/post/...`, `api_route`, `websocket`,
#: `middleware`, `on_event`), Quart and Sanic route decorators.
ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "route",
                              "api_route", "websocket", "websocket_route", "middleware", "on_event"})
#: Callables that start a new thread/process whose Context starts empty and dies with it
#: (Python docs: `threading.Thread`, `multiprocessing.Process`; PEP 567).
NEW_CONTEXT_STARTERS = frozenset({"threading.Thread", "multiprocessing.Process", "Thread", "Process"})
#: Runners that call their first argument in a copy of the caller's Context: a value the
#: function sets stays in that copy (Python docs, `asyncio.to_thread`: "the current
#: contextvars.Context is propagated"; trio's `to_thread.run_sync` and anyio's
#: `to_thread.run_sync` copy the calling task's context into the worker thread, per
#: their docs on context propagation).
CONTEXT_COPYING_RUNNERS = frozenset({"asyncio.to_thread", "trio.to_thread.run_sync", "anyio.to_thread.run_sync"})
#: Calls that only read an argument (passing a resource to them hands nothing over).
#: Builtins from the Python docs; `set_span_in_context` (OpenTelemetry API) wraps the span
#: in a context but never ends it.
READ_ONLY_CALLS = frozenset({"print", "isinstance", "getattr", "hasattr", "id", "repr", "str", "len",
                             "bool", "type", "hash", "format", "set_span_in_context",
                             "debug", "info", "warning", "error", "exception", "log"})
#: Close paths of a class that receives a resource. Source: Python data model
#: (`__exit__`, `__aexit__`, `__del__`, iterator protocol) and `io.IOBase.close`,
#: PEP 525 (`aclose`).
EARLY_EXIT_METHODS = ("close", "aclose", "__exit__", "__aexit__", "__del__")
EXHAUSTION_METHODS = ("__next__", "__anext__")
ENTER_METHODS = ("__enter__", "__aenter__")
EXIT_METHODS = ("__exit__", "__aexit__")


# ------------------------------------------------------------------ release predicates
def reset_release(c: ast.Call) -> list:
    """`var.reset(token)` releases `token` (Python docs, `ContextVar.reset`)."""
    if isinstance(c.func, ast.Attribute) and c.func.attr == "reset" and len(c.args) == 1:
        return [c.args[0]]
    return []


def detach_release(c: ast.Call) -> list:
    """`opentelemetry.context.detach(token)` (however imported) releases `token`; so does
    `token.var.reset(token)`, what `detach` does itself (opentelemetry-python
    `ContextVarsRuntimeContext.detach`: `self._current_context.reset(token)`; an attach
    token is a `contextvars.Token`, whose `.var` is the ContextVar it was made by), written
    out to keep `detach`'s error log quiet (OpenInference's llama-index handler)."""
    f = c.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    if name == "reset" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) \
            and f.value.attr == "var" and len(c.args) == 1 and ast.dump(f.value.value) == ast.dump(c.args[0]):
        return [c.args[0]]
    return [c.args[0]] if name == "detach" and c.args else []


def end_release(c: ast.Call) -> list:
    """`span.end()` ends `span`; `trace.use_span(span, end_on_exit=True)` ends it on exit,
    the span passed positionally or as `span=` (OpenTelemetry API, `Span.end`, `use_span`)."""
    f = c.func
    if isinstance(f, ast.Attribute) and f.attr == "end" and len(c.args) <= 1:
        return [f.value]
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    if name == "use_span" and use_span_ends(c):
        # `use_span(span, end_on_exit=True)` or `use_span(span=span, end_on_exit=True)`
        span = c.args[0] if c.args else next((k.value for k in c.keywords if k.arg == "span"), None)
        return [span] if span is not None else []
    return []


def use_span_ends(call: ast.Call) -> bool:
    """Does `use_span(...)` pass `end_on_exit=True` (default False in the OTel API)?"""
    for kw in call.keywords:
        if kw.arg == "end_on_exit":
            return not (isinstance(kw.value, ast.Constant) and kw.value.value is False)
    return False


def contextvar_sets(facts: PythonFacts) -> list[tuple[ast.Call, ast.AST]]:
    """`(call, fn)` for every `<ContextVar>.set(x)` inside a function, where the receiver's
    value is a ContextVar (`values.CONTEXTVAR`: a module/class binding, an annotated
    parameter, a loop variable over ContextVars or (var, value) pairs, a snapshot's keys)."""
    def compute():
        values = module_values(facts)
        out = []
        for c in facts.nodes(ast.Call):
            f = c.func
            if isinstance(f, ast.Attribute) and f.attr == "set" and len(c.args) == 1 and not c.keywords \
                    and values.contextvar_keys(f.value):
                fn = facts.enclosing_function(c)
                if fn is not None:
                    out.append((c, fn))
        return out
    return facts.memo("owners.contextvar_sets", compute)


# ------------------------------------------------------------------ flow helpers
# pos, field_of, catches_all (= cleanup.catches_cancellation) and protected are the
# cleanup module's; re-exported here for the rules that import them from owners.
catches_all = catches_cancellation


def has_risk(stmts: Iterable[ast.stmt]) -> bool:
    """Can any of these statements raise or leave early (calls, awaits, raise, return, yield)?"""
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, (ast.Call, ast.Await, ast.Raise, ast.Return, ast.Yield, ast.YieldFrom,
                              ast.Subscript)):
                return True
    return False


def straight_line(facts: PythonFacts, first: ast.stmt, second: ast.stmt) -> bool:
    """True when `second` follows `first` in the same block with nothing between that can raise."""
    between = _between(facts, first, second)
    return between is not None and not has_risk(between)


def nothing_raises_between(facts: PythonFacts, first: ast.stmt, second: ast.stmt) -> bool:
    """True when `second` follows `first` in the same block and every statement between
    them cannot raise an ordinary `Exception` or leave the block (`cleanup.cannot_raise`:
    no-raise calls, plain assignments, a `try` guarded by a catch-all that does not
    re-raise). Then `second` runs whenever `first` completed, except on a BaseException
    (in a coroutine, an await between them must be guarded by a bare/`BaseException`
    handler, since cancellation is a BaseException)."""
    between = _between(facts, first, second)
    return between is not None and cannot_raise(facts, between)


def _between(facts: PythonFacts, first: ast.stmt, second: ast.stmt) -> list[ast.stmt] | None:
    """The statements strictly between `first` and `second` when `second` follows
    `first` in the same block (same parent, same body field), else None."""
    p1, p2 = facts.parents.get(first), facts.parents.get(second)
    if p1 is None or p1 is not p2:
        return None
    f1, f2 = field_of(p1, first), field_of(p2, second)
    if f1 is None or f1 != f2:
        return None
    seq = getattr(p1, f1)
    i = next(k for k, s in enumerate(seq) if s is first)
    j = next(k for k, s in enumerate(seq) if s is second)
    return seq[i + 1:j] if i < j else None


def in_tail_position(facts: PythonFacts, stmt: ast.stmt, fn: ast.AST) -> bool:
    """Is `stmt` the last thing `fn` does (nothing but `pass`/a plain `return` after it,
    not inside a loop)? Such a function is a setter: its effect is meant for its caller."""
    node = stmt
    while node is not fn:
        parent = facts.parents.get(node)
        if parent is None:
            return False
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.While)) and field_of(parent, node) == "body":
            return False
        fld = field_of(parent, node)
        if fld is not None:
            seq = getattr(parent, fld)
            idx = next(k for k, s in enumerate(seq) if s is node)
            for rest in seq[idx + 1:]:
                if isinstance(rest, ast.Pass):
                    continue
                if isinstance(rest, ast.Return) and (
                        rest.value is None or isinstance(rest.value, (ast.Constant, ast.Name))):
                    continue
                return False
        node = parent
    return True


def statement_block(facts: PythonFacts, node: ast.AST) -> tuple[list, int] | None:
    """(the block, the index in it) of the statement holding `node`: its parent's `body`,
    `orelse` or `finalbody` list. None for a statement in no such block."""
    stmt = facts.enclosing_statement(node)
    parent = facts.parents.get(stmt)
    for fld in ("body", "orelse", "finalbody"):
        block = getattr(parent, fld, None)
        if isinstance(block, list) and stmt in block:
            return block, block.index(stmt)
    return None


def followed_in_block(facts: PythonFacts, call: ast.Call) -> bool:
    """Does a statement follow the one holding `call` in its block? (The try/finally
    codemods wrap those statements; with none there is nothing to protect.)"""
    got = statement_block(facts, call)
    return got is not None and got[1] < len(got[0]) - 1


def across_yield(facts: PythonFacts, start: ast.AST, fn: ast.AST, release: ast.AST) -> bool:
    """Is there a `yield` of `fn` between `start` and `release` in source order?"""
    s, r = pos(start), pos(release)
    return any(s < pos(y) < r for y in yields(facts, fn))


# ------------------------------------------------------------------ references
def refs(values: ModuleValues, fn: ast.AST, key: tuple) -> set[tuple]:
    """Bindings inside `fn` that hold what binding `key` holds: `key` itself plus the
    locals `fn` copies it into (`tok = self._token`, `tok, self._token = self._token,
    None`, `tok = self._tokens.pop()`, `for var, tok in reversed(self._tokens)`,
    `if (tok := self._token) is None:`)."""
    facts = values.facts
    out = {key}
    for _ in range(2):
        for n in facts.walk(fn, into_defs=True):
            if isinstance(n, ast.Assign):
                pairs = []
                for t in n.targets:
                    if isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple) and len(t.elts) == len(n.value.elts):
                        pairs.extend(zip(t.elts, n.value.elts))
                    else:
                        pairs.append((t, n.value))
                for t, v in pairs:
                    if reads(values, v, out):
                        for sub in ast.walk(t):
                            if isinstance(sub, (ast.Name, ast.Attribute)) and isinstance(sub.ctx, ast.Store):
                                b = values.binding(sub)
                                if b is not None:
                                    out.add(b)
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)) and reads(values, n.iter, out):
                for sub in ast.walk(n.target):
                    if isinstance(sub, ast.Name):
                        b = values.binding(sub)
                        if b is not None:
                            out.add(b)
            elif isinstance(n, ast.NamedExpr) and reads(values, n.value, out):
                # `if (tok := self._token) is None: return`
                b = values.binding(n.target)
                if b is not None:
                    out.add(b)
    return out


def reads(values: ModuleValues, expr: ast.AST, keys: set[tuple]) -> bool:
    """Does `expr` read one of the bindings `keys` (directly, `.pop()`, `[i]`, `reversed(...)`,
    or by a name held in a string: `getattr(self, "_token")`, `getattr(self, attr)` with
    `attr` walking literal names - see `getattr_bindings`)?"""
    for n in ast.walk(expr):
        if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load) and values.binding(n) in keys:
            return True
        if isinstance(n, ast.Call) and any(b in keys for b in getattr_bindings(values, n)):
            return True
    return False


def getattr_bindings(values: ModuleValues, call: ast.Call) -> list[tuple]:
    """The attribute bindings a builtin `getattr(obj, name[, default])` may read: one
    `("attr", class, name)` per string `name` can hold (`string_values`) when `obj` is an
    instance of a class of this module ([] otherwise). The attribute named by a string is
    the attribute: cognee's `DatabaseContextManager.__aexit__` walks `(var, "_token_attr")`
    pairs and resets `getattr(self, token_attr)` (Python docs, `getattr`)."""
    f = call.func
    if not (isinstance(f, ast.Name) and f.id == "getattr" and f.id not in values.facts.module_names
            and 2 <= len(call.args) <= 3 and not call.keywords):
        return []
    if not isinstance(values.resolve_scope(f), ast.Module):
        return []  # a local `getattr` shadows the builtin
    out: list[tuple] = []
    for name in string_values(values, call.args[1]):
        if name.isidentifier():
            b = values.binding(ast.Attribute(value=call.args[0], attr=name, ctx=ast.Load()))
            if b is not None and b[0] == "attr":
                out.append(b)
    return out


def string_values(values: ModuleValues, expr: ast.AST) -> frozenset[str]:
    """The string constants `expr` can hold, when it is one: a literal; a local bound to
    one by plain assignments only; a `for` target over a literal tuple/list (optionally
    through `reversed(...)`) of strings, or of tuples whose item at the target's position
    is a string (`for var, attr in ((v1, "_a"), (v2, "_b")):` -> `attr` in {"_a", "_b"}).
    Empty when any source is something else (a parameter, a call, a computed string)."""
    if isinstance(expr, ast.Constant):
        return frozenset([expr.value]) if isinstance(expr.value, str) else frozenset()
    if not isinstance(expr, ast.Name):
        return frozenset()
    facts = values.facts
    fn = facts.enclosing_function(expr)
    if fn is None or values.resolve_scope(expr) is not fn:
        return frozenset()
    out: set[str] = set()
    found = False
    for n in facts.walk(fn):
        if isinstance(n, (ast.For, ast.AsyncFor)):
            path = _target_path(n.target, expr.id)
            if path is None:
                continue
            found = True
            got = _literal_items(n.iter, path)
            if got is None:
                return frozenset()
            out |= got
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.With, ast.AsyncWith,
                            ast.comprehension, ast.ExceptHandler)):
            targets = (n.targets if isinstance(n, ast.Assign) else
                       [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr, ast.comprehension))
                       else [i.optional_vars for i in n.items if i.optional_vars is not None]
                       if isinstance(n, (ast.With, ast.AsyncWith)) else [])
            if isinstance(n, ast.ExceptHandler) and n.name == expr.id:
                return frozenset()
            for t in targets:
                if any(isinstance(x, ast.Name) and x.id == expr.id for x in ast.walk(t)):
                    found = True
                    if isinstance(n, ast.Assign) and t is not None and isinstance(t, ast.Name) \
                            and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str):
                        out.add(n.value.value)
                    else:
                        return frozenset()
    if any(a.arg == expr.id for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)):
        return frozenset()
    return frozenset(out) if found else frozenset()


def _target_path(target: ast.AST, name: str) -> tuple[int, ...] | None:
    """Where `name` sits in a `for` target: () for the whole target, (i, ...) for an item
    of a (nested) tuple unpacking; None when it is not bound there."""
    if isinstance(target, ast.Name):
        return () if target.id == name else None
    if isinstance(target, (ast.Tuple, ast.List)):
        for i, e in enumerate(target.elts):
            sub = _target_path(e, name)
            if sub is not None:
                return (i, *sub)
    return None


def _literal_items(it: ast.AST, path: tuple[int, ...]) -> set[str] | None:
    """The strings at `path` in each element of a literal tuple/list `it` (through
    `reversed(...)`), or None when some element is not such a literal."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "reversed" and len(it.args) == 1:
        it = it.args[0]
    if not isinstance(it, (ast.Tuple, ast.List, ast.Set)):
        return None
    out: set[str] = set()
    for e in it.elts:
        for i in path:
            if not (isinstance(e, (ast.Tuple, ast.List)) and i < len(e.elts)):
                return None
            e = e.elts[i]
        if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
            return None
        out.add(e.value)
    return out


# ------------------------------------------------------------------ hand-off
RELEASED = "released"
ESCAPED = "escaped"
BORROWED = "borrowed"
NOT_RELEASED = "not_released"
EXHAUSTION_ONLY = "exhaustion_only"
ACROSS_YIELD = "across_yield"


class Handoff:
    """What a callee does with a resource passed to it.

    Attributes:
        kind: RELEASED, ESCAPED, BORROWED, NOT_RELEASED, EXHAUSTION_ONLY or ACROSS_YIELD.
        owner: the def/class of this module that received it (None for unknown code).
        release: the releasing call found in the owner (for messages), if any.
    """

    __slots__ = ("kind", "owner", "release")

    def __init__(self, kind: str, owner: ast.AST | None = None, release: ast.AST | None = None):
        self.kind = kind
        self.owner = owner
        self.release = release

    def __repr__(self) -> str:
        return f"Handoff({self.kind}, {getattr(self.owner, 'name', None)})"


def _param_for(defn: ast.AST, call: ast.Call, arg: ast.AST, method: bool) -> ast.arg | None:
    params = [*defn.args.posonlyargs, *defn.args.args]
    if method:
        params = params[1:]
    for i, a in enumerate(call.args):
        if isinstance(a, ast.Starred):
            return None
        if a is arg:
            return params[i] if i < len(params) else None
    for kw in call.keywords:
        if kw.value is arg and kw.arg:
            for p in (*params, *defn.args.kwonlyargs):
                if p.arg == kw.arg:
                    return p
    return None


def handoff(facts: PythonFacts, call: ast.Call, arg: ast.AST, release: Release, depth: int = 0) -> Handoff:
    """What happens to the resource `arg` (an argument of `call`) once `call` runs.

    Args:
        call: the call `arg` is passed to (positionally or by keyword).
        release: the release predicate of the resource's kind.
    Returns a `Handoff` (see the module doc for each kind). Unknown callees give
    ESCAPED (the receiver's responsibility); READ_ONLY_CALLS give BORROWED.
    """
    values = module_values(facts)
    fname = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    defn = values.callee(call)
    if defn is None:
        return Handoff(BORROWED if fname in READ_ONLY_CALLS else ESCAPED)
    if depth > 3:
        return Handoff(ESCAPED, defn)
    if isinstance(defn, ast.ClassDef):
        init = values.lookup_method(defn, "__init__")
        if init is None:
            return Handoff(ESCAPED, defn)
        p = _param_for(init, call, arg, method=True)
        if p is None:
            return Handoff(ESCAPED, defn)
        h = _class_takes(facts, defn, init, p, release, depth)
        if h.kind == NOT_RELEASED and _is_record(values, defn):
            # a plain record (`_Carrier(span=span)`, no close path of its own) keeps the
            # resource without ending it: the instance now carries it, so its owner is
            # whoever keeps the instance. (A class with a close path took ownership: if
            # that path does not release, that is the finding.)
            carried = holder_fate(facts, call, release, depth)
            if carried.kind in (RELEASED, ESCAPED):
                return carried
        return h
    method = facts.enclosing_class(defn) is not None and facts.parents.get(defn) is facts.enclosing_class(defn) \
        and isinstance(call.func, ast.Attribute)
    p = _param_for(defn, call, arg, method=method)
    if p is None:
        return Handoff(ESCAPED, defn)
    return _function_takes(facts, defn, p, release, depth)


def _is_record(values: ModuleValues, cls: ast.ClassDef) -> bool:
    """A class with no close path (`close`/`aclose`/`__exit__`/`__aexit__`/`__del__`, an
    iterator's `__next__`/`__anext__`) in it or its module bases: it only carries data."""
    for c in (*values.bases(cls), cls):
        if any(n in values.methods(c) for n in (*EARLY_EXIT_METHODS, *EXHAUSTION_METHODS)):
            return False
    return True


def call_of_arg(facts: PythonFacts, node: ast.AST) -> ast.AST | None:
    """The parent of `node`, with a keyword argument lifted to its call (`f(x=node)` -> the
    `f(...)` call), so `node in call.args or any(k.value is node ...)` can be asked of it."""
    p = facts.parents.get(node)
    if isinstance(p, ast.keyword):
        p = facts.parents.get(p)
    return p


def holder_fate(facts: PythonFacts, make: ast.Call, release: Release, depth: int = 0) -> Handoff:
    """Where the object built by `make` (a class of this module that keeps a resource on an
    attribute but never releases it itself: a carrier/record) goes, as the owner of the
    resource it carries. RELEASED when it is stored on `self` (an attribute or a container
    attribute, `self._open[k] = carrier`) and some method of that class releases what it
    takes back out (`c = self._open.pop(k)` ... `c.span.end()`, also through a helper it
    passes `c` to), or handed to a function that does; ESCAPED when it is returned,
    yielded or handed to code outside the module; NOT_RELEASED otherwise.
    (litellm's OTel logger keeps `_LLMCallSpan(span=...)` in `self._open_llm_calls` and
    ends the span in `_finish_carrier`.)"""
    values = module_values(facts)
    p = call_of_arg(facts, make)
    if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom)):
        return Handoff(ESCAPED)
    if isinstance(p, ast.Call) and (make in p.args or any(k.value is make for k in p.keywords)):
        if depth > 3:
            return Handoff(ESCAPED)
        return handoff(facts, p, make, release, depth + 1)
    if isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is make:
        targets = p.targets if isinstance(p, ast.Assign) else [p.target]
        if len(targets) != 1:
            return Handoff(NOT_RELEASED)
        t = targets[0]
        if isinstance(t, ast.Subscript):
            t = t.value
        b = values.binding(t)
        if b is None:
            return Handoff(NOT_RELEASED)
        if b[0] == "attr":
            cls = facts.enclosing_class(make)
            if cls is None or depth > 1:
                return Handoff(ESCAPED)  # (deeper: as `_onward` treats a store; bounds recursion)
            kind, rel = class_releases_attrs(facts, cls, {b}, release)
            return Handoff(kind, cls, rel)
        fn = facts.enclosing_function(make)
        if isinstance(t, ast.Name) and fn is not None and b[0] == "local" and depth <= 3:
            keys = refs(values, fn, b)
            rel = _releases(values, fn, keys, release)
            if rel:
                return Handoff(RELEASED, fn, rel[0])
            on = _onward(facts, fn, keys, release, depth + 1)
            if on is not None:
                return on
    return Handoff(NOT_RELEASED)


def _uses(values: ModuleValues, fn: ast.AST, keys: set[tuple]) -> list[ast.AST]:
    return [n for n in values.facts.walk(fn, into_defs=True)
            if isinstance(n, (ast.Name, ast.Attribute)) and isinstance(n.ctx, ast.Load) and values.binding(n) in keys]


def _releases(values: ModuleValues, scope: ast.AST, keys: set[tuple], release: Release) -> list[ast.Call]:
    out = []
    for n in values.facts.walk(scope, into_defs=True):
        if isinstance(n, ast.Call):
            for e in release(n):
                if reads(values, e, keys):
                    out.append(n)
                    break
    return out


def _function_takes(facts: PythonFacts, fn: ast.AST, param: ast.arg, release: Release, depth: int) -> Handoff:
    values = module_values(facts)
    keys = refs(values, fn, ("local", id(fn), param.arg))
    rel = _releases(values, fn, keys, release)
    if rel:
        if is_generator(facts, fn) and any(across_yield(facts, fn, fn, r) for r in rel):
            return Handoff(ACROSS_YIELD, fn, rel[0])
        return Handoff(RELEASED, fn, rel[0])
    kind = _onward(facts, fn, keys, release, depth)
    return Handoff(kind.kind if kind is not None else BORROWED, fn, kind.release if kind else None)


def _onward(facts: PythonFacts, fn: ast.AST, keys: set[tuple], release: Release, depth: int) -> Handoff | None:
    """Does `fn` hand the resource on (return, yield, store, pass to a call)? The strongest
    answer among its uses, or None when it only reads it."""
    values = module_values(facts)
    best: Handoff | None = None
    rank = {NOT_RELEASED: 0, EXHAUSTION_ONLY: 0, ACROSS_YIELD: 0, BORROWED: 1, ESCAPED: 2, RELEASED: 3}
    for u in _uses(values, fn, keys):
        p = call_of_arg(facts, u)
        h = None
        if isinstance(p, (ast.Return, ast.Yield, ast.YieldFrom)):
            h = Handoff(ESCAPED)
        elif isinstance(p, ast.Call) and (u in p.args or any(k.value is u for k in p.keywords)):
            h = handoff(facts, p, u, release, depth + 1)
            if h.kind == BORROWED:
                h = None
        elif isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is u:
            tg = p.targets if isinstance(p, ast.Assign) else [p.target]
            if any(not isinstance(x, ast.Name) for x in tg):
                h = Handoff(ESCAPED)
        elif isinstance(p, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
            h = Handoff(ESCAPED)
        elif isinstance(p, ast.withitem) and p.context_expr is u:
            h = Handoff(RELEASED)
        if h is not None and (best is None or rank[h.kind] > rank[best.kind]):
            best = h
    return best


def _class_takes(facts: PythonFacts, cls: ast.ClassDef, init: ast.AST, param: ast.arg, release: Release,
                 depth: int) -> Handoff:
    """`cls(..., resource, ...)`: does the class release what `__init__` gets in `param`?"""
    values = module_values(facts)
    keys = refs(values, init, ("local", id(init), param.arg))
    if _releases(values, init, keys, release):
        return Handoff(RELEASED, cls)
    attrs: set[tuple] = set()
    for n in facts.walk(init, into_defs=True):
        if isinstance(n, ast.Assign) and reads(values, n.value, keys):
            for t in n.targets:
                if isinstance(t, ast.Subscript):
                    t = t.value  # `self._spans[k] = span`: the container attribute holds it
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, (ast.Store, ast.Load)) \
                            and (sub is t or isinstance(sub.ctx, ast.Store)):
                        b = values.binding(sub)
                        if b is not None and b[0] == "attr":
                            attrs.add(b)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in ("append", "appendleft", "add", "insert", "push", "put", "setdefault") \
                and any(reads(values, a, keys) for a in n.args):
            b = values.binding(n.func.value)  # `self._spans.append(span)`
            if b is not None and b[0] == "attr":
                attrs.add(b)
    if not attrs:
        on = _onward(facts, init, keys, release, depth)
        return Handoff(on.kind if on else BORROWED, cls)
    verdict = class_releases_attrs(facts, cls, attrs, release)
    return Handoff(verdict[0], cls, verdict[1])


def class_releases_attrs(facts: PythonFacts, cls: ast.ClassDef, attrs: set[tuple], release: Release,
                         entry: Iterable[str] | None = None,
                         follow_calls: bool = False) -> tuple[str, ast.AST | None]:
    """Does `cls` release the resource it keeps in `attrs` (bindings `("attr", cls, name)`)?

    Close paths: when `entry` names methods (e.g. `__exit__`), only what those run
    counts. Otherwise: an iterator (`__next__`/`__anext__`) must release on exhaustion
    *and* on early exit (`close`/`aclose`/`__exit__`/`__aexit__`/`__del__`); a context
    manager in what `__exit__` runs (or `close`/`__del__`); any other class in any of its
    methods (its own start/end hooks). A method that hands the attribute on (returns it,
    passes it to unknown code) counts as releasing it. With `follow_calls`, what a method
    runs also includes the module functions it calls (`calls_closure`): a helper handed
    the instance (`_finish(self)`) that releases `wrapper._token` releases the same
    attribute (the parameter holds an instance of `cls`, so the binding is the same).

    Returns (RELEASED | NOT_RELEASED | EXHAUSTION_ONLY, a release call or None).
    """
    values = module_values(facts)
    methods: dict[str, ast.AST] = {}
    for c in (*reversed(values.bases(cls)), cls):
        methods.update(values.methods(c))
    releasing: dict[int, ast.AST] = {}
    scan = list(methods.values())
    if follow_calls:
        scan = calls_closure(facts, scan, limit=len(scan) + 20)
    for m in scan:
        keys: set[tuple] = set()
        for a in attrs:
            keys |= refs(values, m, a)
        rel = _releases(values, m, keys, release)
        if rel:
            releasing[id(m)] = rel[0]
            continue
        for u in _uses(values, m, keys):
            p = call_of_arg(facts, u)
            if isinstance(p, (ast.Return, ast.Yield)) or (
                    isinstance(p, ast.Call) and (u in p.args or any(k.value is u for k in p.keywords))
                    and handoff(facts, p, u, release, 2).kind in (ESCAPED, RELEASED)):
                releasing[id(m)] = p
                break

    def runs_release(names) -> ast.AST | None:
        for nm in names:
            m = methods.get(nm)
            if m is None:
                continue
            runs = values.self_closure(m)
            if follow_calls:
                runs = calls_closure(facts, runs)
            for f in runs:
                if id(f) in releasing:
                    return releasing[id(f)]
        return None

    if entry is not None:
        r = runs_release(entry)
        return (RELEASED, r) if r is not None else (NOT_RELEASED, None)
    if any(n in methods for n in EXHAUSTION_METHODS):
        on_exhaustion = runs_release(EXHAUSTION_METHODS)
        on_early = runs_release(EARLY_EXIT_METHODS)
        if on_exhaustion is not None and on_early is not None:
            return RELEASED, on_early
        if on_early is not None:
            return RELEASED, on_early
        if on_exhaustion is not None:
            return EXHAUSTION_ONLY, on_exhaustion
        return NOT_RELEASED, None
    it = methods.get("__iter__") or methods.get("__aiter__")
    if it is not None and is_generator(facts, it) and id(it) in releasing:
        r = releasing[id(it)]
        return (RELEASED, r) if protected(facts, r, it) else (EXHAUSTION_ONLY, r)
    if any(n in methods for n in EXIT_METHODS):
        r = runs_release((*EXIT_METHODS, "close", "aclose", "__del__"))
        if r is not None:
            return RELEASED, r
    if releasing:
        return RELEASED, next(iter(releasing.values()))
    rel = helper_releases_attr(facts, list(methods.values()), {a[2] for a in attrs if len(a) > 2}, release)
    if rel is not None:
        return RELEASED, rel
    return NOT_RELEASED, None


def early_exit_methods(facts: PythonFacts, cls: ast.AST) -> list[str]:
    """Names of the early-exit close paths (`EARLY_EXIT_METHODS`: close/aclose,
    __exit__/__aexit__, __del__) that class `cls` or its bases of this module define, in
    that order; [] for a non-class. An iterator class without any has no way to be told
    that its consumer stopped early."""
    if not isinstance(cls, ast.ClassDef):
        return []
    values = module_values(facts)
    return [n for n in EARLY_EXIT_METHODS if values.lookup_method(cls, n) is not None]


# ------------------------------------------------------------------ enter/exit
def enter_exit_of(facts: PythonFacts, fn: ast.AST) -> tuple[ast.ClassDef, ast.AST] | None:
    """When `fn` runs as part of a class's `__enter__`/`__aenter__` (it is that method, or
    a method of the class the enter method calls through `self`), return (the class,
    the enter method); else None."""
    cls = facts.enclosing_class(fn)
    if cls is None:
        return None
    values = module_values(facts)
    for name in ENTER_METHODS:
        m = values.lookup_method(cls, name)
        if m is not None and fn in values.self_closure(m):
            return cls, m
    return None


def exit_closure(facts: PythonFacts, cls: ast.ClassDef) -> list[ast.AST]:
    """What runs when `cls`'s with-block ends: `__exit__`/`__aexit__` and the methods they call."""
    values = module_values(facts)
    out: list[ast.AST] = []
    for name in EXIT_METHODS:
        m = values.lookup_method(cls, name)
        if m is not None:
            out.extend(x for x in values.self_closure(m) if x not in out)
    return out


# ------------------------------------------------------------------ restoring
def restores_previous(facts: PythonFacts, set_call: ast.Call) -> bool:
    """Is `var.set(arg)` putting back a value read earlier from the same ContextVar
    (`prev = var.get()` ... `var.set(prev)`, also through `self._stack.append(var.get())`
    / `self._stack.pop()`)? Such a set is the cleanup of an earlier one."""
    if not (isinstance(set_call.func, ast.Attribute) and set_call.args):
        return False
    values = module_values(facts)
    var_keys = values.contextvar_keys(set_call.func.value)
    v = values.value(set_call.args[0])
    if not (CV_VALUE in v.kinds and var_keys and v.vars & var_keys):
        return False
    # the value must have been saved where the var is then changed (a set of the same var
    # in the function that read it): a value captured elsewhere (in `__init__`, in another
    # thread) and applied here is a new value, not a restore
    readers = {k[len("readin:"):] for k in v.vars if k.startswith("readin:")}
    for c, fn in contextvar_sets(facts):
        if c is not set_call and str(id(fn)) in readers and values.contextvar_keys(c.func.value) & var_keys:
            return True
    # or the set runs on a class's exit and puts back a saved value of a var its enter sets
    fn = facts.enclosing_function(set_call)
    cls = facts.enclosing_class(set_call)
    if fn is not None and cls is not None and fn in exit_closure(facts, cls):
        return _enter_sets(facts, cls, var_keys)
    return False


def _enter_sets(facts: PythonFacts, cls: ast.ClassDef, var_keys: frozenset[str]) -> bool:
    """Does what `cls`'s `__enter__`/`__aenter__` runs set one of the ContextVars `var_keys`?"""
    values = module_values(facts)
    scope = {id(f) for f in enter_closure(facts, cls)}
    return any(id(f) in scope and values.contextvar_keys(c.func.value) & var_keys
               for c, f in contextvar_sets(facts))


def enter_closure(facts: PythonFacts, cls: ast.ClassDef) -> list[ast.AST]:
    """What runs when `cls`'s with-block starts: `__enter__`/`__aenter__` and the methods they call."""
    values = module_values(facts)
    out: list[ast.AST] = []
    for name in ENTER_METHODS:
        m = values.lookup_method(cls, name)
        if m is not None:
            out.extend(x for x in values.self_closure(m) if x not in out)
    return out


def saved_on_enter(facts: PythonFacts, cls: ast.ClassDef) -> set[tuple]:
    """Bindings `("attr", ...)` of the `self` attributes that what `__enter__` runs saves a
    value into: assigns (`self._prev = ...`) or pushes onto (`self._old.append(...)`).
    (`__init__` does not count: a value captured at construction is not the one the
    with-block replaces.)"""
    def compute():
        values = module_values(facts)
        out: set[tuple] = set()
        for m in enter_closure(facts, cls):
            for n in facts.walk(m, into_defs=True):
                targets: list[ast.AST] = []
                if isinstance(n, (ast.Assign, ast.AnnAssign)):
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.args \
                        and n.func.attr in ("append", "appendleft", "insert", "push", "put"):
                    targets = [n.func.value]
                for t in targets:
                    if isinstance(t, ast.Subscript):
                        t = t.value
                    if isinstance(t, ast.Attribute):
                        b = values.binding(t)
                        if b is not None and b[0] == "attr":
                            out.add(b)
        return out
    return facts.memo(f"owners.saved_on_enter:{id(cls)}", compute)


def puts_back_saved(facts: PythonFacts, set_call: ast.Call) -> bool:
    """Is `var.set(x)`, run by a class's `__exit__`, putting back a value that `__enter__`
    saved on `self` (`self._old.append(Hub.current)` ... `old = self._old.pop();
    var.set(old)`) while `__enter__` also sets `var`? That is the save/restore pair of a
    re-entrant context manager (sentry-sdk `Hub.__enter__`/`__exit__`), whatever the saved
    value was read through (a property, a helper that calls `var.get()`)."""
    if not (isinstance(set_call.func, ast.Attribute) and set_call.args):
        return False
    values = module_values(facts)
    fn = facts.enclosing_function(set_call)
    cls = facts.enclosing_class(set_call)
    if fn is None or cls is None or fn not in exit_closure(facts, cls):
        return False
    saved = saved_on_enter(facts, cls)
    if not saved:
        return False
    keys: set[tuple] = set()
    for b in saved:
        keys |= refs(values, fn, b)
    return reads(values, set_call.args[0], keys) \
        and _enter_sets(facts, cls, values.contextvar_keys(set_call.func.value))


def undoes_in(facts: PythonFacts, scopes: Iterable[ast.AST], var_keys: frozenset[str]) -> ast.Call | None:
    """In `scopes` (what a class's `__exit__` runs, or what a `finally` calls): a `reset(...)`
    of one of the ContextVars `var_keys`, or a `set()` of it back to a value read from it
    with `get()` (wherever it was read: saved in `__init__` and put back on exit is an undo
    too), back to a value `__enter__` saved on `self` (`puts_back_saved`), or to a value
    taken out of its own current value with nothing added (`takes_from_current`: the
    helper that removes this object from the var's tuple and sets the rest). None when
    nothing undoes it. (Callers widen `scopes` with `calls_closure` to follow helpers.)"""
    values = module_values(facts)
    for s in scopes:
        for n in facts.walk(s, into_defs=True):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("set", "reset") \
                    and n.args and values.contextvar_keys(n.func.value) & var_keys:
                if n.func.attr == "reset":
                    return n
                v = values.value(n.args[0])
                if CV_VALUE in v.kinds and v.vars & var_keys:
                    return n
                if puts_back_saved(facts, n):
                    return n
                fn = facts.enclosing_function(n)
                if fn is not None and takes_from_current(facts, n.args[0], fn, var_keys):
                    return n
    return None


def calls_closure(facts: PythonFacts, fns: Iterable[ast.AST], limit: int = 40) -> list[ast.AST]:
    """`fns` plus every def of this module they call (methods through `self`, module
    functions, resolved by `ModuleValues.callee`, never by name), transitively: the code
    that runs when `fns` run. At most `limit` defs (a bound for huge modules)."""
    values = module_values(facts)
    out: list[ast.AST] = []
    for f in fns:
        if f not in out:
            out.append(f)
    i = 0
    while i < len(out) and len(out) < limit:
        for n in facts.walk(out[i], into_defs=True):
            if isinstance(n, ast.Call):
                d = values.callee(n)
                if isinstance(d, FunctionNode) and d not in out:
                    out.append(d)
        i += 1
    return out




def takes_from_current(facts: PythonFacts, expr: ast.AST, fn: ast.AST, var_keys: frozenset[str],
                       depth: int = 0, read_here: bool = False) -> bool:
    """Is `expr` (the argument of a `var.set()` in `fn`) built from the var's own current
    value (`var.get()` of one of `var_keys`, directly or through locals of `fn`: `items =
    list(var.get())`; `del items[i]`; `var.set(tuple(items))`) with nothing added to it
    (no `+ (new,)`, no `(*current, new)`, no `append`/`add`/`insert`/`extend`/`+=` on
    those locals)? A concatenation of parts of the current value only (`stack[:i] +
    tuple(e for e in stack[i + 1:] if ...)`, `(*stack[:i], *stack[i + 1:])`: an entry cut
    out of the middle) adds nothing either. Such a set removes something from what the var holds (a pop, a filter): it
    binds nothing new, so on an exit path it is the undo of an earlier push.
    With `read_here`, the current value must be read in `fn` itself (a value captured
    elsewhere, in `__init__` or another thread, and applied here is a new binding)."""
    values = module_values(facts)
    if depth > 4:
        return False
    derived = False

    def part(o: ast.AST) -> bool:
        # an operand of a concatenation: a part of the current value (`stack[:i]`, a
        # filtered copy), never a display that lists entries of its own (`(new,)`)
        if isinstance(o, (ast.Tuple, ast.List, ast.Set)) and not all(isinstance(e, ast.Starred) for e in o.elts):
            return False
        return takes_from_current(facts, o, fn, var_keys, depth + 1, read_here)

    for n in _value_nodes(expr):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            if not (part(n.left) and part(n.right)):
                return False  # something added: `stack + (new,)`
            derived = True
            continue
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)) and any(isinstance(e, ast.Starred) for e in n.elts) \
                and len(n.elts) > 1:
            if not all(isinstance(e, ast.Starred) and part(e.value) for e in n.elts):
                return False  # `(*stack, new)`
            derived = True
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                and values.contextvar_keys(n.func.value) & var_keys:
            derived = True
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            b = values.binding(n)
            if b is None or b[0] != "local" or b[1] != id(fn):
                continue
            v = values.value(n)
            if CV_VALUE in v.kinds and v.vars & var_keys and (not read_here or f"readin:{id(fn)}" in v.vars):
                derived = True
                continue
            sources = _local_sources(facts, values, fn, b)
            if sources is None:
                return False  # grown in place (`items.append(x)`, `items += ...`)
            if any(takes_from_current(facts, src, fn, var_keys, depth + 1, read_here) for src in sources):
                derived = True
    return derived


def _value_nodes(expr: ast.AST):
    """The nodes of `expr` that make up its value, as `ast.walk` yields them (in no set
    order) but without what only positions or filters entries: the index of a subscript
    (`stack[idx + 1:]`) and the `if` clauses of a comprehension."""
    todo = [expr]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, ast.Subscript):
            todo.append(n.value)
        elif isinstance(n, ast.comprehension):
            todo.extend((n.target, n.iter))
        else:
            todo.extend(ast.iter_child_nodes(n))


def _local_sources(facts: PythonFacts, values: ModuleValues, fn: ast.AST, b: tuple) -> list[ast.AST] | None:
    """The values assigned to local `b` in `fn`, or None when `fn` grows it in place."""
    out: list[ast.AST] = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and values.binding(t) == b for t in n.targets):
            out.append(n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and values.binding(n.target) == b:
            return None
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in GROWING_METHODS \
                and isinstance(n.func.value, ast.Name) and values.binding(n.func.value) == b:
            return None
    return out


#: Constructors that build a fresh, empty object (Python docs: builtins, `collections`).
FRESH_CONSTRUCTORS = frozenset({"dict", "list", "set", "object", "deque", "defaultdict", "OrderedDict",
                                "Counter", "collections.deque", "collections.defaultdict",
                                "collections.OrderedDict", "collections.Counter"})
#: Builtin types passed as a factory to a fresh container (`defaultdict(int)`).
_FACTORY_ARGS = FRESH_CONSTRUCTORS | {"int", "float", "str", "bool", "tuple", "frozenset"}
#: Values a var is cleared back to (its "nothing bound" value).
_EMPTY_CONSTANTS = (None, False, 0, "")


#: Builtin constructors that, called without arguments, build an empty value (Python docs).
_EMPTY_BUILDERS = frozenset({"tuple", "list", "dict", "set", "frozenset"})


def is_clear(values: ModuleValues, expr: ast.AST) -> bool:
    """`None`/`False`/`0`/`""`, an empty literal (`()`, `[]`, `{}`), or an empty builtin
    container built without arguments (`tuple()`, `dict()`): a var cleared back to its
    "nothing bound" value."""
    if isinstance(expr, ast.Constant):
        return expr.value in _EMPTY_CONSTANTS
    if isinstance(expr, ast.Call) and not expr.args and not expr.keywords and isinstance(expr.func, ast.Name) \
            and expr.func.id in _EMPTY_BUILDERS and values.callee(expr) is None \
            and values.binding(expr.func) == ("module", expr.func.id) \
            and expr.func.id not in values.facts.module_names:
        return True  # the builtin, not shadowed at module level
    return isinstance(expr, (ast.Tuple, ast.List, ast.Dict, ast.Set)) and not getattr(expr, "elts", None) \
        and not getattr(expr, "keys", None)


def _reads_current(facts: PythonFacts, expr: ast.AST, fn: ast.AST, var_keys: frozenset[str]) -> bool:
    """Is `expr` a part of the var's own current value: an attribute/item chain
    (`node.parent_id`, `frames[-2]`) rooted at `var.get()`, or at a local of `fn` assigned
    from `var.get()` or from a call of a def of this module that reads the var
    (`node = self._current()` where `_current` looks up `var.get()`)? Such a set walks
    back along what the var holds (a pop to the parent), binding nothing new."""
    values = module_values(facts)
    node = expr
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    if node is expr and not isinstance(node, ast.Name):
        return False
    srcs: list[ast.AST] = [node]
    if isinstance(node, ast.Name):
        b = values.binding(node)
        if b is None or b[0] != "local" or b[1] != id(fn):
            return False
        srcs = _local_sources(facts, values, fn, b) or []
        if not srcs:
            return False
    for src in srcs:
        if _reads_var_value(values, src, var_keys):
            continue
        d = values.callee(src) if isinstance(src, ast.Call) else None
        if isinstance(d, FunctionNode) and any(_reads_var_value(values, n, var_keys)
                                               for n in facts.walk(d) if isinstance(n, ast.Call)):
            continue
        return False
    return True


def undo_shaped(facts: PythonFacts, n: ast.Call, var_keys: frozenset[str]) -> bool:
    """Is `n` (a `reset`/`set` of one of the ContextVars `var_keys`) an undo rather than a
    new binding: a `reset(token)`; clearing back to an empty value (`set(None)`, `set(())`);
    a set of a value read from the var (`restores_previous`-like, `puts_back_saved`), of a
    part of its current value with nothing added (`takes_from_current`), or of an
    attribute/item of its current value (`_reads_current`: the parent of the current node)?"""
    values = module_values(facts)
    if n.func.attr == "reset":
        return True
    arg = n.args[0]
    if is_clear(values, arg):
        return True
    v = values.value(arg)
    if CV_VALUE in v.kinds and v.vars & var_keys and not v.classes:
        return True  # (a value that may also be a newly built instance is not only a restore)
    if puts_back_saved(facts, n):
        return True
    fn = facts.enclosing_function(n)
    return fn is not None and (takes_from_current(facts, arg, fn, var_keys, read_here=True)
                               or _reads_current(facts, arg, fn, var_keys))


def clears_in(facts: PythonFacts, scopes: Iterable[ast.AST], var_keys: frozenset[str]) -> ast.Call | None:
    """In `scopes` (what a class's `__exit__` runs): a `set()` of one of the ContextVars
    `var_keys` back to its empty value (`None`, `False`, `0`, `""`, an empty literal).
    Nothing stays bound after such an exit (burr `ApplicationContext.__exit__`:
    `var.set(None)`); None when there is none."""
    values = module_values(facts)
    for s in scopes:
        for n in facts.walk(s, into_defs=True):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set" \
                    and len(n.args) == 1 and values.contextvar_keys(n.func.value) & var_keys \
                    and is_clear(values, n.args[0]):
                return n
    return None


def undone_elsewhere(facts: PythonFacts, set_call: ast.Call, fn: ast.AST, var_keys: frozenset[str]) -> ast.Call | None:
    """Is the value `set_call` (in `fn`) binds undone by the other half of a set/undo API
    pair: another function of this module (a method of any class, a module function) that
    `fn` does not call (directly or through helpers) and that resets / clears / pops the
    same ContextVar (`undo_shaped`)? Such a pair (promptflow `set_node_info` /
    `clear_node_info`, `Tracer._push` / `_pop`, bentoml `start_record` / `stop_record`)
    is an API whose caller owns the lifecycle. The set itself must bind something new
    (an undo-shaped set is judged by its own shape). Returns the undoing call or None.
    A pair whose undo `fn` runs itself (on the happy path only, directly or through a
    helper) is not one, nor is a generator / `@contextmanager` that sets around its
    `yield`: `fn` owns the scope. Both halves may sit in `fn` itself on different arms of
    one `if` (`exclusive_branches`) when the set is a push (built from the var's current
    value, `updates_current`) and the other arm pops (sets a part of the current value):
    an event dispatcher whose open event pushes and whose later close event pops
    (praisonaiagents' trace emitter)."""
    values = module_values(facts)
    if not (isinstance(set_call.func, ast.Attribute) and set_call.args) or undo_shaped(facts, set_call, var_keys):
        return None
    if is_generator(facts, fn):
        return None  # a generator / @contextmanager owns the scope around its `yield` itself
    partner = None
    for n in facts.walk(fn):
        if n is not set_call and isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in ("set", "reset") and n.args and values.contextvar_keys(n.func.value) & var_keys \
                and undo_shaped(facts, n, var_keys):
            if n.func.attr == "set" and exclusive_branches(facts, set_call, n, fn) \
                    and _pops(facts, n, fn, var_keys) and updates_current(facts, set_call.args[0], fn, var_keys):
                partner = partner or n  # one call pushes, a later call pops: a dispatcher of both halves
                continue
            if pos(n) > pos(set_call):
                return None  # the setter undoes it itself (on the path it chose): it owns the pair
    if partner is not None:
        return partner
    runs = {id(d) for d in calls_closure(facts, [fn], limit=200)}
    for n in facts.nodes(ast.Call):
        if n is set_call or not (isinstance(n.func, ast.Attribute) and n.func.attr in ("set", "reset")
                                 and n.args and values.contextvar_keys(n.func.value) & var_keys):
            continue
        g = facts.enclosing_function(n)
        if g is None or id(g) in runs or any(a is fn for a in facts.ancestors(n)):
            continue
        if undo_shaped(facts, n, var_keys) and not lazily_initialises(facts, n, g, var_keys):
            return n
    return None


def _pops(facts: PythonFacts, n: ast.Call, fn: ast.AST, var_keys: frozenset[str]) -> bool:
    """Is `n` (`var.set(x)` in `fn`) a pop: `x` is a part of the var's current value read in
    `fn` (`takes_from_current`, `_reads_current`), not a clear or a restore?"""
    arg = n.args[0]
    return takes_from_current(facts, arg, fn, var_keys, read_here=True) or _reads_current(facts, arg, fn, var_keys)


def updates_current(facts: PythonFacts, expr: ast.AST, fn: ast.AST, var_keys: frozenset[str]) -> bool:
    """Is `expr` (the argument of a `var.set()` in `fn`) computed from the var's own current
    value read in `fn` (`var.get()` in it, or a local of `fn` assigned from `var.get()`:
    `n = var.get(); var.set(n + 1)`)? Such a set updates the value a scope bound (a
    counter bumped, a budget booked); a value taken from elsewhere is a new binding."""
    values = module_values(facts)
    if _reads_var_value(values, expr, var_keys):
        return True
    for n in ast.walk(expr):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            b = values.binding(n)
            if b is not None and b[0] == "local" and b[1] == id(fn) \
                    and any(_reads_var_value(values, src, var_keys) for src in _local_sources(facts, values, fn, b) or []):
                return True
    return False


def exclusive_branches(facts: PythonFacts, a: ast.AST, b: ast.AST, fn: ast.AST) -> bool:
    """Do `a` and `b` (nodes of `fn`) lie in different arms of the same `if` of `fn` (one in
    its body, the other in its `else`/`elif` part), so one run of `fn` that reaches `a`
    does not reach `b` past that `if` (outside a loop of `fn` around it)?"""
    chain_a: dict[int, ast.AST] = {}
    child = a
    for anc in facts.ancestors(a):
        chain_a[id(anc)] = child
        if anc is fn:
            break
        child = anc
    child = b
    for anc in facts.ancestors(b):
        if id(anc) in chain_a:
            if not isinstance(anc, ast.If):
                return False
            fa, fb = field_of(anc, chain_a[id(anc)]), field_of(anc, child)
            if {fa, fb} != {"body", "orelse"}:
                return False
            for up in facts.ancestors(anc):
                if up is fn:
                    return True
                if isinstance(up, (ast.For, ast.AsyncFor, ast.While)):
                    return False
            return False
        if anc is fn:
            return False
        child = anc
    return False


def lazily_initialises(facts: PythonFacts, set_call: ast.Call, fn: ast.AST, var_keys: frozenset[str]) -> bool:
    """Is `set_call` the lazy per-Context initialisation of its var: it runs only when the
    var holds nothing yet (inside `if var.get() is None:` / `if not var.get():`, also
    through a local read from the var, after `assert var.get() is None`, or in an
    `except LookupError:` of a `try` that reads the var), and what it sets is a fresh
    object (a class of this module or a `FRESH_CONSTRUCTORS` call, an empty literal, or a
    local assigned only such)? That is a per-Context singleton (promptflow
    `OperationContext.get_instance`), meant to stay bound, not a leaked override."""
    values = module_values(facts)
    if not _fresh(facts, values, set_call.args[0], fn, unset=var_keys):
        return False
    stmt = facts.enclosing_statement(set_call)
    node: ast.AST = stmt
    for anc in facts.ancestors(stmt):
        if anc is fn:
            break
        if isinstance(anc, ast.If) and field_of(anc, node) == "body" and _tests_unset(facts, anc.test, fn, var_keys):
            return True
        if isinstance(anc, ast.ExceptHandler) and _catches_lookup(anc):
            tr = facts.parents.get(anc)
            if isinstance(tr, ast.Try) and any(_reads_var_value(values, s, var_keys) for s in tr.body):
                return True
        node = anc
    parent = facts.parents.get(stmt)
    fld = field_of(parent, stmt) if parent is not None else None
    if fld is not None:
        seq = getattr(parent, fld)
        for before in seq[:next(k for k, x in enumerate(seq) if x is stmt)]:
            if isinstance(before, ast.Assert) and _tests_unset(facts, before.test, fn, var_keys):
                return True
    return False


def _catches_lookup(h: ast.ExceptHandler) -> bool:
    names = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
    return any(isinstance(t, ast.Name) and t.id == "LookupError" for t in names)


def _tests_unset(facts: PythonFacts, test: ast.AST, fn: ast.AST, var_keys: frozenset[str]) -> bool:
    """Is `test` true only when the var holds nothing: `X is None`, `X == None`, `not X`,
    where X is `var.get(...)` or a local of `fn` read from the var?"""
    values = module_values(facts)

    def current(e: ast.AST) -> bool:
        if _reads_var_value(values, e, var_keys) and isinstance(e, ast.Call):
            return True
        if isinstance(e, ast.Name):
            b = values.binding(e)
            if b is not None and b[0] == "local" and b[1] == id(fn):
                srcs = _local_sources(facts, values, fn, b) or []
                return any(isinstance(s, ast.Call) and _reads_var_value(values, s, var_keys) for s in srcs)
        return False

    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return any(_tests_unset(facts, v, fn, var_keys) for v in test.values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return current(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        return current(test.left)
    return False


def _fresh(facts: PythonFacts, values: ModuleValues, expr: ast.AST, fn: ast.AST, depth: int = 0,
           unset: frozenset[str] = frozenset()) -> bool:
    """Is `expr` a newly built object: a class of this module or a FRESH_CONSTRUCTORS call
    whose arguments are constants/fresh, an empty or constant literal, or a local of `fn`
    assigned only such values (besides, for the ContextVars `unset`, the var's own
    current value, which the caller's guard has found empty: `inst = var.get()`; `if
    inst is None: inst = Cls(); var.set(inst)`)?"""
    if depth > 3:
        return False
    if isinstance(expr, (ast.Dict, ast.List, ast.Set, ast.Tuple)):
        parts = [*(getattr(expr, "elts", None) or []), *[v for v in (getattr(expr, "values", None) or [])]]
        return all(isinstance(p, ast.Constant) for p in parts)
    if isinstance(expr, ast.Call):
        d = values.callee(expr)
        q = facts.qualname(expr.func) if isinstance(expr.func, (ast.Name, ast.Attribute)) else None
        if not (isinstance(d, ast.ClassDef) or (q in FRESH_CONSTRUCTORS and d is None)):
            return False
        return all(isinstance(a, ast.Constant) or _fresh(facts, values, a, fn, depth + 1)
                   or (isinstance(a, (ast.Name, ast.Attribute)) and facts.qualname(a) in _FACTORY_ARGS)
                   for a in [*expr.args, *(k.value for k in expr.keywords)])
    if isinstance(expr, ast.Name):
        b = values.binding(expr)
        if b is None or b[0] != "local" or b[1] != id(fn):
            return False
        srcs = _local_sources(facts, values, fn, b)
        if srcs and unset:
            srcs = [s for s in srcs if not (isinstance(s, ast.Call) and _reads_var_value(values, s, unset))]
        return bool(srcs) and all(_fresh(facts, values, s, fn, depth + 1) for s in srcs)
    return False


def restores_in(facts: PythonFacts, scopes: Iterable[ast.AST], var_keys: frozenset[str],
                include_reset: bool = True) -> ast.Call | None:
    """A restore (`restores_previous`) or (with `include_reset`) a `reset(...)` of one of the
    ContextVars `var_keys` in `scopes` (the first found), else None."""
    values = module_values(facts)
    for s in scopes:
        for n in facts.walk(s, into_defs=True):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("set", "reset") \
                    and n.args and values.contextvar_keys(n.func.value) & var_keys:
                if (include_reset and n.func.attr == "reset") or (n.func.attr == "set" and (
                        restores_previous(facts, n) or puts_back_saved(facts, n))):
                    return n
    return None


# ------------------------------------------------------------------ token fate
class TokenFate:
    """Where the token returned by `var.set()` / `context.attach()` ends up.

    kind: "ok" (released in `finally`, straight after, by an owner, or handed out),
    "discarded", "not_finally" (released only on the normal path: `release` is that
    call), "never", "across_yield" (handed to a generator that releases it after a
    `yield`: `release`, `owner`), "exhaustion_only" (an iterator class releases it only
    when exhausted: `owner`).
    """

    __slots__ = ("kind", "release", "owner")

    def __init__(self, kind: str, release: ast.AST | None = None, owner: ast.AST | None = None):
        self.kind = kind
        self.release = release
        self.owner = owner

    def __repr__(self) -> str:
        return f"TokenFate({self.kind})"


def token_fate(facts: PythonFacts, call: ast.Call, fn: ast.AST, release: Release,
               unpacked: ast.Name | None = None) -> TokenFate:
    """Follow the token of `call` (a `.set()`/`attach()`, or a helper's call that returns
    one) inside `fn` and its class. `unpacked`: the name of a tuple target that receives
    the token when `call` returns a tuple (`span, token = start(...)`).

    Accepted ("ok"): a release in `finally`/an except-all handler or straight after; a
    token stored on `self` and released by the class (by what `__exit__` runs when it
    was stored while `__enter__` runs); tokens kept in a list that a finally/exit
    releases; a token returned, yielded, or handed to code outside the module (the
    caller's or receiver's). A token handed to a function or class of this module is
    followed into it (see `handoff`).
    """
    values = module_values(facts)
    parent = facts.parents.get(call)
    if isinstance(parent, ast.Expr):
        return TokenFate("discarded")
    if unpacked is not None:
        return _local_token_fate(facts, call, parent, unpacked, fn, release)
    if isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        if len(targets) != 1:
            return TokenFate("ok")
        t = targets[0]
        if isinstance(t, ast.Name):
            return _local_token_fate(facts, call, parent, t, fn, release)
        b = values.binding(t)
        if b is None or b[0] != "attr":
            return TokenFate("ok")
        # the class that keeps the token: the receiver's (`self._token = ...` in this
        # class, `llm._token = ...` on an object of class LLM of this module)
        cls = next((c for c in facts.nodes(ast.ClassDef) if id(c) == b[1]), None)
        if cls is None:
            return TokenFate("ok")
        ee = enter_exit_of(facts, fn) if cls is facts.enclosing_class(call) else None
        entry = (*EXIT_METHODS, "close", "aclose", "__del__") if ee is not None else None
        kind, rel = class_releases_attrs(facts, cls, {b}, release, entry=entry, follow_calls=True)
        if kind == EXHAUSTION_ONLY:
            return TokenFate("exhaustion_only", rel, cls)
        if kind != RELEASED and entry is None and isinstance(t.value, ast.Name) \
                and facts.enclosing_class(fn) is not cls:  # (cls's own methods were scanned above)
            rel = helper_releases_attr(facts, (fn,), {t.attr}, release)
            if rel is not None:
                return TokenFate("ok", rel, cls)
        return TokenFate("ok" if kind == RELEASED else "never", rel, cls)
    if isinstance(parent, ast.NamedExpr) and parent.value is call and isinstance(parent.target, ast.Name):
        return _local_token_fate(facts, call, facts.enclosing_statement(call), parent.target, fn, release)
    # inside a container literal or an insertion: find the container the token goes to
    node, p = call, parent
    while isinstance(p, (ast.Tuple, ast.List)):
        node, p = p, facts.parents.get(p)
    if isinstance(p, ast.Call) and node in p.args and isinstance(p.func, ast.Attribute) \
            and p.func.attr in ("append", "appendleft", "add", "push", "put"):
        return TokenFate("ok" if _kept_list_released(facts, call, fn, release, p.func.value) else "never")
    if isinstance(p, ast.Call) and (node in p.args or any(k.value is node for k in p.keywords)):
        h = handoff(facts, p, node, release)
        return _fate_of_handoff(h)
    return TokenFate("ok")


def helper_releases_attr(facts: PythonFacts, fns: Iterable[ast.AST], attrs: set[str],
                         release: Release) -> ast.AST | None:
    """Is the resource kept in an attribute (one of `attrs`) of an object released by a helper that
    object is handed to? For each call in `fns` (and in the other defs of the classes
    they belong to) that passes a parameter of its def, or `self`, positionally to a def
    of this module or of another module of the same project (`project_index`), look in
    that def for `release(P.attr)` on its parameter P at the same position.

    OpenTelemetry's confluent-kafka instrumentation keeps the consume span's attach token
    on the consumer (`instance._current_context_token = attach(...)`) and detaches it in
    `utils._end_current_consume_span(instance)`, which the next `poll()` and `close()`
    call. Returns the releasing call, or None (also for a callee it cannot resolve).
    """
    from ctxlint.semantic.python import project_index
    if not attrs:
        return None
    values = module_values(facts)
    scan: list[ast.AST] = []
    for f in fns:
        if f is None:
            continue
        cls = facts.enclosing_class(f)
        for g in ((f,) if cls is None else (f, *values.methods(cls).values())):
            if g not in scan:
                scan.append(g)
    seen: set[int] = set()
    for g in scan[:40]:
        params = {a.arg for a in (*g.args.posonlyargs, *g.args.args)}
        for c in facts.walk(g):
            if not isinstance(c, ast.Call) or not c.args:
                continue
            idx = [i for i, a in enumerate(c.args) if isinstance(a, ast.Name) and a.id in params]
            if not idx:
                continue
            d = values.callee(c)
            local = isinstance(d, FunctionNode)
            if not local:
                d = project_index.resolve_function(facts, c.func)  # top-level defs only
            if not isinstance(d, FunctionNode) or id(d) in seen:
                continue
            seen.add(id(d))
            dparams = [a.arg for a in (*d.args.posonlyargs, *d.args.args)]
            if local and isinstance(c.func, ast.Attribute) and facts.enclosing_class(d) is not None \
                    and not any((dotted(x) or "").endswith("staticmethod") for x in d.decorator_list):
                dparams = dparams[1:]  # a bound method: the first positional is the second parameter
            want = {dparams[i] for i in idx if i < len(dparams)}
            for n in ast.walk(d):
                if isinstance(n, ast.Call):
                    for r in release(n):
                        if isinstance(r, ast.Attribute) and r.attr in attrs and isinstance(r.value, ast.Name) \
                                and r.value.id in want:
                            return c
    return None


def released_in_except_exception(facts: PythonFacts, fn: ast.AST, release_call: ast.AST | None,
                                 release: Release) -> bool:
    """Is the token that `release_call` releases (`detach(token)`, `var.reset(token)`;
    `release` tells a release call) released both in an `except Exception:` handler of
    `fn` (one that catches ordinary errors but not BaseException) and on the normal path
    (`else:` or after the `try`)? Then only a BaseException skips it: in sync code
    KeyboardInterrupt/SystemExit, which end the process; in a coroutine also
    `CancelledError`, which CTX103/CTX104 still report."""
    if not (isinstance(release_call, ast.Call) and release(release_call)):
        return False
    want = ast.dump(release(release_call)[0])
    in_handler = plain = False
    for n in facts.walk(fn):
        if not isinstance(n, ast.Call):
            continue
        got = release(n)
        if not got or ast.dump(got[0]) != want:
            continue
        handler = next((a for a in facts.ancestors(n) if isinstance(a, (ast.ExceptHandler, *FunctionNode))), None)
        if isinstance(handler, ast.ExceptHandler):
            if catches_all(handler, include_exception=True) and not catches_all(handler):
                in_handler = True
        else:
            plain = True
    return in_handler and plain


def _fate_of_handoff(h: Handoff) -> TokenFate:
    if h.kind == ACROSS_YIELD:
        return TokenFate("across_yield", h.release, h.owner)
    if h.kind == EXHAUSTION_ONLY:
        return TokenFate("exhaustion_only", h.release, h.owner)
    if h.kind == NOT_RELEASED:
        return TokenFate("never", None, h.owner)
    return TokenFate("ok")


def _kept_list_released(facts: PythonFacts, call: ast.Call, fn: ast.AST, release: Release,
                        container: ast.AST) -> bool:
    """Tokens appended to a list: is some release of them in a finally / exit path of the
    function, or in another method of the class when the list lives on an attribute (of
    `self`, or of a record object of this module the class keeps: `run.tokens.append(tok)`
    with `run = _Run(...)`)? The methods of the class that owns the attribute count too,
    and module functions those methods call. An element taken out of the list (`for tok
    in reversed(run.tokens)`) may be released there or handed to a helper of this module
    that releases it (`_detach_one(tok)`, `handoff` RELEASED; lmnr's LangChain callback
    handler: `_close(run)` walks `run.global_tokens` through `_detach_global`). A walk
    that only reads the tokens (logs them, clears the list) releases nothing."""
    values = module_values(facts)
    b = values.binding(container)
    scopes: list[ast.AST] = [fn]
    cls = facts.enclosing_class(call)
    if b is not None and b[0] == "attr":
        classes = [c for c in (cls, next((c for c in facts.nodes(ast.ClassDef) if id(c) == b[1]), None))
                   if c is not None]
        if classes:
            scopes = []
            for c in classes:
                scopes.extend(m for m in facts.walk(c, into_defs=True)
                              if isinstance(m, FunctionNode) and m not in scopes)
            if fn not in scopes:
                scopes.append(fn)
            scopes = calls_closure(facts, scopes, limit=len(scopes) + 20)
    for scope in scopes:
        keys = refs(values, scope, b) if b is not None else set()
        for n in facts.walk(scope, into_defs=True):
            if not isinstance(n, ast.Call):
                continue
            if release(n):
                if b is not None and not any(reads(values, e, keys) for e in release(n)):
                    continue
            elif b is None or not _hands_to_releaser(facts, n, keys, release):
                continue
            if scope is not fn or protected(facts, n, scope) \
                    or facts.enclosing_function(n) in exit_closure_of(facts, n):
                return True
    if b is not None and b[0] == "local" and b[1] == id(fn) and _returns(facts, fn, refs(values, fn, b)):
        return True  # handed to the caller, like a returned token
    return _shared_container_released(facts, fn, release, container)


def _hands_to_releaser(facts: PythonFacts, call: ast.Call, keys: set[tuple], release: Release) -> bool:
    """Is one of `call`'s arguments a read of the bindings `keys` (a token taken out of a
    kept list: `tok`, `tokens.pop()`, `tokens[-1]`; or the list itself) handed to a
    function or class of this module that releases it (`handoff` RELEASED)? Unknown
    code, or a helper that only reads it, releases nothing."""
    values = module_values(facts)
    if values.callee(call) is None:
        return False
    for a in (*call.args, *(k.value for k in call.keywords)):
        held = a
        if isinstance(held, ast.Call) and isinstance(held.func, ast.Attribute) \
                and held.func.attr in ("pop", "popleft", "popitem"):
            held = held.func.value
        elif isinstance(held, ast.Subscript):
            held = held.value
        if isinstance(held, (ast.Name, ast.Attribute)) and isinstance(held.ctx, ast.Load) \
                and values.binding(held) in keys:
            if handoff(facts, call, a, release, depth=1).kind == RELEASED:
                return True
    return False


#: Builtins that copy a container they are given (Python docs).
_COPIES = frozenset({"list", "tuple", "reversed"})


def _returns(facts: PythonFacts, fn: ast.AST, keys: set[tuple]) -> bool:
    """Does `fn` return what the bindings `keys` hold: `return tokens`, `return
    tuple(tokens)`, `return acc, tokens`? (A returned container of tokens is the
    caller's, as a returned token is: upsonic `push_scope_tags` returns its `(var,
    token)` pairs for `reset_scope_tags`.)"""
    values = module_values(facts)
    for n in facts.walk(fn):
        if not (isinstance(n, ast.Return) and n.value is not None):
            continue
        parts = n.value.elts if isinstance(n.value, (ast.Tuple, ast.List)) else [n.value]
        for e in parts:
            if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in _COPIES \
                    and e.func.id not in facts.module_names and len(e.args) == 1:
                e = e.args[0]
            if isinstance(e, (ast.Name, ast.Attribute)) and values.binding(e) in keys:
                return True
    return False


_container_root = container_root  # (shared with tensors.param_accumulations: syntax.container_root)


def _shared_container_released(facts: PythonFacts, fn: ast.AST, release: Release, container: ast.AST) -> bool:
    """A resource put into a container that outlives `fn` and that other functions of the
    module can reach: a module-level list/dict (`_live.setdefault(k, []).append(tok)`),
    or a local list that is (a copy of) a ContextVar's value set back into the var
    (`stack = list(var.get() or []); stack.append((tok, span)); var.set(stack)`), or the
    list a ContextVar holds, appended to in place (`var.get().append(tok)`). Is
    some other function of the module taking an element back out of that container
    (`var.get()[:]`, `.pop()`, iteration) and releasing it? Then the container is the
    hand-off to an owner that releases it (apache-burr's OTel bridge: `_enter_span`
    pushes the attach token on a ContextVar stack, `_exit_span` pops and detaches it)."""
    values = module_values(facts)
    others = [d for d in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)
              if d is not fn and facts.enclosing_function(d) is not fn]
    if isinstance(container, ast.Call) and isinstance(container.func, ast.Attribute) \
            and container.func.attr == "get" and not container.args:
        # the list a ContextVar holds, appended to in place (kagglehub's PackageScope:
        # `_token_stack_ctx.get().append(token)` in `__enter__`, `.get().pop()` then
        # `reset(token)` in `__exit__`)
        ck = frozenset(k for k in values.contextvar_keys(container.func.value) if not k.startswith("readin:"))
        if ck:
            return _released_from_var(values, facts, others, release, ck)
    root = _container_root(container)
    b = values.binding(root)
    if b is None:
        return False
    if b[0] == "module":
        return any(_releases(values, d, refs(values, d, b), release) for d in others)
    if b[0] != "local":
        return False
    local = refs(values, fn, b)
    var_keys: frozenset[str] = frozenset()
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "set" \
                and len(n.args) == 1 and reads(values, n.args[0], local):
            var_keys |= values.contextvar_keys(n.func.value)
    v = values.value(root)
    if CV_VALUE in v.kinds:
        var_keys |= frozenset(k for k in v.vars if not k.startswith("readin:"))
    if not var_keys:
        return False
    return _released_from_var(values, facts, others, release, var_keys)


def _released_from_var(values: ModuleValues, facts: PythonFacts, others: list, release: Release,
                       var_keys: frozenset[str]) -> bool:
    """Does one of the functions `others` take an element out of the value of one of the
    ContextVars `var_keys` (`tok = var.get().pop()`, `stack = var.get()`, ...) and release
    it (`release`), or release a read of that value directly?"""
    for d in others:
        keys: set[tuple] = set()
        for n in facts.walk(d, into_defs=True):
            if isinstance(n, ast.Assign) and _reads_var_value(values, n.value, var_keys):
                for t in n.targets:
                    for sub in ast.walk(t):
                        if isinstance(sub, (ast.Name, ast.Attribute)) and isinstance(sub.ctx, ast.Store):
                            tb = values.binding(sub)
                            if tb is not None:
                                keys |= refs(values, d, tb)
        for n in facts.walk(d, into_defs=True):
            if isinstance(n, ast.Call):
                for e in release(n):
                    if reads(values, e, keys) or _reads_var_value(values, e, var_keys):
                        return True
    return False


def _reads_var_value(values: ModuleValues, expr: ast.AST, var_keys: frozenset[str]) -> bool:
    """Does `expr` contain `<var>.get(...)` of one of the ContextVars `var_keys`?"""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
               and values.contextvar_keys(n.func.value) & var_keys for n in ast.walk(expr))


def exit_closure_of(facts: PythonFacts, node: ast.AST) -> list[ast.AST]:
    cls = facts.enclosing_class(node)
    return exit_closure(facts, cls) if cls is not None else []


def _released_by_sibling_closure(facts: PythonFacts, name: str, fn: ast.AST, release: Release) -> bool:
    """Is `name`, declared `nonlocal` in `fn`, released (`release`) by another closure of
    the function that owns the variable, one that function hands on or calls (a cleanup
    hook: `stream.with_cleanup_hook(_finalize)` where `_finalize` resets the token the
    pull hook `fn` set)? The closures share the variable's cell (Python reference,
    "Naming and binding"), so the sibling releases what `fn` stored, provided that `fn`
    sets it once (under `if <name> is None:`), that the sibling reads the cell (it binds
    no local of that name, or declares it `nonlocal` too), and that the owner hands the
    sibling on rather than calling it there and then."""
    if not any(isinstance(n, ast.Nonlocal) and name in n.names for n in facts.walk(fn)):
        return False
    outer = facts.enclosing_function(fn)
    if outer is None:
        return False
    # `fn` sets it at most once per cell: every store of the name in `fn` sits under an
    # `if <name> is None:` (a lazy first-pull set), so the one token is the one reset
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) \
                and not _under_is_none_test(facts, n, name, fn):
            return False
    for sib in facts.walk(outer, into_defs=True):
        if sib is fn or not isinstance(sib, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                or facts.enclosing_function(sib) is not outer:
            continue
        own = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in facts.walk(sib))
        shared = any(isinstance(n, ast.Nonlocal) and name in n.names for n in facts.walk(sib))
        if own and not shared:
            continue  # its own local of that name, not the cell
        loads = [n for n in facts.walk(outer) if isinstance(n, ast.Name) and n.id == sib.name
                 and isinstance(n.ctx, ast.Load)]
        if not loads or any(isinstance(facts.parents.get(n), ast.Call) and facts.parents.get(n).func is n
                            for n in loads):
            continue  # never handed on, or called right here (before anything was set)
        for n in facts.walk(sib):
            if isinstance(n, ast.Call) and any(isinstance(a, ast.Name) and a.id == name for a in release(n)):
                return True
    return False


def _under_is_none_test(facts: PythonFacts, node: ast.AST, name: str, fn: ast.AST) -> bool:
    """Is `node` in the body of an `if X is None:` of `fn` whose body sets the `nonlocal`
    `X` itself (a latch: `X` is `name`, or a sibling token set in the same first-pull
    block), so that the body runs once per cell?"""
    nonlocals = {v for n in facts.walk(fn) if isinstance(n, ast.Nonlocal) for v in n.names}
    for a in facts.ancestors(node):
        if a is fn:
            return False
        t = getattr(a, "test", None)
        if isinstance(a, ast.If) and isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) \
                and t.left.id in nonlocals and len(t.ops) == 1 and isinstance(t.ops[0], ast.Is) \
                and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value is None \
                and any(node in ast.walk(st) for st in a.body) \
                and any(isinstance(x, ast.Name) and x.id == t.left.id and isinstance(x.ctx, ast.Store)
                        for st in a.body for x in ast.walk(st)):
            return True
    return False


def _local_token_fate(facts: PythonFacts, call: ast.Call, assign: ast.stmt, target: ast.Name, fn: ast.AST,
                      release: Release) -> TokenFate:
    if _released_by_sibling_closure(facts, target.id, fn, release):
        return TokenFate("ok")
    values = module_values(facts)
    keys = {values.binding(target)}
    uses = _uses(values, fn, keys)
    releases: list[ast.Call] = []
    escaped = False
    handed: list[Handoff] = []
    for u in uses:
        p = facts.parents.get(u)
        if isinstance(p, ast.Call) and u in release(p):
            releases.append(p)
            continue
        if isinstance(p, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.If, ast.IfExp, ast.JoinedStr,
                          ast.FormattedValue, ast.Assert)):
            continue
        node = u
        while isinstance(p, (ast.Tuple, ast.List)):
            node, p = p, facts.parents.get(p)
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute) and node in p.args and p.func.attr in (
                "append", "appendleft", "add", "push", "put"):
            if _kept_list_released(facts, call, fn, release, p.func.value):
                return TokenFate("ok")
            continue
        if isinstance(p, ast.Call) and (node in p.args or any(k.value is node for k in p.keywords)):
            h = handoff(facts, p, node, release)
            if h.kind == BORROWED:
                continue
            handed.append(h)
            continue
        escaped = True
    if any(protected(facts, r, fn) for r in releases):
        return TokenFate("ok")
    for h in handed:
        if h.kind in (ACROSS_YIELD, EXHAUSTION_ONLY):
            return _fate_of_handoff(h)
    if any(h.kind in (RELEASED, ESCAPED) for h in handed):
        return TokenFate("ok")
    if releases:
        first = releases[0]
        rel = facts.enclosing_statement(first)
        if straight_line(facts, assign, rel) or nothing_raises_between(facts, assign, rel):
            return TokenFate("ok")
        if facts.parents.get(rel) is assign and field_of(assign, rel) == "body":
            body = assign.body
            if not has_risk(body[:next(k for k, s in enumerate(body) if s is rel)]):
                return TokenFate("ok")
        return TokenFate("not_finally", first)
    if escaped:
        return TokenFate("ok")
    if handed:
        return _fate_of_handoff(handed[0])
    return TokenFate("never")


# ------------------------------------------------------------------ execution Context
def directly_awaited(facts: PythonFacts) -> set[int]:
    """ids of the `async def`s this module awaits directly (`await f(...)`,
    `await self.m(...)`, `await super().m(...)`): such a coroutine runs in its caller's
    task and shares its caller's Context, so what it sets outlives it. A coroutine handed
    to `create_task`/`gather` is wrapped in a Task with its own copy of the Context.
    Calls are resolved to the def they run (`ModuleValues.callee`), not by name."""
    def compute():
        values = module_values(facts)
        out: set[int] = set()
        for aw in facts.nodes(ast.Await):
            if isinstance(aw.value, ast.Call):
                d = values.callee(aw.value)
                if isinstance(d, ast.AsyncFunctionDef):
                    out.add(id(d))
        return out
    return facts.memo("owners.directly_awaited", compute)


def is_route_handler(fn: ast.AST) -> bool:
    """Decorated like an ASGI route (`@app.get("/x")`, `@router.post(...)`; ROUTE_DECORATORS)."""
    for d in getattr(fn, "decorator_list", ()):
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr in ROUTE_DECORATORS:
            return True
    return False


def callers(facts: PythonFacts, fn: ast.AST) -> list[ast.AST | None]:
    """The functions of this module that call `fn` (None for a module-level call)."""
    return [facts.enclosing_function(c) for c in module_values(facts).calls_to(fn)]


def async_only_functions(facts: PythonFacts) -> set[int]:
    """ids of sync defs that only coroutines of this module call (directly or through
    other such defs), and that are never passed around."""
    def compute():
        values = module_values(facts)
        sync = [f for f in facts.nodes(ast.FunctionDef)]
        out: set[int] = set()
        changed = True
        while changed:
            changed = False
            for f in sync:
                if id(f) in out or values.passed_around(f):
                    continue
                cs = callers(facts, f)
                if cs and all(c is not None and (isinstance(c, ast.AsyncFunctionDef) or id(c) in out) for c in cs):
                    out.add(id(f))
                    changed = True
        return out
    return facts.memo("owners.async_only", compute)


def runs_in_task_context(facts: PythonFacts, fn: ast.AST) -> bool:
    """Does `fn` run inside an asyncio task's own Context: an `async def` this module never
    awaits directly (a request handler the framework runs as a task, a coroutine handed to
    `create_task`/`gather`), a sync method of a class with coroutine methods (a hook called
    on the event loop), or a sync function only such coroutines call? (PEP 567: only Tasks
    copy the Context; a directly awaited coroutine shares its caller's.)"""
    if isinstance(fn, ast.AsyncFunctionDef):
        return is_route_handler(fn) or id(fn) not in directly_awaited(facts)
    cls = facts.enclosing_class(fn)
    if cls is not None and any(isinstance(s, ast.AsyncFunctionDef) for s in cls.body):
        return True
    if id(fn) not in async_only_functions(facts):
        return False
    awaited = directly_awaited(facts)
    return not any(c is not None and id(c) in awaited for c in callers(facts, fn))


def exit_release_success_only(facts: PythonFacts, release: ast.AST) -> bool:
    """Does the release `release`, in an `__exit__`/`__aexit__`, run only when the
    with-body raised nothing: inside `if exc_type is None:` (or `if not exc:`), in the
    `else:` of `if exc_type is not None:`, or after an early `return`/`raise` under such a
    test that does not release too? An exception in the with-body then leaves the token
    or context in place (a `__exit__` that detaches only when `exc_type is None`)."""
    fn = facts.enclosing_function(release)
    if fn is None or getattr(fn, "name", "") not in ("__exit__", "__aexit__"):
        return False
    args = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)][1:]
    if fn.args.vararg is not None:
        args.append(fn.args.vararg.arg)
    exc_names = set(args[:2])
    if not exc_names:
        return False

    def raised(test) -> bool | None:
        """True when `test` holds iff the body raised, False when iff it did not."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            r = raised(test.operand)
            return None if r is None else not r
        root = test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant) \
                and test.comparators[0].value is None:
            root = test.left
            if not (isinstance(root, ast.Name) and root.id in exc_names):
                return None
            return isinstance(test.ops[0], ast.IsNot)
        if isinstance(root, ast.Name) and root.id in exc_names:
            return True
        return None

    chain = [release, *facts.ancestors(release)]
    for i, a in enumerate(chain[1:], 1):
        child = chain[i - 1]
        if a is fn:
            break
        if isinstance(a, ast.If):
            r = raised(a.test)
            if r is False and child in a.body:
                return True
            if r is True and child in a.orelse:
                return True
        for fld in ("body", "orelse", "finalbody"):
            block = getattr(a, fld, None)
            if isinstance(block, list) and child in block:
                for st in block[:block.index(child)]:
                    if isinstance(st, ast.If) and raised(st.test) is True and st.body \
                            and isinstance(st.body[-1], (ast.Return, ast.Raise)):
                        return True
    for st in fn.body[:next((k for k, x in enumerate(fn.body) if any(y is x for y in chain)), 0)]:
        if isinstance(st, ast.If) and raised(st.test) is True and st.body \
                and isinstance(st.body[-1], (ast.Return, ast.Raise)):
            return True
    return False


def fresh_context_functions(facts: PythonFacts) -> set[int]:
    """ids of the defs that run in a Context of their own: `ctx.run(f, ...)` where `ctx`
    holds a `contextvars.Context` (`copy_context()`, `Context()`), `Thread(target=f)` /
    `Process(target=f)`, `asyncio.to_thread(f, ...)` and the other
    `CONTEXT_COPYING_RUNNERS`, and defs that only such defs call."""
    def compute():
        values = module_values(facts)
        out: set[int] = set()
        for c in facts.nodes(ast.Call):
            if isinstance(c.func, ast.Attribute) and c.func.attr == "run" and c.args \
                    and CONTEXT in values.kinds(c.func.value):
                for d in values.value(c.args[0]).defs:
                    out.add(id(d))
            q = facts.qualname(c.func) or ""
            if q in CONTEXT_COPYING_RUNNERS and c.args:
                for d in values.value(c.args[0]).defs:
                    out.add(id(d))
            if q in NEW_CONTEXT_STARTERS:
                for kw in c.keywords:
                    if kw.arg == "target":
                        for d in values.value(kw.value).defs:
                            out.add(id(d))
        changed = True
        while changed:
            changed = False
            for f in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
                if id(f) in out or values.passed_around(f):
                    continue
                cs = callers(facts, f)
                if cs and all(c is not None and id(c) in out for c in cs):
                    out.add(id(f))
                    changed = True
        return out
    return facts.memo("owners.fresh_context", compute)


__all__ = [
    "ACROSS_YIELD", "BORROWED", "ESCAPED", "EXHAUSTION_ONLY", "NOT_RELEASED", "RELEASED",
    "Handoff", "TokenFate", "across_yield", "async_only_functions", "catches_all",
    "class_releases_attrs", "directly_awaited", "enter_exit_of", "exit_closure", "exit_release_success_only",
    "field_of",
    "followed_in_block", "fresh_context_functions", "calls_closure", "takes_from_current",
    "nothing_raises_between", "cannot_raise", "early_exit_methods", "handoff", "has_risk", "in_tail_position",
    "is_contextmanager", "is_generator", "is_route_handler", "pos", "protected", "reads", "refs",
    "restores_in", "restores_previous", "runs_in_task_context", "straight_line", "token_fate",
    "yields", "undoes_in", "undo_shaped", "undone_elsewhere", "clears_in", "exclusive_branches", "is_clear",
    "updates_current", "lazily_initialises", "FRESH_CONSTRUCTORS", "reset_release", "detach_release", "end_release", "use_span_ends", "contextvar_sets",
]


def is_context_setter(facts: PythonFacts, fn) -> bool:
    """Is `fn` a module-level function whose whole effect is binding context values (an
    API setter such as crewai `apply_execution_context(ctx)`, `set_emission_counter(start)`,
    or agentops `set_workflow_name(name)`: `attach(set_value("workflow_name", name))`)?
    Shape, not name: a plain `def` at module level, or a `@classmethod`/`@staticmethod`
    of a module-level class (bedrock-agentcore `Ctx.set_request_context(cls, request_id,
    session_id)`), that returns no value, whose top-level
    statements are only ContextVar `set()`s (each var once, or each var of a loop over
    ContextVars: `for var in ctx: var.set(ctx[var])`, also under `if`/`try`) or OpenTelemetry
    `context.attach(...)` calls with the token dropped, calls of other such setters of
    the module (or of an imported function, when a further `set()` follows it: the work
    a value is bound for comes after the last set), local assignments and `if` guards
    that only assign locals, raise or return nothing.
    Leaving the value bound is such a function's purpose; its caller owns the scope."""
    if not _api_level(facts, fn):
        return False
    return _setter_shape(facts, fn, 0)


#: Decorators that make a method callable without an instance (Python docs, builtins).
_INSTANCELESS = frozenset({"classmethod", "staticmethod"})


def _api_level(facts: PythonFacts, fn) -> bool:
    """A plain `def` at module level, or a `@classmethod`/`@staticmethod` of a class at
    module level (a namespace of setters: `Ctx.set_request_context(...)`): an API entry
    point that its caller runs, not a step of an object's lifecycle."""
    if not isinstance(fn, ast.FunctionDef):
        return False
    parent = facts.parents.get(fn)
    if parent is facts.tree:
        return True
    return isinstance(parent, ast.ClassDef) and facts.parents.get(parent) is facts.tree and any(
        isinstance(d, ast.Name) and d.id in _INSTANCELESS and d.id not in facts.module_names
        for d in fn.decorator_list)


def _setter_shape(facts: PythonFacts, fn, depth: int) -> bool:
    from ctxlint.semantic.python.project_index import imported_def
    values = module_values(facts)
    if is_generator(facts, fn):
        return False
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and n.value is not None and not (
                isinstance(n.value, ast.Constant) and n.value.value is None):
            return False

    def plain(stmt) -> bool:
        if isinstance(stmt, (ast.Pass, ast.Global)) or (isinstance(stmt, ast.Return) and stmt.value is None):
            return True  # `global _STEP`: the function's plain module copy of the value
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            return True  # docstring
        if isinstance(stmt, ast.Raise):
            return True
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            return all(isinstance(t, ast.Name) for t in targets)
        return False

    seen: set[str] = set()
    sets = 0
    unknown_pending = False

    def loop_sets(loop: ast.For) -> int | None:
        """Sets in a `for var in <vars>:` loop that binds each ContextVar it walks (a
        `copy_context()` snapshot, a Context parameter, a list of vars) and does nothing
        else: `if`/`try` around the sets, local assignments (structlog
        `clear_contextvars`, asgiref `_restore_context`). None: any other statement."""
        if not isinstance(loop.target, ast.Name) or loop.orelse:
            return None
        var = loop.target.id
        n = 0

        def ok(stmts) -> bool:
            nonlocal n
            for st in stmts:
                if plain(st) or isinstance(st, ast.Continue):
                    continue
                if isinstance(st, ast.If):
                    if not (ok(st.body) and ok(st.orelse)):
                        return False
                    continue
                if isinstance(st, ast.Try) and not st.finalbody:
                    if not (ok(st.body) and ok(st.orelse) and all(ok(h.body) for h in st.handlers)):
                        return False
                    continue
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                    c = st.value
                    if isinstance(c.func, ast.Attribute) and c.func.attr == "set" and len(c.args) == 1 \
                            and isinstance(c.func.value, ast.Name) and c.func.value.id == var \
                            and values.contextvar_keys(c.func.value):
                        n += 1
                        continue
                return False
            return True

        return n if ok(loop.body) and n else None

    for stmt in fn.body:
        if plain(stmt):
            continue
        if isinstance(stmt, ast.If) and all(plain(s) for s in (*stmt.body, *stmt.orelse)):
            continue
        if isinstance(stmt, ast.For):
            got = loop_sets(stmt)
            if got is None:
                return False
            sets += got
            unknown_pending = False
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            c = stmt.value
            keys = values.contextvar_keys(c.func.value) if isinstance(c.func, ast.Attribute) else frozenset()
            if (facts.qualname(c.func) or "") == "opentelemetry.context.attach":
                sets += 1
                unknown_pending = False
                continue
            if isinstance(c.func, ast.Attribute) and c.func.attr == "set" and len(c.args) == 1 and keys:
                if keys & seen:
                    return False  # set twice: a set-then-clear sequence, judged as such
                seen |= keys
                sets += 1
                unknown_pending = False
                continue
            callee = values.callee(c)
            root = c.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if callee is None and depth < 3 and isinstance(c.func, ast.Name) \
                    and (other := imported_def(facts, c.func)) is not None \
                    and _api_level(other[0], other[1]) and _setter_shape(other[0], other[1], depth + 1):
                unknown_pending = False  # a setter of another module of the project: a set
                continue
            if callee is None and isinstance(root, ast.Name) and values.binding(root) is not None \
                    and values.binding(root)[0] != "local":
                # a function of another module, between two sets (it cannot be the work the
                # values are bound for, which would come after the last set)
                unknown_pending = True
                continue
            if depth < 3 and isinstance(callee, ast.FunctionDef) and callee is not fn \
                    and _api_level(facts, callee) and _setter_shape(facts, callee, depth + 1):
                unknown_pending = False  # a setter call is a set
                continue
        return False
    return sets > 0 and not unknown_pending
