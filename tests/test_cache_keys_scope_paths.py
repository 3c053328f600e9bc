"""Round-11 misreads of CTX501/CTX505 fixed as kinds (lmcache, gptcache, langflow).

CTX501: a key builder that adds the scope id on every path where it is set (the bare
key is the unset path's shared bucket, also for dotted values and conditional
expressions); a listing record built only from entries of a container being walked;
a key part already compared with the scope value; a container indexed by a key the
walk over that same container gave; an entry whose stored value records its scope.
CTX505: a release key read from the stored object the acquire side filled with the
very key value it used. Each test pairs the quiet shape with the near miss that must
still be reported."""

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


def fn_named(facts: PythonFacts, name: str):
    return next(f for f in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef) if f.name == name)


# ------------------------------------------------------------------ kind 1
SALTED = """
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


def object_cache_key(key: ObjectKey) -> str:
    base = f"{{key.model_name}}@{{key.chunk_hash.hex()}}"
    if {test}:
        return f"{{base}}@{{key.cache_salt}}"
    return base
"""


def test_bare_key_on_the_unsalted_path_is_the_shared_bucket():
    # lmcache s3_l2_adapter `_object_key_to_string`
    assert lines(SALTED.format(test="key.cache_salt"), "CTX501") == []
    assert lines(SALTED.format(test="key.cache_salt is not None"), "CTX501") == []
    assert lines(SALTED.format(test='key.cache_salt != ""'), "CTX501") == []


def test_guard_on_another_field_still_drops_the_salt():
    assert lines(SALTED.format(test="key.model_name"), "CTX501") == [17]
    # an `or` with another part: the fall-through may still carry a salt
    assert lines(SALTED.format(test="key.cache_salt and key.model_name"), "CTX501") == [17]


def test_salt_dropped_on_the_salted_path_is_reported():
    src = """
    from typing import Optional


    def tenant_cache_key(prompt: str, tenant_id: Optional[str]) -> str:
        if tenant_id:
            return prompt
        return f"{tenant_id}:{prompt}"
    """
    assert lines(src, "CTX501") == [7]


def test_unset_tests_read_as_implications():
    src = """
    def f(req, salt):
        if not salt or req.x:
            pass
        if req.salt is None or req.salt == "":
            a = 1
        b = 2 if not req.salt else 3
    """
    facts = facts_of(src)
    ck = cache_key_facts(facts)
    fn = fn_named(facts, "f")
    ifs = [n for n in facts.walk(fn) if isinstance(n, ast.If)]
    assert not ck.known_none(fn, ifs[0].body[0], "salt")   # `or req.x`: salt may be set
    assert ck.known_none(fn, ifs[1].body[0], "req.salt")
    exp = next(n for n in facts.walk(fn) if isinstance(n, ast.IfExp))
    assert ck.known_none(fn, exp.body, "req.salt") and not ck.known_none(fn, exp.orelse, "req.salt")


def test_digest_returned_bare_only_without_tenant():
    src = """
    import hashlib
    from typing import Optional


    def prompt_cache_key(prompt: str, tenant_id: Optional[str]) -> str:
        digest = hashlib.sha256(prompt.encode()).hexdigest()
        if {test}:
            return digest
        return f"{{tenant_id}}:{{digest}}"
    """
    assert lines(src.format(test="not tenant_id"), "CTX501") == []
    assert lines(src.format(test="len(prompt) < 8"), "CTX501") == [7]


# ------------------------------------------------------------------ kind 2
PINS = """
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


@dataclass
class PinnedKey:
    key: ObjectKey
    pin_count: int


class Pins:
    def __init__(self):
        self._pin_block_counts: Dict[ObjectKey, int] = {{}}

    def list_pins(self, cache_salt: str, tokens: Tuple[int, ...]) -> List[PinnedKey]:
        return [{record} for key, count in self._pin_block_counts.items()]
"""


def test_listing_record_of_walked_entries_is_no_key():
    # lmcache eviction_controller `list_pins`
    assert lines(PINS.format(record="PinnedKey(key=key, pin_count=count)"), "CTX501") == []
    assert lines(PINS.format(record="PinnedKey(key, 1)"), "CTX501") == []


def test_record_with_new_data_is_a_new_key():
    assert lines(PINS.format(record="PinnedKey(key=key, pin_count=len(tokens))"), "CTX501") == [24]


