"""CTX103 kinds found by blind review on packages the rule had never seen (h103):

1. tokens collected into a list the function *returns* are the caller's (`owners._returns`);
2. updates of a module-level var that another module of the package scopes with a reset in
   `finally` (`project_index.scoped_by_importer`, asked only for an update);
3. a push/pop dispatcher: both halves in one function on different arms of an `if`
   (`owners.exclusive_branches`), and a pop made of parts of the current value only
   (`stack[:i] + tuple(e for e in stack[i + 1:] if ...)`, `owners.takes_from_current`);
4. API setters that are class/static methods (`owners.is_context_setter`);
5. clearing back to an empty value built without arguments (`owners.is_clear`).
Each kind has its boundary asserted next to it.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.project_index import scoped_by_importer
from ctxlint.semantic.python.values import module_values


def found(src: str, path: str = "t.py") -> set[int]:
    src = textwrap.dedent(src)
    return {f.line for f in py_lint.lint(path, src, select_rules(["CTX103"], []), Config())}


def _facts(src: str, path: str = "t.py") -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts(path, src, ast.parse(src), Config())


def _sets(facts: PythonFacts):
    values = module_values(facts)
    return {c.lineno: (c, fn, values.contextvar_keys(c.func.value)) for c, fn in owners.contextvar_sets(facts)}


# ------------------------------------------------------------------ 1. returned token list
RETURNED = """
from contextvars import ContextVar
_a = ContextVar("a", default=None)
_b = ContextVar("b", default=None)
def bind(a=None, b=None, *, as_tuple=False):
    out = []
    for var, value in ((_a, a), (_b, b)):
        if value is not None:
            out.append((var, var.set(value)))
    return {ret}
"""


def test_returned_token_list_is_the_callers():
    for ret in ("out", "tuple(out)", "list(out), len(out)"):
        assert found(RETURNED.format(ret=ret)) == set(), ret


def test_token_list_not_returned_is_reported():
    for ret in ("len(out)", "None", "bool(out)"):
        assert found(RETURNED.format(ret=ret)) == {9}, ret


# ------------------------------------------------------------------ 2. scoped by an importer
SIGNALS = """
from contextvars import ContextVar
_count = ContextVar("count", default=0)
_owner = ContextVar("owner", default=None)
def bump(replies):
    n = _count.get()
    _count.set(n + 1)
    return replies[n]
def claim(job):
    _owner.set(job.owner)
    job.run()
"""

RUNNER_FINALLY = """
def run(steps):
    from {imp} import _count as counter, _owner
    tok = counter.set(0)
    otok = _owner.set(None)
    try:
        for s in steps:
            s()
    finally:
        counter.reset(tok)
        _owner.reset(otok)
"""

RUNNER_HAPPY = """
from .signals import _count
def run(steps):
    tok = _count.set(0)
    for s in steps:
        s()
    _count.reset(tok)
"""


def _package(tmp_path: Path, runner: str | None) -> Path:
    pkg = tmp_path / "graphpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "signals.py").write_text(textwrap.dedent(SIGNALS))
    if runner is not None:
        (pkg / "runner.py").write_text(textwrap.dedent(runner))
    return pkg / "signals.py"


def _lint_file(path: Path) -> set[int]:
    return found(path.read_text(), str(path))


def test_update_scoped_by_importer_relative_and_absolute(tmp_path):
    for i, imp in enumerate((".signals", "graphpkg.signals")):
        root = tmp_path / str(i)
        root.mkdir()
        sig = _package(root, RUNNER_FINALLY.format(imp=imp))
        facts = _facts(sig.read_text(), str(sig))
        assert scoped_by_importer(facts, "_count") == str(sig.parent / "runner.py")
        # the update is accepted; a new value of a var the importer also scopes is not
        assert _lint_file(sig) == {10}, imp


def test_no_scope_without_finally_or_importer(tmp_path):
    a = tmp_path / "a"
    a.mkdir()
    sig = _package(a, RUNNER_HAPPY)
    assert scoped_by_importer(_facts(sig.read_text(), str(sig)), "_count") is None
    assert _lint_file(sig) == {7, 10}
    b = tmp_path / "b"
    b.mkdir()
    sig = _package(b, None)
    assert _lint_file(sig) == {7, 10}


def test_updates_current():
    facts = _facts(SIGNALS)
    sets = _sets(facts)
    c, fn, k = sets[7]
    assert owners.updates_current(facts, c.args[0], fn, k)
    c, fn, k = sets[10]
    assert not owners.updates_current(facts, c.args[0], fn, k)


# ------------------------------------------------------------------ 3. dispatcher push/pop
DISPATCH = """
from contextvars import ContextVar
_spans = ContextVar("spans", default=())
class Rec:
    def emit(self, ev):
        stack = _spans.get()
        if ev.kind == "start":
            _spans.set(stack + ((self, ev.name),))
        elif ev.kind == "end":
            i = self.find(stack, ev.name)
            _spans.set({pop})
        self.sink(ev)
    def find(self, stack, name):
        return 0
