"""Function summaries (semantic/python/summaries.py, issue 33): a token, task or span
that a helper of the project makes and hands back is judged at the helper's call, one
or two helper levels down, through locals and re-binding, tuple unpacking,
`functools.partial`, lambdas, a decorator that wraps (`functools.wraps`), and across
modules of a package. Each shape has a silent twin; the summary itself is asserted
where its fields decide (what is returned, kept, stored, read)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.summaries import FRESH, call_flow, summary, target
from ctxlint.semantic.python.values import CV_TOKEN, OTEL_TOKEN, TASK


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


def facts_of(src: str) -> py.PythonFacts:
    text = textwrap.dedent(src)
    return py.PythonFacts("t.py", text, ast.parse(text), Config())


def lint_tree(root: Path, files: dict[str, str], codes: list[str]) -> set[tuple[str, int, str]]:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    res = engine.lint_paths([str(root)], Config(root=root), select_rules(codes, []), jobs=1, use_cache=False)
    assert not res.internal_errors, res.notices
    return {(Path(f.path).name, f.line, f.code) for f in res.findings}


# ------------------------------------------------------------------ the summary
def test_summary_returns_created_kinds_params_and_fresh_values():
    f = facts_of("""\
    import asyncio
    from opentelemetry import context

    def push(ctx):
        tok = context.attach(ctx)
        return tok

    def passthrough(x):
        return x

    def fresh():
        return {"a": 1}

    def keep(coro):
        t = asyncio.create_task(coro)
        _live.add(t)
        return t

    def store(x):
        _seen.append(x)

    _live = set()
    _seen = []
    """)
    defs = {d.name: d for d in f.nodes(ast.FunctionDef)}
    assert OTEL_TOKEN in summary(f, defs["push"]).returns.kinds
    assert summary(f, defs["passthrough"]).returns.params == {0}
    assert not summary(f, defs["passthrough"]).returns.kinds
    assert FRESH in summary(f, defs["fresh"]).returns.kinds
    kept = summary(f, defs["keep"])
    assert TASK in kept.returns.kinds and kept.kept and kept.returns.coro_params == {0}
    assert summary(f, defs["store"]).stores == {0: "container"}


def test_summary_is_computed_once_per_function():
    f = facts_of("""\
    from opentelemetry import context

    def push(ctx):
        return context.attach(ctx)

    def a(c):
        push(c)

    def b(c):
        push(c)
    """)
    defs = {d.name: d for d in f.nodes(ast.FunctionDef)}
    s1 = summary(f, defs["push"])
    for c in f.nodes(ast.Call):
        call_flow(f, c)
    assert summary(f, defs["push"]) is s1
    # only the functions asked about (and what they call) are summarised
    keys = {k[0] for k in f.memo("summaries", dict)}
    assert id(defs["push"]) in keys and id(defs["a"]) not in keys and id(defs["b"]) not in keys


def test_pass_through_helper_hands_back_the_callers_value():
    f = facts_of("""\
    from opentelemetry import context

    def same(x):
        return x

    def go(ctx):
        same(context.attach(ctx))
        same(ctx)
    """)
    flows = {c.lineno: call_flow(f, c) for c in f.nodes(ast.Call) if isinstance(c.func, ast.Name)}
    assert OTEL_TOKEN in flows[7].kinds and not flows[8].kinds


# ------------------------------------------------------------------ CTX104
def test_ctx104_two_levels_of_helpers_and_a_dropped_token():
    src = """\
    from opentelemetry import context, trace

    def _ctx_for(span):
        return context.attach(trace.set_span_in_context(span))

    def make_current(span):
        return _ctx_for(span)

    class Job:
        def start(self, span):
            make_current(span)

        def start_ok(self, span):
            tok = make_current(span)
            try:
                self.run()
            finally:
                context.detach(tok)
    """
    assert found(src, ["CTX104"]) == {(11, "CTX104")}


def test_ctx104_partial_and_lambda_helpers():
    src = """\
    import functools
    from opentelemetry import context, trace

    enter_span = lambda s: context.attach(trace.set_span_in_context(s))
    bind = functools.partial(context.attach)

    def worker(span, ctx):
        enter_span(span)
        bind(ctx)

    def worker_ok(span):
        tok = enter_span(span)
        try:
            return 1
        finally:
            context.detach(tok)
    """
    assert found(src, ["CTX104"]) == {(8, "CTX104"), (9, "CTX104")}


def test_ctx104_tuple_unpacking_of_a_helper_result():
    src = """\
    from opentelemetry import context, trace

    tracer = trace.get_tracer("x")

    def open_scope(name):
        span = tracer.start_span(name)
        token = context.attach(trace.set_span_in_context(span))
        return span, token

    def leaky():
        span, token = open_scope("a")
        span.end()

    def tidy():
        span, token = open_scope("b")
        try:
            span.end()
        finally:
            context.detach(token)
    """
    assert found(src, ["CTX104"]) == {(11, "CTX104")}


def test_ctx104_helper_that_detaches_itself_is_not_a_token_source():
    src = """\
    from opentelemetry import context

    def scoped(ctx, fn):
        tok = context.attach(ctx)
        try:
            return fn()
        finally:
            context.detach(tok)

    def caller(ctx):
        scoped(ctx, print)
    """
    assert found(src, ["CTX104"]) == set()


# ------------------------------------------------------------------ CTX103
def test_ctx103_setter_that_returns_its_token():
    src = """\
    from contextvars import ContextVar

    _locale = ContextVar("locale", default="en")

    def use_locale(code):
        token = _locale.set(code)
        return token

    def render(req):
        use_locale(req.lang)
        return req.body

    def render_ok(req):
        t = use_locale(req.lang)
        try:
            return req.body
        finally:
            _locale.reset(t)
    """
    assert found(src, ["CTX103"]) == {(10, "CTX103")}


def test_ctx103_contextvar_and_helper_of_another_module(tmp_path):
    files = {
        "svc/__init__.py": "",
        "svc/scope.py": """\
            import contextvars

            region = contextvars.ContextVar("region")

            def enter_region(r):
                return region.set(r)
            """,
        "svc/worker.py": """\
            from .scope import enter_region, region

            def handle(msg):
                region.set(msg["region"])
                return msg.process()

            def handle2(msg):
                enter_region(msg["region"])
                return msg.process()
            """,
        "svc/worker_ok.py": """\
            from .scope import enter_region, region

            def handle(msg):
                tok = region.set(msg["region"])
                try:
                    return msg
                finally:
                    region.reset(tok)

            def handle2(msg):
                tok = enter_region(msg["region"])
                try:
                    return msg
                finally:
                    region.reset(tok)
            """,
    }
    assert lint_tree(tmp_path, files, ["CTX103"]) == {("worker.py", 4, "CTX103"), ("worker.py", 8, "CTX103")}


# ------------------------------------------------------------------ CTX107
def test_ctx107_helper_task_dropped_and_kept_twins():
    src = """\
    import asyncio

    _bg = set()

    def fire(coro):
        task = asyncio.ensure_future(coro)
        return task

    def fire_kept(coro):
        t = asyncio.create_task(coro)
        _bg.add(t)
        t.add_done_callback(_bg.discard)
        return t

    async def audit(event):
        await asyncio.sleep(0)
        raise RuntimeError(event)

    async def handler(event):
        fire(audit(event))
        fire_kept(audit(event))
        t = fire(audit(event))
        kept = fire(audit(event))
        _bg.add(kept)
    """
    assert found(src, ["CTX107"]) == {(20, "CTX107"), (22, "CTX107")}


def test_ctx107_wrapping_decorator_that_schedules_the_coroutine():
    src = """\
    import asyncio
    import functools

    def in_background(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return asyncio.create_task(fn(*args, **kwargs))
        return wrapper

    @in_background
    async def send_receipt(order):
        await order.mail()

    @in_background
    async def send_safely(order):
        try:
            await order.mail()
        except Exception:
            pass

    async def checkout(order):
        send_receipt(order)
        send_safely(order)
    """
    assert found(src, ["CTX107"]) == {(22, "CTX107")}


def test_target_follows_decorator_wrapper_to_the_decorated_coroutine():
    f = facts_of("""\
    import asyncio, functools

    def bg(fn):
        @functools.wraps(fn)
        def wrapper(*a):
            return asyncio.create_task(fn(*a))
        return wrapper

    @bg
    async def job(x):
        await x

    def go(x):
        job(x)
    """)
    call = next(c for c in f.nodes(ast.Call) if isinstance(c.func, ast.Name) and c.func.id == "job")
    t = target(f, call)
    assert t.fn.name == "wrapper" and t.bound[1].fn.name == "job"
    got = call_flow(f, call)
    assert TASK in got.kinds and [d.name for _, d in got.coro] == ["job"]


def test_ctx107_helper_of_another_module(tmp_path):
    """The analysis follows `spawn` into bg.py. (Through the CLI, CTX107 runs only on a
    file that mentions `create_task`/`ensure_future`: its literal prefilter; the
    importing module of this test mentions it in a comment.)"""
    files = {
        "app/__init__.py": "",
        "app/bg.py": """\
            import asyncio

            def spawn(coro):
                return asyncio.create_task(coro)
            """,
        "app/routes.py": """\
            import asyncio
            from .bg import spawn

            async def notify(user):
                await user.ping()

            async def route(user):
                spawn(notify(user))  # spawn: asyncio.create_task
                await asyncio.sleep(0)

            async def route_ok(user, keep):
                keep.add(spawn(notify(user)))
            """,
    }
    assert lint_tree(tmp_path, files, ["CTX107"]) == {("routes.py", 8, "CTX107")}


def test_cv_token_of_imported_helper_reaches_the_value_layer(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "vars.py").write_text("import contextvars\nuser = contextvars.ContextVar('user')\n"
                                              "def bind(u):\n    return user.set(u)\n")
    src = "from .vars import bind, user\n\ndef f(u):\n    t = bind(u)\n    user.get()\n"
    path = tmp_path / "pkg" / "use.py"
    path.write_text(src)
    f = py.PythonFacts(str(path), src, ast.parse(src), Config())
    from ctxlint.semantic.python.values import CONTEXTVAR, module_values
    values = module_values(f)
    call = next(c for c in f.nodes(ast.Call) if isinstance(c.func, ast.Name))
    assert CV_TOKEN in values.kinds(call)
    recv = next(c.func.value for c in f.nodes(ast.Call) if isinstance(c.func, ast.Attribute))
    assert CONTEXTVAR in values.kinds(recv)
