"""CTX103 contextvar-not-reset: a `ContextVar.set()` whose value outlives its scope."""

from __future__ import annotations

import ast
import sys

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.summaries import handed_out, made_at, trace_steps, unpacked_target
from ctxlint.semantic.python.values import CV_TOKEN, CV_VALUE, module_values


class ContextVarNotReset(Rule):
    code = "CTX103"
    manifest = "reached"
    reported_when = (
        'the set happens in `__enter__`/`__aenter__` and `__exit__` never resets it (the class shows the leak by itself), or the function that sets it is reached from an entry point (a route or handler, a task, thread or executor job, a gRPC servicer method, a queue consumer), so the value leaks once per request.'
    )
    name = "contextvar-not-reset"
    summary = "ContextVar.set() whose Token is discarded or reset outside `finally`: the value leaks to later work."
    tokens = ("ContextVar", ".set(")
    fix_safety = SAFE
    doc = """\
## What it does
Flags `var.set(value)` inside a function, where `var` holds a
`contextvars.ContextVar` (a module or class binding, a `ContextVar[...]`
annotation, a loop variable over ContextVars or over `(var, value)` pairs, the
keys of a `copy_context()` snapshot), and the returned `Token` is thrown away,
never passed to `var.reset()`, or reset only on the happy path (not in
`finally`). A value set while `__enter__` runs (in it or in a method it calls)
must be undone by what `__exit__` runs: a `reset()` of the token, putting back
the previous value, or clearing the var back to `None`/an empty value.

Accepted: reset in `finally`; in a sync function, reset both in an `except
Exception:` handler (that re-raises) and on the normal path (`else:` or after the
`try`), which only a KeyboardInterrupt/SystemExit skips, as CTX104 accepts for
`detach` (a coroutine is still reported: cancellation is a BaseException); or a reset after statements none of which can raise an
ordinary `Exception` (`contextvars.copy_context()`, `len`, `time.time()`, plain
assignments of names/constants, a `try` whose catch-all `except Exception:` handler
does not re-raise; in a coroutine an awaiting `try` needs a bare/`BaseException`
handler, since cancellation is a BaseException); a token stored on `self` and reset by
the class (by `__exit__` when set in `__enter__`; a helper of this module that a
close path calls counts, also a module function handed the instance; the attribute may be
read by a name held in a string - `getattr(self, "_tok")`, or `getattr(self, attr)` in a loop
over literal `(var, "_tok")` pairs, cognee `DatabaseContextManager.__aexit__` - while an exit
loop whose names leave a token out, or that only clears the attributes, is still reported); tokens kept in
a list that a `finally`/`__exit__` resets, or that the function returns
(`pairs.append((var, var.set(v)))` ... `return pairs`: the caller's, as a returned
token is - upsonic `push_scope_tags`); a token returned, or handed to code that resets or keeps it (a function or class of this
module is followed into: it must reset it); a setter helper whose last statement is
the `set()`; an API setter - a module-level function, or a `@classmethod`/`@staticmethod`
of a module-level class - that returns nothing and whose whole effect is binding
ContextVars, each once, from its parameters or to fresh values (crewai
`apply_execution_context`, bedrock-agentcore `set_request_context`; it may keep a
`global` plain copy of the value, torchtitan `set_step`, and end with a call of another
such setter, of this module or imported from another module of the project, inspect-ai
`init_active_model` calling `set_active_generate_config(config)`; an imported function
that runs work after its set is still work), or each var a
loop walks over a snapshot or list of ContextVars, under `if`/`try` at most (structlog
`clear_contextvars`, asgiref `_restore_context`; one var set per item of a list is
still reported);
`var.set(previous)` where `previous` was read from the same var with `get()` (restoring *is* the cleanup), or, in `__exit__`, a value that
`__enter__` saved on `self` (`self._old.append(...)` ... `var.set(self._old.pop())`,
sentry-sdk `Hub`); `var.set(stack[:-1])`, a part of the var's own current value (the
pop that undoes a push binds nothing new; the push is judged on its own); a
once-per-Context latch (`if var.get(): return` then `var.set(True)`, a constant);
the pop half of a push/pop pair that sets a copy of the var's current value, read in
the same function, with entries removed (`items = list(var.get()); items.pop();
var.set(items)`, a filter, a concatenation of parts only: `stack[:i] + tuple(e for e in
stack[i + 1:] if ...)`; a value captured elsewhere and applied, or a part plus a new
entry, is still a new binding); a set/undo API pair: another function of the file (a method of the class, a
module function) that the setter does not run resets the same ContextVar, clears it
(`None`, `()`), pops it (as above) or walks it back to a part of its current value
(`var.set(node.parent_id)` where `node` is looked up from `var.get()`) - promptflow
`set_node_info`/`clear_node_info`, `Tracer._push`/`_pop`: the caller owns the pair; both
halves may sit in one function, on different arms of one `if` (an event dispatcher: an
open event pushes, a later close event pops); a pair whose undo the setter runs itself on
the happy path is still reported; lazy
per-Context initialisation: the set runs only when the var holds nothing (`if
var.get() is None:`, `if not cur:` with `cur = var.get()`, after `assert var.get() is
None`, in `except LookupError:` of a `try` that reads it) and sets a fresh object (a
class of this module, `dict()`/`defaultdict(...)`, an empty literal) - a per-Context
singleton (promptflow `OperationContext.get_instance`), also in `__enter__` (kagglehub's
token stack: `if stack_var.get() is None: stack_var.set([])`); a request value set under
the same guard is reported; a token appended to the list a ContextVar holds
(`stack_var.get().append(token)`) is handed to whoever pops it back out and resets it;
an undo run by a helper: what `__exit__`, a
close path (`close`/`aclose`/`__del__`) or a `finally` after the set calls (a method
or a module function, followed through the calls) resets the var, restores it, or sets
it to a part of its own current value with nothing added (`items = list(var.get())`;
`items.remove(self)`; `var.set(tuple(items))`: the push of `__enter__` taken back out);
updates of a var that another function of the
file scopes with reset-in-`finally`; updates (a value computed from the var's current
value read in the function: `n = var.get(); var.set(n + 1)`) of a module-level var of this
file that another module of the same package imports and resets in a `finally`
(`project_index.scoped_by_importer`, asked only for such an update - a new value set
there is still reported); clearing a var back to an empty value (`None`/`False`/`0`/`""`,
`()`, `tuple()`, `dict()`); and
a discarded token in code that runs in a Context of its own (a coroutine that runs
as its own task — a route handler such as `@app.post(...)`, or a coroutine the file
never awaits directly —, a sync method of a class with coroutine methods, a sync
function only such coroutines call, a `copy_context().run()` or
`Thread(target=...)` target, or what only those call). A coroutine the file awaits
directly (`await handle(req)` in a worker loop) runs in its caller's Context, so its
discarded token is reported. Nothing is decided by a function's or variable's name.

Also flagged: a token kept for `__exit__` that `__exit__` resets only when the
with-body raised nothing (`if exc_type is not None: return False` before the reset);
and a module-private setter whose every caller is a plain sync def that reads the
value itself afterwards and never resets it (the setter exemption follows the value
to its callers). Not flagged: a ContextVar made inside the function and never handed
out (nothing else can read it), and a def run by `asyncio.to_thread` (or trio's /
anyio's `to_thread.run_sync`), which runs in a copy of the caller's Context.

Not checked: the project's own test modules (`test_*.py`, `*_test.py`, `conftest.py`,
pytest's collection names: `PythonFacts.is_test_module`); a leftover there reaches only
the later tests of a run that has already failed (blind reviews: 14 of 15 such findings
harmless). A testing utility the package ships for its users (`pytest_plugin.py`,
`testing.py`) is still checked: its leftovers reach their suites.

A ContextVar imported from another module of the project (`from .ctxvars import
current_tenant`, bound there once by `ContextVar(...)`) is followed there. The call of
a function of the project that sets a ContextVar and returns the token (`token =
bind_tenant(tid)`, through helpers, lambdas, `functools.partial`, other modules, or a
returned tuple the caller unpacks) is judged like the `set()` itself, at that call,
with the helper path as the finding's trace (function summaries,
`semantic/python/summaries.py`).

## Why is this bad
A worker thread (WSGI, a thread pool, a Celery worker) runs one request after
another in the same Context. If a request raises between `set()` and `reset()`,
the next request on that thread starts with the previous request's tenant,
user or request object bound — a cross-tenant data leak and a memory leak. A
context manager whose `__exit__` does not undo what `__enter__` set leaves the
value bound after the `with` block on a pooled thread.

## Example
```python
def __call__(self, request):
    token = _active_request.set(request)
    response = self.get_response(request)  # may raise
    _active_request.reset(token)
    return response
```

## Use instead
```python
def __call__(self, request):
    token = _active_request.set(request)
    try:
        return self.get_response(request)
    finally:
        _active_request.reset(token)
```

## Fix safety
Safe: the fix wraps the statements after `set()` in `try`/`finally: var.reset(token)`.
No fix is offered inside `__enter__` (the reset belongs in `__exit__`), nor for a set
that binds a value for the caller: a function (not an entry point) that returns
nothing, sets the var from its parameters and never reads it itself (cashews
`Cache._set_disable`, aiomisc `basic_config`) may exist to leave it bound, so its
finding is latent (`--min-confidence low`) and carries no fix. More generally the fix is
safe only for a manifest finding (an entry point reaches the set): for a latent one it is
unsafe, since the value may be meant to outlive the function.

## Source
PEP 567 (`ContextVar.reset`); ambient-innovation/ambient-toolbox#103;
langgenius/dify#35773 (a context carrier re-applies captured vars in a pooled
thread and never restores them); the "Token was created in a different Context" /
leaked-request reports in Django and Starlette middleware.
"""

    def check(self, facts):
        if facts.is_test_module:
            return  # the project's own tests: a leftover reaches only later tests of a failed run
        values = module_values(facts)
        sets = owners.contextvar_sets(facts)
        yield from self._helper_tokens(facts, values)
        if not sets:
            return
        fresh = owners.fresh_context_functions(facts)
        scoped = _scoped_vars(facts)
        for call, fn in sets:
            if id(fn) in fresh:
                continue
            if owners.restores_previous(facts, call) or owners.puts_back_saved(facts, call):
                continue  # putting back the saved value is the cleanup
            var_keys = values.contextvar_keys(call.func.value)
            if _keeps_part_of_current(values, call) or owners.takes_from_current(facts, call.args[0], fn, var_keys,
                                                                                     read_here=True):
                continue  # `var.set(stack[:-1])`, a popped copy: the pop that undoes a push binds nothing new
            if owners.protected(facts, call, fn):
                continue  # a restoration inside finally/except
            if _function_local_var(facts, call, fn):
                continue  # `var = ContextVar("test")` of this call: nothing outside it can read the value
            var = facts.dotted(call.func.value) or facts.segment(call.func.value) or "var"
            var_keys = values.contextvar_keys(call.func.value)
            stmt = facts.enclosing_statement(call)
            fate = owners.token_fate(facts, call, fn, owners.reset_release)
            if fate.kind == "ok" and fate.release is not None and owners.exit_release_success_only(facts, fate.release):
                yield facts.finding(self, call, f"`{var}` is reset in `__exit__` (line {fate.release.lineno}) only when "
                                    "the with-body raised nothing: an exception there leaves the value bound")
                continue
            if fate.kind in ("ok", "across_yield"):
                continue  # (across_yield: CTX109 reports it)
            enter = owners.enter_exit_of(facts, fn)
            if fate.kind == "discarded":
                if enter is not None:
                    cls, enter_m = enter
                    exits = owners.calls_closure(facts, owners.exit_closure(facts, cls))
                    if owners.undoes_in(facts, exits, var_keys) or owners.clears_in(facts, exits, var_keys):
                        continue
                    if owners.lazily_initialises(facts, call, fn, var_keys):
                        continue  # a per-Context singleton (a token stack) created on first entry
                    via = "" if enter_m is fn else f" (run by `{enter_m.name}`)"
                    msg = (f"`{var}.set()` inside `{cls.name}.__enter__`{via} drops its token and "
                           f"`__exit__` neither resets it, restores the previous value nor clears it: the value stays "
                           "bound after the `with` block")
                else:
                    if owners.runs_in_task_context(facts, fn):
                        # every asyncio task runs in its own copy of the Context: a value set
                        # and never reset in a coroutine dies with the request's task
                        continue
                    if owners.is_clear(values, call.args[0]):
                        continue  # clearing a stash back to its empty value (`None`, `()`, `dict()`)
                    leaker = None
                    if owners.in_tail_position(facts, stmt, fn) or owners.is_context_setter(facts, fn):
                        leaker = _setter_callers_leak(facts, fn, var_keys)
                        if leaker is None:
                            continue  # a setter: the caller owns the scope
                    if _is_latch(facts, values, call, fn, var_keys):
                        continue  # a once-per-Context flag: meant to stay set
                    if _restored_later(facts, call, fn, var_keys) or var_keys & scoped:
                        continue
                    if owners.lazily_initialises(facts, call, fn, var_keys):
                        continue  # a per-Context singleton created on first use
                    if owners.undone_elsewhere(facts, call, fn, var_keys) is not None:
                        continue  # a set/undo API pair: its caller owns the lifecycle
                    if _scoped_by_importer(facts, call, fn, var_keys):
                        continue  # an update inside the scope another module of the project opens
                    if leaker is not None:
                        yield facts.finding(self, call, (
                            f"token of `{var}.set()` is discarded by the setter `{fn.name}()`, and its caller "
                            f"`{leaker.name}()` never resets the value: it stays bound after that call, for "
                            "whatever runs next in this Context (keep the token and reset it in `finally`)"))
                        continue
                    msg = (f"token of `{var}.set()` is discarded: the value stays bound after this "
                           "function, for whatever runs next in this Context (keep the token and "
                           "reset it in `finally`)")
                    for_caller = _binds_for_caller(facts, values, call, fn, var_keys)
                    if for_caller is not None:
                        # a setter for its caller (cashews `_set_disable`, aiomisc `basic_config`):
                        # leaving the value bound may be its purpose, so the finding is latent
                        # and no fix may reset it (issue 35: 38 of cashews' tests failed)
                        yield facts.finding(self, call, msg, confidence="low", trace=((fn, for_caller),))
                        continue
            elif fate.kind == "not_finally":
                if owners.is_generator(facts, fn) and owners.across_yield(facts, call, fn, fate.release):
                    continue  # CTX109 / CTX106 report this shape
                if not isinstance(fn, ast.AsyncFunctionDef) and owners.released_in_except_exception(
                        facts, fn, fate.release, owners.reset_release):
                    continue  # sync: `except Exception: reset; raise` + the normal path cover every error
                msg = (f"`{var}` is reset only on the normal path (line {fate.release.lineno}), not in "
                       "`finally`: an exception in between leaves the value bound")
            elif fate.kind == "exhaustion_only":
                closers = owners.early_exit_methods(facts, fate.owner)
                gap = (f"its `{'`/`'.join(closers)}` does not reset it" if closers else
                       "it has no `close`/`aclose`/`__exit__`/`__del__` that does")
                msg = (f"token of `{var}.set()` is kept by `{getattr(fate.owner, 'name', '?')}`, which resets "
                       f"it when iterated to the end but {gap}: a consumer that stops early leaves the value bound")
            else:
                if fate.kind == "never" and fate.owner is None and _unread_local(facts, stmt, fn) \
                        and _restored_later(facts, call, fn, var_keys, covered=True):
                    continue  # `_ = var.set(s)` then `try: ... finally: var.set(popped)`: undone on every path
                owner = getattr(fate.owner, "name", None)
                where = f" by `{owner}`" if owner else ""
                msg = f"token of `{var}.set()` is never passed to `{var}.reset()`{where}: the value stays bound"
            fix = None
            if enter is None and fate.kind in ("discarded", "not_finally") \
                    and isinstance(stmt, (ast.Expr, ast.Assign)) and owners.followed_in_block(facts, call) \
                    and _wrap_span(facts, call, stmt, var) <= MAX_WRAPPED_LINES:
                fix = Fix(description=f"reset `{var}` in a `finally` block",
                          safety=SAFE, codemod="contextvar_reset_finally",
                          data={"line": call.lineno, "col": call.col_offset, "var": var})
            # In `__enter__` the class shows the leak by itself (manifest whoever enters it);
            # elsewhere an entry point must reach the set (`manifest = "reached"`).
            found = facts.finding(self, call, msg, fix=fix, confidence="high" if enter is not None else None)
            # a safe fix only for a manifest leak (issue 35): where no entry point shows the
            # value leaking, the set may be meant to outlive the function (aiomisc's
            # `basic_config` sets the level for the process), so the reset is unsafe there
            # (`semantic.python.lint.run_rules` marks it once the tier is settled)
            found.fix_needs_manifest = True
            yield found

    def _helper_tokens(self, facts, values):
        """Calls of a helper of the project that sets a ContextVar and returns the token
        (`token = bind_tenant(tid)`): the call is where the caller gets the token, and
        it is judged there as a `set()` would be (`owners.token_fate`)."""
        fresh = None
        for call in facts.nodes(ast.Call):
            if not isinstance(facts.parents.get(call), (ast.Expr, ast.Assign, ast.AnnAssign, ast.NamedExpr)) \
                    or (isinstance(call.func, ast.Attribute) and call.func.attr == "set"):
                continue
            helper = handed_out(facts, call, CV_TOKEN)
            fn = facts.enclosing_function(call)
            if helper is None or fn is None:
                continue
            if fresh is None:
                fresh = owners.fresh_context_functions(facts)
            if id(fn) in fresh:
                continue
            fate = owners.token_fate(facts, call, fn, owners.reset_release,
                                     unpacked_target(facts, call, helper, CV_TOKEN))
            enter = owners.enter_exit_of(facts, fn)
            what = f"`{facts.dotted(call.func) or 'helper'}()` sets a ContextVar and returns its token" \
                   f"{made_at(facts, helper)}, "
            if fate.kind == "discarded":
                if enter is not None:
                    exits = owners.calls_closure(facts, owners.exit_closure(facts, enter[0]))
                    if owners.undoes_in(facts, exits, helper.vars) or owners.clears_in(facts, exits, helper.vars):
                        continue
                elif owners.runs_in_task_context(facts, fn):
                    continue  # the value dies with the task's own Context
                msg = what + ("and the token is discarded here: the value stays bound after this function, "
                              "for whatever runs next in this Context (keep the token and reset it in `finally`)")
            elif fate.kind == "not_finally":
                if not isinstance(fn, ast.AsyncFunctionDef) and owners.released_in_except_exception(
                        facts, fn, fate.release, owners.reset_release):
                    continue
                msg = what + (f"and it is reset only on the normal path (line {fate.release.lineno}), not in "
                              "`finally`: an exception in between leaves the value bound")
            elif fate.kind in ("never", "exhaustion_only"):
                msg = what + "and the token is never passed to `reset()`: the value stays bound"
            else:
                continue
            # as for a `set()`: high in `__enter__`, else when an entry point reaches the call
            yield facts.finding(self, call, msg, confidence="high" if enter is not None else None,
                                trace=trace_steps(helper))


