"""Targeted tests of the cache-key rules (CTX501-CTX505) and their shared facts,
beyond the corpus: def-use through assignments, configurable scope ids, which
containers count as shared, fix data for the codemods, and odd input."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.semantic.python.cache_keys import cache_key_facts, scope_kind
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.rules import select_rules


def lint(src: str, codes: str = "CTX5", config: Config | None = None):
    cfg = config or Config()
    rules = select_rules([codes], [])
    return engine.lint_text("case.py", textwrap.dedent(src), "python", rules, cfg)


def lines(src: str, code: str, config: Config | None = None) -> list[int]:
    return [f.line for f in lint(src, code, config) if f.code == code]


def facts_of(src: str, config: Config | None = None) -> PythonFacts:
    text = textwrap.dedent(src)
    return PythonFacts("case.py", text, ast.parse(text), config or Config())


# --------------------------------------------------------------------- CTX501
DEF_USE_BAD = """
from cachetools import LRUCache
_ANSWER_CACHE = LRUCache(maxsize=100)

def answer(req, llm):
    text = req.prompt.strip()
    pair = (req.model, text)
    key = pair
    hit = _ANSWER_CACHE.get(key)
    if hit is None:
        hit = llm(req.tenant_id, text)
        _ANSWER_CACHE[key] = hit
    return hit
