"""Tokens kept in attributes named by strings (CTX103) and in lists walked by a close
path through a per-element helper (CTX104): the semantic helpers and the verdicts."""
from __future__ import annotations

import ast
import textwrap

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.values import module_values


def _facts(src: str) -> PythonFacts:
    text = textwrap.dedent(src)
    return PythonFacts("case.py", text, ast.parse(text), Config())


def _codes(tmp_path, src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    found = engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
    return sorted(f.line for f in found if f.code == code)


def test_string_values_of_loop_over_pairs():
    f = _facts('''
        def walk(self, a, b):
            for var, slot in ((a, "_x"), (b, "_y")):
                getattr(self, slot)
            for name in reversed(["_z"]):
                getattr(self, name)
            dyn = compute()
            getattr(self, dyn)
        ''')
    values = module_values(f)
    got = {n.args[1].id: owners.string_values(values, n.args[1]) for n in f.nodes(ast.Call)
           if isinstance(n.func, ast.Name) and n.func.id == "getattr"}
    assert got == {"slot": {"_x", "_y"}, "name": {"_z"}, "dyn": frozenset()}


def test_getattr_reads_attribute_binding():
    f = _facts('''
        class C:
            def m(self):
                self._tok = 1
                return getattr(self, "_tok")
        ''')
    values = module_values(f)
    store = next(n for n in f.nodes(ast.Attribute) if isinstance(n.ctx, ast.Store))
    call = next(n for n in f.nodes(ast.Call))
    assert owners.getattr_bindings(values, call) == [values.binding(store)]


CTX103_SRC = '''
    import contextvars
    a = contextvars.ContextVar("a")
    b = contextvars.ContextVar("b")

    class Scope:
        def __enter__(self):
            self._a = a.set(1)
            self._b = b.set(2)
            return self

        def __exit__(self, *exc):
            for var, slot in ((a, "_a"),{extra}):
                var.reset(getattr(self, slot))
    '''


def test_ctx103_named_attrs_reset(tmp_path):
    assert _codes(tmp_path, CTX103_SRC.replace("{extra}", ' (b, "_b")'), "CTX103") == []


def test_ctx103_named_attr_left_out(tmp_path):
    assert _codes(tmp_path, CTX103_SRC.replace("{extra}", ""), "CTX103") == [9]


CTX104_SRC = '''
    from opentelemetry import context as otel_context

    def _drop(token):
        {body}

    class Rec:
        def __init__(self):
            self.tokens = []

    class Handler:
        def start(self, ctx):
            rec = Rec()
            rec.tokens.append(otel_context.attach(ctx))
            self._rec = rec

        def end(self):
            for t in self._rec.tokens:
                _drop(t)
    '''


def test_ctx104_list_on_record_detached_by_helper(tmp_path):
    assert _codes(tmp_path, CTX104_SRC.replace("{body}", "otel_context.detach(token)"), "CTX104") == []


def test_ctx104_helper_that_only_reads(tmp_path):
    assert _codes(tmp_path, CTX104_SRC.replace("{body}", "print(token)"), "CTX104") == [14]
