"""Bounded key domains, per-invocation owners and in-order eviction
(`key_domains.bounded_key_domain`, `containers` `per_invocation`,
`registries.evicts_oldest`; the CTX401/CTX108 boundaries they draw)."""
import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules.python.ctx108_registration_not_cancellation_safe import RegistrationNotCancellationSafe
from ctxlint.rules.python.ctx401_unbounded_registry import UnboundedRegistry
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.key_domains import bounded_key_domain, bounded_key_set, fixed_value
from ctxlint.semantic.python.registries import evicts_oldest


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("case.py", src, ast.parse(src), Config())


def _container(facts, name):
    return next(c for c in facts.containers if c.name == name)


def _bounded(src: str, name: str) -> list[bool]:
    f = _facts(src)
    c = _container(f, name)
    return [bounded_key_domain(f, c, s) for s in c.inserts]


def test_constant_and_module_constant_keys():
    assert _bounded("""
        from .fields import REQUEST_ID_FIELD
        ROUTE = "route"
        class Server:
            def __init__(self):
                self.ctx = {}
            def log(self, r):
                self.ctx[ROUTE] = r.route
                self.ctx[REQUEST_ID_FIELD] = r.rid
                self.ctx[(ROUTE, "x")] = 1
    """, "self.ctx") == [True, True, True]


def test_module_name_rebound_by_global_is_not_fixed():
    assert _bounded("""
        CURRENT = None
        class Server:
            def __init__(self):
                self.ctx = {}
            def start(self, rid):
                global CURRENT
                CURRENT = rid
                self.ctx[CURRENT] = 1
    """, "self.ctx") == [False]


def test_attribute_of_from_import_is_not_fixed():
    """`from flask import g`: an attribute of a name bound by `from ... import` may be a
    per-request proxy; an attribute of a module bound by `import` is a constant."""
    assert _bounded("""
        import constants
        from flask import g
        _C = {}
        def f():
            _C[constants.KEY] = 1
            _C[g.user_id] = 2
    """, "_C") == [True, False]


def test_loop_over_range_literal_and_enum():
    assert _bounded("""
        from enum import Enum
        class Phase(Enum):
            A = "a"
            B = "b"
        KINDS = ("cpu", "gpu")
        class Pool:
            def __init__(self, n):
                self.n = n
                self.t = {}
            def fill(self, items):
                for i in range(self.n):
                    self.t[i] = 0
                for k in KINDS:
                    self.t[k] = 0
                for p in Phase:
                    self.t[p.value] = 0
                for x in items:
                    self.t[x] = 0
    """, "self.t") == [True, True, True, False]


def test_module_collection_grown_by_a_def_is_not_bounded():
    assert _bounded("""
        WATCHED = []
        _T = {}
        def add(x):
            WATCHED.append(x)
        def scan():
            for w in WATCHED:
                _T[w] = 1
    """, "_T") == [False]


def test_private_thread_target_with_fixed_args_only():
    src = """
        import threading
        class Watcher:
            def __init__(self, api, name):
                self.api = api
                self.name = name
                self.v = {}
            def start(self):
                targets = [("Cluster", self.name)]
                targets.append(("Job", self.name))
                for kind, name in targets:
                    threading.Thread(target=self._watch, args=(kind, name)).start()
            def _watch(self, kind, name):
                self.v[f"{kind}/{name}"] = None
    """
    assert _bounded(src, "self.v") == [True]
    # a public caller passing its own arguments makes the parameter unbounded
    assert _bounded(src + """
            def watch(self, kind, name):
                self._watch(kind, name)
    """, "self.v") == [False]
    # a list grown in a loop holds as many targets as the loop runs
    assert _bounded(src.replace('targets.append(("Job", self.name))',
                                'for j in self.api.jobs():\n                    targets.append(("Job", j))'),
                    "self.v") == [False]


def test_private_helper_called_with_constant_and_default():
    assert _bounded("""
        class Cache:
            def __init__(self):
                self.t = {}
            def _put(self, kind, v, slot="main"):
                self.t[(kind, slot)] = v
            def a(self, v):
                self._put("a", v)
            def b(self, v):
                self._put("b", v, slot="side")
    """, "self.t") == [True]


def test_checked_against_fixed_set():
    assert _bounded("""
        KINDS = frozenset({"cpu", "gpu"})
        class Meter:
            def __init__(self):
                self.u = {}
            def report(self, kind, x):
                if kind not in KINDS:
                    raise ValueError(kind)
                self.u[kind] = x
            def maybe(self, kind, x):
                if kind in KINDS and x > 0:
                    self.u[kind] = x
            def any_kind(self, kind, x):
                if kind in KINDS or x > 0:
                    self.u[kind] = x
    """, "self.u") == [True, True, False]


def test_strict_index_of_bounded_key_set():
    src = """
        class Coord:
            def __init__(self, n):
                self.rows = dict.fromkeys(range(n), 0)
                self.pre = {}
            def get(self, idx, b):
                try:
                    self.pre[idx] = b
                    self.rows[idx] += 1
                finally:
                    self.pre[idx] = 0
            def guarded(self, idx, b):
                self.pre[idx] = b
                if idx in self.rows:
                    self.rows[idx] += 1
    """
    f = _facts(src)
    assert bounded_key_set(f, _container(f, "self.rows"))
    assert _bounded(src, "self.pre") == [True, True, False]


