"""Review findings on CTX107/CTX205 (tasks205 items 7, 8, 9, 11, 21) fixed as kinds:
- `tasks.stops_its_loop`: the `stop()` is an unconditional top-level statement of the
  coroutine, on a receiver resolved to an event loop by value (no spelling fallback);
- `tasks.closes_discarded_value`: the rebind post-dominates the close task (same or
  enclosing block, no exit in between); a `pop` must be on a container and precede it;
- CTX205 `_started_once`: the factory call is guarded by the unset test of the place it
  is stored in (`tasks.created_only_while_unset`);
- CTX205 `_started_outside_requests`: real startup evidence (`tasks.startup_evidence`),
  not "nobody here calls it".
Repros: /tmp/review/r107a-d.py, r205g-i.py; corpus cases
corpus/CTX107/bad/{watchdog_stops_loop_conditionally,close_in_one_branch_entry_kept}.py,
corpus/CTX107/good/{shutdown_closure_stops_resolved_loop,close_after_branch_then_replaced}.py,
corpus/CTX205/bad/writer_guard_does_not_guard.py,
corpus/CTX205/good/{lazy_start_from_lifespan_and_main,lazy_start_also_at_startup}.py."""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.tasks import TAKE_OUT_METHODS, TASK_END_METHODS, startup_evidence


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


def _facts(src: str):
    s = textwrap.dedent(src)
    return py.PythonFacts("t.py", s, ast.parse(s), Config())


WATCHDOG = """
import asyncio

async def _watchdog(loop: asyncio.AbstractEventLoop) -> None:
    await asyncio.sleep(5)
    {stop}

def install() -> None:
    loop = asyncio.get_running_loop()
    loop.create_task(_watchdog(loop))
"""


def test_unconditional_stop_on_annotated_loop_is_exempt():
    assert found(WATCHDOG.format(stop="loop.stop()"), ["CTX107"]) == set()


def test_conditional_stop_is_reported():
    assert found(WATCHDOG.format(stop="if loop.is_running(): loop.stop()"), ["CTX107"]) == {(10, "CTX107")}


def test_stop_on_receiver_named_loop_but_unresolved_is_reported():
    src = WATCHDOG.replace("loop: asyncio.AbstractEventLoop", "loop")
    assert found(src.format(stop="loop.stop()"), ["CTX107"]) == {(10, "CTX107")}


POOL = """
import asyncio

class Pool:
    def __init__(self) -> None:
        self._c: dict = {{}}

    def swap(self, k, flag) -> None:
{body}
"""


def test_rebind_in_other_branch_is_reported():
    body = ("        if flag:\n            asyncio.create_task(self._c[k].aclose())\n"
            "        else:\n            self._c[k] = None\n")
    assert found(POOL.format(body=body), ["CTX107"]) == {(10, "CTX107")}


def test_rebind_after_the_branch_is_exempt():
    body = ("        if flag:\n            asyncio.create_task(self._c[k].aclose())\n"
            "        self._c[k] = None\n")
    assert found(POOL.format(body=body), ["CTX107"]) == set()


def test_rebind_after_an_early_return_is_reported():
    body = ("        asyncio.create_task(self._c[k].aclose())\n"
            "        if flag:\n            return\n        self._c[k] = None\n")
    assert found(POOL.format(body=body), ["CTX107"]) == {(9, "CTX107")}


def test_pop_must_be_on_a_container():
    ok = "        old = self._c.pop(k)\n        asyncio.create_task(old.aclose())\n"
    bad = "        old = self.pick(k).pop()\n        asyncio.create_task(old.aclose())\n"
    assert found(POOL.format(body=ok), ["CTX107"]) == set()
    assert found(POOL.format(body=bad), ["CTX107"]) == {(10, "CTX107")}


def test_tables_are_in_the_semantic_layer():
    assert "cancel" in TASK_END_METHODS and "pop" in TAKE_OUT_METHODS


WRITER = """
import asyncio
_t = None

async def _loop():
    while True:
        await asyncio.sleep(1)

def ensure():
    global _t
{guard}
    _t = asyncio.create_task(_loop())

async def audit(request_id: str):
    ensure()

{entry}
"""


def test_guard_that_does_not_guard_is_reported():
    src = WRITER.format(guard="    if _t is not None:\n        print('restart')",
                        entry="@app.on_event('startup')\nasync def boot():\n    ensure()")
    assert (13, "CTX205") in found(src, ["CTX205"])


def test_early_return_guard_with_startup_hook_is_exempt():
    src = WRITER.format(guard="    if _t is not None:\n        return",
                        entry="@app.on_event('startup')\nasync def boot():\n    ensure()")
    assert found(src, ["CTX205"]) == set()


def test_uncalled_public_helper_is_not_startup():
    src = WRITER.format(guard="    if _t is not None:\n        return",
                        entry="def enqueue(rec):\n    ensure()")
    assert (13, "CTX205") in found(src, ["CTX205"])


def test_startup_evidence_kinds():
    f = _facts("""
        import asyncio
        async def a(): ...
        async def b(): ...
        async def c(): ...
        async def d(): ...
        app.add_event_handler("startup", a)
        app.on_startup.append(b)
        api = Starlette(on_startup=[c])
        if __name__ == "__main__":
            asyncio.run(d())
        async def e(): ...
        app.add_event_handler("shutdown", e)
    """)
    defs = {d.name: d for d in f.nodes(ast.AsyncFunctionDef)}
    assert all(startup_evidence(f, defs[n]) for n in "abcd")
    assert startup_evidence(f, defs["e"]) is None
