"""CTX109 contextvar-reset-across-yield: a ContextVar set before a `yield`, reset after it."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python import driven, owners
from ctxlint.semantic.python.values import module_values


class ContextVarResetAcrossYield(Rule):
    code = "CTX109"
    name = "contextvar-reset-across-yield"
    summary = "ContextVar set before a `yield` and reset after it in a generator: the reset may run in another Context."
    tokens = ("yield",)
    doc = """\
## What it does
In a generator or async generator (not a `@contextmanager`), flags
`token = var.set(...)` whose `var.reset(token)` comes after a `yield` — even
inside `finally`. A token handed to a generator of this module is followed into
it: `return _stream(chunks, token)` where `_stream` resets its `token` parameter
after yielding is the same bug (reported at the `set()`).

A generator a library drives to completion inside one call is not reported: an
override of `httpx.Auth.auth_flow` / `sync_auth_flow` / `async_auth_flow` (the base
resolved by import, `semantic.python.driven.LIBRARY_DRIVEN_GENERATORS`), or a
generator that such an override only returns. httpx starts it, sends each response
into it and closes it inside the one `send()` call, so every step runs in that
call's Context. Likewise a generator decorated with tornado's `gen.coroutine` or
`tornado.testing.gen_test`, or with Twisted's `defer.inlineCallbacks`
(`driven.LIBRARY_DRIVEN_DECORATORS`): tornado's `Runner` and Twisted's
`_inlineCallbacks` run every step through the one Context they captured at the start.

## Why is this bad
Each step of a generator runs in the Context of whoever resumes it. A streaming
response is resumed by the server's task, and closed (`aclose()`, garbage
collection) from yet another Context: `reset()` then raises `ValueError: <Token>
was created in a different Context`, and the value set for the request stays
bound in the resumer's Context — later requests see it. Meanwhile the value
leaks out at every `yield` into the consumer's code.

## Example
```python
async def stream(self, req):
    token = current_tenant.set(req.tenant_id)
    try:
        async for chunk in self.engine.generate(req):
            yield chunk
    finally:
        current_tenant.reset(token)
```

## Use instead
```python
async def stream(self, req):
    async for chunk in self.engine.generate(req, tenant_id=req.tenant_id):
        yield chunk
```
or set and reset within one step (between two `yield`s), or run the producer
in its own task with `contextvars.copy_context()`.

## Fix safety
No automatic fix: the value has to be passed explicitly or the work restructured.

## Source
PEP 568 (generator context sensitivity, deferred); PEP 567 notes on
generators; python/cpython#93442 and the Starlette/pytest-asyncio reports of
"Token was created in a different Context"; jaseci-labs/jac#6015 (a token handed
to the returned stream generator); httpx docs, "Customizing authentication" (auth
flows driven inside one request).
"""

    def check(self, facts):
        if "ContextVar" not in facts.text and "contextvars" not in facts.text:
            return  # no ContextVar can be resolved in this module
        values = module_values(facts)
        for call, fn in owners.contextvar_sets(facts):
            var = facts.dotted(call.func.value) or "var"
            found = _direct(facts, call, fn) or _handed(facts, values, call, fn) or _closure(facts, values, call, fn)
            if found is None:
                continue
            release, gen = found
            if driven.library_driven(facts, gen):
                continue  # a library runs it start to finish inside one call: one Context
            if gen is fn:
                msg = (f"`{var}` is set before a `yield` and reset after it (line {release.lineno}): the "
                       "generator can be resumed or closed in another Context, where the reset fails and "
                       "the value leaks")
            else:
                how = "captured by" if fn in facts.ancestors(gen) else "handed to"
                msg = (f"the token of `{var}.set()` is {how} generator `{gen.name}`, which resets it after "
                       f"a `yield` (line {release.lineno}): the generator is resumed or closed in another "
                       "Context, where the reset fails and the value leaks")
            yield facts.finding(self, call, msg)


def _direct(facts, call: ast.Call, fn):
    """In generator `fn` itself: a reset of this set's token after a `yield`."""
    if owners.is_contextmanager(facts, fn) or not owners.is_generator(facts, fn):
        return None
    parent = facts.parents.get(call)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return None
    values = module_values(facts)
    b = values.binding(parent.targets[0])
    if b is None:
        return None
    keys = owners.refs(values, fn, b)
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Call) and any(owners.reads(values, e, keys) for e in owners.reset_release(n)):
            if owners.across_yield(facts, call, fn, n):
                return n, fn
    return None


def _closure(facts, values, call: ast.Call, fn):
    """The token captured by a generator defined inside `fn` (and returned or handed on)
    that resets it after one of its `yield`s."""
    parent = facts.parents.get(call)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1):
        return None
    b = values.binding(parent.targets[0])
    if b is None:
        return None
    for n in facts.walk(fn, into_defs=True):
        if not (isinstance(n, ast.Call) and any(values.binding(e) == b for e in owners.reset_release(n))):
            continue
        g = facts.enclosing_function(n)
        if g is None or g is fn or owners.is_contextmanager(facts, g) or not owners.is_generator(facts, g):
            continue
        if owners.across_yield(facts, g, g, n):
            return n, g
    return None


def _handed(facts, values, call: ast.Call, fn):
    """The token handed (directly, or through the local it is bound to) to a generator
    function of this module that resets it after a `yield`."""
    parent = facts.parents.get(call)
    args: list[tuple[ast.Call, ast.AST]] = []
    if isinstance(parent, ast.Call) and (call in parent.args or any(k.value is call for k in parent.keywords)):
        args.append((parent, call))
    elif isinstance(parent, (ast.Assign, ast.AnnAssign)) and parent.value is call:
        if isinstance(parent, ast.Assign):
            t = parent.targets[0] if len(parent.targets) == 1 else None
        else:
            t = parent.target
        b = values.binding(t) if t is not None else None
        if b is None or b[0] != "local":
            return None
        for n in facts.walk(fn, into_defs=True):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and values.binding(n) == b:
                p = facts.parents.get(n)
                if isinstance(p, ast.Call) and (n in p.args or any(k.value is n for k in p.keywords)):
                    args.append((p, n))
    for c, a in args:
        h = owners.handoff(facts, c, a, owners.reset_release)
        if h.kind == owners.ACROSS_YIELD and not owners.is_contextmanager(facts, h.owner):
            return h.release, h.owner
    return None
