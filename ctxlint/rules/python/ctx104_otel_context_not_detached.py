"""CTX104 otel-context-not-detached: an OpenTelemetry `context.attach()` never detached."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.requests import current_span_withs
from ctxlint.semantic.python.summaries import handed_out, made_at, trace_steps, unpacked_target
from ctxlint.semantic.python.values import OTEL_TOKEN, module_values


class OtelContextNotDetached(Rule):
    code = "CTX104"
    manifest = "reached"
    reported_when = (
        'the attach happens in `__enter__`/`__aenter__` and `__exit__` never detaches (the class shows it), or the function that attaches is reached from an entry point (route, handler, task, thread, gRPC method, consumer).'
    )
    name = "otel-context-not-detached"
    summary = "OpenTelemetry context.attach() whose token is discarded or not detached in `finally`."
    tokens = ("attach",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags `opentelemetry.context.attach(ctx)` (however imported: `from opentelemetry
import context as otel_context`, `from opentelemetry.context import attach`) whose
token is discarded, never passed to `detach()`, or detached only on the normal
path instead of in `finally`. A token detached on the normal path and in an
`except Exception:` handler is accepted in sync code (only KeyboardInterrupt and
SystemExit, which end the process, escape) and reported in `async def`, where
`asyncio.CancelledError` — a BaseException raised by every cancellation and
timeout — skips both. "Restoring" the parent by a second `attach()` is
flagged too: it pushes another context instead of popping one. A detach after statements none of which can raise an ordinary
`Exception` is accepted without `finally`: no-raise calls (`copy_context()`, `len`,
`time.time()`), plain assignments, and a `try` whose `except Exception:` handler does
not re-raise (the OpenTelemetry SDK exporters' `attach(suppress)`; `try: export()
except Exception: log()`; `detach(token)`); in a coroutine an awaiting `try` needs a
bare/`BaseException` handler. A token handed to a function or class of this module
is followed into it, and a token kept on `self` is released by the class when a
method, a helper method or a module function handed the instance detaches it on its
close paths (by `__exit__` when attached in `__enter__`). Tokens appended to a list on
`self` or on a record object the class keeps (`run.tokens.append(attach(...))`) are
released when a method of the class, of the record's class, or a module function they
call walks that list and detaches each token, directly or through a helper of this
module that detaches what it is handed (lmnr's LangChain handler: `_close(run)` passes
each of `run.global_tokens` to `_detach_global`); a walk that only logs the tokens or
clears the list, a list nobody walks, and a detach loop on the normal path only are
still reported. A token put into a
container that other functions of the module reach - a module-level list/dict
(`_live.setdefault(k, []).append(tok)`), or a copy of a ContextVar's list set back
into the var (`stack = list(var.get() or []); stack.append((tok, span));
var.set(stack)`, apache-burr's OTel bridge) - is accepted when another function takes
it back out of that container (`var.get()[:]`, `.pop()`, iteration) and detaches it;
one whose container is never detached from is reported. An iterator class must
detach on exhaustion *and* on early exit (`close`/`aclose`/`__exit__`/`__del__`): one
that detaches only inside `__next__`/`__anext__` (end of stream, errors) is reported
as such, naming the close path that misses the detach or saying there is none. A discarded token in
a coroutine that runs as its own task is accepted: the attach dies with the task's
own Context.
Nor is an attach inside a scope of the same function that restores the context it
found on every exit: a `with tracer.start_as_current_span(...)`/`trace.use_span(...)`
block (or that decorator on a sync function), or a `try` whose `finally` detaches an
outer attach made by an earlier statement of the same block, as long as no loop inside
that scope repeats the attach. `detach()` is `ContextVar.reset()`, which restores the
value from before that outer token whatever was attached since, so the inner attach
lasts until that scope ends. A `with` of anything else (a lock), an attach after the
span scope has ended, or a `finally` that resets some other token is still reported.

Also flagged: a token kept for `__exit__` that `__exit__` detaches only when the
with-body raised nothing (`if exc_type is not None: ... return` before the detach).

Nor an attach restored by value: `previous = context.get_current()` read before it and
`attach(previous)` as a statement of a later `try`'s `finally` (pydantic-ai
`attach_captured_context`, held across a `yield` that may be finalised in another Context,
where `detach(token)` raises); that re-attach is itself the restore and is not reported.

The call of a function of the project that attaches and returns the token (`token =
set_trace_context(span)`, one or two helper levels deep, a lambda, `functools.partial`,
a function imported from another module of the project, or one item of a returned tuple
that the caller unpacks: `span, token = open_scope(...)`) is judged like the `attach()`
itself, at that call, with the helper path as the finding's trace (function summaries,
`semantic/python/summaries.py`); the helper's own `return attach(...)` hands the token
out and is not reported.

Not checked: the project's own test modules (`test_*.py`, `*_test.py`, `conftest.py`,
pytest's collection names: `PythonFacts.is_test_module`): an attached context left there
reaches only the later tests of a run, as CTX103 skips them. A testing utility the package
ships for its users is still checked.

## Why is this bad
`attach` makes a context current for the running thread/task until `detach`
restores the previous one. A lost token leaves the job's span current on a
reused worker thread: later, unrelated work is parented to it, its attributes
leak between jobs, and the context stack grows on every call.

## Example
```python
def on_job_start(self, job):
    self._span = tracer.start_span(job)
    otel_context.attach(trace.set_span_in_context(self._span))

def on_job_end(self):
    self._span.end()
    otel_context.attach(self._parent_ctx)
```

## Use instead
```python
def on_job_start(self, job):
    self._span = tracer.start_span(job)
    self._token = otel_context.attach(trace.set_span_in_context(self._span))

def on_job_end(self):
    try:
        self._span.end()
    finally:
        otel_context.detach(self._token)
```

## Fix safety
Safe: the fix keeps the token and detaches it in a `finally` block. No fix is
offered inside `__enter__` (the detach belongs in `__exit__`).

## Source
OpenTelemetry Python API docs (`context.attach`/`detach`);
aws/aws-durable-execution-sdk-python#643 (fix PR #650).
"""

    def check(self, facts):
        if facts.is_test_module:
            return  # the project's own tests: a leftover attach reaches only later tests
        values = module_values(facts)
        fresh = None
        for call in facts.nodes(ast.Call):
            helper = None
            if (facts.qualname(call.func) or "").endswith("attach"):
                if not values.is_kind(call, OTEL_TOKEN):
                    continue
            else:
                # a helper of the project that attaches and hands the token back
                # (`token = set_trace_context(span)`): its call is where the token is made
                helper = handed_out(facts, call, OTEL_TOKEN)
                if helper is None:
                    continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            if fresh is None:
                fresh = owners.fresh_context_functions(facts)
            if id(fn) in fresh:
                continue
            fate = owners.token_fate(facts, call, fn, owners.detach_release,
                                     unpacked_target(facts, call, helper, OTEL_TOKEN) if helper else None)
            if fate.kind == "ok" and fate.release is not None and owners.exit_release_success_only(facts, fate.release):
                yield facts.finding(self, call, f"the context is detached in `__exit__` (line {fate.release.lineno}) "
                                    "only when the with-body raised nothing: an exception there leaves it attached")
                continue
            if fate.kind != "ok" and _restored_by_enclosing_scope(facts, values, fn, call):
                continue  # the enclosing span scope's exit resets the context under this attach too
            if fate.kind != "ok" and _reattaches_captured(facts, fn, call):
                continue  # `previous = get_current()` ... `finally: attach(previous)`: restored by value
            if fate.kind in ("ok", "across_yield") or (
                    fate.kind == "discarded" and owners.runs_in_task_context(facts, fn)):
                continue  # (a coroutine's attach dies with its task's Context)
            if fate.kind == "discarded" and owners.is_context_setter(facts, fn):
                continue  # a setter API (`attach(set_value(k, v))` is its whole body): the caller owns the scope
            enter = owners.enter_exit_of(facts, fn)
            detach = _detach_text(facts, call)
            if helper is not None:
                msg = _helper_message(facts, call, helper, fate)
                if msg is None:
                    continue
                # as below: high in `__enter__`, else when an entry point reaches the call
                yield facts.finding(self, call, msg, confidence="high" if enter is not None else None,
                                    trace=trace_steps(helper))
                continue
            if fate.kind == "discarded":
                msg = ("`attach()` token is discarded: the attached context is never detached "
                       "(a second attach does not restore the parent; detach the token in `finally`)")
            elif fate.kind == "not_finally" and owners.released_in_except_exception(facts, fn, fate.release, owners.detach_release):
                if not isinstance(fn, ast.AsyncFunctionDef):
                    # Sync code: `except Exception` + the normal path cover every error;
                    # only KeyboardInterrupt/SystemExit, which end the process, escape.
                    continue
                msg = ("context is detached on the normal path and in "
                       "`except Exception`, not in `finally`: `asyncio.CancelledError` is a BaseException, "
                       "so a cancelled or timed-out await skips both and leaves the context attached")
            elif fate.kind == "not_finally":
                msg = (f"context is detached only on the normal path (line {fate.release.lineno}), "
                       "not in `finally`: an exception leaves it attached")
            elif fate.kind == "exhaustion_only":
                msg = (f"`attach()` token is kept by `{getattr(fate.owner, 'name', '?')}`, which detaches it "
                       f"only inside its iteration (`__next__`/`__anext__`) but {_early_exit_gap(facts, fate.owner)}: "
                       "a consumer that stops early (a `break`, an error in its loop body, a dropped client) "
                       "leaves the context attached")
            else:
                owner = getattr(fate.owner, "name", None)
                where = f" by `{owner}`" if owner else ""
                msg = f"`attach()` token is never passed to `detach()`{where}: the context stays attached"
            fix = None
            if enter is None and fate.kind in ("discarded", "not_finally") and owners.followed_in_block(facts, call):
                fix = Fix(description="detach the token in a `finally` block", safety=SAFE,
                          codemod="otel_detach_finally",
                          data={"line": call.lineno, "col": call.col_offset, "detach": detach})
            # In `__enter__` the class shows the leak by itself; elsewhere an entry point
            # must reach the attach (`manifest = "reached"`).
            yield facts.finding(self, call, msg, fix=fix, confidence="high" if enter is not None else None)


