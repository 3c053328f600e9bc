"""CTX108, round 7: entries meant to outlive the registering call.

Two value facts keep CTX108 off registrations that no cancellation can strand:

- `registries.await_never_suspends`: an `await` of `put` on an unbounded asyncio
  queue (directly or through a coroutine of this module that only does that) never
  suspends, so no `CancelledError` can arrive there (openai-agents realtime
  `_put_event`);
- the key was already handed out (a completed `await` of a call passed exactly the
  key, before the insertion, in the inserting function or a caller on the way down):
  the insertion records that exchange, and no later await announces the entry
  (browser-use's CDP session pool, mcp-agent's run registry).

Each test pairs the exempted shape with the nearest shape that must stay flagged.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.registries import await_never_suspends


def found(src: str) -> set[tuple[int, str]]:
    src = textwrap.dedent(src)
    return {(f.line, f.code) for f in py_lint.lint("t.py", src, select_rules(["CTX108"], []), Config())}


def suspends_by_line(src: str) -> dict[int, bool]:
    """line of each `await` in `src` -> does it never suspend?"""
    src = textwrap.dedent(src)
    tree = ast.parse(src)
    facts = PythonFacts("t.py", src, tree, Config())
    graph = call_graph(facts)
    return {n.lineno: await_never_suspends(facts, graph, n) for n in ast.walk(tree) if isinstance(n, ast.Await)}


# ------------------------------------------------------------ await_never_suspends
QUEUES = """\
import asyncio
from asyncio import Queue

_mod_q = asyncio.Queue()
_mod_bounded = asyncio.Queue(8)

class S:
    def __init__(self, ws, q):
        self.ws = ws
        self.free = asyncio.Queue()
        self.zero = Queue(maxsize=0)
        self.small = asyncio.Queue(maxsize=4)
        self.swapped = asyncio.Queue()
        self.given = q

    def reset(self):
        self.swapped = asyncio.Queue(maxsize=2)

    async def _emit(self, ev):
        await self.free.put(ev)

    async def _emit_then_send(self, ev):
        await self.free.put(ev)
        await self.ws.send(ev)

    async def _emit_locked(self, ev, lock):
        async with lock:
            self.free.put_nowait(ev)

    async def go(self, ev, lock, param_q):
        await self.free.put(ev)
        await self.zero.put(ev)
        await self.small.put(ev)
        await self.swapped.put(ev)
        await self.given.put(ev)
        await param_q.put(ev)
        await _mod_q.put(ev)
        await _mod_bounded.put(ev)
        local_q = asyncio.Queue()
        await local_q.put(ev)
        await self._emit(ev)
        await self._emit_then_send(ev)
        await self._emit_locked(ev, lock)
        await self.ws.send(ev)
        await asyncio.sleep(0)
"""


@pytest.mark.parametrize("line,expected", [
    (31, True),    # unbounded attribute queue
    (32, True),    # maxsize=0 is unbounded
    (33, False),   # a size: put waits while full
    (34, False),   # rebound elsewhere to a bounded queue
    (35, False),   # a queue passed in: unknown size
    (36, False),   # a parameter
    (37, True),    # module-level unbounded queue
    (38, False),   # module-level bounded (positional size)
    (40, True),    # local unbounded queue
    (41, True),    # a helper whose only await is an unbounded put
    (42, False),   # a helper that also sends on the network
    (43, False),   # a helper with `async with`
    (44, False),   # unresolved call
    (45, False),   # sleep is a suspension point
])
def test_await_never_suspends(line, expected):
    got = suspends_by_line(QUEUES)
    assert got[line] is expected


def test_await_never_suspends_survives_odd_code():
    src = """\
    import asyncio
    class S:
        async def rec(self, q):
            await self.rec(q)
        async def star(self, *a, **k):
            q = asyncio.Queue(*a, **k)
            await q.put(1)
            await self.rec(q)
    """
    got = suspends_by_line(src)
    assert got[4] is False  # self-recursion bottoms out at depth 0: unknown
    assert got[7] is False  # size given through *args/**kwargs: unknown


# ------------------------------------------------------------ rule: non-suspending await
APPROVAL = """\
import asyncio