"""


def test_def_use_follows_assignment_chain_to_the_first_use():
    found = lint(DEF_USE_BAD, "CTX501")
    assert [f.line for f in found] == [9]
    assert "`req.tenant_id`" in found[0].message and "tenants" in found[0].message


def test_scope_id_entering_through_an_assignment_chain_scopes_the_key():
    src = DEF_USE_BAD.replace("    key = pair\n", "    owner = req.tenant_id\n    key = (owner, pair)\n")
    assert lines(src, "CTX501") == []


def test_scope_id_added_by_hash_update_counts():
    src = """
    import hashlib
    def prefix_hash_key(req, tokens):
        h = hashlib.sha256()
        h.update(repr(tuple(tokens)).encode())
        if req.cache_salt:
            h.update(req.cache_salt.encode())
        return h.hexdigest()
    """
    assert lines(src, "CTX501") == []
    assert lines(src.replace("        if req.cache_salt:\n            h.update(req.cache_salt.encode())\n",
                             "        log(req.cache_salt)\n"), "CTX501") == [4]


def test_extend_scope_ids_from_config_changes_results():
    src = """
    _PLAN_CACHE = {}

    def plan_for(org_slug: str, feature: str, compute):
        if feature not in _PLAN_CACHE:
            _PLAN_CACHE[feature] = compute(org_slug, feature)
        return _PLAN_CACHE[feature]
    """
    assert lines(src, "CTX501") == []
    cfg = Config()
    cfg.scope_ids = cfg.scope_ids + ["org_slug"]
    found = lint(src, "CTX501", cfg)
    assert [f.line for f in found] == [5]
    assert "org_slug" in found[0].message


def test_scope_ids_replaced_by_config_turn_the_rule_off_for_removed_ids():
    cfg = Config()
    cfg.scope_ids = ["org_slug"]
    assert lines(DEF_USE_BAD, "CTX501", cfg) == []


def test_per_request_local_dict_is_not_shared():
    src = """
    def dedupe(tenant_id: str, prompts: list, embed):
        seen_cache = {}
        out = []
        for p in prompts:
            if p not in seen_cache:
                seen_cache[p] = embed(tenant_id, p)
            out.append(seen_cache[p])
        return out
    """
    assert lines(src, "CTX501") == []


def test_request_id_alone_does_not_demand_scoping():
    src = """
    from cachetools import LRUCache
    _TEMPLATE_CACHE = LRUCache(maxsize=10)

    def render(request_id: str, name: str, load):
        if name not in _TEMPLATE_CACHE:
            _TEMPLATE_CACHE[name] = load(name, request_id)
        return _TEMPLATE_CACHE[name]
    """
    assert lines(src, "CTX501") == []


def test_whole_scope_object_passed_to_key_helper_counts_as_scoped():
    src = """
    class PrefixIndex:
        def __init__(self):
            self.prefix_blocks = {}

        def match(self, req, make_key):
            key = make_key(req, 0)
            return self.prefix_blocks.get(key)

        def add(self, req, blk):
            self.prefix_blocks[req.tenant_id, 0] = blk
    """
    assert lines(src, "CTX501") == []


def test_dataclass_fields_of_annotated_parameter_are_reachable_nested():
    src = """
    from dataclasses import dataclass

    @dataclass
    class LoraInfo:
        lora_int_id: int

    @dataclass
    class Req:
        tokens: list
        lora: LoraInfo

    def chunk_hash_key(req: Req, parent: int) -> int:
        return hash((parent, tuple(req.tokens)))
    """
    f = facts_of(src)
    ck = cache_key_facts(f)
    fn = [n for n in f.nodes(ast.FunctionDef) if n.name == "chunk_hash_key"][0]
    assert ck.reach(fn).ids == {"lora_int_id": "req.lora.lora_int_id"}
    found = lint(src, "CTX501")
    assert [x.line for x in found] == [14]
    assert found[0].fix.data["scope_expr"] == "req.lora.lora_int_id"


def test_self_scoped_instance_but_module_cache_is_shared():
    src = """
    from cachetools import LRUCache
    _GLOBAL_KV_CACHE = LRUCache(maxsize=64)

    class TenantWorker:
        def __init__(self, tenant_id, engine):
            self.tenant_id = tenant_id
            self.engine = engine
            self.local_cache = {}

        def prefill(self, prompt):
            if prompt not in self.local_cache:
                self.local_cache[prompt] = self.engine.run(self.tenant_id, prompt)
            if prompt not in _GLOBAL_KV_CACHE:
                _GLOBAL_KV_CACHE[prompt] = self.engine.run(self.tenant_id, prompt)
            return self.local_cache[prompt]
    """
    assert lines(src, "CTX501") == [14]


def test_fix_data_appends_to_hashed_tuple():
    src = """
    def block_hash(seq, parent, chunk):
        if seq.lora_request:
            pass
        return hash((parent, tuple(chunk)))
    """
    (f,) = lint(src, "CTX501")
    assert f.fix.codemod == "add_scope_id_to_key" and f.fix.safety == "unsafe"
    d = f.fix.data
    assert (d["line"], d["col"], d["mode"], d["scope_expr"]) == (5, 16, "append", "seq.lora_request")


def test_fix_data_wraps_a_helper_key():
    src = """
    from cachetools import TTLCache
    _ASSETS = TTLCache(maxsize=10, ttl=60)

    def fetch(run, step, gen):
        key = step_key(step)
        if key not in _ASSETS:
            _ASSETS[key] = gen(run.tenant_id, step)
        return _ASSETS[key]
    """
    (f,) = lint(src, "CTX501")
    assert f.line == 7
    assert f.fix.data["mode"] == "wrap" and (f.fix.data["line"], f.fix.data["col"]) == (6, 10)
    assert f.fix.data["scope_expr"] == "run.tenant_id"


def test_sort_key_functions_are_not_cache_keys():
    src = """
    def priority_key(req):
        return (req.arrival, len(req.prompt), req.lora_request is None)
    """
    assert lines(src, "CTX501") == []


# --------------------------------------------------------------------- CTX502
def test_memoized_method_reading_contextvar_and_cached_property_ignored():
    src = """
    import functools
    from contextvars import ContextVar
    tenant_var = ContextVar("tenant_var")

    class Prompts:
        @functools.cached_property
        def banner(self):
            return tenant_var.get()

    @functools.lru_cache
    def banner(kind):
        return f"{kind}:{tenant_var.get()}"
    """
    assert lines(src, "CTX502") == [13]


def test_local_named_g_is_not_flask_g():
    src = """
    from functools import lru_cache

    @lru_cache
    def f(x):
        g = {"a": 1}
        return g.get(x)
    """
    assert lines(src, "CTX502") == []


# --------------------------------------------------------------------- CTX504
def test_tag_fix_data_has_one_tag_per_part():
    src = """
    def extra_hash_keys(req):
        lora_keys = [req.lora_name] if req.lora_name else []
        tok = list(req.tokens)
        salt_keys = [req.cache_salt] if req.cache_salt else []
        return tuple(lora_keys + tok + salt_keys)
    """
    (f,) = lint(src, "CTX504")
    assert f.line == 6 and f.fix.codemod == "tag_key_parts"
    assert f.fix.data["tags"] == ["lora", "", "cache_salt"]


def test_string_arithmetic_with_literals_is_not_a_concatenated_key():
    src = """
    def cache_key(tenant_id, adapter_name):
        return tenant_id + ":" + adapter_name
    """
    assert lines(src, "CTX504") == []


# --------------------------------------------------------------------- CTX505
def test_release_method_also_using_the_acquire_key_is_not_reported():
    src = """
    class Table:
        def __init__(self):
            self.refs = {}
        def acquire(self, rec):
            self.refs[rec.transfer_id] = 1
        def release(self, rec):
            if rec.writer_id:
                self.refs.get(rec.writer_id)
            self.refs.pop(rec.transfer_id, None)
    """
    assert lines(src, "CTX505") == []


# --------------------------------------------------------------------- facts
def test_scope_kinds_of_default_and_configured_ids():
    assert scope_kind("lora_int_id") == "adapter"
    assert scope_kind("cache_salt") == "salt"
    assert scope_kind("org_slug") == "tenant"
    assert scope_kind("shard") == "shard"


@pytest.mark.parametrize("src,expected", [
    ("def f(*a, **k):\n    cache = {}\n    cache[a] = k\n", []),
    ("x = {}\ndef g():\n    (a, *b), c = 1, 2\n    x[a] = b\n", []),
    # a module cache filled with a tenant's result under a key without the tenant
    ("def h(req):\n    key = key = key\n    _cache[key] = h(req.tenant_id)\n_cache = {}\n", [(3, "CTX501")]),
    ("lambda: hash(())\nclass K:\n    def __hash__(self):\n        return hash(self.name)\n", []),
    ("def block_key(x):\n    return block_key(x)\n", []),
])
def test_odd_code_gives_exactly_its_findings(src, expected):
    assert sorted((f.line, f.code) for f in lint(src)) == expected


def test_parts_accumulated_by_append_are_judged_and_spanned():
    src = """
    def block_hash_key(req, parent):
        extra = []
        if req.lora_name:
            extra.append(req.lora_name)
        if req.cache_salt:
            extra.append(req.cache_salt)
        return hash((parent, tuple(extra)))
    """
    (f,) = lint(src, "CTX504")
    assert f.line == 8
    assert f.fix.data["tags"] == ["lora", "cache_salt"]
    assert [p[0] for p in f.fix.data["parts"]] == [5, 7]
    tagged = src.replace("extra.append(req.lora_name)", 'extra.append(("lora", req.lora_name))') \
                .replace("extra.append(req.cache_salt)", 'extra.append(("salt", req.cache_salt))')
    assert lines(tagged, "CTX504") == []


def test_per_request_object_hashing_its_blocks_must_include_its_adapter():
    src = """
    class Sequence:
        def __init__(self, seq_id, token_ids, lora_request=None):
            self.seq_id = seq_id
            self.token_ids = token_ids
            self.lora_request = lora_request

        def hash_of_block(self, idx, block_size):
            return hash(tuple(self.token_ids[: (idx + 1) * block_size]))

        def memo_digest(self):
            return hash(tuple(self.token_ids))
    """
    found = lint(src, "CTX501")
    assert [f.line for f in found] == [9]
    assert "self.lora_request" in found[0].message


HASHLIB_KEYS = '''
import hashlib
from dataclasses import dataclass
from typing import List, Optional


@dataclass
class Seq:
    token_ids: List[int]
    tenant_salt: Optional[str]
    payload: bytes = b""


def first_block_hash(seq: Seq) -> bytes:
    return hashlib.blake2b(repr(tuple(seq.token_ids[:16])).encode(), digest_size=16).digest()


def prefix_block_hash(seq: Seq, parent: bytes) -> bytes:
    return hashlib.sha256(repr((parent, tuple(seq.token_ids))).encode()).digest()


def block_hash_of_payload(seq: Seq) -> str:
    return hashlib.sha256(seq.payload).hexdigest()


def chained_block_hash(seq: Seq, parent: bytes) -> str:
    h = hashlib.sha256()
    h.update(parent)
    h.update(repr(tuple(seq.token_ids)).encode())
    return h.hexdigest()
'''


def test_ctx501_fix_keeps_hashlib_digests_on_bytes():
    """A hashlib digest rejects a tuple (TypeError): the scope id goes inside the repr()
    the bytes come from, or is appended as bytes; after the fix the digests run and
    differ per cache salt."""
    from ctxlint import fixers
    found = lint(HASHLIB_KEYS, "CTX501")
    assert [(f.line, f.fix.data["mode"]) for f in found] == [(15, "inside"), (19, "append"), (23, "bytes"),
                                                             (27, "bytes")]
    fixed = fixers.fix_text("case.py", HASHLIB_KEYS, "python", found, unsafe=True)
    assert "repr((tuple(seq.token_ids[:16]), seq.tenant_salt)).encode()" in fixed
    assert "repr((parent, tuple(seq.token_ids), seq.tenant_salt)).encode()" in fixed
    assert "hashlib.sha256(seq.payload + repr(seq.tenant_salt).encode())" in fixed
    assert "h.update(parent + repr(seq.tenant_salt).encode())" in fixed
    assert lines(fixed, "CTX501") == []
    ns: dict = {}
    exec(compile(fixed, "fixed.py", "exec"), ns)
    a, b = ns["Seq"]([1, 2, 3], "a", b"x"), ns["Seq"]([1, 2, 3], "b", b"x")
    for fn, args in (("first_block_hash", ()), ("prefix_block_hash", (b"p",)), ("block_hash_of_payload", ()),
                     ("chained_block_hash", (b"p",))):
        assert ns[fn](a, *args) != ns[fn](b, *args), fn


EXTRA_KEYS_HELPER = '''
import hashlib
from dataclasses import dataclass
from typing import List, Optional, Tuple


@dataclass
class Seq:
    token_ids: List[int]
    lora_name: Optional[str]
    weights_digest: Optional[str]
    cache_salt: Optional[str]


class SharedPrefixCache:
    def extra_keys(self, seq: Seq) -> Tuple:
        lora_keys = [seq.lora_name] if seq.lora_name else []
        weight_keys = [seq.weights_digest] if seq.weights_digest else []
        salt_keys = [seq.cache_salt] if seq.cache_salt else []
        return tuple(lora_keys + weight_keys + salt_keys)

    def block_hash(self, seq: Seq, parent: bytes) -> bytes:
        return hashlib.blake2b(repr((parent, tuple(seq.token_ids), self.extra_keys(seq))).encode()).digest()
'''


def test_ctx504_fix_of_parts_concatenated_in_a_helper_is_applied_and_clears_the_finding():
    """The advertised fix is made (a `_key_part(kind, part)` helper around each part), the
    rule counts the helper's parts as tagged, and two parts of one kind get tags from
    their names (`lora`, `weight`) so they cannot stand in for each other."""
    from ctxlint import fixers
    (f,) = lint(EXTRA_KEYS_HELPER, "CTX504")
    assert f.line == 20 and f.fix.codemod == "tag_key_parts"
    assert f.fix.data["tags"] == ["lora", "weight", "cache_salt"]
    fixed = fixers.fix_text("case.py", EXTRA_KEYS_HELPER, "python", [f], unsafe=False)
    assert fixed != EXTRA_KEYS_HELPER
    assert lines(fixed, "CTX504") == []
    ns: dict = {}
    exec(compile(fixed, "fixed.py", "exec"), ns)
    cache, Seq = ns["SharedPrefixCache"](), ns["Seq"]
    # adapter "X" without salt no longer equals salt "X" without adapter
    assert cache.block_hash(Seq([1], "X", None, None), b"") != cache.block_hash(Seq([1], None, None, "X"), b"")
    assert cache.block_hash(Seq([1], "X", None, None), b"") != cache.block_hash(Seq([1], None, "X", None), b"")


@pytest.mark.parametrize("a, s", [
    ('f"tenant={tenant_id!r}"', 'f"user={user_id}"'),
    ('"tenant:" + tenant_id', '"user:" + user_id'),
    ('tagged("tenant", tenant_id)', 'tagged("user", user_id)'),
    ('_key_part("tenant", [tenant_id])', '_key_part("user", [user_id])'),
])
def test_ctx504_string_and_helper_tags_count_as_tagged(a, s):
    src = f"""
    import hashlib

    def tagged(value_kind, value):
        return f"{{value_kind}}={{value!r}}"

    def _key_part(kind, part):
        return [(kind, tuple(part))]

    def prefix_key(tokens, tenant_id=None, user_id=None):
        parts = []
        if tenant_id:
            parts.append({a})
        if user_id:
            parts.append({s})
        return hashlib.sha256(repr((tokens, parts)).encode()).hexdigest()
    """
    assert lines(src, "CTX504") == []
    bare = src.replace(a, "tenant_id").replace(s, "user_id")
    assert lines(bare, "CTX504") == [16]


def test_ctx503_label_next_to_the_unique_digest_is_quiet():
    src = """
    from dataclasses import dataclass
    from typing import Optional

    @dataclass
    class Seq:
        lora_name: Optional[str]
        weights_digest: Optional[str]

    def lora_cache_key(seq: Seq):
        return ("lora", seq.lora_name, seq.weights_digest)
    """
    assert lines(src, "CTX503") == []
    assert lines(src.replace(", seq.weights_digest)", ")"), "CTX503") != []


# ------------------------------------------------ value facts (issue 11/13)

SWITCHED = """
import hashlib
from dataclasses import dataclass

