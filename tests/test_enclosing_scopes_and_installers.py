"""Stop-22 kinds from blind verdicts on the measuring set (arq, faststream, pandasai):
- CTX107: a signal handler installed through a helper of the module that hands its own
  parameter to `loop.add_signal_handler`/`signal.signal` (`tasks._hook_installers`);
- CTX104: an attach inside a scope of the same function that restores the context on
  every exit (a current-span `with` or decorator, an outer attach detached in
  `finally`): `detach()` is `ContextVar.reset()`;
- CTX301: a class attribute declared with a `None` default that only class bodies fill
  with constants.
Corpus: corpus/CTX107/{good,bad}/*helper*, corpus/CTX104/good/{attach_inside_current_span_scope,
nested_attach_inside_outer_detach}.py, corpus/CTX104/bad/attach_near_enclosing_scopes.py,
corpus/CTX301/{good,bad}/class_slot_*.py."""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.tasks import _hook_installers, runs_in_shutdown_hook


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


def _facts(src: str):
    return py.PythonFacts("t.py", textwrap.dedent(src), ast.parse(textwrap.dedent(src)), Config())


# --------------------------------------------------------- CTX107: helper-installed handlers
INSTALLER = """
import asyncio, signal
from functools import partial

class W:
    def __init__(self, loop):
        self.loop = loop
    def wire(self):
        self.{helper}(signal.SIGTERM, self.{handler})
    def {helper}(self, signum, cb):
        self.loop.add_signal_handler(signum, partial(cb, signum))
    def {handler}(self, signum):
        self.loop.create_task(self.drain())
    async def drain(self):
        await asyncio.sleep(1)
"""


def test_helper_installed_handler_is_a_shutdown_hook_whatever_the_names():
    for helper, handler in (("_add_signal_handler", "on_sig"), ("wire_up", "zz")):
        src = INSTALLER.format(helper=helper, handler=handler)
        assert found(src, ["CTX107"]) == set()
        f = _facts(src)
        call = next(n for n in ast.walk(f.tree) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == "create_task")
        assert runs_in_shutdown_hook(f, call)


def test_installer_summary_gives_the_parameter_position_without_self():
    f = _facts(INSTALLER.format(helper="install", handler="h"))
    registered = lambda c: c.args[1] if isinstance(c.func, ast.Attribute) and c.func.attr == "add_signal_handler" else None  # noqa: E731
    names = lambda h: {h.args[0].id} if isinstance(h, ast.Call) and h.args and isinstance(h.args[0], ast.Name) else set()  # noqa: E731
    got = _hook_installers(f, registered, names)
    assert [(k[1], v) for k, v in got.items()] == [("install", [(1, "cb")])]
    assert all(k[0] is not None for k in got)  # scoped to the class W, not to every `install`


def test_helper_that_installs_its_own_handler_does_not_make_the_argument_one():
    src = INSTALLER.replace("partial(cb, signum)", "self.loop.stop").format(helper="install", handler="h")
    assert found(src, ["CTX107"]) == {(13, "CTX107")}


def test_same_named_method_of_another_class_is_not_an_installer():
    src = INSTALLER.format(helper="register", handler="h") + """
class Other:
    def __init__(self, loop):
        self.loop = loop
        self.callbacks = []
    def register(self, signum, cb):
        self.callbacks.append(cb)
    def start(self):
        self.register(1, self.reload)
    def reload(self, signum):
        self.loop.create_task(asyncio.sleep(1))
"""
    assert found(src, ["CTX107"]) == {(26, "CTX107")}


def test_rebound_parameter_is_not_the_callers_argument():
    src = INSTALLER.replace("        self.loop.add_signal_handler(signum, partial(cb, signum))",
                            "        cb = self.loop.stop\n        self.loop.add_signal_handler(signum, cb)")
    assert found(src.format(helper="install", handler="h"), ["CTX107"]) == {(14, "CTX107")}


# --------------------------------------------------------- CTX104: enclosing restoring scope
SPAN_SCOPE = """
from opentelemetry import context, trace
tracer = trace.get_tracer(__name__)

def handle(msg, ctx):
    with {cm}:
        token = context.attach(ctx)
        process(msg)
        context.detach(token)

def process(msg):
    return msg
"""


def test_attach_in_span_scope_is_restored_by_the_scope():
    assert found(SPAN_SCOPE.format(cm='tracer.start_as_current_span("x")'), ["CTX104"]) == set()
    assert found(SPAN_SCOPE.format(cm="trace.use_span(trace.get_current_span())"), ["CTX104"]) == set()


def test_attach_in_other_with_is_reported():
    assert found(SPAN_SCOPE.format(cm="open('/tmp/x')"), ["CTX104"]) == {(7, "CTX104")}


def test_outer_attach_detached_in_finally_covers_inner_attach():
    src = """
    from opentelemetry import context
    def run(a, b):
        first = context.attach(a)
        try:
            context.attach(b)
            return 1
        finally:
            context.detach(first)
    """
    assert found(src, ["CTX104"]) == set()
    # the `finally` detaches a token that is not an attach's: the inner attach is reported
    src2 = src.replace("first = context.attach(a)", "first = object()")
    assert found(src2, ["CTX104"]) == {(6, "CTX104")}


# --------------------------------------------------------- CTX301: None-default class slot
SLOT = """
from typing import Optional
from jinja2 import Environment

class P:
    body: Optional[str] = None
    def __init__(self{extra}):
        {store}
        if self.body:
            self.t = Environment().from_string(self.body)

class Q(P):
    body = "Hello {{{{ name }}}}"
"""


def test_none_default_slot_filled_by_class_constants_is_trusted():
    assert found(SLOT.format(extra="", store="pass"), ["CTX301"]) == set()


def test_none_default_slot_stored_from_a_parameter_is_reported():
    assert found(SLOT.format(extra=", text", store="self.body = text"), ["CTX301"]) == {(10, "CTX301")}
