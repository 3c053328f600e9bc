"""CTX204 thread-local-in-async: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.asyncness import async_only_functions
from ctxlint.semantic.python.stores import locals_of


def _thread_locals(facts) -> set[str]:
    """Dotted names bound to a `threading.local()` (or a subclass of it): module, class, `self.`."""
    def compute():
        local_classes = set()
        for c in facts.nodes(ast.ClassDef):
            for b in c.bases:
                if (facts.qualname(b) or "") in ("threading.local", "_threading_local.local"):
                    local_classes.add(c.name)
        out: set[str] = set()
        for node in facts.nodes(ast.Assign, ast.AnnAssign):
            v = node.value
            if not isinstance(v, ast.Call):
                continue
            q = facts.qualname(v.func) or ""
            if q not in ("threading.local", "_threading_local.local") and q not in local_classes:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            cls = facts.enclosing_class(node)
            fn = facts.enclosing_function(node)
            for t in targets:
                d = facts.dotted(t)
                if not d:
                    continue
                if fn is None and cls is None and isinstance(t, ast.Name):
                    out.add(d)
                elif fn is None and cls is not None and isinstance(t, ast.Name):
                    out.update({f"{cls.name}.{t.id}", f"self.{t.id}", f"cls.{t.id}"})
                elif fn is not None and d.startswith("self."):
                    out.add(d)
        return out
    return facts.memo("ctx204.thread_locals", compute)


class ThreadLocalInAsync(Rule):
    code = "CTX204"
    name = "thread-local-in-async"
    summary = "threading.local read or written in async code: every task on the loop thread shares it."
    tokens = ("threading",)  # a thread-local needs `threading` (or `_threading_local`) imported
    doc = """\
## What it does
Flags every read or write of a `threading.local()` (module-level, class-level,
or `self.` attribute; also instances of a `threading.local` subclass) inside an
`async def`, or inside a sync function that in this file is only called from
async code. A call made inside a lambda handed to a worker thread
(`asyncio.to_thread(lambda: self._client())`, `loop.run_in_executor(None, lambda:
...)`, `executor.submit`, `threading.Thread(target=lambda: ...)`) runs off the loop:
it does not make its callee async-only.

## Why is this bad
All tasks of an event loop run on one thread, so they share one
`threading.local`. A tenant id, request id or user written by one request's
task is overwritten by another task at the next `await`, and read back by the
wrong request — a cross-tenant leak that no test with one request at a time
shows.

## Example
```python
_state = threading.local()

async def report(tenant_id):
    _state.tenant_id = tenant_id
    rows = await load_rows()
    return {"tenant": _state.tenant_id, "rows": rows}
```

## Use instead
```python
_tenant_id = contextvars.ContextVar("tenant_id")

async def report(tenant_id):
    token = _tenant_id.set(tenant_id)
    try:
        rows = await load_rows()
        return {"tenant": _tenant_id.get(), "rows": rows}
    finally:
        _tenant_id.reset(token)
```

## Fix safety
No automatic fix: the ContextVar's lifetime (set/reset) has to be chosen.

## Source
PEP 567 ("Thread-local variables are insufficient for asynchronous tasks");
raia-live/amfs#191.
"""

    def check(self, facts):
        tls = _thread_locals(facts)
        if not tls:
            return
        async_only = async_only_functions(facts)
        for node in facts.nodes(ast.Attribute):
            d = facts.dotted(node.value)
            if d not in tls:
                continue
            fn = facts.enclosing_function(node)
            if fn is None:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in locals_of(facts, fn):
                continue
            if isinstance(fn, ast.AsyncFunctionDef):
                where = f"`async def {fn.name}`"
            elif id(fn) in async_only:
                where = f"`{fn.name}()`, which only async code calls"
            else:
                continue
            verb = "written" if isinstance(node.ctx, (ast.Store, ast.Del)) else "read"
            yield facts.finding(self, node, f"thread-local `{d}` {verb} in {where}: all tasks on the event "
                                "loop thread share it (use a ContextVar)")
        for call in facts.nodes(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id in ("getattr", "setattr", "hasattr", "delattr")
                    and call.args and facts.dotted(call.args[0]) in tls):
                continue
            fn = facts.enclosing_function(call)
            if fn is None or not (isinstance(fn, ast.AsyncFunctionDef) or id(fn) in async_only):
                continue
            d = facts.dotted(call.args[0])
            verb = "written" if call.func.id in ("setattr", "delattr") else "read"
            yield facts.finding(self, call, f"thread-local `{d}` {verb} in `{fn.name}`, which runs on the event "
                                "loop: all tasks share it (use a ContextVar)")