#: The codemod's limit (`python_codemods.MAX_WRAPPED_LINES`): a fix that would re-indent
#: more lines is not offered (issue 35: 65-100 lines re-indented in aiotools).
MAX_WRAPPED_LINES = 30


def _wrap_span(facts, call: ast.Call, stmt: ast.stmt, var: str) -> int:
    """Lines the reset-in-`finally` fix would re-indent: the statements after `stmt` (the
    statement holding the `set()` call `call`) in its block, up to a `var.reset(token)`
    of the token `stmt` binds (that one moves into the `finally`), from the first one's
    first line to the last one's last line."""
    block = owners.statement_block(facts, call)
    if block is None:
        return 0
    stmts, i = block
    rest = stmts[i + 1:]
    token = stmt.targets[0].id if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
        and isinstance(stmt.targets[0], ast.Name) else None
    for j, s in enumerate(rest):
        if token and isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) \
                and isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "reset" \
                and (facts.dotted(s.value.func.value) or facts.segment(s.value.func.value)) == var \
                and len(s.value.args) == 1 and isinstance(s.value.args[0], ast.Name) \
                and s.value.args[0].id == token:
            rest = rest[:j]
            break
    if not rest:
        return 0
    first = min([rest[0].lineno, *(d.lineno for d in getattr(rest[0], "decorator_list", ()))])
    return (rest[-1].end_lineno or rest[-1].lineno) - first + 1


