"""Round-7 review fixes of the ContextVar / OTel token rules (CTX103, CTX104):

1. an undo run by a helper (a method or a module function that `__exit__`, a close
   path or a `finally` calls) that sets the var to a part of its own current value;
2. a token kept on `self` by an iterator class: released through a module helper
   handed the instance; reported only when early exit misses the detach, with a
   message that names the close path (or says there is none);
3. a reset/detach not in `finally` after statements that cannot raise an ordinary
   `Exception` (`cleanup.cannot_raise`).
"""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import cleanup, owners
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.facts import PythonFacts


def found(src: str, codes=("CTX103", "CTX104")) -> set[tuple[int, str]]:
    src = textwrap.dedent(src)
    return {(f.line, f.code) for f in py_lint.lint("t.py", src, select_rules(list(codes), []), Config())}


def messages(src: str, codes=("CTX103", "CTX104")) -> list[str]:
    src = textwrap.dedent(src)
    return [f.message for f in py_lint.lint("t.py", src, select_rules(list(codes), []), Config())]


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("t.py", src, ast.parse(src), Config())


def _between(src: str) -> bool:
    """cannot_raise over the body of the first function, minus its first and last statement."""
    f = _facts(src)
    fn = next(iter(f.nodes(ast.FunctionDef, ast.AsyncFunctionDef)))
    return cleanup.cannot_raise(f, fn.body[1:-1])


# ---------------------------------------------------------------- 3: nothing can raise
def test_cannot_raise_accepts_no_raise_calls_assignments_and_guarded_try():
    assert _between("""
        import contextvars, time
        def f(x):
            a = 1
            snap = contextvars.copy_context()
            n = len(x)
            t0 = time.monotonic()
            try:
                x.export()
            except Exception:
                print("failed")
            b = 2
    """)


def test_cannot_raise_rejects_risky_statements():
    # an unknown call outside the try
    assert not _between("""
        def f(x):
            a = 1
            x.record()
            b = 2
    """)
    # the handler re-raises
    assert not _between("""
        def f(x):
            a = 1
            try:
                x.export()
            except Exception:
                raise
            b = 2
    """)
    # the handler returns: the statement after the try is skipped
    assert not _between("""
        def f(x):
            a = 1
            try:
                x.export()
            except Exception:
                return None
            b = 2
    """)
    # a narrow handler
    assert not _between("""
        def f(x):
            a = 1
            try:
                x.export()
            except ValueError:
                pass
            b = 2
    """)
    # `len` rebound by the module is not the builtin
    f = _facts("""
        def len(x):
            raise RuntimeError
        def g(x):
            a = 1
            n = len(x)
            b = 2
    """)
    g = [d for d in f.nodes(ast.FunctionDef) if d.name == "g"][0]
    assert not cleanup.cannot_raise(f, g.body[1:-1])


def test_cannot_raise_in_a_coroutine_needs_a_cancellation_safe_handler():
    src = """
        async def f(x):
            a = 1
            try:
                await x.export()
            except {}:
                pass
            b = 2
    """
    assert not _between(src.format("Exception"))
    assert _between(src.format("BaseException"))


def test_reset_after_copy_context_only_is_silent_and_after_a_call_is_reported():
    src = """
        import contextvars
        from contextvars import ContextVar
        _ids: ContextVar[tuple] = ContextVar("ids", default=())

        def start(i, go):
            token = _ids.set((*_ids.get(), i))
            ctx = {}
            _ids.reset(token)
            return ctx
    """
    assert found(src.replace("{}", "contextvars.copy_context()")) == set()
    assert found(src.replace("{}", "go()")) == {(7, "CTX103")}


def test_detach_after_guarded_export_sync_silent_async_reported():
    src = """
        import logging
        from opentelemetry.context import attach, detach, set_value

        {kw}def flush(exporter, batch):
            token = attach(set_value("suppress", True))
            try:
                {aw}exporter.export(batch)
            except Exception:
                logging.exception("export failed")
            detach(token)
    """
    assert found(src.format(kw="", aw="")) == set()
    assert found(src.format(kw="async ", aw="await ")) == {(6, "CTX104")}


