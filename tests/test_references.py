"""Targeted tests of the reference rules (CTX203 request-context-in-global, CTX204
thread-local-in-async, CTX205 long-lived-task-inherits-request-context), CTX206
context-not-propagated (Python half), CTX407 actor-state-not-picklable and its
codemod, the semantic facts they read (requests, asyncness, picklability), and the
registry's one-code-per-language dispatch. Beyond the corpus: renamed identifiers,
what is *not* request data / an executor / a generic runner, fixes that re-lint clean."""

from __future__ import annotations

import pickle
import textwrap
import types

import pytest

from ctxlint import fixers
from ctxlint.config import Config
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.rules import Rule, all_rules, facts_language, select_rules

CODES = ["CTX203", "CTX204", "CTX205", "CTX206", "CTX407"]


def lint(src: str, codes=CODES):
    """Findings of the given rules on a source string (no suppression, no prefilter)."""
    return py_lint.lint("t.py", textwrap.dedent(src), select_rules(list(codes), []), Config())


def found(src: str, codes=CODES) -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in lint(src, codes)}


def fixed(src: str, codes=CODES, unsafe: bool = False) -> str:
    src = textwrap.dedent(src)
    fs = lint(src, codes)
    return fixers.fix_text("t.py", src, "python", fs, unsafe=unsafe, rules=select_rules(list(codes), []),
                           config=Config())


# ---------------------------------------------------------------- CTX203
def test_ctx203_client_built_from_headers_behind_or_with_renamed_names():
    src = """\
    from starlette.requests import Request

    n2 = None

    class n1:
        def __init__(self, k):
            self.k = k

    async def n4(request: Request):
        global n2
        n2 = n2 or n1(request.headers["x-api-key"])
        return n2
    """
    assert found(src) == {(11, "CTX203")}


def test_ctx203_endpoint_registered_by_route_without_annotation():
    src = """\
    from starlette.routing import Route

    _seen = None

    async def handler(r):
        global _seen
        _seen = r
        return None

    routes = [Route("/x", handler)]
    """
    assert found(src) == {(7, "CTX203")}


def test_ctx203_depends_parameter_and_app_state():
    src = """\
    from fastapi import Depends, Request

    _user = None
    _model = None

    def current_user():
        return {}

    async def me(request: Request, user=Depends(current_user)):
        global _user, _model
        _user = user
        _model = request.app.state.model
        return {}
    """
    assert found(src) == {(11, "CTX203")}


def test_ctx203_plain_request_data_in_registry_is_not_a_context_leak():
    src = """\
    from fastapi import Request

    _paths: list = []

    async def log(request: Request):
        _paths.append(request.url.path)
        _paths.append(f"{request.method} {request.url}")
    """
    assert found(src) == set()


def test_ctx203_unannotated_parameter_of_plain_function_is_not_a_request():
    src = """\
    _last = None

    def remember(request):
        global _last
        _last = request
    """
    assert found(src) == set()


# ---------------------------------------------------------------- CTX204
def test_ctx204_helper_called_only_from_async_and_self_local():
    src = """\
    import threading

    _state = threading.local()

    def _tenant():
        return _state.tenant

    async def handle(t):
        _state.tenant = t
        return _tenant()

    def worker():
        return _state.tenant
    """
    assert found(src) == {(6, "CTX204"), (9, "CTX204")}


def test_ctx204_async_only_functions_moved_to_semantic():
    import ast

    from ctxlint.semantic.python.asyncness import async_only_functions, runs_on_loop
    from ctxlint.semantic.python.facts import PythonFacts
    src = "def a():\n    pass\n\ndef b():\n    pass\n\nasync def m():\n    a()\n\ncb = b\n"
    tree = ast.parse(src)
    facts = PythonFacts("t.py", src, tree, Config())
    a, b = tree.body[0], tree.body[1]
    assert id(a) in async_only_functions(facts) and id(b) not in async_only_functions(facts)
    assert runs_on_loop(facts, a) and not runs_on_loop(facts, b) and not runs_on_loop(facts, None)