def _binds_for_caller(facts, values, call: ast.Call, fn, var_keys: frozenset[str]) -> str | None:
    """Why the discarded `set()` `call` in `fn` looks like the function's purpose (it
    binds the value for its caller), or None. Shape, not name: `fn` is not an entry
    point (a framework, not a caller of this project, runs those: `evidence.entry_point`),
    returns no value, the value set is built only from `fn`'s parameters (and
    constants and builtins: `self.__disable.set(value)`, `_log_format.set(fmt)`), and
    neither `fn` nor anything of this module it calls reads the var (`.get()`): no work
    of its own runs under the binding, so the value is its output. A caller that then
    leaves it bound is where a leak would be: when a caller of this module that an entry
    point reaches (`evidence.entry_reach`) neither resets, restores nor clears the var,
    the finding stays as it is (and `_setter_callers_leak` reports a module-private
    setter whose caller reads it). cashews `Cache._set_disable` and aiomisc
    `basic_config` (issue 35): resetting before they return broke both. After the set
    only the standard library and builtins may run (aiomisc configures a `logging`
    logger): any other call (`run_request(ctx)` of the project, `self.backend.open(req)`)
    is work run under the binding, and the finding stays."""
    import builtins

    from ctxlint.semantic.python.evidence import entry_point
    if entry_point(facts, fn) is not None:
        return None
    for n in facts.walk(fn):
        if isinstance(n, ast.Return) and n.value is not None and not (
                isinstance(n.value, ast.Constant) and n.value.value is None):
            return None
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return None
    a = fn.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)} | {
        p.arg for p in (a.vararg, a.kwarg) if p is not None}
    names = [n for n in ast.walk(call.args[0]) if isinstance(n, ast.Name)]
    if not names or any(n.id not in params and not hasattr(builtins, n.id) for n in names):
        return None
    if not any(n.id in params for n in names):
        return None
    for d in owners.calls_closure(facts, [fn]):
        for n in facts.walk(d):
            if not isinstance(n, ast.Call):
                continue
            if isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                    and values.contextvar_keys(n.func.value) & var_keys:
                return None
            if d is not fn or owners.pos(n) <= owners.pos(call):
                continue
            # after the set, only the standard library and builtins may run: other work
            # (`run_request(ctx)` imported from `.runner`, `self.backend.open(req)`) runs
            # under the binding, so the value is bound for it, not only for the caller
            base = n.func
            while isinstance(base, (ast.Attribute, ast.Call, ast.Subscript)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if not isinstance(base, ast.Name):
                return None
            if base.id in facts.imports:
                root = (facts.imports[base.id] or "").split(".")[0]
                if not root or root not in sys.stdlib_module_names:
                    return None
            elif not hasattr(builtins, base.id) or base.id in facts.module_names:
                return None
    from ctxlint.semantic.python.evidence import entry_reach
    for c in owners.callers(facts, fn):
        # a caller that an entry point reaches and that leaves the value bound (neither
        # resets, restores nor clears it) shows the leak: the setter is its step
        if c is not None and c is not fn and entry_reach(facts, c) is not None:
            scopes = owners.calls_closure(facts, [c])
            if not (owners.undoes_in(facts, scopes, var_keys) or owners.clears_in(facts, scopes, var_keys)):
                return None
    return (f"`{fn.name}()` sets the value from its parameters, returns nothing and never reads it: binding "
            "it for its caller may be the function's purpose (the caller owns the scope)")


def _setter_callers_leak(facts, fn, var_keys: frozenset[str]):
    """The caller that leaves a setter's value bound, else None. A setter's caller owns
    the scope; when `fn` is called only in this module (its name appears in no other
    module of the project: `project_index.named_elsewhere`) and every caller is a plain
    sync def, not itself a setter, not run in a fresh Context, that neither resets,
    restores nor clears the var (`owners.undoes_in` / `clears_in` over what it runs) and
    that reads it itself afterwards (directly or through what it calls: it binds the
    value for its own work), no one owns it: the first such caller is returned
    (`handle(job)` calling `self._enter_tenant(job["tenant_id"])` on a consumer thread,
    then reading `self.current_tenant()`). Async callers run in their task's Context
    and are not counted as leaking; a setter handed on as a callback, called with `None`
    (its own undo) or in a caller's tail position (a setter chain) is not reported."""
    from ctxlint.semantic.python.project_index import named_elsewhere
    cs = owners.callers(facts, fn)
    if not cs or any(c is None for c in cs) or named_elsewhere(facts, fn.name):
        return None
    fresh = owners.fresh_context_functions(facts)
    values = module_values(facts)
    if values.passed_around(fn):
        return None  # handed on as a callback (`_RevertibleStatus(msg, get, set)`): callers unknown
    if any(isinstance(a, ast.Constant) and a.value is None
           for site in values.calls_to(fn) for a in (*site.args, *(k.value for k in site.keywords))):
        return None  # `_set_identity(None)` on the exit path: the setter is its own undo
    own_sets = {id(f) for call, f in owners.contextvar_sets(facts)
                if values.contextvar_keys(call.func.value) & var_keys}
    for c in cs:
        if id(c) in own_sets:
            return None  # the caller sets the var itself: its own set is the one judged
        if isinstance(c, ast.AsyncFunctionDef) or id(c) in fresh or owners.runs_in_task_context(facts, c):
            return None
        if owners.is_context_setter(facts, c):
            return None
        if any(facts.enclosing_function(site) is c
               and owners.in_tail_position(facts, facts.enclosing_statement(site), c)
               for site in values.calls_to(fn)):
            return None  # `set_context()` ending with `_set_var(v)`: a setter too, its caller owns the scope
        scopes = owners.calls_closure(facts, [c])
        if owners.undoes_in(facts, scopes, var_keys) or owners.clears_in(facts, scopes, var_keys):
            return None
        if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "reset"
               for n in facts.walk(c)):
            return None
        reads = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
                    and values.contextvar_keys(n.func.value) & var_keys
                    for d in scopes if d is not fn for n in facts.walk(d))
        if not reads:
            return None  # the caller binds it for others (`start_node_run`): the value is its output
    return cs[0]


