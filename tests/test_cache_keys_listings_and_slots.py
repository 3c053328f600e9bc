"""Round-12 misreads of CTX501/CTX505 fixed as kinds (lightrag-hku, cashews).

CTX501: an instance whose scope value is an attribute fixed at construction (given to
the constructor, here or by a base class of another file, and never reassigned by a
method) is per scope, so its own containers are not shared; a function that returns
keys read out of an existing store (a key view, a scan's items) builds no key.
CTX505: a release key read back from the slot where every acquire side put its key
(a ContextVar it sets, possibly read through a property; an instance attribute it
assigns). Each test pairs the quiet shape with the near miss that must still be
reported, and checks the corpus cases need the new exemption to be quiet."""

from __future__ import annotations

import pathlib
import textwrap

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import cache_keys, keys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def lines(src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    return [f.line for f in engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
            if f.code == code]


def corpus(code: str, kind: str, name: str) -> str:
    return (ROOT / "corpus" / code / kind / name).read_text()


# ------------------------------------------------------------------ kind 1
INSTANCE = """
from .base import BaseKVStorage


class Store(BaseKVStorage):
    def __init__(self, namespace, client):
        super().__init__(namespace=namespace)
        self.client = client
        self._kv_cache = {{}}
{extra}
    def get(self, id):
        got = self._kv_cache.get(id)
        if got is None:
            got = self.client.fetch(self.namespace, id)
            self._kv_cache[id] = got
        return got
"""


def test_namespace_fixed_at_construction_makes_the_instance_per_scope():
    assert lines(INSTANCE.format(extra=""), "CTX501") == []


@pytest.mark.parametrize("extra", [
    "    def use(self, namespace):\n        self.namespace = namespace\n",
    "    def use(self, ns):\n        setattr(self, 'namespace', ns)\n        self.namespace = ns\n",
])
def test_namespace_switched_by_a_setter_is_still_reported(extra):
    assert lines(INSTANCE.format(extra=extra), "CTX501") != []


def test_switch_in_a_same_file_base_counts():
    src = INSTANCE.format(extra="").replace("from .base import BaseKVStorage", """
class BaseKVStorage:
    def __init__(self, namespace):
        self.namespace = namespace

    def use(self, namespace):
        self.namespace = namespace
""")
    assert lines(src, "CTX501") != []


def test_module_cache_beside_a_per_scope_instance_is_still_reported():
    src = corpus("CTX501", "bad", "inherited_namespace_module_cache.py")
    assert lines(src, "CTX501") == [12]


@pytest.mark.parametrize("name", ["inherited_namespace_instance.py", "base_class_tenant_memo.py"])
def test_corpus_goods_need_the_construction_exemption(name, monkeypatch):
    src = corpus("CTX501", "good", name)
    assert lines(src, "CTX501") == []
    monkeypatch.setattr(cache_keys.CacheKeyFacts, "set_at_construction", lambda self, fn, attr: False)
    assert lines(src, "CTX501") != []


# ------------------------------------------------------------------ kind 2
@pytest.mark.parametrize("name", ["listing_of_stored_keys.py", "scan_of_stored_keys.py"])
def test_corpus_goods_need_the_listing_exemption(name, monkeypatch):
    src = corpus("CTX501", "good", name)
    assert lines(src, "CTX501") == []
    monkeypatch.setattr(cache_keys.CacheKeyFacts, "lists_stored_keys", lambda self, fn, e: False)
    assert lines(src, "CTX501") != []


def test_sync_loop_over_a_key_view_lists_keys():
    src = """
    def cached_prefix_keys(store, tenant_id):
        out = []
        for k in store.table.keys():
            out.append(k[1:])
        return out
    """
    assert lines(src, "CTX501") == []


@pytest.mark.parametrize("name,line", [("key_copied_from_parts.py", 13), ("scan_mixed_with_prompt.py", 13)])
def test_keys_built_from_walked_items_and_other_data_still_reported(name, line):
    assert lines(corpus("CTX501", "bad", name), "CTX501") == [line]


def test_listing_filled_with_a_parameter_is_a_key():
    src = """
    async def lookup_cache_keys(store, tenant_id, extra):
        keys = []
        async for doc in store.scan():
            keys.append(doc["_id"])
        keys.append(extra)
        return keys
    """
    assert lines(src, "CTX501") != []


# ------------------------------------------------------------------ kind 3
@pytest.mark.parametrize("name", ["contextvar_level_read_back.py", "attribute_slot_read_back.py"])
def test_corpus_goods_need_the_slot_read_back(name, monkeypatch):
    src = corpus("CTX505", "good", name)
    assert lines(src, "CTX505") == []
    monkeypatch.setattr("ctxlint.rules.python.ctx505_acquire_release_key_mismatch.reads_key_back",
                        lambda *a: False)
    assert lines(src, "CTX505") != []


@pytest.mark.parametrize("name,line", [("contextvar_other_var.py", 37), ("attribute_slot_other_value.py", 23)])
def test_other_slot_or_other_value_still_reported(name, line):
    assert lines(corpus("CTX505", "bad", name), "CTX505") == [line]


def test_attribute_slot_read_through_a_property():
    src = """
    import hashlib

    def _key(model, prompt):
        return hashlib.md5((model + prompt).encode()).hexdigest()

    class Active:
        def __init__(self):
            self.slots = {}
            self._active = None
            self._other = None

        @property
        def active(self):
            return self._active

        def begin(self, model, prompt, handle):
            key = _key(model, prompt)
            self._active = key
            self.slots[key] = handle

        def end(self):
            return self.slots.pop(self.active, None)
    """
    assert lines(src, "CTX505") == []
    # the property reads another attribute, which the acquire side never sets to its key
    assert lines(src.replace("return self._active\n", "return self._other\n"), "CTX505") != []


def test_slot_helpers_are_exported():
    assert callable(keys.reads_key_back)
