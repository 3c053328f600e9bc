"""Review findings on cache_keys.py / keys.py (CTX501, CTX505) fixed as kinds.

5: a stored scope field exempts a key only where a reader of the container compares it
   with the scope (`checked_kinds`). 14: walking a cache by its own keys exempts lookups
   and removals, not insertions. 12: the key a stored object carries must not be
   rebound between the constructor and the insertion. 13: an acquire path whose stored
   value cannot be seen into proves nothing. 17/21: record classes resolved by binding
   (a bare, unshadowed name of this file's class), never by case or last dotted segment.
20: the receiver is the method's first parameter, whatever it is spelled."""

from __future__ import annotations

import ast
import pathlib
import textwrap

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import cache_keys
from ctxlint.semantic.python.facts import PythonFacts

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lines(src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    return [f.line for f in engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
            if f.code == code]


def corpus(code: str, kind: str, name: str) -> str:
    return (ROOT / "corpus" / code / kind / name).read_text()


def ck_of(src: str) -> cache_keys.CacheKeyFacts:
    text = textwrap.dedent(src)
    return cache_keys.cache_key_facts(PythonFacts("case.py", text, ast.parse(text), Config()))


# ------------------------------------------------------------------ item 5
TAGGED = """
from typing import Dict, Tuple

_ANSWER_CACHE: Dict[str, Tuple[str, str]] = {{}}


def answer(prompt: str, tenant_id: str, generate) -> str:
    hit = _ANSWER_CACHE.get(prompt)
    if hit is not None{check}:
        return hit[0]
    _ANSWER_CACHE[prompt] = (generate(tenant_id, prompt), tenant_id)
    return _ANSWER_CACHE[prompt][0]
"""


def test_scope_tag_counts_only_when_a_reader_compares_it():
    assert lines(TAGGED.format(check=""), "CTX501") == [8]
    assert lines(TAGGED.format(check=" and hit[1] == tenant_id"), "CTX501") == []
    assert lines(TAGGED.format(check=" and not _other(hit[1], tenant_id)"), "CTX501") == []


def test_tagged_corpus_cases():
    assert lines(corpus("CTX501", "bad", "value_scope_never_checked.py"), "CTX501") == [23]
    assert lines(corpus("CTX501", "bad", "tuple_scope_tag_never_checked.py"), "CTX501") == [11]
    assert lines(corpus("CTX501", "good", "value_records_its_scope.py"), "CTX501") == []
    assert lines(corpus("CTX501", "good", "tagged_entry_checked_by_helper.py"), "CTX501") == []


# ------------------------------------------------------------------ item 14
def test_walk_by_own_keys_exempts_reads_not_writes():
    assert lines(corpus("CTX501", "bad", "refresh_walk_overwrites_entries.py"), "CTX501") == [24]
    src = """
    from typing import Dict

    _COMPLETION_CACHE: Dict[str, str] = {}

    def refresh(tenant_id: str, render) -> list:
        return [_COMPLETION_CACHE[d] for d in list(_COMPLETION_CACHE) if d]
    """
    assert lines(src, "CTX501") == []


# ------------------------------------------------------------------ items 12, 13, 21
def test_lease_key_flow_cases():
    assert lines(corpus("CTX505", "bad", "lease_key_renormalised_after_build.py"), "CTX505") == [24]
    assert lines(corpus("CTX505", "bad", "lease_second_acquire_path_opaque.py"), "CTX505") == [37]
    assert lines(corpus("CTX505", "bad", "lease_from_other_module_same_name.py"), "CTX505") == [31]
    assert lines(corpus("CTX505", "good", "lease_key_normalised_before_build.py"), "CTX505") == []
    assert lines(corpus("CTX505", "good", "lease_carries_its_key.py"), "CTX505") == []


# ------------------------------------------------------------------ items 17, 20, 21
def test_record_class_and_receiver_resolved_by_binding():
    ck = ck_of("""
    import other

    class Entry:
        pass

    class Store:
        def put(this, Entry=None):
            return Entry

        def get(this):
            def inner():
                return this
            return inner

        @staticmethod
        def make(x):
            return x
    """)
    mod = ck.facts.tree
    store = next(n for n in mod.body if isinstance(n, ast.ClassDef) and n.name == "Store")
    put, get, make = store.body
    inner = get.body[0]
    assert ck.module_class(None, ast.parse("Entry", mode="eval").body) is not None
    assert ck.module_class(None, ast.parse("other.Entry", mode="eval").body) is None
    assert ck.module_class(None, ast.parse("Response", mode="eval").body) is None  # capitalised, unknown
    assert ck.module_class(put, ast.parse("Entry", mode="eval").body) is None  # shadowed by a parameter
    assert ck.receiver(put) == "this" and ck.receiver(inner) == "this"
    assert ck.receiver(make) is None


def test_tag_in_unknown_capitalised_call_is_no_record():
    src = TAGGED.replace("(generate(tenant_id, prompt), tenant_id)", "Response(generate(tenant_id, prompt), tenant_id)")
    ck = ck_of(src.format(check=" and hit[1] == tenant_id"))
    fn = next(n for n in ck.facts.tree.body if isinstance(n, ast.FunctionDef))
    value = next(n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Subscript))
    assert ck.tagged_kinds(fn, value) == set()