def _function_local_var(facts, call: ast.Call, fn) -> bool:
    """Is the ContextVar whose `.set()` is `call` a local of `fn` or of a function
    enclosing it, made there (`var: ContextVar[str] = ContextVar("test")`, bound once)
    and never handed out of that function (returned, yielded, stored on an attribute or
    in a container, passed to a call other than a read)? A value set in it can be read
    only by code of that function (its closures included): when the function returns,
    the variable is unreachable, and nothing runs next that could see the value
    (trio's `test_contextvar_support`)."""
    recv = call.func.value
    if not isinstance(recv, ast.Name):
        return False
    scope = fn
    while scope is not None:
        binds = [n for n in facts.walk(scope) if isinstance(n, ast.Name) and n.id == recv.id
                 and isinstance(n.ctx, ast.Store)]
        if binds:
            break
        scope = facts.enclosing_function(scope)
    if scope is None or len(binds) != 1:
        return False
    stmt = facts.parents.get(binds[0])
    if not (isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(stmt.value, ast.Call)
            and (facts.qualname(stmt.value.func) or "") == "contextvars.ContextVar"):
        return False
    for n in facts.walk(scope, into_defs=True):
        if isinstance(n, ast.Name) and n.id == recv.id and isinstance(n.ctx, ast.Load):
            parent = facts.parents.get(n)
            if isinstance(parent, ast.Attribute):
                continue  # `var.get()`, `var.set(...)`: used in place
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) \
                    and parent.func.attr in ("get", "run") and n in parent.args:
                continue  # `task.context.get(var)`, `ctx.get(var)`: a read
            if isinstance(parent, ast.Compare):
                continue  # `var in task.context`
            return False  # returned, stored, passed on: it may outlive the function
    return True


