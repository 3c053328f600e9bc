"""Round-11 kinds (hD): cache keys recognised by what they are, not by names.

CTX501: a chained block digest computed inline (`prev = hash((prev, chunk))`) keying
a table of slots taken from a free pool; a dict used the memo way (computed and
stored on a miss) whatever it is called. CTX503: a function that returns the
builtin `hash()` builds a key whatever it is called. Each test pairs the reported
shape with its quiet boundary."""

from __future__ import annotations

import ast
import textwrap

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python.cache_keys import cache_key_facts
from ctxlint.semantic.python.facts import PythonFacts


def lines(src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    return [f.line for f in engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
            if f.code == code]


def facts_of(src: str) -> PythonFacts:
    text = textwrap.dedent(src)
    return PythonFacts("case.py", text, ast.parse(text), Config())


CHAIN = """
from dataclasses import dataclass
from typing import List, Optional


@dataclass
class Seq:
    token_ids: List[int]
    tenant_id: Optional[str] = None


class Table:
    def __init__(self, size: int):
        self.size = size
        self.slots = {{}}

    def place(self, seq: Seq, free: List[int]) -> List[int]:
        out = []
        prev = 0
        for i in range(0, len(seq.token_ids), self.size):
            prev = hash(({parts}))
            out.append(self.slots.setdefault(prev, {value}))
        return out
"""


def test_inline_chained_digest_reported_at_the_digest():
    src = CHAIN.format(parts="prev, *seq.token_ids[i:i + self.size]", value="free.pop()")
    assert lines(src, "CTX501") == [21]


def test_inline_chained_digest_with_the_scope_is_quiet():
    src = CHAIN.format(parts="prev, seq.tenant_id, *seq.token_ids[i:i + self.size]", value="free.pop()")
    assert lines(src, "CTX501") == []


def test_slot_not_from_a_pool_is_scope_independent():
    # the stored value is the instance's own setting, not a slot the request fills
    src = CHAIN.format(parts="prev, *seq.token_ids[i:i + self.size]", value="self.size")
    assert lines(src, "CTX501") == []


def test_pooled_value_shapes():
    facts = facts_of("""
        import heapq
        def f(free, pending, k, heap):
            a = free.pop()
            b = pending.pop(k)
            c = heap.popleft()
            d = heapq.heappop(heap)
            return a, b, c, d
    """)
    ck = cache_key_facts(facts)
    fn = facts.nodes(ast.FunctionDef)[0]
    got = {n: ck.pooled_value(fn, ast.Name(id=n, ctx=ast.Load())) for n in "abcd"}
    assert got == {"a": True, "b": False, "c": True, "d": True}


MEMO = """
_store = {{}}


def answer(user_id, model, question, backend):
    key = f"{{model}}:{{question}}"
    if key not in _store:
        _store[key] = {value}
    return _store[key]
"""


def test_memo_filled_dict_is_a_cache_whatever_its_name():
    src = MEMO.format(value="backend.complete(model, question, user=user_id)")
    assert lines(src, "CTX501") == [7]


def test_accumulator_started_on_a_miss_is_no_cache():
    src = MEMO.format(value="list()")
    assert lines(src, "CTX501") == []
    facts = facts_of(MEMO.format(value="list()"))
    assert not any(cache_key_facts(facts).memo_filled(c) for c in facts.containers)


def test_memo_filled_through_get_is_none():
    facts = facts_of("""
        _seen = {}
        def load(name, loader):
            key = name.strip().lower()
            hit = _seen.get(key)
            if hit is None:
                hit = loader(key)
                _seen[key] = hit
            return hit
    """)
    ck = cache_key_facts(facts)
    assert [ck.memo_filled(c) for c in facts.containers] == [True]


def test_objects_built_per_key_and_handed_in_keys_are_no_memo():
    facts = facts_of("""
        _peers = {}
        _meta = {}
        def connect(info, mm_hash):
            addr = (info["host"], info["port"])
            if addr not in _peers:
                _peers[addr] = PeerSession(addr=addr)
            return _peers[addr]
        def note(offload_key, req, build):
            if offload_key not in _meta:
                _meta[offload_key] = build(req)
    """)
    ck = cache_key_facts(facts)
    assert [ck.memo_filled(c) for c in facts.containers] == [False, False]


FOLD = """
from dataclasses import dataclass


@dataclass
class AdapterSlot:
    label: str
    slot_uid: int


def _tag(slot: AdapterSlot) -> tuple:
    return (slot.{field},)


def fold(parent, tokens, slot: AdapterSlot):
    return {digest}((parent, tuple(tokens), _tag(slot)))
"""


def test_function_returning_builtin_hash_is_a_key_builder():
    assert lines(FOLD.format(field="label", digest="hash"), "CTX503") == [12]
    assert lines(FOLD.format(field="slot_uid", digest="hash"), "CTX503") == []


def test_function_returning_other_values_is_not_a_key_builder_by_value():
    # `repr` is no digest: an unnamed function returning it is not a key builder
    assert lines(FOLD.format(field="label", digest="repr"), "CTX503") == []


def test_scope_id_computed_from_the_key_is_carried_by_it():
    src = """
    _states = {{}}


    def _creds_key(credentials):
        project_id = getattr(credentials, "project_id", None)
        if project_id is None:
            pass
        return {ret}


    def state_for(credentials, build):
        key = _creds_key(credentials)
        hit = _states.get(key)
        if hit is None:
            hit = build(key)
            _states[key] = hit
        return hit
    """
    assert lines(src.format(ret="(type(credentials).__name__, id(credentials))"), "CTX501") == []
    # a scope id from another parameter is not carried by the key
    src2 = src.replace("def _creds_key(credentials):", "def _creds_key(credentials, project):") \
        .replace('getattr(credentials, "project_id", None)', 'getattr(project, "project_id", None)') \
        .replace("key = _creds_key(credentials)", "key = _creds_key(credentials, None)")
    assert lines(src2.format(ret="(type(credentials).__name__, id(credentials))"), "CTX501") == [9]