# ---------------------------------------------------------------- 1: undo by a helper
def test_takes_from_current():
    f = _facts("""
        from contextvars import ContextVar
        v: ContextVar[tuple] = ContextVar("v", default=())

        def pop(x):
            items = list(v.get())
            items.remove(x)
            v.set(tuple(items))

        def push(x):
            v.set(v.get() + (x,))

        def push2(x):
            items = list(v.get())
            items.append(x)
            v.set(tuple(items))

        def fresh(x):
            v.set((x,))
    """)
    from ctxlint.semantic.python.values import module_values
    values = module_values(f)
    got = {}
    for call, fn in owners.contextvar_sets(f):
        got[fn.name] = owners.takes_from_current(f, call.args[0], fn, values.contextvar_keys(call.func.value))
    assert got == {"pop": True, "push": False, "push2": False, "fresh": False}


def test_exit_helper_method_and_module_function_undo_the_push():
    method = """
        from contextvars import ContextVar
        _stack: ContextVar[tuple] = ContextVar("stack", default=())

        class Guard:
            def _leave(self):
                rest = [g for g in _stack.get() if g is not self]
                _stack.set(tuple(rest))

            def __enter__(self):
                _stack.set(_stack.get() + (self,))
                return self

            def __exit__(self, *exc):
                try:
                    pass
                finally:
                    self._leave()
    """
    assert found(method) == set()
    # the helper only logs: the push stays
    assert found(method.replace("_stack.set(tuple(rest))", "print(rest)")) == {(11, "CTX103")}
    module_fn = """
        from contextvars import ContextVar
        _stack: ContextVar[tuple] = ContextVar("stack", default=())

        def _drop(x):
            _stack.set(tuple(i for i in _stack.get() if i is not x))

        def run(x, work):
            _stack.set((*_stack.get(), x))
            try:
                return work()
            finally:
                _drop(x)
    """
    assert found(module_fn) == set()
    # the helper sets a fresh value instead: not an undo
    assert found(module_fn.replace("tuple(i for i in _stack.get() if i is not x)", "(x, 'done')")) == {(9, "CTX103")}
    # the helper is called on the normal path only: not an undo on every path
    normal_only = module_fn.replace("""    try:
                return work()
            finally:
                _drop(x)""", """    out = work()
            _drop(x)
            return out""")
    assert found(normal_only) == {(9, "CTX103")}


# ---------------------------------------------------------------- 2: iterator wrappers
_WRAPPER = """
    from opentelemetry import context as otel_context
    from opentelemetry import trace

    def _finish(w):
        w._span.end()
        otel_context.detach(w._token)

    class Chunks:
        def __init__(self, chunks, span):
            self._chunks = chunks
            self._span = span
            self._token = otel_context.attach(trace.set_span_in_context(span))

        def __iter__(self):
            return self

        def __next__(self):
            try:
                return next(self._chunks)
            except StopIteration:
                _finish(self)
                raise
{close}
"""


def test_iterator_released_through_module_helper_on_close_is_silent():
    close = """
        def close(self):
            self._chunks.close()
            _finish(self)
    """
    assert found(_WRAPPER.format(close=close)) == set()


def test_iterator_without_early_exit_detach_is_reported_with_the_missing_path():
    msgs = messages(_WRAPPER.format(close=""))
    assert len(msgs) == 1 and "has no `close`/`aclose`/`__exit__`/`__del__`" in msgs[0]
    close = """
        def close(self):
            self._chunks.close()
    """
    msgs = messages(_WRAPPER.format(close=close))
    assert len(msgs) == 1 and "its `close` does not detach it" in msgs[0]


def test_class_releases_attrs_follow_calls_is_opt_in():
    """CTX105 and other callers keep the method-only view unless they ask."""
    f = _facts(_WRAPPER.format(close="""
        def close(self):
            _finish(self)
    """))
    from ctxlint.semantic.python.values import module_values
    values = module_values(f)
    cls = next(iter(f.nodes(ast.ClassDef)))
    tok = next(n for n in f.nodes(ast.Attribute) if n.attr == "_token" and isinstance(n.ctx, ast.Store))
    b = values.binding(tok)
    assert owners.class_releases_attrs(f, cls, {b}, owners.detach_release)[0] == owners.NOT_RELEASED
    assert owners.class_releases_attrs(f, cls, {b}, owners.detach_release, follow_calls=True)[0] == owners.RELEASED