@dataclass
class Ref:
    label: str
    adapter_id: int

class Client:
    def __init__(self, backend):
        self.backend = backend
        self.cur = None
        self._m = {}

    def pick(self, ref: Ref):
        self.cur = ref

    def ask(self, text):
        k = hashlib.sha1(text.encode()).hexdigest()
        if k not in self._m:
            self._m[k] = self.backend.run(text, self.cur)
        return self._m[k]
"""


def test_setter_switched_attribute_is_a_scope_id_and_message_is_plain():
    f = facts_of(SWITCHED)
    ck = cache_key_facts(f)
    cls = next(c for c in f.nodes(ast.ClassDef) if c.name == "Client")
    assert set(ck.switched_scope_attrs(cls)) == {"cur"}
    assert ck.switched_scope_attrs(cls)["cur"][0] == "adapter_id"
    got = [x for x in lint(SWITCHED, "CTX501") if x.code == "CTX501"]
    assert [x.line for x in got] == [21]
    assert "does not include the adapter (`self.cur` is available here)" in got[0].message
    assert "reaches no scope id" not in got[0].message
    assert got[0].fix is None  # the object may be None/unhashable: no key rewrite offered


def test_assigning_in_init_only_is_not_a_switch():
    src = SWITCHED.replace("    def pick(self, ref: Ref):\n        self.cur = ref\n", "")
    assert lines(src, "CTX501") == []


def test_cache_by_use_digest_keyed_container():
    f = facts_of(SWITCHED)
    ck = cache_key_facts(f)
    c = next(c for c in f.containers if c.attr == "_m")
    assert ck.is_cache_container(c)
    plain = facts_of("""