# ---------------------------------------------------------------- CTX205
def test_ctx205_background_loop_started_by_request_and_context_kwarg():
    src = """\
    import asyncio
    import contextvars

    class n1:
        def __init__(self):
            self.n2 = None

        async def n3(self):
            while True:
                await asyncio.sleep(1)

        async def add_request(self, request_id):
            if self.n2 is None:
                self.n2 = asyncio.create_task(self.n3())

        async def add_request2(self, request_id):
            self.n2 = asyncio.create_task(self.n3(), context=contextvars.Context())
    """
    assert found(src) == {(14, "CTX205")}


def test_ctx205_loop_receiver_by_value_not_name():
    src = """\
    import asyncio

    class Engine:
        def __init__(self):
            self.n9 = asyncio.get_event_loop()
            self.t = None

        async def bg(self):
            while True:
                await asyncio.sleep(1)

        async def generate(self, request_id):
            self.t = self.n9.create_task(self.bg())
    """
    assert found(src) == {(13, "CTX205")}


# ---------------------------------------------------------------- CTX206
R04 = """\
import asyncio
import contextvars

from opentelemetry import trace

tracer = trace.get_tracer(__name__)
n1 = contextvars.ContextVar("tenant_id")


def n2(text):
    return [n1.get(), text]


async def n3(text, tenant):
    token = n1.set(tenant)
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, n2, text)
    finally:
        n1.reset(token)
"""


def test_ctx206_executor_job_reads_contextvar_renamed_and_fix_relints_clean():
    assert found(R04) == {(18, "CTX206")}
    out = fixed(R04)
    assert "loop.run_in_executor(None, contextvars.copy_context().run, n2, text)" in out
    assert found(out) == set()


def test_ctx206_fix_adds_the_import_when_missing():
    src = """\
    from concurrent.futures import ThreadPoolExecutor

    def run(pool: ThreadPoolExecutor, fn, *args):
        return pool.submit(fn, *args)
    """
    out = fixed(src)
    assert out.startswith("import contextvars\nfrom concurrent.futures")
    assert "pool.submit(contextvars.copy_context().run, fn, *args)" in out
    assert found(out) == set()


def test_ctx206_to_thread_copy_context_and_pure_job_are_silent():
    src = """\
    import asyncio
    import contextvars
    import functools

    v = contextvars.ContextVar("v")

    def reads():
        return v.get()

    def pure(x):
        return x * 2

    async def a(x):
        v.set(x)
        loop = asyncio.get_running_loop()
        await asyncio.to_thread(reads)
        ctx = contextvars.copy_context()
        await loop.run_in_executor(None, ctx.run, reads)
        await loop.run_in_executor(None, functools.partial(contextvars.copy_context().run, reads))
        return await loop.run_in_executor(None, pure, x)
    """
    assert found(src) == set()


def test_ctx206_job_reading_a_var_set_upstream_is_reported():
    # the caller sets nothing itself: the var is set upstream (a middleware); the job
    # reading it is the evidence (hB: the rule's claim, tuning set unchanged by it)
    src = """\
    import asyncio
    import contextvars

    v = contextvars.ContextVar("v")

    def reads():
        return v.get()

    async def a():
        return await asyncio.get_running_loop().run_in_executor(None, reads)
    """
    assert found(src) == {(10, "CTX206")}


def test_ctx206_generic_runner_needs_forwarded_arguments():
    src = """\
    from concurrent.futures import ThreadPoolExecutor

    _pool = ThreadPoolExecutor()

    def run_any(fn, *args, **kwargs):
        return _pool.submit(fn, *args, **kwargs)

    def thunk(job):
        return _pool.submit(job)

    def process(items, step):
        batch = [i for i in items if i]
        return _pool.submit(step, batch)

    def start_all(start, n):
        def one(rank):
            return start(rank)
        return [_pool.submit(one, r) for r in range(n)]
    """
    assert found(src) == {(6, "CTX206"), (9, "CTX206")}


