"""Get-or-create insertions, per-run containers and emptied-bucket removals
(`registries.dedup_key`, `registries.rebound_per_run`, CTX401/CTX404 boundaries)."""
import ast
import textwrap

from ctxlint.config import Config
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.registries import dedup_key, rebound_per_run
from ctxlint.rules.python.ctx401_unbounded_registry import UnboundedRegistry
from ctxlint.rules.python.ctx404_terminal_path_missing_removal import TerminalPathMissingRemoval


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("case.py", src, ast.parse(src), Config())


def _container(facts, name):
    return next(c for c in facts.containers if c.name == name)


def _lines(rule, src):
    return sorted(f.line for f in rule.check(_facts(src)))


def test_dedup_key_follows_get_then_return():
    f = _facts("""
        import uuid
        _by_tok = {}
        _by_key = {}
        def mint(k):
            got = _by_key.get(k)
            if got is not None:
                return got
            t = uuid.uuid4().hex
            _by_tok[t] = k
            _by_key[k] = t
            return t
    """)
    site = _container(f, "_by_tok").inserts[0]
    assert ast.unparse(dedup_key(f, site)) == "k"


def test_dedup_key_needs_the_guard_table_filled_and_never_emptied():
    mint = textwrap.dedent("""
        import uuid
        _by_tok = {}
        _by_key = {}
        def mint(k):
            if k in _by_key:
                return _by_key[k]
            t = uuid.uuid4().hex
            _by_tok[t] = k
            return t
    """)
    unfilled = _facts(mint)
    assert dedup_key(unfilled, _container(unfilled, "_by_tok").inserts[0]) is None
    # the guard table is filled, but another function empties it again
    emptied = _facts(mint.replace("    _by_tok[t] = k\n", "    _by_tok[t] = k\n    _by_key[k] = t\n")
                     + "def forget(k):\n    _by_key.pop(k, None)\n")
    assert dedup_key(emptied, _container(emptied, "_by_tok").inserts[0]) is None


def test_dedup_key_absent_branch_and_not_after_a_non_exiting_if():
    f = _facts("""
        _d = {}
        def get(k, v):
            if k not in _d:
                _d[k] = v
            return _d[k]
        def put(k, v):
            if k in _d:
                print("again")
            _d[k] = v
    """)
    ins = _container(f, "_d").inserts
    assert ast.unparse(dedup_key(f, ins[0])) == "k"
    assert dedup_key(f, ins[1]) is None


def test_get_or_create_keyed_per_request_is_still_reported():
    src = """
        import uuid
        _span_by_req = {}
        def span(request_id):
            if request_id in _span_by_req:
                return _span_by_req[request_id]
            _span_by_req[request_id] = uuid.uuid4().hex
            return _span_by_req[request_id]
    """
    assert _lines(UnboundedRegistry(), src) == [7]


def test_rebound_per_run_only_for_unconditional_non_construction():
    f = _facts("""
        class W:
            async def run(self):
                self.a = {}
            def setup(self):
                self.b = {}
            def lazy(self):
                if not self.ready:
                    self.c = {}
            def seeded(self):
                self.d = {"x": 1}
    """)
    got = {c.name: rebound_per_run(f, c) for c in f.containers}
    assert got == {"self.a": True, "self.b": False, "self.c": False, "self.d": False}


def test_emptied_bucket_removal_is_no_sibling_lifecycle():
    tidy = """
        class PortRegistry:
            def __init__(self):
                self.apps = {}
                self.routes = {}
            def app_for(self, port):
                self.apps[port] = object()
                self.routes[port] = {}
            def drop(self, port, path):
                paths = self.routes.get(port, {})
                paths.pop(path, None)
                if not paths:
                    self.routes.pop(port, None)
    """
    assert _lines(UnboundedRegistry(), tidy) == []
    ends = tidy.replace("                if not paths:\n                    self.routes.pop(port, None)",
                        "                self.routes.pop(port, None)")
    assert _lines(UnboundedRegistry(), ends) == [7]


def test_close_owes_only_containers_its_acquisition_fills():
    separate = """
        class BoxManager:
            def __init__(self):
                self.a_boxes = {}
                self.s_boxes = {}
            def open_a(self, thread_id):
                self.a_boxes[thread_id] = 1
            def open_s(self, thread_id):
                self.s_boxes[thread_id] = 1
            def close_a(self, thread_id):
                self.a_boxes.pop(thread_id, None)
            def close_s(self, thread_id):
                self.s_boxes.pop(thread_id, None)
    """
    assert _lines(TerminalPathMissingRemoval(), separate) == []
    together = separate.replace("self.a_boxes[thread_id] = 1",
                                "self.a_boxes[thread_id] = 1\n                self.s_boxes[thread_id] = 2")
    # open_a fills both tables, so each close (either may end an open_a entry) owes both
    assert _lines(TerminalPathMissingRemoval(), together) == [11, 13]
