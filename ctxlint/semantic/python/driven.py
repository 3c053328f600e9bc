"""Generators a library drives to completion inside one call (read by CTX109).

Some libraries take a generator from an override of their API and run it themselves,
start to finish, inside the one call (and so the one task and Context) that needs it:
they start it, `send()`/`asend()` each response into it and close it in a `finally`
before that call returns. Such a generator is never resumed or closed from another
Context, so a `ContextVar` set before one of its `yield`s and reset after it is set and
reset in the same Context.

`LIBRARY_DRIVEN_GENERATORS` maps a base class (import-resolved qualified name) to the
override methods whose generator it drives; `LIBRARY_DRIVEN_DECORATORS` lists the
decorators that hand a generator to such a driver (tornado's `gen.coroutine`, Twisted's
`inlineCallbacks`). A
generator *is library-driven* (`library_driven`) when it is such an override of a class
deriving from a table base (directly, or through bases defined in this module), when
such a decorator decorates it, or when every call of it in this
module is `return g(...)` (directly or through a local it is bound to) inside such an
override — the override hands the library that generator instead of being one.
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.syntax import FunctionNode

#: Auth-flow generators httpx drives inside one request: httpx docs, "Customizing
#: authentication" (https://www.python-httpx.org/advanced/authentication/): a subclass of
#: `httpx.Auth` implements `auth_flow` (or `sync_auth_flow` / `async_auth_flow`) as a
#: generator that yields requests and receives responses; `Client._send_handling_auth`
#: starts it, `send()`s/`asend()`s each response into it and closes it in its `finally`,
#: all inside the `send()` call. `httpx2` is the httpx fork the MCP SDK imports under that
#: name (same `Auth` API). The MCP SDK's auth providers are `httpx.Auth` subclasses
#: (modelcontextprotocol/python-sdk, mcp/shared/_httpx_utils.py `RedirectAwareAuth(ABC,
#: httpx.Auth)`, mcp/client/auth/oauth2.py `OAuthClientProvider(RedirectAwareAuth)`,
#: mcp/client/auth/extensions/client_credentials.py and identity_assertion.py providers
#: deriving from `OAuthClientProvider`), listed so a subclass of them resolves by import.
_AUTH_FLOWS = frozenset({"auth_flow", "sync_auth_flow", "async_auth_flow"})
LIBRARY_DRIVEN_GENERATORS: dict[str, frozenset[str]] = {
    base: _AUTH_FLOWS for base in (
        "httpx.Auth", "httpx._auth.Auth", "httpx2.Auth", "httpx2._auth.Auth",
        "mcp.shared._httpx_utils.RedirectAwareAuth",
        "mcp.client.auth.OAuthClientProvider", "mcp.client.auth.oauth2.OAuthClientProvider",
        "mcp.client.auth.extensions.client_credentials.ClientCredentialsOAuthProvider",
        "mcp.client.auth.extensions.client_credentials.PrivateKeyJWTOAuthProvider",
        "mcp.client.auth.extensions.identity_assertion.IdentityAssertionOAuthProvider",
    )
}


#: Decorators that turn a generator function into a coroutine their library drives:
#: tornado's `gen.coroutine` and `tornado.testing.gen_test` hand the generator to
#: `tornado.gen.Runner`, which captures `contextvars.copy_context().run` once and runs
#: every step of the generator through it (tornado/gen.py, `Runner.__init__` and
#: `Runner.run`: `self.ctx_run = ctx_run`), so each `yield` resumes in the same Context.
#: Twisted's `defer.inlineCallbacks` does the same since Twisted 21.2: it copies the
#: Context once and resumes every step with `context.run` (twisted/internet/defer.py,
#: `inlineCallbacks` / `_inlineCallbacks`; Twisted's own `test_resetWithInlineCallbacks`
#: asserts that a reset after a `yield` succeeds).
LIBRARY_DRIVEN_DECORATORS: frozenset[str] = frozenset({
    "tornado.gen.coroutine", "tornado.testing.gen_test",
    "twisted.internet.defer.inlineCallbacks",
})


def driven_by_decorator(facts, fn: ast.AST) -> str | None:
    """The `LIBRARY_DRIVEN_DECORATORS` entry decorating `fn` (also called:
    `@gen_test(timeout=10)`), else None."""
    for d in getattr(fn, "decorator_list", ()):
        q = facts.qualname(d.func if isinstance(d, ast.Call) else d) or ""
        if q in LIBRARY_DRIVEN_DECORATORS:
            return q
    return None


def driven_override(facts, fn: ast.AST) -> str | None:
    """"Base.method" when `fn` is a method of a class deriving from a
    `LIBRARY_DRIVEN_GENERATORS` base and is one of the overrides that base drives; else None."""
    from ctxlint.semantic.python.instances import base_qualnames, matches
    if not isinstance(fn, FunctionNode):
        return None
    cls = facts.enclosing_class(fn)
    if cls is None or fn not in cls.body:
        return None
    table = frozenset(LIBRARY_DRIVEN_GENERATORS)
    for _, q in base_qualnames(facts, cls):
        hit = matches(q, table)
        if hit and fn.name in LIBRARY_DRIVEN_GENERATORS[hit]:
            return f"{hit}.{fn.name}"
    return None


def library_driven(facts, gen: ast.AST) -> str | None:
    """"Base.method" (or the decorator's name) when generator function `gen` is driven
    to completion by a library inside one call (see the module doc): it is such an
    override itself, a `LIBRARY_DRIVEN_DECORATORS` decorator decorates it, or every call
    of it in this module is returned (directly or through a local) from one; else None."""
    hit = driven_override(facts, gen) or driven_by_decorator(facts, gen)
    if hit:
        return hit
    from ctxlint.semantic.python.values import module_values
    calls = list(module_values(facts).calls_to(gen))
    if not calls:
        return None
    found = None
    for c in calls:
        caller = facts.enclosing_function(c)
        hit = driven_override(facts, caller) if caller is not None else None
        if hit is None or not _returned(facts, c, caller):
            return None
        found = hit
    return found


def _returned(facts, call: ast.Call, fn: ast.AST) -> bool:
    """Is `call`'s result what `fn` returns: `return call`, or `g = call` with `g`
    only ever returned?"""
    p = facts.parents.get(call)
    if isinstance(p, ast.Return):
        return True
    if isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Name):
        name = p.targets[0].id
        uses = [n for n in facts.walk(fn) if isinstance(n, ast.Name) and n.id == name
                and isinstance(n.ctx, ast.Load)]
        return bool(uses) and all(isinstance(facts.parents.get(n), ast.Return) for n in uses)
    return False
