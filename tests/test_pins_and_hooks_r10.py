"""Round-10 kinds (h501): a per-instance cache pinned to one scope by a guard
(CTX501), a task owned by the task group around a `yield` (CTX106), a task made in
an exit hook (CTX107). Each test pairs the quiet shape with its boundary."""

from __future__ import annotations

import textwrap

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules


def lines(src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    return [f.line for f in engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
            if f.code == code]


PINNED = """
class Store:
    def __init__(self, backend, cfg):
        self.backend = backend
        self.cfg = cfg
        self._doc_cache = {{}}

    def _check(self, session_id):
        {helper}

    def load(self, session_id, doc):
        {guard}
        key = ("doc", doc)
        value = self.backend.get(session_id=session_id, doc=doc)
        self._doc_cache[key] = value
        return value
"""


def _pinned(guard: str, helper: str = "pass") -> list[int]:
    return lines(PINNED.format(guard=guard, helper=helper), "CTX501")


def test_unguarded_instance_cache_is_reported():
    assert _pinned("pass") == [15]


def test_guard_shapes_that_pin():
    assert _pinned("if session_id != self.cfg.session_id: return None") == []
    assert _pinned("if self.cfg.session_id is not session_id: raise KeyError(session_id)") == []
    assert _pinned("if not session_id == self.cfg.session_id: raise KeyError(session_id)") == []
    assert _pinned("assert session_id == self.cfg.session_id") == []
    assert _pinned("if doc is None or session_id != self.cfg.session_id: raise ValueError(doc)") == []
    assert _pinned("self._check(session_id)",
                   "if session_id != self.cfg.session_id: raise ValueError(session_id)") == []


def test_guard_shapes_that_do_not_pin():
    # only logs; compares with a constant, not the instance's own value; a helper's
    # `return` leaves only the helper; `and` of mismatches exits only when both differ
    assert _pinned("if session_id != self.cfg.session_id: print(session_id)") == [15]
    assert _pinned("if session_id != 'default': return None") == [15]
    assert _pinned("self._check(session_id)", "if session_id != self.cfg.session_id: return None") == [15]
    assert _pinned("if doc is None and session_id != self.cfg.session_id: raise ValueError(doc)") == [15]


def test_unguarded_read_of_a_cache_filled_only_under_guards():
    src = PINNED.format(guard="if session_id != self.cfg.session_id: return None", helper="pass") + """
    def peek(self, session_id, doc):
        key = ("doc", doc)
        return self._doc_cache.get(key) or self.backend.get(session_id=session_id, doc=doc)
"""
    assert lines(src, "CTX501") == []
    # one unguarded insertion and the unguarded read is reported again
    src2 = src + """
    def warm(self, session_id, doc):
        key = ("doc", doc)
        self._doc_cache[key] = self.backend.get(session_id=session_id, doc=doc)
"""
    assert 20 in lines(src2, "CTX501")


GROUP = """
import asyncio
from contextlib import asynccontextmanager

@asynccontextmanager
async def beating(conn, make_group):
    loop = asyncio.get_running_loop()
    async with {ctx} as grp:
        beat = {make}(conn.ping())
        yield conn
        beat.cancel()
"""


def test_task_of_the_enclosing_group_is_not_reported():
    assert lines(GROUP.format(ctx="asyncio.TaskGroup()", make="grp.create_task"), "CTX106") == []
    assert lines(GROUP.format(ctx="make_group()", make="await grp.spawn"), "CTX106") == []


def test_task_on_the_loop_inside_the_group_is_reported():
    assert lines(GROUP.format(ctx="asyncio.TaskGroup()", make="loop.create_task"), "CTX106") == [10]
    assert lines(GROUP.format(ctx="asyncio.TaskGroup()", make="asyncio.ensure_future"), "CTX106") == [10]


HOOK = """
import asyncio
import atexit
import weakref

class Client:
    def __init__(self, transport):
        self.transport = transport
        {register}

    def _bye(self, *args):
        asyncio.get_event_loop().create_task(self.transport.aclose())

    def start(self):
        self._bye()
"""


def test_task_in_exit_hook_is_not_reported():
    assert lines(HOOK.format(register="atexit.register(self._bye)"), "CTX107") == []
    assert lines(HOOK.format(register="weakref.finalize(self, self._bye)"), "CTX107") == []
    assert lines(HOOK.format(register="pass"), "CTX107") == [12]
    # `weakref.finalize`'s first argument is the watched object, not the callback
    assert lines(HOOK.format(register="weakref.finalize(self._bye, print)"), "CTX107") == [12]