def _scoped_vars(facts) -> frozenset[str]:
    """ContextVars (identity keys) that some function of the file scopes properly (reset in
    `finally`). A discarded `set()` of such a var elsewhere updates the value *inside* that
    scope (a per-forward cache index, a budget being booked) and is undone by the scope's reset."""
    def compute():
        values = module_values(facts)
        out: set[str] = set()
        for c in facts.nodes(ast.Call):
            if owners.reset_release(c) and isinstance(c.func, ast.Attribute):
                fn = facts.enclosing_function(c)
                if fn is not None and owners.protected(facts, c, fn):
                    out |= values.contextvar_keys(c.func.value)
        return frozenset(out)
    return facts.memo("ctx103.scoped_vars", compute)


def _scoped_by_importer(facts, call: ast.Call, fn, var_keys: frozenset[str]) -> bool:
    """Is `call` an update of a module-level ContextVar of this file (its value is computed
    from the var's current value read in `fn`: `n = var.get(); var.set(n + 1)`) that
    another module of the same project imports and scopes with a reset in `finally`
    (`project_index.scoped_by_importer`)? The cross-module form of `_scoped_vars`
    (upsonic: `state_graph.py` scopes `_interrupt_counter`, `primitives.interrupt()`
    bumps it). A new value (not built from the current one) is still reported: nothing
    says it runs inside that scope."""
    recv = call.func.value
    if not isinstance(recv, ast.Name) or f"module:{recv.id}" not in var_keys:
        return False
    if recv.id not in facts.module_assignments:
        return False  # bound here, not imported
    if not owners.updates_current(facts, call.args[0], fn, var_keys):
        return False
    from ctxlint.semantic.python.project_index import scoped_by_importer
    return scoped_by_importer(facts, recv.id) is not None


