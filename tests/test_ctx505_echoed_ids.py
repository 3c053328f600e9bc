"""CTX505: a release keyed by a field of another object (an inbound reply, a job
message, a handle) is reported only when that field is shown to hold another value
than the acquire side's key (temporalio's `_pending_timers.pop(job.seq)`, ray's
`del self.outstanding_requests[response.req_id]`: the id minted by `_next_seq()` /
`_next_id()` is written into the outgoing command or request and echoed back).

Each test pairs the quiet shape with the near miss that must still be reported."""

from __future__ import annotations

import ast
import pathlib
import textwrap

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import keys
from ctxlint.semantic.python.cache_keys import cache_key_facts
from ctxlint.semantic.python.facts import PythonFacts

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lines(src: str) -> list[int]:
    rules = select_rules(["CTX505"], [])
    return [f.line for f in engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
            if f.code == "CTX505"]


def corpus(kind: str, name: str) -> str:
    return (ROOT / "corpus" / "CTX505" / kind / name).read_text()


CLIENT = """
class Client:
    def __init__(self, outbox):
        self._outbox = outbox
        self._n = 0
        self._waiting = {{}}

    def _next_id(self):
        self._n += 1
        return self._n

    def send(self, req, cb):
        rid = self._next_id()
        {stamp}
        self._waiting[rid] = cb
        self._outbox.put(req)

    def on_response(self, resp):
        cb = self._waiting.pop(resp.{field}, None)
        if cb is not None:
            cb(resp)
"""


@pytest.mark.parametrize("stamp", ["req.req_id = rid", "req.header.req_id = rid", "pass"])
def test_field_of_an_inbound_reply_is_not_reported(stamp):
    # sent out in the field (or not visibly): the reply's field is the echoed id, or unknown
    assert lines(CLIENT.format(stamp=stamp, field="req_id")) == []


def test_reply_field_that_is_a_raw_helper_input_is_reported():
    src = """
    import hashlib

    def slot_key(model, prompt):
        return hashlib.sha256((model + prompt).encode()).hexdigest()

    class Client:
        def __init__(self):
            self._slots = {}

        def start(self, model, prompt, fut):
            key = slot_key(model, prompt)
            self._slots[key] = fut

        def on_reply(self, reply):
            self._slots.pop(reply.prompt, None)
    """
    assert lines(src) == [16]


TIMERS = """
import asyncio

class _Timer(asyncio.TimerHandle):
    def __init__(self, seq, when, cb, args, loop):
        super().__init__(when, cb, args, loop)
        self._seq = seq
        self._other = 0

class Loop:
    def __init__(self):
        self._n = 0
        self._timers: dict[int, _Timer] = {{}}

    def _next_seq(self):
        self._n += 1
        return self._n

    def call_at(self, when, cb, *args):
        seq = self._next_seq()
        handle = _Timer(seq, when, cb, args, self)
        self._timers[seq] = handle
        return handle

    def _timer_handle_cancelled(self, handle: asyncio.TimerHandle):
        {guard}
        self._timers.pop(handle.{field}, None)
"""


def test_handle_narrowed_to_the_stored_class_reads_its_key():
    guard = "if not isinstance(handle, _Timer):\n            raise TypeError(handle)"
    assert lines(TIMERS.format(guard=guard, field="_seq")) == []
    # the entry's other field never holds the key
    assert lines(TIMERS.format(guard=guard, field="_other")) == [28]
    # unguarded, the handle is of another module's class: its fields are unknown
    assert lines(TIMERS.format(guard="pass", field="_other")) == []


def test_isinstance_guard_narrows_the_parameter():
    src = textwrap.dedent(TIMERS.format(guard="assert isinstance(handle, _Timer)", field="_seq"))
    tree = ast.parse(src)
    facts = PythonFacts("case.py", src, tree, Config())
    ck = cache_key_facts(facts)
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_timer_handle_cancelled")
    use = next(n for n in ast.walk(fn) if isinstance(n, ast.Attribute) and n.attr == "_seq")
    assert keys.object_class(ck, fn, use.value, use) == "_Timer"
    # a guard after the use narrows nothing before it
    first = fn.body[0]
    assert keys.object_class(ck, fn, use.value, first) is None
    c = next(c for c in facts.containers if c.attr == "_timers")
    assert keys.container_value_class(ck, c) == "_Timer"
    assert keys.key_written_fields(ck, c, ["call_at"]) == {"_seq"}


def test_field_derived_otherwise_in_its_class_is_reported():
    src = corpus("bad", "block_refcount_hash_vs_attr.py")
    assert lines(src) == [29]
    # the same class, its field set from the constructor: unknown, not reported
    quiet = src.replace(
        "self.content_hash = hashlib.sha256(repr(tuple(token_ids)).encode()).hexdigest()",
        "self.content_hash = content_hash").replace(
        "def __init__(self, token_ids: List[int]):", "def __init__(self, token_ids: List[int], content_hash: str):")
    assert lines(quiet) == []


@pytest.mark.parametrize("name", ["echoed_request_id.py", "echoed_command_seq.py",
                                  "handle_narrowed_by_isinstance.py", "stored_request_carries_id.py"])
def test_corpus_goods_are_quiet(name):
    assert lines(corpus("good", name)) == []


def test_corpus_near_misses_are_reported():
    assert lines(corpus("bad", "echoed_id_near_misses.py")) == [53, 61, 70, 102]


def test_a_sweep_of_the_container_is_named_in_the_message():
    """disnake `ViewStore`: the mismatched pop is still reported, but the message names
    the method that sweeps the container instead of claiming the entry is never
    released; without the sweep the claim stands."""
    rules = select_rules(["CTX505"], [])
    src = (ROOT / "corpus/CTX505/bad/release_misses_but_sweep_reclaims.py").read_text()
    found = engine.lint_text("case.py", src, "python", rules, Config())
    assert [f.line for f in found] == [25]
    assert "stays until `__verify_integrity()` sweeps" in found[0].message
    assert "never released" not in found[0].message
    unswept = src.replace("        for k in to_remove:\n            del self._views[k]\n", "        return to_remove\n")
    found = engine.lint_text("case.py", unswept, "python", rules, Config())
    assert [f.line for f in found] == [24] and "never found and never released" in found[0].message