def test_ctx206_submit_on_non_executor_and_process_pool_is_silent():
    src = """\
    from concurrent.futures import ProcessPoolExecutor

    def a(form, handler):
        return form.submit(handler)

    def b(fn, x):
        with ProcessPoolExecutor() as pool:
            return pool.submit(fn, x)
    """
    assert found(src) == set()


def test_ctx206_job_that_reapplies_values_is_propagation():
    src = """\
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    tv = contextvars.ContextVar("t")

    class n1:
        def __init__(self):
            self.p = [(tv, tv.get())]

        def __enter__(self):
            self.n5()
            return self

        def n5(self):
            for var, value in self.p:
                var.set(value)

        def __exit__(self, *exc):
            pass

    def run(pool: ThreadPoolExecutor, fn, *args):
        c = n1()

        def job():
            with c:
                return fn(*args)

        return pool.submit(job)
    """
    assert found(src, ["CTX206"]) == set()


def test_ctx206_span_opened_in_job_under_current_span():
    src = """\
    from concurrent.futures import ThreadPoolExecutor
    from opentelemetry import trace

    t = trace.get_tracer("x")

    class R:
        def __init__(self):
            self.pool = ThreadPoolExecutor()

        def job(self, q):
            with t.start_as_current_span("inner"):
                return q

        def go(self, q):
            with t.start_as_current_span("outer"):
                return self.pool.submit(self.job, q).result()
    """
    assert found(src) == {(16, "CTX206")}


# ---------------------------------------------------------------- CTX407
R05 = """\
import asyncio
import threading

import ray
import torch


class n1:
    def __init__(self, n4: str = "cuda") -> None:
        self.n3: dict = {}
        self.n8 = threading.Lock()
        self.n9 = asyncio.new_event_loop()
        self.n4 = n4

    def n6(self, h, kv) -> None:
        self.n3[h] = kv.to(self.n4)


def n10(n6: n1):
    return ray.put(n6)
"""


def test_ctx407_renamed_fields_are_followed_by_value():
    fs = lint(R05)
    assert [(f.line, f.code) for f in fs] == [(20, "CTX407")]
    assert "`self.n8`" in fs[0].message and "`self.n3`" in fs[0].message and "`self.n4`" not in fs[0].message
    assert fs[0].fix is not None and fs[0].fix.safety == "unsafe"
    assert fs[0].fix.data["drop"] == ["n3", "n8", "n9"]


def test_ctx407_getstate_external_base_cpu_tensor_and_actor_are_silent():
    src = """\
    import threading

    import ray
    import torch
    from somewhere import Base

    class A:
        def __init__(self):
            self.lock = threading.Lock()

        def __reduce__(self):
            return (A, ())

    class B(Base):
        def __init__(self):
            self.lock = threading.Lock()

    class C:
        def __init__(self):
            self.t = torch.zeros(3, device="cpu")

    @ray.remote
    class D:
        def __init__(self):
            self.lock = threading.Lock()

    def go(a: A, b: B):
        d = D.remote()
        return ray.put(a), ray.put(b), ray.put(C()), d.f.remote(1)
    """
    assert found(src) == set()


def test_ctx407_not_flagged_without_ray():
    src = """\
    import threading

    class A:
        def __init__(self):
            self.lock = threading.Lock()

    def put(a: A, store):
        return store.put(a)
    """
    assert found(src) == set()


def test_ctx407_codemod_output_pickles():
    src = """\
    import asyncio
    import threading

    import ray


    class Holder:
        def __init__(self, name):
            self.name = name
            self.lock = threading.Lock()
            self.event = asyncio.Event()
            self.loop = asyncio.new_event_loop()
            self.items = []


    def send(h: Holder):
        return ray.put(h)
    """
    out = fixed(src, unsafe=True)
    assert "def __getstate__(self) -> dict:" in out and "self.lock = threading.Lock()" in out
    assert found(out) == set()
    mod = types.ModuleType("ctx407_fixed")
    mod.__dict__["ray"] = types.SimpleNamespace(put=lambda x: x)
    exec(compile(out.replace("import ray\n", ""), "ctx407_fixed", "exec"), mod.__dict__)
    import sys
    sys.modules["ctx407_fixed"] = mod
    try:
        h = mod.Holder("a")
        h.items.append(1)
        back = pickle.loads(pickle.dumps(h))
    finally:
        del sys.modules["ctx407_fixed"]
    assert back.name == "a" and back.items == [1] and type(back.event).__name__ == "Event"
    assert back.lock.acquire(blocking=False) and back.loop is None
    h.loop.close()