def test_entry_of_reads_parts_of_a_walk():
    facts = facts_of(PINS.format(record="PinnedKey(key, count)"))
    ck = cache_key_facts(facts)
    fn = fn_named(facts, "list_pins")
    assert [p for _c, p in ck.entry_of(fn, "key")] == ["key"]
    assert [p for _c, p in ck.entry_of(fn, "count")] == ["value"]
    assert ck.entry_of(fn, "tokens") is None


FILTERED = """
from dataclasses import dataclass
from typing import Dict, List, Optional


@dataclass(frozen=True)
class ObjectKey:
    model_name: str
    chunk_hash: bytes
    cache_salt: Optional[str] = None


@dataclass
class ListedKey:
    key: object


def listed(keys: List[ObjectKey], cache_salt: str) -> List[ListedKey]:
    out = []
    for k in keys:
        if {test}:
            continue
        out.append({record})
    return out
"""


def test_key_compared_with_the_salt_carries_it():
    assert lines(FILTERED.format(test="k.cache_salt != cache_salt", record="ListedKey(k)"), "CTX501") == []
    assert lines(FILTERED.format(test="cache_salt and k.cache_salt != cache_salt", record="ListedKey(k)"),
                 "CTX501") == []


def test_filter_that_does_not_pin_the_salt_or_key_rebuilt_from_parts():
    # `or`: a key with another salt passes when the model matches
    assert lines(FILTERED.format(test="k.cache_salt != cache_salt and k.model_name", record="ListedKey(k)"),
                 "CTX501") == [23]
    # the filter checked the salt, but the new key is built from other parts only
    assert lines(FILTERED.format(test="k.cache_salt != cache_salt", record="ListedKey(k.chunk_hash)"),
                 "CTX501") == [23]


# ------------------------------------------------------------------ kind 3
WALK = """
from typing import List, Optional

import cachetools


def answer_for(q: str, session_id: str) -> str:
    return session_id + q


class MapDataManager:
    def __init__(self, max_size: int):
        self.data = cachetools.LRUCache(max_size)

    def save(self, q: str, session_id: str) -> None:
        self.data[(q, session_id)] = answer_for(q, session_id)

    def list_sessions(self, keys: List[str], session_id: Optional[str] = None) -> List[str]:
        out = []
        for k in {walk}:
            if session_id and session_id in self.data[k]:
                out.append(k)
        return out
"""


def test_container_read_by_keys_of_its_own_walk():
    # gptcache data_manager `list_sessions`
    assert lines(WALK.format(walk="self.data"), "CTX501") == []
    assert lines(WALK.format(walk="list(self.data.keys())"), "CTX501") == []


def test_container_read_by_keys_from_elsewhere_is_a_key_use():
    assert lines(WALK.format(walk="keys"), "CTX501") == [21]


# ------------------------------------------------------------------ kind 4
TAGGED = """
from dataclasses import dataclass
from typing import Dict

_ANSWER_CACHE: Dict[str, object] = {{}}


@dataclass
class Entry:
    answer: str
    tenant_id: str


def generate(tenant_id: str, prompt: str) -> str:
    return tenant_id + prompt


def cached(prompt_digest: str, prompt: str, tenant_id: str):
    if prompt_digest not in _ANSWER_CACHE:
        _ANSWER_CACHE[prompt_digest] = {value}
    return _ANSWER_CACHE[prompt_digest]
"""


def _tagged_checked(value: str, check: str) -> str:
    # a reader that compares the stored scope field with the caller's scope (the tag is
    # only evidence when someone checks it: review finding 5, tests/test_cache_keys_reader_checks.py)
    return TAGGED.format(value=value) + f"""

def owned(prompt_digest: str, tenant_id: str) -> bool:
    hit = _ANSWER_CACHE.get(prompt_digest)
    return hit is not None and {check}
"""


def test_value_that_records_its_scope():
    # gptcache data_manager `save`: (question, answer, embedding, session ids)
    assert lines(_tagged_checked("(generate(tenant_id, prompt), tenant_id)", "hit[1] == tenant_id"), "CTX501") == []
    assert lines(_tagged_checked("Entry(generate(tenant_id, prompt), tenant_id=tenant_id)",
                                 "hit.tenant_id == tenant_id"), "CTX501") == []
    assert lines(_tagged_checked('{"a": generate(tenant_id, prompt), "t": {tenant_id}}',
                                 'tenant_id in hit["t"]'), "CTX501") == []