def _restored_later(facts, call: ast.Call, fn, var_keys: frozenset[str], covered: bool = False) -> bool:
    """Is the var set back (reset, or set to a saved previous value) in a `finally` of `fn`
    after `call`, or by a helper of this module that such a `finally` calls (a method or
    module function that resets the var, restores it, or sets it to a part of its own
    current value: `owners.undoes_in` over `owners.calls_closure`); or restored to its
    previous value by another method of the class (start/end hooks: `activate` saves and
    sets, `deactivate` puts the saved value back), or undone by what the class's close
    paths (`close`/`aclose`/`__exit__`/`__aexit__`/`__del__`) run?

    With `covered` (a token bound to a local nothing reads, `_ = var.set(x)`), a direct
    set/reset in `finally` counts only when its `try` follows the set with nothing between
    that can raise (`owners.nothing_raises_between`): crawl4ai's `token = var.set(True)`,
    then an unguarded `await`, then `try: ... finally: var.set(False)` still leaves the
    value bound when that await raises."""
    values = module_values(facts)
    helpers: list[ast.AST] = []
    set_stmt = facts.enclosing_statement(call)
    for n in facts.walk(fn):
        if not (n is not call and isinstance(n, ast.Call) and owners.pos(n) > owners.pos(call)
                and owners.protected(facts, n, fn)):
            continue
        if covered and not any(isinstance(t, ast.Try) and any(n is x for st in t.finalbody for x in ast.walk(st))
                               and owners.nothing_raises_between(facts, set_stmt, t)
                               for t in facts.ancestors(n)):
            continue
        if (isinstance(n.func, ast.Attribute) and n.func.attr in ("set", "reset")
                and values.contextvar_keys(n.func.value) & var_keys):
            return True
        d = values.callee(n)
        if isinstance(d, owners.FunctionNode) and d is not fn:
            helpers.append(d)
    if helpers and owners.undoes_in(facts, owners.calls_closure(facts, helpers), var_keys) is not None:
        return True
    cls = facts.enclosing_class(fn)
    if cls is not None:
        others = [m for m in values.methods(cls).values() if m is not fn]
        if owners.restores_in(facts, others, var_keys, include_reset=False) is not None:
            return True
        closers = [m for name, m in values.methods(cls).items()
                   if name in owners.EARLY_EXIT_METHODS and m is not fn]
        if closers and owners.undoes_in(facts, owners.calls_closure(facts, closers), var_keys) is not None:
            return True
    return False


