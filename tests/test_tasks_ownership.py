"""Round-11 CTX107/CTX205 misreads fixed as kinds (blind verdicts on lmcache, openhands-ai,
langflow-base): CTX107 follows a coroutine bound to a local name to its `async def`
(`tasks.coroutine_call`), exempts a task that stops its own loop (`tasks.stops_its_loop`)
and the close of an object its owner replaces or popped (`tasks.closes_discarded_value`);
CTX205 exempts a per-connection object's loop ended by its own close path and a
started-once task that an entry point serving no request also starts. Corpus cases:
corpus/CTX107/good/{coroutine_bound_to_local_handles_errors,loop_shutdown_task,
close_of_discarded_value}.py, corpus/CTX107/bad/teardown_not_discarded.py,
corpus/CTX205/good/{per_connection_writer_closed,lazy_start_also_at_startup}.py,
corpus/CTX205/bad/lazy_start_request_only.py."""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.tasks import closes_discarded_value, coroutine_call, task_coroutine_arg


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


def _facts(src: str):
    return py.PythonFacts("t.py", textwrap.dedent(src), ast.parse(textwrap.dedent(src)), Config())


# ------------------------------------------------------------------ CTX107: local coroutine
GUARDED = """
import asyncio, logging
log = logging.getLogger(__name__)

async def work(x):
    try:
        await asyncio.sleep(x)
    except Exception:
        log.exception("failed")

async def leaky(x):
    await asyncio.sleep(x)
"""


def test_local_name_followed_to_guarded_coroutine():
    src = GUARDED + """
def start(x):
    c = None
    c = work(x)
    asyncio.create_task(c)
"""
    assert found(src, ["CTX107"]) == set()


def test_local_name_to_unguarded_coroutine_still_reported():
    src = GUARDED + """
def start(x):
    c = leaky(x)
    asyncio.create_task(c)
"""
    assert found(src, ["CTX107"]) == {(16, "CTX107")}


def test_parameter_or_rebound_or_loop_name_not_followed():
    src = GUARDED + """
def a(c=None):
    c = work(1)
    asyncio.create_task(c)

def b(flag):
    c = work(1)
    if flag:
        c = leaky(1)
    asyncio.create_task(c)

def d(xs):
    c = work(1)
    for c in xs:
        pass
    asyncio.create_task(c)
"""
    assert found(src, ["CTX107"]) == {(16, "CTX107"), (22, "CTX107"), (28, "CTX107")}


def test_coroutine_call_helper():
    src = "def f():\n    c = None\n    c = g()\n    h(c)\n"
    facts = _facts(src)
    name = next(n for n in ast.walk(facts.tree) if isinstance(n, ast.Name) and n.id == "c"
                and isinstance(n.ctx, ast.Load))
    got = coroutine_call(facts, name)
    assert isinstance(got, ast.Call) and got.func.id == "g"


# ------------------------------------------------------------------ CTX107: loop shutdown
def test_task_that_stops_its_loop_is_not_reported_and_other_scheduled_task_is():
    src = """
import asyncio

def stop(loop: asyncio.AbstractEventLoop):
    async def _halt():
        await asyncio.sleep(0)
        loop.stop()
    async def _other():
        await asyncio.sleep(0)
    loop.call_soon_threadsafe(loop.create_task, _halt())
    loop.call_soon_threadsafe(loop.create_task, _other())
    asyncio.ensure_future(_halt())
"""
    assert found(src, ["CTX107"]) == {(11, "CTX107")}


# ------------------------------------------------------------------ CTX107: discarded value
def test_close_of_replaced_or_popped_entry_not_reported():
    src = """
import asyncio

class M:
    def __init__(self):
        self.s = {}
    def replace(self, k, v):
        asyncio.create_task(self.s[k].close())
        self.s[k] = v
    def drop(self, k):
        asyncio.create_task(self.s[k].aclose())
        del self.s[k]
    def evict(self, k):
        old = self.s.pop(k)
        asyncio.create_task(old.close())
"""
    assert found(src, ["CTX107"]) == set()


def test_close_of_kept_entry_or_self_cleanup_reported():
    src = """
import asyncio

class M:
    def __init__(self):
        self.s = {}
    async def cleanup(self):
        await asyncio.sleep(0)
    def sync_cleanup(self):
        asyncio.create_task(self.cleanup())
    def restart(self, k):
        asyncio.create_task(self.s[k].close())
        self.s[k].started = True
    def other(self, k):
        old = self.s.get(k)
        asyncio.create_task(old.close())
"""
    assert found(src, ["CTX107"]) == {(10, "CTX107"), (12, "CTX107"), (16, "CTX107")}


def test_closes_discarded_value_needs_a_release_method():
    src = "import asyncio\ndef f(d, k, v):\n    asyncio.create_task(d[k].flush())\n    d[k] = v\n"
    facts = _facts(src)
    call = next(n for n in ast.walk(facts.tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") ==
                "create_task")
    assert not closes_discarded_value(facts, task_coroutine_arg(call), call)


# ------------------------------------------------------------------ CTX205
def test_per_connection_loop_ended_by_close_not_reported_but_unended_is():
    src = """
import asyncio
from fastapi import WebSocket

class Q:
    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.t = asyncio.create_task(self._run())
    async def _run(self):
        while True:
            await asyncio.sleep(1)
    async def close(self):
        await self.t

class R:
    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.t = asyncio.create_task(self._run())
    async def _run(self):
        while True:
            await asyncio.sleep(1)
"""
    assert found(src, ["CTX205"]) == {(18, "CTX205")}


def test_started_once_and_from_entry_point_not_reported():
    src = """
import asyncio
_t = None

async def _loop():
    while True:
        await asyncio.sleep(1)

def ensure():
    global _t
    if _t is None:
        _t = asyncio.create_task(_loop())

async def handle(request_id: str):
    ensure()

async def on_boot():
    ensure()

app.add_event_handler("startup", on_boot)
"""
    assert found(src, ["CTX205"]) == set()


def test_request_only_or_unguarded_starter_still_reported():
    only_requests = """
import asyncio
_t = None

async def _loop():
    while True:
        await asyncio.sleep(1)

def ensure():
    global _t
    if _t is None:
        _t = asyncio.create_task(_loop())

async def handle(request_id: str):
    ensure()
"""
    assert found(only_requests, ["CTX205"]) == {(12, "CTX205")}
    unguarded = only_requests.replace("    if _t is None:\n        _t", "    _t") + """
async def on_boot():
    ensure()
"""
    assert found(unguarded, ["CTX205"]) == {(11, "CTX205")}