def _helper_message(facts, call: ast.Call, helper, fate) -> str | None:
    """The finding's text for the call of a helper that returns an `attach()` token
    (`helper`: its `summaries.Flow`), by what happens to the token here; None when
    nothing is wrong with it."""
    at = made_at(facts, helper)
    what = f"`{facts.dotted(call.func) or 'helper'}()` attaches a context and returns its token{at}, "
    if fate.kind == "discarded":
        return what + ("and the token is discarded here: the attached context is never detached "
                       "(keep the token and detach it in `finally`)")
    if fate.kind == "not_finally":
        return what + (f"and it is detached only on the normal path (line {fate.release.lineno}), not in "
                       "`finally`: an exception leaves the context attached")
    if fate.kind in ("never", "exhaustion_only"):
        return what + "and the token is never passed to `detach()`: the context stays attached"
    return None


def _captured_current(facts, fn: ast.AST, name: str, before: ast.AST) -> bool:
    """Is `name` a local of `fn` bound exactly once, to `opentelemetry.context.get_current()`,
    by a statement that runs before the node `before`?"""
    binds = [n for n in facts.walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if len(binds) != 1:
        return False
    st = facts.parents.get(binds[0])
    return isinstance(st, ast.Assign) and len(st.targets) == 1 and st.targets[0] is binds[0] \
        and isinstance(st.value, ast.Call) and not st.value.args \
        and (facts.qualname(st.value.func) or "").endswith("context.get_current") \
        and (st.lineno, st.col_offset) < (before.lineno, before.col_offset)


def _reattaches_captured(facts, fn: ast.AST, call: ast.Call) -> bool:
    """Is the attach `call` part of a restore-by-value pair, pydantic-ai's
    `attach_captured_context` (a token detached in another Context raises, so the author
    re-attaches the saved context instead)?
    - `call` is itself `attach(previous)` with `previous = context.get_current()` read
      earlier in `fn`: it puts back what was current, as `var.set(previous)` does for a
      ContextVar (CTX103), and leaves nothing new attached;
    - or a later statement of `call`'s own block is a `try` whose `finally` runs
      `attach(previous)`, as a statement of its own, with `previous` read by
      `get_current()` before `call`: every exit of that `try` puts the saved context back.
    OpenTelemetry's `attach` sets the runtime ContextVar to the given context
    (opentelemetry-python `ContextVarsRuntimeContext.attach`), so re-attaching the
    captured one restores it exactly, whatever was attached in between."""
    def restore_of(c) -> bool:
        return isinstance(c, ast.Call) and (facts.qualname(c.func) or "").endswith("attach") \
            and len(c.args) == 1 and isinstance(c.args[0], ast.Name)
    if restore_of(call) and _captured_current(facts, fn, call.args[0].id, call):
        return True
    got = owners.statement_block(facts, call)
    if got is None:
        return False
    block, i = got
    for st in block[i + 1:]:
        if not isinstance(st, ast.Try):
            continue
        for fst in st.finalbody:
            c = fst.value if isinstance(fst, ast.Expr) else None
            if restore_of(c) and _captured_current(facts, fn, c.args[0].id, call):
                return True
    return False


def _restored_by_enclosing_scope(facts, values, fn: ast.AST, call: ast.Call) -> bool:
    """Does a scope of `fn` that encloses the attach `call` (`values`: the module's
    `ModuleValues`) restore the context it found
    on every exit, and with it undo this attach too?
    - a `with`/`async with <tracer>.start_as_current_span(...)`/`trace.use_span(...)`
      around it, or that decorator on a sync `fn` (`requests.current_span_withs`);
    - a `try` around it whose `finally` detaches, as a statement of its own, the token
      of another attach made by an earlier statement of the same block
      (`t0 = attach(a); try: ... attach(b) ... finally: detach(t0)`);
    and the attach is not repeated by a loop inside that scope (a poll loop attaching
    per message runs each pass, and what follows the loop, under the last one).
    OpenTelemetry's context is a ContextVar, and `detach(token)` is `ContextVar.reset`: it
    restores the value from before that token's attach whatever was attached since
    (opentelemetry-python `ContextVarsRuntimeContext.detach`). The attach stays current
    until that scope ends, which is where the author put it."""
    scope = current_span_withs(facts, fn, call)
    if scope is not None:
        if facts.parents.get(scope) is fn:  # `@tracer.start_as_current_span(...)` on `fn`
            # the decorator form: the scope is the whole call, and on an `async def` it
            # covers the body only in OTel releases with open-telemetry/opentelemetry-python#3633
            return not isinstance(fn, ast.AsyncFunctionDef) and not _in_loop_below(facts, call, fn)
        item = facts.parents.get(scope)
        stmt = facts.parents.get(item) if isinstance(item, ast.withitem) else None
        return stmt is not None and not _in_loop_below(facts, call, stmt)
    for a in facts.ancestors(call):
        if a is fn:
            return False
        if not isinstance(a, ast.Try) or not any(call in facts.walk(b) for b in a.body):
            continue
        block = next((getattr(p, f) for p in [facts.parents.get(a)] for f in ("body", "orelse", "finalbody")
                      if a in getattr(p, f, ())), None)
        if block is None or _in_loop_below(facts, call, a):
            continue
        for st in a.finalbody:  # an unconditional detach, a statement of the `finally` itself
            n = st.value if isinstance(st, ast.Expr) else None
            if not (isinstance(n, ast.Call) and owners.detach_release(n) and isinstance(n.args[0], ast.Name)):
                continue
            tok = n.args[0].id
            # the outer attach is an earlier statement of the same block: it ran
            for prev in block[:block.index(a)]:
                if isinstance(prev, ast.Assign) and isinstance(prev.value, ast.Call) \
                        and values.is_kind(prev.value, OTEL_TOKEN) \
                        and any(isinstance(t, ast.Name) and t.id == tok for t in prev.targets):
                    return True
    return False


def _in_loop_below(facts, node: ast.AST, top: ast.AST) -> bool:
    """Is `node` inside a loop that is itself inside `top` (a loop body attaching per
    pass: the next pass and everything after the loop run under the last attach)?"""
    return any(isinstance(a, (ast.For, ast.AsyncFor, ast.While)) for a in facts.ancestors_until(node, top))


def _early_exit_gap(facts, owner) -> str:
    """How the iterator class `owner` misses early exit: its close paths that do not
    detach, or the lack of any (`owners.early_exit_methods`)."""
    closers = owners.early_exit_methods(facts, owner)
    if closers:
        return f"its `{'`/`'.join(closers)}` does not detach it"
    return "it has no `close`/`aclose`/`__exit__`/`__del__` that does"


def _detach_text(facts, call: ast.Call) -> str:
    """How this file spells `detach` for the fix: the attach call's module alias, an
    imported `detach`, or the fully qualified name."""
    if isinstance(call.func, ast.Attribute):
        base = facts.dotted(call.func.value)
        if base:
            return f"{base}.detach"
    for local, q in facts.imports.items():
        if q == "opentelemetry.context.detach":
            return local
    for local, q in facts.imports.items():
        if q == "opentelemetry.context":
            return f"{local}.detach"
    return "opentelemetry.context.detach"
