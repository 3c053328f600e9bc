"""`cleanup.exit_stack_cover`: what a contextlib exit stack around a `yield` holds
there (read by CTX106: cleanup the stack also does is covered on the exception path)."""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.semantic.python.cleanup import exit_stack_cover, yields
from ctxlint.semantic.python.facts import PythonFacts


def _cover(src: str):
    src = textwrap.dedent(src)
    facts = PythonFacts("x.py", src, ast.parse(src), Config())
    fn = facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)[0]
    y = yields(facts, fn)[0]
    return exit_stack_cover(facts, y, fn)


def test_callbacks_and_contexts_before_the_yield():
    got = _cover("""\
        from contextlib import AsyncExitStack
        async def run(self, pool):
            async with AsyncExitStack() as stack:
                stack.push_async_callback(self.stop, join=False)
                conn = await stack.enter_async_context(pool.acquire())
                stack.push(self._on_exit)
                yield conn
        """)
    assert got.callables == {"self.stop", "self._on_exit"}
    assert got.resources == {"conn", "self._on_exit"}


def test_not_a_stack_not_enclosing_or_emptied():
    assert not _cover("""\
        import contextlib
        def run(stack):
            with stack:
                stack.callback(print)
                yield
        """)  # a parameter: not known to be an exit stack
    assert not _cover("""\
        import contextlib
        def run(h):
            with contextlib.ExitStack() as stack:
                stack.callback(h.remove)
            yield
        """)  # the stack's `with` ended before the yield
    assert not _cover("""\
        import contextlib
        def run(h):
            with contextlib.ExitStack() as stack:
                stack.callback(h.remove)
                stack.pop_all()
                yield
        """)  # emptied before the yield
    assert not _cover("""\
        import contextlib
        def run(h):
            with contextlib.ExitStack() as stack:
                yield
                stack.callback(h.remove)
        """)  # registered after the yield


def test_stack_bound_before_its_with():
    got = _cover("""\
        from contextlib import ExitStack
        def run(restore, saved):
            stack = ExitStack()
            stack.callback(restore, saved)
            with stack:
                yield
        """)
    assert got.callables == {"restore"}
