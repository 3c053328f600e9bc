"""Round-7b blind-review fixes of the ContextVar / OTel token rules (CTX103, CTX104):

1. a token put into a container other functions of the module reach (a module-level
   list/dict, a copy of a ContextVar's list set back into the var) and taken back out
   and released there (`owners._shared_container_released` via `token_fate`);
2. the pop half of a push/pop pair that sets a copy of the var's current value with
   entries removed (`takes_from_current(read_here=True)`);
3. a set/undo API pair: another function of the module, not run by the setter, resets,
   clears or pops the same var (`owners.undone_elsewhere`);
4. lazy per-Context initialisation of a fresh object (`owners.lazily_initialises`).
"""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python import owners
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.values import module_values


def found(src: str, codes=("CTX103", "CTX104")) -> set[tuple[int, str]]:
    src = textwrap.dedent(src)
    return {(f.line, f.code) for f in py_lint.lint("t.py", src, select_rules(list(codes), []), Config())}


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("t.py", src, ast.parse(src), Config())


def _sets(src: str):
    """(line, set call, fn, var keys, facts) for each ContextVar set of `src`."""
    facts = _facts(src)
    values = module_values(facts)
    return facts, [(c.lineno, c, fn, values.contextvar_keys(c.func.value)) for c, fn in owners.contextvar_sets(facts)]


# ------------------------------------------------------------------ 1. containers
STACK = """
from contextvars import ContextVar
from opentelemetry import context, trace
_scopes = ContextVar("scopes", default=None)
def open_scope(span):
    tok = context.attach(trace.set_span_in_context(span))
    items = list(_scopes.get() or [])
    items.append((tok, span))
    _scopes.set(items)
def close_scope():
    items = list(_scopes.get())
    tok, span = items.pop()
    _scopes.set(items)
    {release}
"""


def test_token_on_contextvar_stack_detached_by_other_function_is_silent():
    assert found(STACK.format(release="context.detach(tok)")) == set()


def test_token_on_contextvar_stack_never_detached_is_reported():
    assert found(STACK.format(release="span.end()")) == {(6, "CTX104")}


def test_subscripted_contextvar_constructor_is_a_contextvar():
    src = STACK.format(release="context.detach(tok)").replace('ContextVar("scopes"', 'ContextVar[list]("scopes"')
    facts, sets = _sets(src)
    assert {line for line, *_ in sets} == {9, 13}
    assert found(src) == set()


MODULE_REGISTRY = """
from opentelemetry import context
from opentelemetry.propagate import extract
_held = {{}}
def start(key, carrier):
    h = context.attach(extract(carrier))
    _held.setdefault(key, []).append(h)
def stop(key):
    for h in _held.pop(key, []):
        {release}
"""


def test_token_in_module_registry_released_elsewhere():
    assert found(MODULE_REGISTRY.format(release="context.detach(h)")) == set()
    assert found(MODULE_REGISTRY.format(release="print(h)")) == {(6, "CTX104")}


# ------------------------------------------------------------------ 2. pop half
def test_popped_copy_set_back_is_a_restore_but_a_grown_copy_is_not():
    pop = """
    from contextvars import ContextVar
    _st = ContextVar("st", default=())
    def run(work):
        work()
    def leave():
        items = list(_st.get())
        items.pop()
        _st.set(items)
        run(items)
    """
    assert found(pop, ("CTX103",)) == set()
    grow = pop.replace("items.pop()", "items.append(object())")
    assert found(grow, ("CTX103",)) == {(9, "CTX103")}


def test_value_captured_elsewhere_is_not_taken_from_current():
    src = """
    from contextvars import ContextVar
    _v = ContextVar("v", default=None)
    class Carrier:
        def __init__(self):
            self.saved = _v.get()
        def apply(self):
            value = self.saved
            _v.set(value)
    """
    facts, sets = _sets(src)
    (_, call, fn, keys), = sets
    assert not owners.takes_from_current(facts, call.args[0], fn, keys, read_here=True)


# ------------------------------------------------------------------ 3. API pairs
PAIR = """
from contextvars import ContextVar
_slot = ContextVar("slot", default=None)
class Api:
    def begin(self, req):
        _slot.set(req.owner)
        self.log(req)
    def log(self, req):
        print(req)
    def end(self):
        {undo}
"""