def test_key_set_grown_under_a_per_call_key_is_not_bounded():
    f = _facts("""
        class Coord:
            def __init__(self, n):
                self.rows = dict.fromkeys(range(n), 0)
            def add(self, rid):
                self.rows[rid] = 0
    """)
    assert not bounded_key_set(f, _container(f, "self.rows"))


def test_augassign_on_plain_dict_adds_no_key_but_defaultdict_does():
    assert _bounded("""
        from collections import defaultdict
        class C:
            def __init__(self):
                self.a = {}
                self.b = defaultdict(int)
            def hit(self, rid):
                self.a[rid] += 1
                self.b[rid] += 1
    """, "self.a") == [True]
    assert _bounded("""
        from collections import defaultdict
        class C:
            def __init__(self):
                self.b = defaultdict(int)
            def hit(self, rid):
                self.b[rid] += 1
    """, "self.b") == [False]


def test_fixed_value_receiver_attribute_set_at_construction():
    f = _facts("""
        class C:
            def __init__(self, name):
                self.name = name
                self.t = {}
            def touch(self, rid):
                self.t[self.name] = rid
                self.cur = rid
                self.t[self.cur] = rid
    """)
    c = _container(f, "self.t")
    assert [bounded_key_domain(f, c, s) for s in c.inserts] == [True, False]
    fn = c.inserts[0].function
    assert not fixed_value(f, c.inserts[0].key, fn)  # without the owner: one value per object only


def test_counter_attribute_is_not_fixed():
    """`self._next_id += 1; rid = self._next_id`: a counter set to 0 at construction
    takes a new value per call (praisonaiagents' LSP client `_send_request`)."""
    assert _bounded("""
        class Client:
            def __init__(self):
                self._next_id = 0
                self._pending = {}
            def send(self):
                self._next_id += 1
                rid = self._next_id
                self._pending[rid] = object()
            def unpack(self, a, b):
                self._a, self._b = a, b
                self._pending[self._a] = 1
    """, "self._pending") == [False, False]


def test_per_invocation_owner_is_not_long_lived():
    src = """
        from dataclasses import dataclass, field
        @dataclass
        class Q:
            delivered: set = field(default_factory=set)
            keys: set = field(default_factory=set)
            def put(self, k):
                self.delivered.add(k)
                self.keys.add(k)
            def take(self, k):
                self.keys.discard(k)
        class Listener:
            def __init__(self):
                self._qs = {}
            def on(self, run, k):
                q = self._qs[run] if run in self._qs else Q()
                q.put(k)
                self._qs[run] = q
            def forget(self, run):
                self._qs.pop(run, None)
    """
    f = _facts(src)
    d = _container(f, "self.delivered")
    assert d.per_invocation and not d.long_lived
    assert list(UnboundedRegistry().check(f)) == []
    # kept elsewhere as well: some instance outlives its entry
    f = _facts(src.replace("self._qs[run] = q", "self._qs[run] = q\n                self.last = q"))
    d = _container(f, "self.delivered")
    assert not d.per_invocation and d.long_lived
    assert [x.line for x in UnboundedRegistry().check(f)] == [8]
    # a holder that never drops entries keeps every instance
    f = _facts(src.replace("self._qs.pop(run, None)", "pass"))
    assert not _container(f, "self.delivered").per_invocation


def test_evicts_oldest_by_age_or_size_not_a_drain():
    f = _facts("""
        import time
        class T:
            def __init__(self):
                self.done = {}
                self.recent = {}
                self.log = {}
            def sweep(self):
                cutoff = time.monotonic() - 60
                while self.done:
                    k, ts = next(iter(self.done.items()))
                    if ts > cutoff:
                        break
                    self.done.pop(k, None)
            def add(self, k):
                self.recent[k] = 1
                if len(self.recent) > 10:
                    del self.recent[next(iter(self.recent))]
            def close(self):
                while self.log:
                    k = next(iter(self.log))
                    self.log.pop(k)
    """)
    assert evicts_oldest(f, _container(f, "self.done")) == "ttl"
    assert evicts_oldest(f, _container(f, "self.recent")) == "lru"
    assert evicts_oldest(f, _container(f, "self.log")) is None


def test_ctx108_fixed_key_handoff_silent_but_own_removal_reported():
    src = """
        class ReplicaServer:
            FIELD = "request_id"
            def __init__(self, user, n):
                self.user = user
                self.n = n
                self.ctx = {}
                self.busy = {}
            def reset(self):
                self.ctx = {}
            async def handle(self, request_slot, req):
                self.ctx[request_slot] = req
                return await self.user.call(request_slot, req)
            async def run(self, req):
                for request_slot in range(self.n):
                    self.busy[request_slot] = req
                    await self.user.call(request_slot, req)
                    del self.busy[request_slot]
                    self.ctx[request_slot] = req
                    await self.user.call(request_slot, req)
    """
    lines = sorted(x.line for x in RegistrationNotCancellationSafe().check(_facts(src)))
    # `handle`: a parameter of a public method is no bounded key; `run`: the slot's own
    # removal is skipped by a cancellation (reported), the overwritten fixed slot is not
    assert lines == [12, 16]
