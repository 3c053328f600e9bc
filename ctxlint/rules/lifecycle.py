"""CTX1xx (Python): lifecycle of request-scoped context — ContextVar tokens,
OpenTelemetry context tokens and spans, contextmanager cleanup, asyncio tasks,
cancellation-safe registration.
"""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule

_TASK_FACTORIES = {
    "asyncio.create_task", "asyncio.ensure_future", "asyncio.tasks.create_task",
    "asyncio.tasks.ensure_future",
}


class TaskReferenceDiscarded(Rule):
    code = "CTX107"
    name = "task-reference-discarded"
    summary = "asyncio.create_task()/ensure_future() result dropped: the loop holds tasks only weakly."
    tokens = ("create_task", "ensure_future")
    fix_safety = SAFE
    doc = """\
## What it does
Flags an expression statement whose value is `asyncio.create_task(...)`,
`asyncio.ensure_future(...)`, `loop.create_task(...)` or a `TaskGroup`-less
`get_running_loop().create_task(...)`: the returned Task is thrown away.

## Why is this bad
The event loop keeps only a weak reference to running tasks. A task nobody
references can be garbage-collected before it finishes ("Task was destroyed but
it is pending!"), silently dropping the work — a request log, a KV-cache
write-back, a usage record — and any exception it raised is never seen.

## Example
```python
async def handle_turn(call_id, text):
    asyncio.create_task(append_call_log(call_id, text))
    return text.upper()
```

## Use instead
```python
_background_tasks: set[asyncio.Task] = set()

async def handle_turn(call_id, text):
    task = asyncio.create_task(append_call_log(call_id, text))
    _background_tasks.add(task)
    task.add_done_callback(_background_tasks.discard)
    return text.upper()
```
or run the work in an `asyncio.TaskGroup`.

## Fix safety
Safe: the fix keeps the task in a module-level set and discards it when done;
behaviour is otherwise unchanged.

## Source
Python docs, `asyncio.create_task` ("Important: Save a reference to the result
of this function"); ruff RUF006; bolna-ai/bolna#462.
"""

    def check(self, facts):
        for stmt in facts.nodes(ast.Expr):
            call = stmt.value
            if isinstance(call, ast.Await) or not isinstance(call, ast.Call):
                continue
            if not isinstance(call.func, (ast.Attribute, ast.Name)):
                continue
            q = facts.qualname(call.func) or ""
            attr = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id
            if q in _TASK_FACTORIES:
                pass
            elif attr == "create_task" and isinstance(call.func, ast.Attribute):
                recv = facts.dotted(call.func.value) or ""
                # TaskGroup.create_task keeps its own strong reference: tg.create_task is fine.
                if _is_task_group(facts, call.func.value):
                    continue
                if not (recv.endswith("loop") or "loop" in recv.split(".")[-1].lower()
                        or _is_loop_call(call.func.value, facts)):
                    continue
            else:
                continue
            fix = Fix(
                description="keep the task in a module-level set until it is done",
                safety=SAFE,
                codemod="keep_task_reference",
                data={"line": call.lineno, "col": call.col_offset},
            )
            yield facts.finding(self, call, f"`{facts.dotted(call.func) or attr}()` result is discarded; "
                                "the event loop keeps only a weak reference, so the task can be "
                                "garbage-collected before it finishes", fix=fix)


def _is_loop_call(expr: ast.AST, facts) -> bool:
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        return q.endswith(("get_running_loop", "get_event_loop", "new_event_loop"))
    return False


def _is_task_group(facts, recv: ast.AST) -> bool:
    """Is `recv` bound by `async with asyncio.TaskGroup() as recv` (or anyio/trio nursery)?"""
    name = facts.dotted(recv)
    if not name:
        return False
    for w in facts.nodes(ast.AsyncWith, ast.With):
        for item in w.items:
            if item.optional_vars is not None and facts.dotted(item.optional_vars) == name:
                q = facts.qualname(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else ""
                if q and q.split(".")[-1] in ("TaskGroup", "create_task_group", "open_nursery"):
                    return True
    return False