"""


def test_dispatcher_pop_of_parts_pairs_with_push():
    for pop in ("stack[:i] + tuple(e for e in stack[i + 1:] if e[0] is not self)",
                "(*stack[:i], *stack[i + 1:])", "stack[:i]"):
        assert found(DISPATCH.format(pop=pop)) == set(), pop


def test_dispatcher_with_new_entry_is_reported():
    for pop in ("stack[:i] + ((self, 'closed'),)", "(*stack[:i], (self, 'closed'))", "(ev.name,)"):
        assert found(DISPATCH.format(pop=pop)) == {8, 11}, pop


def test_pop_after_push_on_same_path_is_not_a_pair():
    src = """
    from contextvars import ContextVar
    _spans = ContextVar("spans", default=())
    def step(item, work):
        stack = _spans.get()
        _spans.set(stack + (item,))
        work(item)
        _spans.set(_spans.get()[:-1])
    """
    assert found(src) == {6}


def test_exclusive_branches():
    facts = _facts(DISPATCH.format(pop="stack[:i]"))
    sets = _sets(facts)
    (push, fn, _), (pop, _, _) = sets[8], sets[11]
    assert owners.exclusive_branches(facts, push, pop, fn)
    loop = _facts("""
    from contextvars import ContextVar
    v = ContextVar("v", default=())
    def f(evs):
        for ev in evs:
            if ev:
                v.set(v.get() + (ev,))
            else:
                v.set(v.get()[:-1])
    """)
    sets = _sets(loop)
    (a, fn, _), (b, _, _) = sets[7], sets[9]
    assert not owners.exclusive_branches(loop, a, b, fn)


# ------------------------------------------------------------------ 4. class/static setters
SETTERS = """
from contextvars import ContextVar
class Ctx:
    _rid = ContextVar("rid")
    _sid = ContextVar("sid")
    @classmethod
    def set_ids(cls, rid, sid=None):
        cls._rid.set(rid)
        cls._sid.set(sid)
    @staticmethod
    def set_both(rid, sid):
        Ctx._rid.set(rid)
        Ctx._sid.set(sid)
    @classmethod
    def via(cls, rid):
        cls.set_ids(rid)
        cls._sid.set(rid.upper())
    def on_instance(self, rid, sid):
        self._rid.set(rid)
        self._sid.set(sid)
    @classmethod
    def run(cls, req, handler):
        cls._rid.set(req.rid)
        cls._sid.set(req.sid)
        handler(req)
"""


def test_class_and_static_setters():
    assert found(SETTERS) == {19, 23, 24}


# ------------------------------------------------------------------ 5. clearing
def test_clear_to_empty_values():
    src = """
    from contextvars import ContextVar
    _stack = ContextVar("stack", default=())
    _tags = ContextVar("tags", default=None)
    def reset_all(buf):
        _stack.set(())
        _tags.set(dict())
        _stack.set(tuple())
        buf.clear()
    """
    assert found(src) == set()
    src = """
    from contextvars import ContextVar
    _stack = ContextVar("stack", default=())
    def push_marker(buf):
        _stack.set(("marker",))
        buf.clear()
    """
    assert found(src) == {5}


def test_shadowed_builtin_is_not_a_clear():
    facts = _facts("""
    from contextvars import ContextVar
    from .defaults import dict
    v = ContextVar("v")
    def f():
        v.set(dict())
        v.set(tuple())
    """)
    values = module_values(facts)
    sets = _sets(facts)
    assert not owners.is_clear(values, sets[6][0].args[0])
    assert owners.is_clear(values, sets[7][0].args[0])


def test_set_or_clear_on_two_arms_is_not_a_dispatcher():
    src = """
    from contextvars import ContextVar
    _user = ContextVar("user", default=None)
    def handle(req, process):
        if req.user:
            _user.set(req.user)
        else:
            _user.set(None)
        process(req)
    """
    assert found(src) == {6}