class Reg:
    def __init__(self):
        self.items = {}
    def add(self, spec):
        self.items[spec.pid] = spec
""")
    assert not cache_key_facts(plain).is_cache_container(plain.containers[0])


def test_ctx503_repr_and_hash_that_omit_the_id():
    src = """
from functools import lru_cache
_R = {}

class A:
    def __init__(self, label, adapter_id):
        self.label = label
        self.adapter_id = adapter_id
    def __repr__(self):
        return f"A({self.label})"

def get(a: A, p):
    key = (repr(a), p)
    if key not in _R:
        _R[key] = p
    return _R[key]
"""
    assert lines(src, "CTX503") == [14]
    assert lines(src.replace('f"A({self.label})"', 'f"A({self.adapter_id}, {self.label})"'), "CTX503") == []


def test_ctx505_roles_by_value_not_by_name():
    src = """
import hashlib
def comb(ds):
    return hashlib.sha256("".join(ds).encode()).hexdigest()
class S:
    def __init__(self):
        self.n = {}
    def a1(self, items):
        k = comb([i.d for i in items])
        self.n[k] = self.n.get(k, 0) + 1
    def a2(self, item):
        self.n[item.d] -= 1
"""
    assert lines(src, "CTX505") == [12]
    assert lines(src.replace("self.n[item.d] -= 1", "self.n[comb([item.d])] -= 1"), "CTX505") == []


def test_digest_derivation_is_memoised_for_recursive_helpers(monkeypatch):
    """whylogs' constraint interpreter: a method with many returns that calls itself many
    times. Following its returns for a digest once per call site and depth grew with
    (calls x returns)^depth (526 s on one file); memoised per (def, key, depth), the
    number of closure walks stays linear in the module's size. Counted, not timed."""
    from ctxlint.semantic.python import cache_keys
    branches = "\n".join(
        f"    if token == {i!r}:\n"
        f"        left, i = self._interpret(i + 1)\n"
        f"        right, i = self._interpret(i)\n"
        f"        return (left, right, {i}), i"
        for i in range(30))
    src = ("def _interpret(self, i):\n"
           "    token = self._tokens[i]\n"
           f"{branches}\n"
           "    return token, i + 1\n")
    facts = facts_of(src)
    ck = cache_key_facts(facts)
    fn = facts.tree.body[0]
    key = fn.body[0].value  # `self._tokens[i]`
    calls = {"n": 0}
    real = cache_keys.CacheKeyFacts.closure

    def counting(self, *a, **k):
        calls["n"] += 1
        return real(self, *a, **k)

    monkeypatch.setattr(cache_keys.CacheKeyFacts, "closure", counting)
    assert ck.digest_derived(fn, key) is False
    assert calls["n"] < 200, calls["n"]