def test_value_only_computed_from_the_scope_is_not_tagged():
    assert lines(TAGGED.format(value="generate(tenant_id, prompt)"), "CTX501") == [19]
    assert lines(TAGGED.format(value="(generate(tenant_id, prompt), prompt)"), "CTX501") == [19]
    # a helper's result is no record: the tenant went into a computation
    assert lines(TAGGED.format(value="generate(tenant_id, prompt).strip()"), "CTX501") == [19]


def test_tagged_kinds_reads_fields_not_computations():
    src = """
    def f(session_id, q, s):
        sid = {s.name} if s else set()
        a = (q, sid)
        b = (q, compute(session_id))
    """
    facts = facts_of(src)
    ck = cache_key_facts(facts)
    fn = fn_named(facts, "f")
    assign = {n.targets[0].id: n.value for n in facts.walk(fn) if isinstance(n, ast.Assign)}
    assert ck.tagged_kinds(fn, assign["a"]) == set()   # `sid` is no scope id by itself
    assert ck.tagged_kinds(fn, ast.parse("(q, {session_id})", mode="eval").body) == {"session"}
    assert ck.tagged_kinds(fn, assign["b"]) == set()


# ------------------------------------------------------------------ kind 5
LEASE = """
import asyncio
import os
from dataclasses import dataclass
from typing import Any, Dict, Tuple

_held_locks: Dict[tuple, "Lease"] = {{}}


@dataclass
class Lease:
    owner: tuple
    kb_id: str
    release: Any


def _owner(kb_id: str) -> tuple:
    return os.getpid(), asyncio.current_task(), kb_id


def drop(lease: Lease) -> None:
    if _held_locks.get({key}) is lease:
        del _held_locks[{key}]


def acquire(kb_id: str, release) -> Lease:
    owner = _owner(kb_id)
    lease = Lease(owner, kb_id, release)
    _held_locks[owner] = lease
    return lease
"""


def test_release_by_the_key_the_lease_carries():
    # langflow knowledge_base_storage/runtime.py `_use_lease`
    assert lines(LEASE.format(key="lease.owner"), "CTX505") == []


def test_release_by_another_field_of_the_lease():
    assert lines(LEASE.format(key="lease.kb_id"), "CTX505") == [22]


def test_self_release_and_walk_of_the_stored_values():
    src = """
    import hashlib
    from typing import Dict, List

    _SLOTS: Dict[str, "Slot"] = {}


    def slot_key(model: str, digests: List[str]) -> str:
        return hashlib.sha256((model + "|".join(digests)).encode()).hexdigest()


    class Slot:
        def __init__(self, key: str, size: int):
            self.key = key
            self.size = size

        def close(self) -> None:
            _SLOTS.pop(self.key, None)


    def open_slot(model: str, digests: List[str], size: int) -> Slot:
        key = slot_key(model, digests)
        _SLOTS[key] = Slot(key, size)
        return _SLOTS[key]


    def sweep(limit: int) -> None:
        for s in list(_SLOTS.values()):
            if s.size > limit:
                del _SLOTS[s.key]
    """
    assert lines(src, "CTX505") == []
    # an acquire side that stores an object without its key: `.key` misses those
    unkeyed = src.replace('        return _SLOTS[key]\n', '        return _SLOTS[key]\n\n\n'
                          '    def open_blank(model: str, digests: List[str]) -> None:\n'
                          '        _SLOTS[slot_key(model, digests)] = Slot("", 0)\n')
    assert lines(unkeyed, "CTX505") == [18, 34]


def test_unannotated_holder_is_unknown_not_a_mismatch():
    # an unannotated holder is not proven to be a stored lease, but its `owner` is not
    # shown to differ from the key either (every lease built here carries the key in
    # `owner`): a field of an object of unknown class is not reported (CTX505 doc)
    src = LEASE.format(key="lease.owner").replace("def drop(lease: Lease)", "def drop(lease)")
    assert lines(src, "CTX505") == []
    # its `kb_id` is the raw input `_owner(kb_id)` derived the key from: still reported
    src = LEASE.format(key="lease.kb_id").replace("def drop(lease: Lease)", "def drop(lease)")
    assert lines(src, "CTX505") == [22]
