"""Targeted tests for the long-lived container fact and the retention/training rules
(CTX401-CTX406, CTX601) beyond the corpus cases: site classification, bounds, fix data,
and the false-positive guards found on real serving code."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ctxlint.config import Config
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.lint import lint
from ctxlint.rules import get_rule


def facts_of(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("t.py", src, ast.parse(src), Config())


def run(code: str, src: str):
    src = textwrap.dedent(src)
    return lint("t.py", src, [get_rule(code)], Config())


def lines(code: str, src: str) -> list[int]:
    return sorted(f.line for f in run(code, src) if f.code == code)


def container(facts: PythonFacts, name: str):
    found = [c for c in facts.containers if c.name == name]
    assert found, [c.name for c in facts.containers]
    return found[0]


# ------------------------------------------------------------ container fact

def test_sites_keys_and_methods():
    f = facts_of("""
        class Scheduler:
            def __init__(self):
                self.running = {}
                self.waiting = []
            def add(self, req):
                self.running[req.request_id] = req
                self.running.setdefault(req.rid, req)
                self.waiting.append(req)
            def finish(self, rid):
                del self.running[rid]
                return rid in self.running
            def reset(self):
                self.running.clear()
    """)
    c = container(f, "self.running")
    assert c.scope == "instance" and c.long_lived and c.kind == "dict"
    assert [(s.kind, ast.unparse(s.key), s.method_name) for s in c.inserts] == [
        ("subscript", "req.request_id", "add"), ("setdefault", "req.rid", "add")]
    assert [(s.kind, s.method_name) for s in c.removals] == [("del", "finish"), ("clear", "reset")]
    assert [s.kind for s in c.reads] == ["in"]
    w = container(f, "self.waiting")
    assert [(s.kind, s.key, ast.unparse(s.value)) for s in w.inserts] == [("append", None, "req")]
    assert f.container_at(c.inserts[0].node.value) is c


@pytest.mark.parametrize("ctor,bound", [
    ("cachetools.LRUCache(maxsize=8)", "maxsize"),
    ("weakref.WeakValueDictionary()", "weak"),
    ("collections.deque(maxlen=100)", "maxlen"),
    ("{}", None),
    ("collections.deque()", None),
])
def test_bounds(ctor, bound):
    f = facts_of(f"""
        import cachetools, weakref, collections
        REG = {ctor}
    """)
    assert container(f, "REG").bound == bound


def test_ordered_dict_with_popitem_is_lru():
    f = facts_of("""
        from collections import OrderedDict
        class PrefixCache:
            def __init__(self):
                self.entries = OrderedDict()
            def put(self, k, v):
                self.entries[k] = v
                if len(self.entries) > 10:
                    self.entries.popitem(last=False)
    """)
    assert container(f, "self.entries").bound == "lru"


def test_alias_inheritance_static_self_and_tuple_reassign():
    f = facts_of("""
        class BaseManager:
            def __init__(self):
                self.pending = []
                self.reqs = {}
        class MambaManager(BaseManager):
            def add(self, request_id):
                self.pending.append(request_id)
                reqs = self.reqs
                reqs[request_id] = 1
            def take(self):
                out, self.pending = self.pending, []
                return out
            @staticmethod
            def on_output(self, request_id):
                self.reqs.pop(request_id, None)
    """)
    pending = container(f, "self.pending")
    assert pending.owner.name == "BaseManager"
    assert [s.method_name for s in pending.inserts] == ["add"]
    assert [s.kind for s in pending.removals] == ["reassign"]
    reqs = container(f, "self.reqs")
    assert [s.method_name for s in reqs.inserts] == ["add"]          # through the alias
    assert [s.method_name for s in reqs.removals] == ["on_output"]   # staticmethod named self
    assert len([c for c in f.containers if c.attr == "pending"]) == 1


def test_module_container_shadowed_by_local_is_not_a_reference():
    f = facts_of("""
        CACHE = {}
        def a(user_id):
            CACHE = {}
            CACHE[user_id] = 1
        def b(user_id):
            CACHE[user_id] = 2
    """)
    assert [s.method_name for s in container(f, "CACHE").inserts] == ["b"]


def test_bound_method_handed_on_counts_as_removal():
    f = facts_of("""
        class TokenizerManager:
            def __init__(self):
                self.tasks = set()
            def spawn(self, lora_id, coro):
                t = make_task(coro)
                self.tasks.add(t)
                t.add_done_callback(self.tasks.discard)
    """)
    assert [s.kind for s in container(f, "self.tasks").removals] == ["discard"]


@pytest.mark.parametrize("cls", ["LLMEngine", "TokenizerManager", "KVCachePool", "MooncakeConnectorMetadata",
                                 "AuxiliaryTrainingWrapper", "Request"])
def test_lifetime_is_never_decided_by_the_class_name(cls):
    """Issue 32: the owner's lifetime comes from its allocation site. A class this module
    never allocates has an unknown lifetime (latent) whatever its name says."""
    f = facts_of(f"""
        class {cls}:
            def __init__(self):
                self.table = {{}}
    """)
    c = container(f, "self.table")
    assert (c.long_lived, c.lifetime) == (False, "unknown")


def test_instantiated_at_module_level_is_long_lived():
    f = facts_of("""
        class Registry2:
            def __init__(self):
                self.items = {}
        class Thing:
            def __init__(self):
                self.items = {}
        THING = Thing()
    """)
    assert all(c.long_lived for c in f.containers if c.owner.name == "Thing")


# ------------------------------------------------------------------ CTX401

def test_ctx401_fix_data_anchors_creation():
    (f,) = run("CTX401", """
        _AGENTS = {}
        def get_agent(user_id):
            if user_id not in _AGENTS:
                _AGENTS[user_id] = Agent(user_id)
            return _AGENTS[user_id]
    """)
    assert f.line == 5
    assert f.fix.codemod == "bounded_registry" and f.fix.safety == "unsafe"
    assert (f.fix.data["line"], f.fix.data["col"], f.fix.data["kind"]) == (2, 10, "weak")
    assert "user_id" in f.message


def test_ctx401_quiet_when_container_escapes_or_only_filled_at_setup():
    assert lines("CTX401", """
        _SESSIONS = {}
        def open_session(session_id, ws):
            _SESSIONS[session_id] = ws
        def sessions():
            return _SESSIONS
    """) == []
    assert lines("CTX401", """
        class ServingEngine:
            def __init__(self, adapters):
                self.adapters = {}
                for a in adapters:
                    self.adapters[a.adapter_id] = a
            def initialize(self, tenant_id):
                self.adapters[tenant_id] = None
    """) == []


def test_ctx401_sibling_removal_marks_per_request_key():
    assert lines("CTX401", """
        class MiniEngine:
            def __init__(self):
                self.groups = {}
                self.running = {}
            def submit(self, child):
                self.groups[child] = object()
                self.running[child] = []
            def finished(self, child):
                self.running.pop(child)
    """) == [7]


# ------------------------------------------------------------------ CTX402

def test_ctx402_fix_data_and_guards():
    (f,) = run("CTX402", """
        import functools
        class View:
            @functools.lru_cache(maxsize=8)
            def get(self, key):
                return key
        def view_for(block):
            return View()
    """)
    assert (f.line, f.fix.codemod, f.fix.data) == (4, "per_instance_cache", {"line": 4, "col": 5, "method": "get"})
    # ruff's B019 suppression is the same check already acknowledged
    assert lines("CTX402", """
        import functools
        class View:
            @functools.cache  # noqa: B019
            def get(self, key):
                return key
        views = [View() for _ in range(3)]
    """) == []
    # a decorator named `cache` that is not functools' is not this rule's business
    assert lines("CTX402", """
        from myapp.caching import cache
        class View:
            @cache
            def get(self, key):
                return key
        def view_for(block):
            return View()
    """) == []


# ------------------------------------------------------------------ CTX403

def test_ctx403_fix_anchor_and_setup_functions_quiet():
    (f,) = run("CTX403", """
        class Steer:
            def forward(self, x):
                self.model.register_forward_hook(lambda m, a, o: o * 2)
                return self.model(x)
    """)
    assert (f.line, f.fix.codemod, f.fix.data) == (4, "keep_hook_handle", {"line": 4, "col": 8})
    assert lines("CTX403", """
        def replace_projections(model):
            for name, mod in model.named_modules():
                mod.register_forward_hook(lambda m, a, o: o)
        def get_scheduler(optimizer, params):
            for p in params:
                p.register_post_accumulate_grad_hook(lambda t: None)
    """) == []


# ------------------------------------------------------------------ CTX404

def test_ctx404_private_phases_and_non_scope_keys_are_quiet():
    assert lines("CTX404", """
        class SessionClient:
            def __init__(self):
                self.loads = {}
                self.lookups = {}
            def start(self, request_id):
                self.loads[request_id] = 1
                self.lookups[request_id] = 1
            def finish(self, request_id):
                self.loads.pop(request_id, None)
                self.lookups.pop(request_id, None)
            def _finish_load(self, request_id):
                self.loads.pop(request_id, None)
    """) == []
    assert lines("CTX404", """
        class SocketPool:
            def __init__(self):
                self.socks = {}
                self.locks = {}
            def connect(self, endpoint):
                self.socks[endpoint] = 1
                self.locks[endpoint] = 1
            def close(self, endpoint):
                self.socks.pop(endpoint)
                self.locks.pop(endpoint)
            def abort(self, endpoint):
                self.socks.pop(endpoint)
    """) == []


def test_ctx404_reports_the_leaving_terminal_method():
    assert lines("CTX404", """
        class Engine:
            def __init__(self):
                self.reqs = {}
                self.streams = {}
            def add(self, request_id):
                self.reqs[request_id] = 1
                self.streams[request_id] = 1
            def finish(self, request_id):
                self.reqs.pop(request_id)
                self.streams.pop(request_id)
            def on_timeout(self, request_id):
                self.reqs.pop(request_id)
    """) == [12]


# ------------------------------------------------------------------ CTX405/406

def test_ctx405_quiet_without_use_in_loop():
    assert lines("CTX405", """
        def load_all(model, paths):
            for name, p in paths.items():
                model.load_adapter(p, adapter_name=name)
    """) == []


def test_ctx406_autograd_function_ctx_is_quiet():
    assert lines("CTX406", """
        import torch
        class Fn(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, causal):
                ctx.causal = causal
                ctx.saved = x
                return x
    """) == []


# ------------------------------------------------------------------ CTX601

def test_ctx601_fix_data():
    (f,) = run("CTX601", """
        def train(model, loader, optimizer):
            total = 0.0
            for b in loader:
                loss = model(**b).loss
                loss.backward()
                optimizer.step()
                total += loss
    """)
    assert (f.line, f.fix.codemod, f.fix.data) == (8, "detach_accumulation", {"line": 8, "col": 17, "method": "item"})


def test_ctx601_false_positive_guards():
    # the callee already detaches (transformers' Trainer.training_step); self-rescaling adds no graph
    assert lines("CTX601", """
        class T:
            def training_step(self, model, inputs):
                loss = model(**inputs).loss
                loss.backward()
                return loss.detach()
            def loop(self, model, loader, optimizer):
                for inputs in loader:
                    tr_loss_step = self.training_step(model, inputs)
                    optimizer.step()
                    self.tr_loss += tr_loss_step
                    self.tr_loss += self.tr_loss / 2
    """) == []
    # an inference engine's step() is not an optimizer step
    assert lines("CTX601", """
        def run(llm_engine, outputs):
            while llm_engine.has_unfinished_requests():
                for output in llm_engine.step():
                    outputs.append(output)
    """) == []


def test_rules_survive_odd_code():
    src = """
        class A(metaclass=M, **kw):
            x: int
            def f(*, self=None): self.d[k] = v
            @staticmethod
            def g(): pass
        def forward(): pass
        for x in y: z += x; z.append(); q = q + w
        del a[b], c.d
        (lambda self: self.x.append(1))
        x = [*y] = z = {}
        x[1] += 2
    """
    for code in ("CTX401", "CTX402", "CTX403", "CTX404", "CTX405", "CTX406", "CTX601"):
        assert run(code, src) == [], code  # nothing here retains a request, adapter or graph


def test_ctx402_maxsize_one_is_bounded():
    assert lines("CTX402", """
        from functools import lru_cache
        class Platform:
            @lru_cache(maxsize=1)
            def is_cuda(self) -> bool:
                return True
            @lru_cache(maxsize=2)
            def device_name(self, idx: int) -> str:
                return str(idx)
        def platform_for(rank):
            return Platform()
    """) == [7]


def test_ctx401_register_per_request_is_reported_but_register_model_is_not():
    assert lines("CTX401", """
        class StreamManager:
            def __init__(self):
                self.streams = {}
                self.models = {}
            def register_stream(self, request_id, stream):
                self.streams[request_id] = stream
            def register_model(self, name, model_cls):
                self.models[name] = model_cls
    """) == [7]


def test_ctx401_request_time_load_adapter_is_reported_but_load_model_is_not():
    """`load_adapter()` runs whenever a request names a new adapter (vLLM's LoRA manager);
    `load_model()`/`load_weights()` run once at start-up."""
    src = """
        class AdapterManager:
            def __init__(self, base_model):
                self.base_model = base_model
                self._by_digest = {}
                self._models = {}
            def load_adapter(self, name, weights_digest):
                adapter = self._by_digest.get(weights_digest)
                if adapter is None:
                    adapter = LoraAdapter(name, weights_digest).to("cpu")
                    self._by_digest[weights_digest] = adapter
                return adapter
            def load_model(self, name, path):
                self._models[name] = torch.load(path)
    """
    (f,) = run("CTX401", src)
    assert f.line == 11 and "load_adapter()" in f.message
    # `LoraAdapter(...).to(device)` is an object: a weak registry frees deleted adapters
    assert f.fix.data["kind"] == "weak"


@pytest.mark.parametrize("value, kind", [
    ("LoRAModel(adapter_id)", "weak"),
    ("build_graph(adapter_id).to('cuda')", "weak"),
    ("compile_agent(adapter_id)", "weak"),
    ("self.engine.create_client(adapter_id)", "weak"),
    ("model", "weak"),                            # a local bound below from a constructor
    ("f'adapter={adapter_id}'", "lru"),
    ("(adapter_id, 1)", "lru"),
    ("hashlib.sha256(adapter_id.encode()).hexdigest()", "lru"),
    ("[1, 2, 3]", "lru"),
    ("len(adapter_id)", "lru"),
])
def test_ctx401_fix_kind_follows_the_value(value, kind):
    (f,) = run("CTX401", f"""
        _REG = {{}}
        def serve(request, adapter_id):
            model = Adapter(adapter_id)
            _REG[request.request_id] = {value}
    """)
    assert f.fix.data["kind"] == kind, value


@pytest.mark.parametrize("value, reported", [
    ("compile_agent(integration_id, user_id)", True),   # gaia#706: heavy state built per user
    ("LoraAdapter(name, user_id).to('cpu')", True),     # a method chain on built state
    ("graph", True),                                     # a local bound from such a call
    ("user", False),                                     # the caller's own object
    ("{}", False),                                       # an empty row
    ("str(user_id)", False),                             # a data copy
])
def test_ctx401_population_keys_need_state_built_for_the_id(value, reported):
    """A user/tenant/adapter-keyed container grows with the population, not with traffic:
    it is reported when each entry is state built for that id, not a copy of a field."""
    got = run("CTX401", f"""
        _BY_USER = {{}}
        def handle(user, user_id, integration_id, name):
            graph = compile_agent(integration_id, user_id)
            _BY_USER[user_id] = {value}
    """)
    assert bool(got) == reported, value


def test_ctx401_fresh_object_keys_and_construction_only_helpers():
    src = '''
        import uuid
        _HANDLERS = {}
        _ROUTES = {}
        class Handler: ...
        def stream(text):
            h = Handler()
            _HANDLERS[h.uid] = h
        def pending(text):
            _HANDLERS[str(uuid.uuid4())] = text
        class Api:
            def __init__(self, path, namespace):
                self._resolve(path, namespace)
            def _resolve(self, path, namespace):
                _ROUTES[namespace] = path
    '''
    got = run("CTX401", src)
    # both `_HANDLERS` insertions are per call (a fresh object's id, a uuid); `_ROUTES`
    # is filled by a helper only `__init__` calls
    assert [f.line for f in got] == [8]


def test_ctx401_containers_filled_together_are_one_finding():
    got = run("CTX401", '''
        class LoraManager:
            def __init__(self):
                self.adapters = {}
                self.paths = {}
                self.alphas = {}
            def load_lora_adapter(self, nickname, path, alpha):
                self.adapters[nickname] = prepare_lora_adapter(path)
                self.paths[nickname] = load_adapter_record(path)
                self.alphas[nickname] = make_adapter_alpha(alpha)
    ''')
    assert len(got) == 1 and got[0].line == 8
    assert "`self.paths`" in got[0].message and "`self.alphas`" in got[0].message


def test_ctx401_task_set_emptied_by_done_callback_is_quiet():
    """What the CTX107 fix writes: the set is emptied by the bound `.discard` it hands
    to `add_done_callback` (a removal path, not an escape)."""
    src = """
        import asyncio
        _background_tasks: set = set()

        async def handle(request_id):
            await asyncio.sleep(0)

        class Frontend:
            def on_request(self, request_id):
                task = asyncio.create_task(handle(request_id))
                _background_tasks.add(task)
                task.add_done_callback(_background_tasks.discard)
    """
    assert lines("CTX401", src) == []
    # the same set without the callback is reported
    assert lines("CTX401", src.replace("task.add_done_callback(_background_tasks.discard)", "pass")) == [11]


def test_ctx401_quiet_after_the_ctx107_fix_on_the_corpus():
    """Re-lint every CTX107 bad case after its fix: the `_background_tasks` set the fix
    adds must not become a CTX401 finding."""
    from pathlib import Path

    from ctxlint import fixers
    cases = sorted((Path(__file__).resolve().parent.parent / "corpus" / "CTX107" / "bad").glob("*.py"))
    assert cases
    for path in cases:
        text = path.read_text(encoding="utf-8")
        findings = lint(str(path), text, [get_rule("CTX107")], Config())
        assert findings, path.name
        if not any(f.fixable for f in findings):
            continue  # a discarded comprehension of tasks has no codemod
        fixed = fixers.fix_text(str(path), text, "python", findings, unsafe=False)
        assert "_background_tasks.discard" in fixed, path.name
        assert [f for f in lint(str(path), fixed, [get_rule("CTX401")], Config())] == [], path.name


# ------------------------------------------------ value facts (issue 11/13)

def test_registry_class_is_long_lived_by_its_keys_not_its_name():
    f = facts_of("""
        class N1:
            def __init__(self):
                self.a = {}
            def put(self, k, v):
                self.a[k] = v
            def take(self, k):
                return self.a.pop(k)
    """)
    assert container(f, "self.a").long_lived
    g = facts_of("""
        class N1:
            def __init__(self, k):
                self.a = {}
                self.a[k] = 1
    """)
    assert not container(g, "self.a").long_lived


@pytest.mark.parametrize("maxsize,words", [
    ("maxsize=2", "up to 2 entries"), ("maxsize=None", "no bound"), ("", "up to 128 entries")])
def test_ctx402_message_states_the_bound(maxsize, words):
    src = f"""
        import functools
        class V:
            @functools.lru_cache({maxsize})
            def get(self, k):
                return k
        def view_for(block):
            return V()
    """
    got = run("CTX402", src)
    assert len(got) == 1 and words in got[0].message
    assert "every instance stays alive in it" not in got[0].message


def test_ctx403_bound_method_on_callers_model_vs_owned_model():
    bad = """
        class Rec:
            def __init__(self, model):
                mods = dict(model.named_modules())
                mods["x"].register_forward_hook(self._rec)
            def _rec(self, m, a, out):
                self.last = out
    """
    assert lines("CTX403", bad) == [5]
    owned = bad.replace("mods = dict", "self.model = model\n                mods = dict")
    assert lines("CTX403", owned) == []


def test_ctx601_helper_returning_backward_loss():
    src = """
        class T:
            def one(self, b):
                e = self.net(b)
                e.backward()
                return e
            def go(self, bs):
                s = 0
                for b in bs:
                    s += self.one(b)
                return s
    """
    assert lines("CTX601", src) == [10]
    assert lines("CTX601", src.replace("return e", "return e.detach()")) == []


def test_ctx404_marked_finished_without_removal():
    src = """
        class E:
            def __init__(self):
                self.t = {}
            def add(self, rid):
                self.t[rid] = object()
            def done(self, rid):
                e = self.t.pop(rid)
                e.state = "done"
            def halt(self, rid):
                e = self.t[rid]
                e.state = "done"
    """
    assert lines("CTX404", src) == [10]