def test_set_undone_by_other_method_is_silent():
    for undo in ("_slot.set(None)", "_slot.set(())", "_slot.set(_slot.get()[:-1])"):
        assert found(PAIR.format(undo=undo), ("CTX103",)) == set(), undo


def test_set_with_no_undo_anywhere_is_reported():
    # (line 11 is a setter: its last statement is the set)
    assert found(PAIR.format(undo="_slot.set(self.next_owner)"), ("CTX103",)) == {(6, "CTX103")}
    assert found(PAIR.format(undo="pass"), ("CTX103",)) == {(6, "CTX103")}


def test_undo_run_by_the_setter_itself_is_not_a_pair():
    src = PAIR.format(undo="_slot.set(None)").replace("self.log(req)", "self.log(req)\n        self.end()")
    assert found(src, ("CTX103",)) == {(6, "CTX103")}


def test_undone_elsewhere_via_parent_link():
    src = """
    from contextvars import ContextVar
    class T:
        def __init__(self):
            self._cur = ContextVar("cur", default="")
            self._nodes = {}
        def _node(self):
            return self._nodes.get(self._cur.get())
        def push(self, n):
            self._cur.set(n.id)
            self._nodes[n.id] = n
        def pop(self):
            n = self._node()
            self._cur.set(n.parent_id)
    """
    facts, sets = _sets(src)
    by_line = {line: (c, fn, k) for line, c, fn, k in sets}
    c, fn, k = by_line[10]
    undo = owners.undone_elsewhere(facts, c, fn, k)
    assert undo is not None and undo.lineno == 14
    c, fn, k = by_line[14]
    assert owners.undo_shaped(facts, c, k)
    assert found(src, ("CTX103",)) == set()


# ------------------------------------------------------------------ 4. lazy init
LAZY = """
from contextvars import ContextVar
class Box(dict):
    pass
_box = ContextVar("box", default=None)
def get_box(req):
    if _box.get() is None:
        _box.set({value})
        print(req)
    return _box.get()
"""


def test_lazy_init_of_fresh_object_is_silent():
    for value in ("Box()", "{}", "dict()", "[]"):
        assert found(LAZY.format(value=value), ("CTX103",)) == set(), value


def test_lazy_guard_with_request_value_is_reported():
    for value in ("req.user", "Box(req)", "[req]"):
        assert found(LAZY.format(value=value), ("CTX103",)) == {(8, "CTX103")}, value


def test_lazy_init_after_lookup_error_and_through_a_local():
    src = """
    from contextvars import ContextVar
    _r = ContextVar("r")
    _s = ContextVar("s", default=None)
    def registry():
        try:
            return _r.get()
        except LookupError:
            fresh = {}
            _r.set(fresh)
            print("made")
            return fresh
    def state(x):
        cur = _s.get()
        if not cur:
            cur = dict()
            _s.set(cur)
            print(x)
        return cur
    """
    facts, sets = _sets(src)
    assert all(owners.lazily_initialises(facts, c, fn, k) for _, c, fn, k in sets)
    unguarded = src.replace("if not cur:", "if x:")
    facts, sets = _sets(unguarded)
    assert [owners.lazily_initialises(facts, c, fn, k) for _, c, fn, k in sets] == [True, False]


def test_generator_setter_owns_its_scope_even_with_a_clear_elsewhere():
    src = """
    from contextlib import contextmanager
    from contextvars import ContextVar
    _t = ContextVar("t", default=None)
    @contextmanager
    def traced(x):
        _t.set(x)
        yield
        _t.set(None)
    def off():
        _t.set(None)
    """
    assert found(src, ("CTX103",)) == {(7, "CTX103")}
    facts, sets = _sets(src)
    c, fn, k = next((c, fn, k) for line, c, fn, k in sets if line == 7)
    assert owners.undone_elsewhere(facts, c, fn, k) is None


def test_exit_that_clears_the_var_undoes_enter():
    src = """
    import contextvars
    class Scope:
        def __enter__(self):
            _cur.set(self)
            return self
        def __exit__(self, *exc):
            {exit}
    _cur = contextvars.ContextVar[object]("cur", default=None)
    """
    assert found(src.format(exit="_cur.set(None)"), ("CTX103",)) == set()
    assert found(src.format(exit="print(exc)"), ("CTX103",)) == {(5, "CTX103")}
