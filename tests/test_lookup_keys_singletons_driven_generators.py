"""Round-12 misreads fixed as kinds (CTX401, CTX402, CTX109).

* CTX401: a key bound from a lookup of another container (`w = self._req_worker.pop(req_id)`)
  is that container's value, followed into what the container stores, never into the
  lookup key (`registries.container_lookup`; aibrix vipe_engine `_respawn_counts`).
* CTX402: a construction under `if <global or class slot> is None:` (a lock and a second
  check allowed) stored into that slot is a lazily built singleton
  (`instances.lazy_singleton`; mlflow workspace store registry).
* CTX109: a generator httpx drives inside one `send()` (an `httpx.Auth` auth-flow
  override, or a generator such an override only returns) never crosses a Context
  (`driven.library_driven`; fastmcp client-credentials step-up flow).
"""
import ast
import textwrap
from pathlib import Path

from ctxlint.config import Config
from ctxlint.rules.python.ctx109_contextvar_reset_across_yield import ContextVarResetAcrossYield
from ctxlint.rules.python.ctx401_unbounded_registry import UnboundedRegistry
from ctxlint.rules.python.ctx402_cached_method_holds_self import CachedMethodHoldsSelf
from ctxlint.semantic.python import driven
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.instances import lazy_singleton
from ctxlint.semantic.python.registries import container_lookup

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("case.py", src, ast.parse(src), Config())


def _lines(rule, src):
    return sorted(f.line for f in rule.check(_facts(src)))


def _file_lines(rule, rel):
    p = CORPUS / rel
    src = p.read_text()
    return sorted(f.line for f in rule.check(PythonFacts(str(p), src, ast.parse(src), Config())))


def _fn(facts, name):
    return next(n for n in ast.walk(facts.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name == name)


# ---------------------------------------------------------------- CTX401

def test_ctx401_key_from_lookup_is_the_stored_value():
    assert _file_lines(UnboundedRegistry(), "CTX401/good/counts_keyed_by_looked_up_worker.py") == []
    assert _file_lines(UnboundedRegistry(), "CTX401/good/shard_stats_from_lookup.py") == []


def test_ctx401_lookup_of_request_ids_still_fires():
    assert _file_lines(UnboundedRegistry(), "CTX401/bad/counts_keyed_by_looked_up_request.py") == [24]


def test_container_lookup_reads_pop_get_and_subscript():
    f = _facts("""
        class Engine:
            def __init__(self):
                self.m = {}
            def put(self, k, v):
                self.m[k] = v
            def read(self, k):
                a = self.m.get(k)
                b = self.m.pop(k, None)
                c = self.m[k]
                d = other(k)
                return a, b, c, d
    """)
    values = [n.value for n in ast.walk(_fn(f, "read")) if isinstance(n, ast.Assign)]
    assert [container_lookup(f, v) is not None for v in values] == [True, True, True, False]


# ---------------------------------------------------------------- CTX402

def test_ctx402_lazy_singletons_are_one_instance():
    assert _file_lines(CachedMethodHoldsSelf(), "CTX402/good/double_checked_global_registry.py") == []
    assert _file_lines(CachedMethodHoldsSelf(), "CTX402/good/class_slot_built_via_local.py") == []


def test_ctx402_guard_without_store_still_fires():
    assert _file_lines(CachedMethodHoldsSelf(), "CTX402/bad/guarded_but_not_stored.py") == [10]


def test_lazy_singleton_needs_the_guarded_slot():
    f = _facts("""
        _g = None
        def a():
            global _g
            if _g is None:
                x = Thing()
                _g = x
            return _g
        def b(cfg):
            global _g
            if cfg is None:
                x = Thing()
                _g = x
            return _g
        def c():
            global _g
            x = Thing()
            if _g is None:
                _g = x
            return _g
    """)
    got = {}
    for name in ("a", "b", "c"):
        fn = _fn(f, name)
        call = next(n for n in ast.walk(fn) if isinstance(n, ast.Call))
        got[name] = lazy_singleton(f, call, fn)
    assert got == {"a": True, "b": False, "c": False}


# ---------------------------------------------------------------- CTX109

def test_ctx109_httpx_driven_auth_flows_are_silent():
    assert _file_lines(ContextVarResetAcrossYield(), "CTX109/good/httpx_auth_flow_override.py") == []
    assert _file_lines(ContextVarResetAcrossYield(), "CTX109/good/auth_flow_returns_wrapping_generator.py") == []


def test_ctx109_near_misses_still_fire():
    assert _file_lines(ContextVarResetAcrossYield(), "CTX109/bad/auth_wrapper_also_streamed.py") == [12]
    assert _file_lines(ContextVarResetAcrossYield(), "CTX109/bad/auth_flow_on_plain_class.py") == [13]


def test_library_driven_resolves_the_base_by_import():
    f = _facts("""
        from mcp.client.auth import OAuthClientProvider as Base
        import httpx as hx

        class P(Base):
            def async_auth_flow(self, request):
                yield request
            def other_flow(self, request):
                yield request

        class Q(hx.Auth):
            def sync_auth_flow(self, request):
                yield request

        class R:
            def auth_flow(self, request):
                yield request
    """)
    assert driven.library_driven(f, _fn(f, "async_auth_flow")) == "mcp.client.auth.OAuthClientProvider.async_auth_flow"
    assert driven.library_driven(f, _fn(f, "sync_auth_flow")) == "httpx.Auth.sync_auth_flow"
    assert driven.library_driven(f, _fn(f, "other_flow")) is None
    assert driven.library_driven(f, _fn(f, "auth_flow")) is None