def test_ctx407_codemod_refuses_a_class_that_is_not_at_the_anchor():
    from ctxlint.findings import Finding, Fix
    src = "import ray\n\nclass A:\n    def __init__(self):\n        self.x = 1\n"
    f = Finding("CTX407", "x", "t.py", 3, 1, 3, 2, "m",
                fix=Fix("d", "unsafe", codemod="actor_plain_state",
                        data={"line": 3, "col": 0, "cls": "Other", "drop": ["x"], "recreate": {}}))
    assert fixers.fix_text("t.py", src, "python", [f], unsafe=True, rules=[], config=Config()) == src


# ---------------------------------------------------------------- registry
def test_one_code_with_one_rule_per_language_dispatches_by_facts():
    rule = all_rules()["CTX206"]
    assert set(rule.language.split("+")) >= {"python"}
    if "+" in rule.language:
        assert rule.doc.count("## What it does") == 1 and "**Python.**" in rule.doc
        for heading in ("## Why is this bad", "## Example", "## Use instead", "## Fix safety", "## Source"):
            assert rule.doc.count(heading) == 1
    assert found(R04, ["CTX206"]) == {(18, "CTX206")}


def test_same_code_same_language_still_raises():
    with pytest.raises(RuntimeError, match="duplicate rule code CTX206"):
        type("Dup", (Rule,), {"code": "CTX206", "language": "python", "name": "context-not-propagated",
                              "check": lambda self, facts: ()})


def test_facts_language():
    import ast

    from ctxlint.semantic.python.facts import PythonFacts
    facts = PythonFacts("t.py", "x = 1\n", ast.parse("x = 1\n"), Config())
    assert facts_language(facts) == "python"
    assert facts_language(object()) is None


# ---------------------------------------------------------------- semantic: scope ids
def test_scope_ids_parameter_attribute_and_setter_switched_instance_attribute():
    import ast

    from ctxlint.semantic.python.facts import PythonFacts
    from ctxlint.semantic.python.requests import instance_scope_ids, scope_id_of
    src = textwrap.dedent("""\
    class Cache:
        def __init__(self):
            self.n1 = None

        def set_adapter(self, adapter_id):
            self.n1 = adapter_id

        def key(self, req, prompt):
            return (self.n1, req.tenant_id, prompt)
    """)
    tree = ast.parse(src)
    facts = PythonFacts("t.py", src, tree, Config())
    cls = tree.body[0]
    assert instance_scope_ids(facts, cls) == {"n1": "adapter_id"}
    key_fn = cls.body[2]
    tup = key_fn.body[0].value
    assert [scope_id_of(facts, e, key_fn) for e in tup.elts] == ["adapter_id", "tenant_id", None]


def test_ctx206_contextvar_set_by_a_helper_and_span_from_the_decorator():
    src = """\
    import asyncio
    import contextvars

    from opentelemetry import trace

    n0 = trace.get_tracer(__name__)
    n1 = contextvars.ContextVar("tenant")

    def n2(t):
        n1.set(t)

    def n3(x):
        return n1.get(), x

    def n4(x):
        with n0.start_as_current_span("child"):
            return x

    async def n5(x, t):
        n2(t)
        return await asyncio.get_running_loop().run_in_executor(None, n3, x)

    @n0.start_as_current_span("parent")
    async def n6(x):
        return await asyncio.get_running_loop().run_in_executor(None, n4, x)

    async def n7(x):
        return await asyncio.get_running_loop().run_in_executor(None, n4, x)
    """
    assert found(src) == {(21, "CTX206"), (25, "CTX206")}