class Session:
    def __init__(self):
        self._events = asyncio.Queue({size})
        self._awaiting = {{}}

    async def _emit(self, event):
        await self._events.put(event)

    async def ask(self, call_id, tool):
        self._awaiting[call_id] = tool
        await self._emit({{"call_id": call_id}})

    def approve(self, call_id):
        return self._awaiting.pop(call_id, None)
"""


def test_announce_on_unbounded_queue_is_not_a_cancellation_point():
    assert found(APPROVAL.format(size="")) == set()


def test_announce_on_bounded_queue_stays_flagged():
    assert found(APPROVAL.format(size="maxsize=16")) == {(12, "CTX108")}


OWN_REMOVAL = """\
import asyncio

class Tracker:
    def __init__(self):
        self.out = asyncio.Queue()
        self.live = {{}}

    async def run(self, request_id, note):
        self.live[request_id] = note
        {between}
        self.live.pop(request_id, None)
"""


def test_own_removal_with_only_unbounded_put_between():
    assert found(OWN_REMOVAL.format(between="await self.out.put(note)")) == set()


def test_own_removal_with_real_suspension_between():
    assert found(OWN_REMOVAL.format(between="await asyncio.sleep(0.1)")) == {(9, "CTX108")}


# ------------------------------------------------------------ rule: key already handed out
POOL = """\
class Pool:
    def __init__(self, link):
        self.link = link
        self.by_id = {{}}

    async def attached(self, event, obj):
        session_id = event["sessionId"]
        await self.link.call({before})
        self.by_id[session_id] = obj
        await self.link.call("enable", session_id=session_id)

    def detached(self, event):
        self.by_id.pop(event["sessionId"], None)
"""


def test_key_sent_before_insertion_is_not_the_registration_window():
    assert found(POOL.format(before='"configure", session_id=session_id')) == set()


def test_object_sent_before_insertion_does_not_count():
    # only an object is passed before, not the key itself: the later await is the hand-off
    assert found(POOL.format(before='"configure", event')) == {(9, "CTX108")}


def test_key_sent_on_another_branch_does_not_count():
    src = """\
    class Pool:
        def __init__(self, link):
            self.link = link
            self.by_id = {}

        async def attached(self, session_id, obj, fast):
            if fast:
                await self.link.call("configure", session_id)
                return
            self.by_id[session_id] = obj
            await self.link.call("enable", session_id)

        def detached(self, session_id):
            self.by_id.pop(session_id, None)
    """
    assert found(src) == {(10, "CTX108")}


def test_own_removal_still_flagged_after_key_sent_before():
    # the call removes its entry itself later: the entry is meant to live for the call,
    # whatever it awaited before inserting
    src = """\
    class Server:
        def __init__(self, model):
            self.model = model
            self.live = {}

        async def generate(self, request_id, prompt):
            await self.model.reserve(request_id)
            self.live[request_id] = prompt
            text = await self.model.generate(prompt)
            self.live.pop(request_id, None)
            return text
    """
    assert found(src) == {(8, "CTX108")}


HELPER_CHAIN = """\
_routes = {{}}

async def _remember(run_id, conn):
    _routes[run_id] = conn

async def _ask(conn, run_id):
    reply = await conn.request({arg})
    if reply is not None:
        await _remember(run_id, conn)
    return reply

async def relay(conn, run_id, workflow):
    reply = await _ask(conn, run_id)
    await workflow.signal(run_id, reply)

async def finished(run_id):
    _routes.pop(run_id, None)
"""


def test_key_sent_by_intermediate_helper_before_registering():
    assert found(HELPER_CHAIN.format(arg="run_id")) == set()


def test_intermediate_helper_that_never_sent_the_key_stays_flagged():
    assert found(HELPER_CHAIN.format(arg="conn")) == {(13, "CTX108")}
