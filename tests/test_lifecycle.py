"""Targeted tests of the lifecycle (CTX103-CTX109) and reference (CTX203-CTX205) rules,
beyond the corpus: qualified-name resolution of renamed imports, what is *not* a
ContextVar / OTel attach / tracer, suppressions, the fix data handed to the
codemods, and shapes the rules must share out without double reporting."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.rules import select_rules

CODES = ["CTX103", "CTX104", "CTX105", "CTX106", "CTX107", "CTX108", "CTX109", "CTX203", "CTX204", "CTX205"]


def lint(src: str, codes=CODES):
    """Findings of the given rules on a source string (no suppression, no prefilter)."""
    src = textwrap.dedent(src)
    return py_lint.lint("t.py", src, select_rules(list(codes), []), Config())


def found(src: str, codes=CODES) -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in lint(src, codes)}


# ---------------------------------------------------------------- CTX103
def test_ctx103_module_alias_and_discarded_token():
    src = """\
    import contextvars as cv

    tenant = cv.ContextVar("tenant")

    def handle(req, backend):
        tenant.set(req.tenant)
        return backend.run(req)
    """
    assert found(src) == {(6, "CTX103")}


def test_ctx103_annotation_only_binding_and_class_attribute():
    src = """\
    from contextvars import ContextVar

    class Scope:
        var: "ContextVar[str]"

        def __init__(self, var):
            self.var = var

        def enter(self, value, work):
            token = self.var.set(value)
            work()
            self.var.reset(token)
    """
    (f,) = lint(src)
    assert (f.line, f.code) == (10, "CTX103")
    assert "normal path" in f.message and "line 12" in f.message


def test_ctx103_other_set_methods_are_not_contextvars():
    src = """\
    import threading
    from contextvars import ContextVar

    done = threading.Event()
    seen = set()
    cv = ContextVar("cv")

    def work(x, cfg):
        done.set()
        cfg.set("k", x)
        seen.add(x)
        return cv.get()
    """
    assert found(src) == set()


def test_ctx103_module_level_restore_in_finally_and_copy_context_run():
    src = """\
    import contextvars

    debug = contextvars.ContextVar("debug", default=False)
    debug.set(True)   # import time: not inside a request

    def with_debug(fn):
        old = debug.get()
        debug.set(True)
        try:
            return fn()
        finally:
            debug.set(old)

    def job(tenant):
        debug.set(tenant == "ops")
        return tenant.upper()

    def run_job(tenant):
        return contextvars.copy_context().run(job, tenant)
    """
    assert found(src) == set()


def test_ctx103_fix_data_follows_the_contract():
    src = """\
    from contextvars import ContextVar
    request_id = ContextVar("request_id")

    def handle(req, app):
        token = request_id.set(req.id)
        out = app(req)
        request_id.reset(token)
        return out
    """
    (f,) = lint(src)
    # no entry point reaches `handle`: a latent set may be meant to outlive it, so its fix
    # is unsafe (issue 35); reached from a route, the same fix is safe
    assert f.fix is not None and f.fix.codemod == "contextvar_reset_finally" and f.fix.safety == "unsafe"
    assert f.fix.data == {"line": 5, "col": 12, "var": "request_id"}
    routed = src.replace("    def handle", "    import flask\n    app_ = flask.Flask(__name__)\n\n"
                                          "    @app_.route('/h')\n    def handle")
    (g,) = lint(routed)
    assert g.confidence == "high" and g.fix.safety == "safe"


def test_ctx103_exit_stack_callback_and_returned_token_are_owned():
    src = """\
    from contextlib import ExitStack
    from contextvars import ContextVar
    user = ContextVar("user")

    def handle(req, app):
        with ExitStack() as stack:
            token = user.set(req.user)
            stack.callback(user.reset, token)
            return app(req)

    def bind(req):
        return user.set(req.user)
    """
    assert found(src) == set()


def test_ctx103_token_list_without_any_reset_is_flagged():
    src = """\
    from contextvars import ContextVar
    a = ContextVar("a")

    def handle(req, app):
        tokens = []
        tokens.append(a.set(req.a))
        return app(req)
    """
    assert found(src) == {(6, "CTX103")}


def _lint_file(tmp_path: Path, src: str):
    p = tmp_path / "m.py"
    p.write_text(textwrap.dedent(src))
    res = engine.lint_paths([str(p)], Config(root=tmp_path), select_rules(CODES, []), jobs=1, use_cache=False)
    return {(f.line, f.code) for f in res.findings}


@pytest.mark.parametrize("comment", ["# noqa: CTX103", "# ctxlint: ignore[CTX103]", "# noqa"])
def test_ctx103_suppressions(tmp_path, comment):
    src = f"""\
    from contextvars import ContextVar
    v = ContextVar("v")

    def handle(req, app):
        v.set(req.v)  {comment}
        return app(req)
    """
    assert _lint_file(tmp_path, src) == set()


def test_ctx103_suppression_of_another_code_does_not_hide_it(tmp_path):
    src = """\
    from contextvars import ContextVar
    v = ContextVar("v")

    def handle(req, app):
        v.set(req.v)  # noqa: CTX104
        return app(req)
    """
    assert _lint_file(tmp_path, src) == {(5, "CTX103")}


# ---------------------------------------------------------------- CTX104
def test_ctx104_renamed_function_import_and_detach_text():
    src = """\
    from opentelemetry.context import attach as otel_attach
    from opentelemetry.propagate import extract

    def handle(headers, app):
        otel_attach(extract(headers))
        return app()
    """
    (f,) = lint(src)
    assert (f.line, f.code) == (5, "CTX104")
    assert f.fix.codemod == "otel_detach_finally"
    assert f.fix.data == {"line": 5, "col": 4, "detach": "opentelemetry.context.detach"}


def test_ctx104_module_alias_detach_text():
    src = """\
    import opentelemetry.context as oc

    def handle(ctx, app):
        token = oc.attach(ctx)
        out = app()
        oc.detach(token)
        return out
    """
    (f,) = lint(src)
    assert f.code == "CTX104" and f.fix.data["detach"] == "oc.detach"


def test_ctx104_attach_of_other_libraries_is_ignored():
    src = """\
    import debugpy
    from mylib import context

    def start(ctx):
        debugpy.attach(("localhost", 5678))
        context.attach(ctx)
    """
    assert found(src) == set()


# ---------------------------------------------------------------- CTX105
def test_ctx105_chained_tracer_discard_and_owned_spans():
    src = """\
    from opentelemetry import trace

    def mark(key):
        trace.get_tracer(__name__).start_span("miss")

    class Book:
        def __init__(self, tracer):
            self.tracer = tracer
            self.spans = {}

        def begin(self, rid):
            span = self.tracer.start_span("req")
            self.spans[rid] = span

        def end(self, rid):
            self.spans.pop(rid).end()

    def not_a_tracer(scheduler):
        scheduler.start_span("x")
    """
    assert found(src) == {(4, "CTX105")}


# ---------------------------------------------------------------- CTX106
def test_ctx106_qualified_decorator_and_undecorated_generator():
    src = """\
    import contextlib

    @contextlib.contextmanager
    def patched(obj, value):
        old = obj.flag
        obj.flag = value
        yield obj
        obj.flag = old

    def plain_generator(handles):
        yield 1
        for h in handles:
            h.remove()
    """
    (f,) = lint(src)
    assert (f.line, f.code) == (7, "CTX106")
    assert f.fix.codemod == "yield_in_finally" and f.fix.data == {"line": 7, "col": 4}


def test_ctx106_logging_after_yield_is_not_cleanup():
    src = """\
    import logging, time
    from contextlib import contextmanager
    log = logging.getLogger(__name__)

    @contextmanager
    def timed(name):
        start = time.perf_counter()
        yield
        log.info("%s took %.3f", name, time.perf_counter() - start)
    """
    assert found(src) == set()


# ---------------------------------------------------------------- CTX108
def test_ctx108_sync_function_and_constant_key_are_not_flagged():
    src = """\
    class RequestManager:
        def __init__(self, core):
            self.core = core
            self.live = {}

        def add_sync(self, rid, state):
            self.live[rid] = state
            self.core.submit(rid)

        async def add_marker(self, rid):
            self.live["__warmup__"] = True
            await self.core.submit(rid)

        def finish(self, rid):
            self.live.pop(rid, None)
    """
    assert found(src) == set()


def test_ctx108_container_reaped_by_a_sweeper_is_not_flagged():
    src = """\
    import asyncio, time

    class SessionManager:
        def __init__(self, core):
            self.core = core
            self.sessions = {}

        async def open(self, sid, user):
            self.sessions[sid] = (user, time.monotonic())
            await self.core.announce(sid)

        async def _sweep_expired(self):
            while True:
                await asyncio.sleep(30)
                for sid in list(self.sessions):
                    self.sessions.pop(sid, None)
    """
    assert found(src) == set()


# ---------------------------------------------------------------- CTX109
def test_ctx109_reported_once_and_not_as_ctx103():
    src = """\
    from contextvars import ContextVar
    rid = ContextVar("rid")

    def stream(req, engine):
        token = rid.set(req.id)
        for chunk in engine.run(req):
            yield chunk
        rid.reset(token)
    """
    assert found(src) == {(5, "CTX109")}


# ---------------------------------------------------------------- CTX203
def test_ctx203_import_time_snapshot_and_local_use_are_fine():
    src = """\
    import contextvars

    BOOT_CTX = contextvars.copy_context()

    def run(fn):
        ctx = contextvars.copy_context()
        return ctx.run(fn)
    """
    assert found(src) == set()


def test_ctx203_celery_current_task_in_class_attribute():
    src = """\
    from celery import current_task

    class Progress:
        task = None

    def report(pct):
        Progress.task = current_task
        Progress.task.update_state(meta={"pct": pct})
    """
    assert found(src) == {(7, "CTX203")}


# ---------------------------------------------------------------- CTX204
def test_ctx204_renamed_import_and_subclass():
    src = """\
    from threading import local as TL
    import threading

    class _State(threading.local):
        tenant = None

    _tl = TL()
    _st = _State()

    async def handle(tenant):
        _tl.tenant = tenant
        return _st.tenant

    def sync_handle(tenant):
        _tl.tenant = tenant
        return _st.tenant
    """
    assert found(src) == {(11, "CTX204"), (12, "CTX204")}


# ---------------------------------------------------------------- CTX205
def test_ctx205_explicit_context_and_task_sets_are_fine():
    src = """\
    import asyncio, contextvars

    class Engine:
        def __init__(self):
            self.loop_task = None
            self.tasks = set()

        async def _loop(self):
            while True:
                await asyncio.sleep(1)

        async def generate(self, request_id):
            if self.loop_task is None:
                self.loop_task = asyncio.create_task(self._loop(), context=contextvars.Context())
            t = asyncio.create_task(self._loop())
            self.tasks.add(t)
            t.add_done_callback(self.tasks.discard)
    """
    assert found(src) == set()


def test_ctx205_outside_a_request_scope_is_fine():
    src = """\
    import asyncio

    class Engine:
        def __init__(self):
            self.loop_task = None

        async def _loop(self):
            while True:
                await asyncio.sleep(1)

        async def start(self):
            self.loop_task = asyncio.create_task(self._loop())
    """
    assert found(src) == set()


# ---------------------------------------------------------------- robustness
@pytest.mark.parametrize("src,expected", [
    ("x.set()\n", []),
    ("def f():\n    v.set(*a)\n    attach()\n", []),
    # the attach token is overwritten by the unpacking before any detach
    ("from opentelemetry import context\ndef f():\n    t = context.attach()\n    [t] = 1, \n", [(3, "CTX104")]),
    ("import contextlib\n@contextlib.contextmanager\ndef f():\n    yield\n    yield\n    del x\n", []),
    ("async def f():\n    self.d[k] = v\n    await g(k)\n", []),
    ("import threading\nt = threading.local()\nasync def f(t):\n    return t.x\n", []),
    ("from contextvars import ContextVar as C\nv = C('v')\nf = lambda: v.set(1)\n", []),
])
def test_odd_code_gives_exactly_its_findings(src, expected):
    assert sorted(found(src)) == expected


def test_ctx103_ctx104_fresh_contexts_accept_discarded_tokens():
    src = """\
    import threading
    from contextvars import ContextVar
    from opentelemetry.context import attach

    deadline = ContextVar("deadline")

    async def arm(request, baggage):
        deadline.set(request.deadline)   # dies with this request's task
        attach(baggage)
        await request.forward()

    def _run(fn, t):
        deadline.set(t)
        return fn()

    def _deliver(fn, t):
        return _run(fn, t)

    def start(fn, t):
        threading.Thread(target=_deliver, args=(fn, t)).start()

    def pool_job(fn, t):
        deadline.set(t)                  # a reused pool thread keeps it: flagged
        return fn()
    """
    assert found(src) == {(23, "CTX103")}


def test_ctx103_event_loop_hooks_and_clearing_are_accepted():
    src = """\
    from contextvars import ContextVar

    stash = ContextVar("stash", default=None)

    class Guardrail:
        async def apply(self, request):
            self._record(request.usage)
            return await request.forward()

        def _record(self, usage):
            stash.set(dict(usage))     # a hook on the event loop: task-scoped

    def pop_usage():
        usage = stash.get()
        stash.set(None)               # clearing the stash
        return usage
    """
    assert found(src) == set()


def test_contextmanager_reset_after_yield_is_ctx106_only():
    src = """\
    from contextlib import contextmanager
    from contextvars import ContextVar
    tenant = ContextVar("tenant")

    @contextmanager
    def tenant_scope(t):
        token = tenant.set(t)
        yield
        tenant.reset(token)
    """
    assert found(src) == {(8, "CTX106")}


# ------------------------------------------- review follow-ups (awaited coroutines, pools)
def test_ctx103_directly_awaited_method_shares_the_callers_context():
    """`await self._bind(req)` runs in the caller's task: its set() outlives it. A coroutine
    of the same name awaited on another object, or spawned as a task, is not this one."""
    src = """\
    import asyncio
    import contextvars

    tenant = contextvars.ContextVar("tenant")

    class Server:
        async def _bind(self, req):
            tenant.set(req.tenant)
            await asyncio.sleep(0)

        async def serve(self, q):
            while True:
                await self._bind(await q.get())

    class Other:
        async def load(self, req):
            tenant.set(req.tenant)
            await asyncio.sleep(0)

        async def spawn(self, backend, reqs):
            await backend.load(reqs[0])
            await asyncio.gather(*(self.load(r) for r in reqs))
    """
    assert found(src, ["CTX103"]) == {(8, "CTX103")}


def test_ctx103_route_handler_is_its_own_task_even_if_awaited():
    src = """\
    import contextvars
    from fastapi import APIRouter

    router = APIRouter()
    tenant = contextvars.ContextVar("tenant")

    @router.post("/generate")
    async def generate(body: dict):
        tenant.set(body["tenant"])
        return {"ok": True}

    async def selftest():
        return await generate({"tenant": "t"})
    """
    assert found(src, ["CTX103"]) == set()


def test_ctx103_walrus_reset_in_finally_or_first_in_body_is_fine():
    src = """\
    import contextvars
    tenant = contextvars.ContextVar("tenant")

    def a(req, backend):
        if (token := tenant.set(req.t)):
            try:
                return backend.run(req)
            finally:
                tenant.reset(token)

    def b(req, backend):
        if (token := tenant.set(req.t)) is not None:
            tenant.reset(token)
        return backend.run(req)

    def c(req, backend):
        if (token := tenant.set(req.t)):
            out = backend.run(req)
            tenant.reset(token)
            return out
    """
    assert found(src, ["CTX103"]) == {(17, "CTX103")}


def test_ctx106_pool_return_needs_the_resource_taken_before_the_yield():
    src = """\
    from contextlib import contextmanager

    @contextmanager
    def checkout(pool):
        conn = pool.getconn()
        yield conn
        pool.putconn(conn)

    @contextmanager
    def produce(q):
        yield q
        q.put(None)
    """
    assert found(src, ["CTX106"]) == {(6, "CTX106")}


def test_ctx103_sync_helper_of_a_directly_awaited_coroutine_is_not_exempt():
    src = """\
    import asyncio
    import contextvars

    tenant = contextvars.ContextVar("tenant")

    def _bind(req):
        tenant.set(req.tenant)
        return req.prompt

    async def handle(req, backend):
        prompt = _bind(req)
        return await backend.acomplete(prompt)

    async def worker(q, backend):
        while True:
            await handle(await q.get(), backend)
    """
    assert found(src, ["CTX103"]) == {(7, "CTX103")}
    # the same helper under a coroutine that runs as its own task is exempt
    spawned = src.replace("await handle(await q.get(), backend)",
                          "asyncio.get_running_loop().create_task(handle(await q.get(), backend)).add_done_callback(print)")
    assert found(spawned, ["CTX103"]) == set()


# ------------------------------------- issue 11: values, not names (CTX103/104/105/109)
def test_ctx105_tracer_is_recognised_by_value_not_by_name():
    src = """\
    from opentelemetry import trace
    from opentelemetry.trace import SpanKind

    meter = trace.get_tracer("svc")          # a tracer, whatever it is called

    def a(req):
        meter.start_span("a")                 # flagged: discarded

    def b(tracer, req):
        tracer.start_span("b")                # unknown receiver, no OTel evidence: silent

    def c(x, req):
        x.start_span("c", kind=SpanKind.CLIENT)   # an OTel argument: flagged
        with x.start_as_current_span("d"):
            return req

    class Meter:
        def start_span(self, name):
            return name

    def d(req):
        tracer = Meter()
        tracer.start_span("e")                # a class of this module: never a tracer
    """
    assert found(src, ["CTX105"]) == {(7, "CTX105"), (13, "CTX105")}


def test_ctx105_iterator_owner_must_end_on_early_exit():
    src = """\
    from opentelemetry import trace
    tracer = trace.get_tracer("s")

    class OnlyOnExhaustion:
        def __init__(self, it, span):
            self.it, self.span = it, span
        def __next__(self):
            try:
                return next(self.it)
            except StopIteration:
                self.span.end()
                raise

    class GeneratorIter:
        def __init__(self, it, span):
            self.it, self.span = it, span
        def __iter__(self):
            try:
                yield from self.it
            finally:
                self.span.end()

    def f(it):
        return OnlyOnExhaustion(it, tracer.start_span("f"))

    def g(it):
        span = tracer.start_span("g")
        return GeneratorIter(it, span)
    """
    (f,) = lint(src, ["CTX105"])
    assert f.line == 24 and "iterated to the end" in f.message


def test_ctx103_enter_pairing_decided_by_what_runs_not_by_name():
    src = """\
    import contextvars
    v = contextvars.ContextVar("v", default=None)

    class Leaks:
        def __enter__(self):
            self._go()
            return self
        def _go(self):
            v.set(self)
        def __exit__(self, *exc):
            pass

    class Restores:
        def __enter__(self):
            self._prev = v.get()
            v.set(self)
            return self
        def __exit__(self, *exc):
            v.set(self._prev)

    class NotAContextManager:
        def __init__(self):
            self._prev = v.get()     # captured at construction, elsewhere
        def apply(self, app):
            v.set(self._prev)        # not a restore of a set made here
            return app()
    """
    fs = lint(src, ["CTX103"])
    assert {f.line for f in fs} == {9, 25}
    enter = next(f for f in fs if f.line == 9)
    assert "__enter__" in enter.message and enter.fix is None   # the reset belongs in __exit__


def test_ctx103_loop_over_pairs_and_snapshot_are_contextvars():
    src = """\
    import contextvars
    a = contextvars.ContextVar("a")
    b = contextvars.ContextVar("b")

    def apply_pairs(app):
        for var, value in [(a, 1), (b, 2)]:
            var.set(value)
        return app()

    def apply_snapshot(ctx_snapshot, app):
        snap = contextvars.copy_context()
        for var in snap.keys():
            var.set(None)
        for var, value in snap.items():
            var.set(value)
        return app()
    """
    assert found(src, ["CTX103"]) == {(7, "CTX103"), (15, "CTX103")}


def test_ctx109_token_is_followed_into_a_generator_of_the_module():
    src = """\
    from contextlib import contextmanager
    from contextvars import ContextVar
    rid = ContextVar("rid")

    def _stream(chunks, token):
        try:
            yield from chunks
        finally:
            rid.reset(token)

    @contextmanager
    def _scoped(token):
        try:
            yield
        finally:
            rid.reset(token)

    def _plain(token):
        rid.reset(token)

    def handle(req, chunks):
        token = rid.set(req.id)
        return _stream(chunks, token)

    def ok_cm(req):
        token = rid.set(req.id)
        return _scoped(token)

    def ok_plain(req):
        _plain(rid.set(req.id))
    """
    assert found(src, ["CTX103", "CTX109"]) == {(22, "CTX109")}


def test_ctx104_token_handed_to_a_class_of_the_module():
    src = """\
    from opentelemetry import context

    class Keeps:
        def __init__(self, token):
            self.token = token
        def close(self):
            self.token = None

    class Detaches:
        def __init__(self, token):
            self.token = token
        def close(self):
            context.detach(self.token)

    def a(ctx):
        return Keeps(context.attach(ctx))

    def b(ctx):
        return Detaches(context.attach(ctx))

    def c(ctx, registry):
        registry.register(context.attach(ctx))   # handed out of the module: its owner's
    """
    (f,) = lint(src, ["CTX104"])
    assert f.line == 16 and "Keeps" in f.message


def test_values_api_origins():
    import ast as _ast
    from ctxlint.semantic.python.facts import PythonFacts
    from ctxlint.semantic.python import values as V
    src = textwrap.dedent("""\
    import asyncio, contextvars
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    var = contextvars.ContextVar("v")

    def make_env(safe):
        return ImmutableSandboxedEnvironment() if safe else jinja2.Environment()

    class Holder:
        def __init__(self):
            self.env = make_env(True)
            self.tokens = []
        def push(self, x):
            self.tokens.append(var.set(x))
        async def spawn(self, coro):
            self.task = asyncio.create_task(coro)
        def use(self):
            return self.env, self.tokens.pop(), self.task, var
    """)
    tree = _ast.parse(src)
    facts = PythonFacts("t.py", src, tree, Config())
    mv = V.module_values(facts)
    ret = next(n for n in _ast.walk(tree) if isinstance(n, _ast.Return) and isinstance(n.value, _ast.Tuple))
    env, tok, task, cv = ret.value.elts
    assert mv.kinds(env) == {V.JINJA_IMMUTABLE, V.JINJA_ENV}
    assert mv.kinds(tok) == {V.CV_TOKEN}
    assert mv.kinds(task) == {V.TASK}
    assert mv.contextvar_keys(cv) == {"module:var"}


# ------------------------------------------- CTX107 hidden discards (issue 11)
def test_ctx107_unread_binding_even_when_the_frame_awaits_other_work():
    src = """\
    import asyncio

    async def work():
        await asyncio.sleep(0)

    def fire(batch):
        _ = asyncio.create_task(work())

    def kept(batch):
        t = asyncio.create_task(work())
        return t

    async def serve(server):
        beat = asyncio.create_task(work())
        await server.serve_forever()
    """
    # awaiting other work keeps the frame, not the task's result: its failure is still lost
    assert found(src, ["CTX107"]) == {(7, "CTX107"), (14, "CTX107")}


def test_ctx107_loop_is_known_by_its_value_not_its_name():
    src = """\
    import asyncio

    class Tickets:
        def create_task(self, title):
            return title

    tickets = Tickets()

    def by_value(coro):
        ev = asyncio.get_running_loop()
        ev.create_task(coro)

    def not_a_loop(title):
        tickets.create_task(title)

    async def grouped(coro):
        async with asyncio.TaskGroup() as loop:
            loop.create_task(coro)
    """
    assert found(src, ["CTX107"]) == {(11, "CTX107")}


def test_ctx107_factory_handed_to_a_callback_api():
    src = """\
    import asyncio

    def from_thread(loop, coro):
        loop.call_soon_threadsafe(asyncio.create_task, coro)

    def on_signal(loop, stop):
        loop.add_signal_handler(15, lambda: asyncio.ensure_future(stop()))

    def chained(coro, cb):
        asyncio.create_task(coro).add_done_callback(cb)

    def kept_by_map(coros):
        return list(map(asyncio.create_task, coros))
    """
    # the signal handler's task is the shutdown sequence itself (line 7): not reported
    assert found(src, ["CTX107"]) == {(4, "CTX107"), (10, "CTX107")}
    # only the plain statement carries the (safe) fix
    assert all(f.fix is None for f in lint(src, ["CTX107"]))


# ------------------------------------------- CTX108 through helpers (issue 11)
def test_ctx108_helper_insertion_is_the_async_callers_and_composes():
    src = """\
    class Manager:
        def __init__(self, core):
            self.core = core
            self.rid_to_state = {}

        def _put(self, obj):
            self.rid_to_state[obj.rid] = object()

        def _init(self, obj):
            self._put(obj)

        def abort(self, rid):
            self.rid_to_state.pop(rid, None)

        async def generate(self, obj):
            self._init(obj)
            await self.core.submit(obj)

        async def generate_safe(self, obj):
            self._init(obj)
            try:
                await self.core.submit(obj)
            except BaseException:
                self.abort(obj.rid)
                raise
    """
    (f,) = lint(src, ["CTX108"])
    assert (f.line, f.code) == (16, "CTX108") and "self._init" in f.message


def test_ctx108_entry_of_a_request_registered_elsewhere_is_not_flagged():
    src = """\
    class Server:
        def __init__(self, d):
            self.d = d
            self.req_states = {}
            self.dest = {}

        def release(self, req_id):
            self.req_states.pop(req_id, None)
            self.dest.pop(req_id, None)

        async def register(self, req_id, urls):
            state = self.req_states.get(req_id)
            if state is None:
                raise KeyError(req_id)
            self.dest[req_id] = urls
            await self.d.notify(req_id)

        async def register_fresh(self, req_id, urls):
            if req_id in self.req_states:
                raise KeyError(req_id)
            self.dest[req_id] = urls
            await self.d.notify(req_id)
    """
    assert found(src, ["CTX108"]) == {(21, "CTX108")}


def test_ctx106_cleanup_by_a_helper_is_found_through_its_summary():
    src = """\
    from contextlib import contextmanager
    _routes = {}

    def _drop(name):
        _routes.pop(name, None)

    def _log(name):
        print(name)

    @contextmanager
    def routed(name, adapter):
        _routes[name] = adapter
        yield adapter
        _drop(name)

    @contextmanager
    def logged(name):
        yield
        _log(name)
    """
    assert found(src, ["CTX106"]) == {(13, "CTX106")}


# ------------------------------------------------------------- CTX110
def test_ctx110_only_generators_that_run_as_a_response_stream():
    src = """\
    import asyncio
    from fastapi.responses import StreamingResponse
    sem = asyncio.Semaphore(4)

    async def events(engine):
        await sem.acquire()
        async for t in engine.generate():
            yield t
        sem.release()

    async def batch(engine):
        await sem.acquire()
        async for t in engine.generate():
            yield t
        sem.release()

    async def route(engine):
        return StreamingResponse(events(engine))
    """
    (f,) = lint(src, ["CTX110"])
    assert (f.line, f.code) == (6, "CTX110")
    assert f.fix is not None and f.fix.codemod == "stream_release_finally"
    assert f.fix.data["release"] == "sem.release()" and f.fix.data["release_line"] == 9


def test_ctx110_no_fix_when_the_release_is_not_one_statement_in_the_block():
    src = """\
    import asyncio
    from fastapi.responses import StreamingResponse
    sem = asyncio.Semaphore(4)

    async def events(engine):
        await sem.acquire()
        async for t in engine.generate():
            yield t
        if engine.ok:
            sem.release()

    async def route(engine):
        return StreamingResponse(content=events(engine))
    """
    (f,) = lint(src, ["CTX110"])
    assert f.line == 6 and f.fix is None


def test_ctx110_handler_claims_with_a_background_release_is_fine():
    src = """\
    import asyncio
    from fastapi.responses import StreamingResponse
    from starlette.background import BackgroundTask
    sem = asyncio.Semaphore(4)

    async def events(engine):
        try:
            async for t in engine.generate():
                yield t
        finally:
            sem.release()

    async def claims(engine):
        await sem.acquire()
        return StreamingResponse(events(engine))

    async def owns(engine):
        await sem.acquire()
        return StreamingResponse(events(engine), background=BackgroundTask(sem.release))
    """
    assert found(src, ["CTX110"]) == {(14, "CTX110")}


def test_ctx110_request_builders_and_local_helpers_are_not_upstream_responses():
    src = """\
    from fastapi.responses import StreamingResponse

    class S:
        def _build(self, x, stream):
            return x

        async def events(self, x):
            req = self._build(x, stream=True)
            for part in x:
                yield part

        async def route(self, x):
            return StreamingResponse(self.events(x))
    """
    assert found(src, ["CTX110"]) == set()


def test_ctx110_explain_prints_the_doc_and_the_corpus():
    from ctxlint.cli import main
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["explain", "CTX110"])
    out = buf.getvalue()
    assert rc in (0, None)
    for heading in ("What it does", "Why is this bad", "Example", "Use instead", "Fix safety", "Source"):
        assert heading in out
    assert "CTX105" in out and "CTX108" in out  # the one-code-per-resource split is documented


def test_ctx103_mapping_carrier_and_value_saved_in_init():
    src = """\
    import contextvars
    tenant = contextvars.ContextVar("tenant")

    class Carry:
        def __init__(self):
            self._values = {tenant: tenant.get()}
        def __enter__(self):
            for var, value in self._values.items():
                var.set(value)                  # keys of a mapping: ContextVars
            return self
        def __exit__(self, *exc):
            return None

    class Override:
        def __init__(self, v):
            self._old = tenant.get()
            self._new = v
        def __enter__(self):
            tenant.set(self._new)
        def __exit__(self, *exc):
            tenant.set(self._old)           # puts the saved value back: the undo
            self.done = True
    """
    assert found(src, ["CTX103"]) == {(9, "CTX103")}


def test_ctx109_token_captured_by_a_nested_generator():
    src = """\
    from contextvars import ContextVar
    var = ContextVar("v")

    def invoke(client, run):
        token = var.set(run.id)
        result = client.complete(run)
        def gen():
            try:
                yield from result
            finally:
                var.reset(token)
        return gen()
    """
    (f,) = lint(src, ["CTX103", "CTX109"])
    assert (f.line, f.code) == (5, "CTX109") and "captured by generator `gen`" in f.message


def test_ctx105_wrapper_tracer_and_container_owner():
    src = """\
    from opentelemetry import trace
    _otel = trace.get_tracer("x")

    class Tracing:                       # a wrapper of this module returning OTel spans
        def start_span(self, name):
            return _otel.start_span(name)

    class Batch:                         # keeps the span in a list, never ends it
        def __init__(self, span):
            self._spans = []
            self._spans.append(span)
        def close(self):
            self._spans = []

    class Batch2:                        # ends every kept span on close
        def __init__(self, span):
            self._spans = [span]
        def close(self):
            for s in self._spans:
                s.end()

    def handle(t: Tracing, req):
        t.start_span("a")

    def handle2(req):
        return Batch(_otel.start_span("b"))

    def handle3(req):
        return Batch2(_otel.start_span("c"))
    """
    assert found(src, ["CTX105"]) == {(23, "CTX105"), (26, "CTX105")}


def test_ctx108_call_graph_summaries_compose_and_resolve_by_binding():
    """The call-graph layer behind CTX106/CTX108/CTX110: summaries of registration,
    removal, parameter release and returned tasks, composed through helpers."""
    import ast as _ast
    from ctxlint.semantic.python.calls import call_graph
    from ctxlint.semantic.python.facts import PythonFacts
    src = textwrap.dedent("""\
    import asyncio

    class Pool:
        def __init__(self):
            self.live = {}

        def _put(self, key, value):
            self.live[key] = value

        def add(self, req):
            self._put(req.rid, req)

        def drop(self, rid):
            self.live.pop(rid, None)

        def close_it(self, conn):
            conn.close()

        def hand_back(self, c):
            self.close_it(c)

    pool = Pool()

    def spawn(coro):
        return asyncio.create_task(coro)

    def spawn_again(coro):
        return spawn(coro)

    def shadowed(spawn):
        return spawn(1)

    async def user(req, conn):
        pool.add(req)
        pool.hand_back(conn)
    """)
    facts = PythonFacts("t.py", src, _ast.parse(src), Config())
    g = call_graph(facts)
    defs = {f.name: f for f in facts.nodes(_ast.FunctionDef, _ast.AsyncFunctionDef)}
    add = g.summary(defs["add"])
    assert [r.container.name for r in add.registers] == ["self.live"] and add.registers[0].params == {1}
    assert g.summary(defs["drop"]).removes and not g.summary(defs["add"]).removes
    assert g.summary(defs["hand_back"]).releases == {1}
    # what a helper returns (a task) is the value-flow summaries' (semantic/python/summaries.py,
    # tests/test_summaries_issue33.py); the call graph keeps registers, removes and releases
    user = g.summary(defs["user"])
    assert user.registers and user.registers[0].params == {0} and user.releases == {1}
    inner_call = next(c for c in facts.nodes(_ast.Call) if facts.enclosing_function(c) is defs["shadowed"])
    assert g.resolve(inner_call) is None  # a parameter named like a module function is not that function


@pytest.mark.parametrize("src", [
    "from fastapi.responses import StreamingResponse\nStreamingResponse()\n",
    "from fastapi.responses import StreamingResponse\ndef r(*a):\n    return StreamingResponse(*a)\n",
    "from fastapi.responses import StreamingResponse\ndef g():\n    yield\ndef r():\n    return StreamingResponse(g)\n",
    "from fastapi.responses import StreamingResponse\ndef g(x):\n    x.acquire()\n    yield\n    x.release(*x)\n"
    "def r():\n    return StreamingResponse(content=g(*[1]))\n",
    "from aiohttp import web\nasync def h(r):\n    s = web.StreamResponse()\n    while 1:\n        await s.write()\n",
    "import asyncio\ndef f():\n    _ = asyncio.create_task\n    (a, b) = asyncio.create_task(x), 1\n    asyncio.get_running_loop().call_soon(lambda: 1)\n",
    "class A:\n    def f(self):\n        self.f()\n    async def g(self, r):\n        self.f(r)\n        await self.g(r)\n",
    "def f(a):\n    return f(a)\nasync def g(r):\n    f(r)\n    await g(r)\n",
])
def test_ctx107_ctx108_ctx110_odd_code_does_not_crash(src):
    lint(src, ["CTX106", "CTX107", "CTX108", "CTX110"])


def test_ctx110_send_stream_true_gets_the_async_with_fix_only_in_its_exact_shape():
    src = """\
    import httpx
    from fastapi.responses import StreamingResponse
    client = httpx.AsyncClient()

    async def relay(payload):
        req = client.build_request("POST", "/g", json=payload)
        up = await client.send(req, stream=True)
        async for chunk in up.aiter_bytes():
            yield chunk
        await up.aclose()

    async def relay_logged(payload):
        req = client.build_request("POST", "/g", json=payload)
        up = await client.send(req, stream=True)
        async for chunk in up.aiter_bytes():
            yield chunk
        await up.aclose()
        print(req)

    async def route(p):
        return StreamingResponse(relay(p)), StreamingResponse(relay_logged(p))
    """
    fixes = {f.line: f.fix.codemod for f in lint(src, ["CTX110"])}
    assert fixes == {7: "stream_async_with", 14: "stream_release_finally"}
