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
from ctxlint.languages import python as py
from ctxlint.rules import select_rules

CODES = ["CTX103", "CTX104", "CTX105", "CTX106", "CTX107", "CTX108", "CTX109", "CTX203", "CTX204", "CTX205"]


def lint(src: str, codes=CODES):
    """Findings of the given rules on a source string (no suppression, no prefilter)."""
    src = textwrap.dedent(src)
    return py.lint("t.py", src, select_rules(list(codes), []), Config())


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
    assert f.fix is not None and f.fix.codemod == "contextvar_reset_finally" and f.fix.safety == "safe"
    assert f.fix.data == {"line": 5, "col": 12, "var": "request_id"}


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
@pytest.mark.parametrize("src", [
    "x.set()\n",
    "def f():\n    v.set(*a)\n    attach()\n",
    "from opentelemetry import context\ndef f():\n    t = context.attach()\n    [t] = 1, \n",
    "import contextlib\n@contextlib.contextmanager\ndef f():\n    yield\n    yield\n    del x\n",
    "async def f():\n    self.d[k] = v\n    await g(k)\n",
    "import threading\nt = threading.local()\nasync def f(t):\n    return t.x\n",
    "from contextvars import ContextVar as C\nv = C('v')\nf = lambda: v.set(1)\n",
])
def test_odd_code_does_not_crash(src):
    lint(src)


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