def _unread_local(facts, stmt, fn) -> bool:
    """Is `stmt` `name = var.set(...)` binding a plain local of `fn` that nothing in `fn`
    reads (`_ = var.set(stack)`), not a `nonlocal`/`global` cell other code reads?"""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return False
    name = stmt.targets[0].id
    for n in facts.walk(fn):
        if isinstance(n, (ast.Nonlocal, ast.Global)) and name in n.names:
            return False
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            return False
    return True


def _keeps_part_of_current(values, call: ast.Call) -> bool:
    """Is `var.set(x)` setting the var to a *part* of its own current value: a slice or an
    item of what `var.get()` returned (`stack = var.get(); var.set(stack[:-1])`)? That is
    the pop of a stack discipline (crewai `pop_event_scope` undoing `push_event_scope`):
    it binds nothing the var did not already hold, so nothing new can leak. The matching
    push (a set of a value built from the current one plus something new) is still
    judged on its own."""
    arg = call.args[0]
    if not isinstance(arg, ast.Subscript):
        return False
    v = values.value(arg.value)
    return CV_VALUE in v.kinds and bool(v.vars & values.contextvar_keys(call.func.value))


def _is_latch(facts, values, call: ast.Call, fn, var_keys: frozenset[str]) -> bool:
    """Is `var.set(<constant>)` the latch of a once-per-Context guard: the function first
    returns early when the same var already holds a value (`if var.get(): return`), then
    sets it to a constant? (crewai `utilities/env.py`: `if _emitted.get(): return;
    _emitted.set(True)`; also as the `else:` of an if/elif chain that has the guard as
    one of its tests, kopf's `elif subexecuted_var.get(): return` / `else:
    subexecuted_var.set(True)`.) The flag is meant to stay set for the rest of the Context; the
    value is a constant, so nothing request-specific is left bound."""
    if not isinstance(call.args[0], ast.Constant):
        return False

    def guard(node) -> bool:  # `if var.get(): ... return`
        return isinstance(node, ast.If) and bool(node.body) and isinstance(node.body[-1], ast.Return) \
            and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get"
                    and values.contextvar_keys(n.func.value) & var_keys for n in ast.walk(node.test))

    stmt = facts.enclosing_statement(call)
    # the set may sit in the `else:` of an if/elif chain one of whose earlier tests is
    # the guard (`elif var.get(): return` / `else: var.set(True)`, kopf's subhandling)
    node, parent = stmt, facts.parents.get(stmt)
    while isinstance(parent, ast.If) and node in parent.orelse:
        if guard(parent):
            return True
        node, parent = parent, facts.parents.get(parent)
    if parent is not fn or node not in fn.body:
        return False
    return any(guard(before) for before in fn.body[:fn.body.index(node)])
