"""Structural ownership of a stranded CTX108 entry, found without reading names:
a collect-then-remove sweep (stale keys gathered by an age-filtered comprehension,
then removed one by one through a chain of helpers, a task among them), a prune of
aged entries that every insertion runs first (a time-to-live cache), and a reset of
the container on a path a repeating background loop reaches (per-connection state).
Each exemption has a near miss that must still be reported."""

import ast
import pathlib
import textwrap

import pytest

from ctxlint.config import Config
from ctxlint.rules.python.ctx108_registration_not_cancellation_safe import RegistrationNotCancellationSafe
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.registries import reset_repeatedly, swept_for_every_key, swept_on_insertion

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "corpus" / "CTX108"


def _facts(src: str, path: str = "case.py") -> PythonFacts:
    return PythonFacts(path, src, ast.parse(src), Config())


def _lines(rel: str) -> list[int]:
    p = CORPUS / rel
    return sorted(f.line for f in RegistrationNotCancellationSafe().check(_facts(p.read_text(), str(p))))


def _container(facts, name):
    return next(c for c in facts.containers if c.name == name)


@pytest.mark.parametrize("rel", [
    "good/stale_parts_collected_then_released.py",
    "good/expired_leases_collected_by_reaper_thread.py",
    "good/overdue_records_pruned_on_submit.py",
    "good/waiters_pruned_by_register_helper.py",
    "good/call_names_reset_on_reconnect.py",
    "good/outstanding_cleared_per_session.py",
])
def test_structurally_owned_entries_are_silent(rel):
    assert _lines(rel) == []


@pytest.mark.parametrize("rel,lines", [
    ("bad/scan_never_started.py", [51, 52]),
    ("bad/scan_filters_acked.py", [54, 55]),
    ("bad/prune_when_tracing.py", [23]),
    ("bad/reset_in_close_only.py", [33]),
    ("bad/reset_only_if_unresumable.py", [47]),
    ("bad/reset_only_at_construction.py", [48]),
])
def test_near_misses_still_fire(rel, lines):
    assert _lines(rel) == lines


def test_collected_sweep_reaches_removal_through_a_task_four_helpers_deep():
    src = (CORPUS / "good/stale_parts_collected_then_released.py").read_text()
    facts = _facts(src)
    graph = call_graph(facts)
    assert swept_for_every_key(facts, graph, _container(facts, "self._parts"))
    assert swept_for_every_key(facts, graph, _container(facts, "self._stamped"))


def test_prune_must_run_on_every_insertion_call():
    src = textwrap.dedent('''
        import time
        class Book:
            def __init__(self):
                self._open = {}
            def _prune(self):
                now = time.monotonic()
                for rid, t in list(self._open.items()):
                    if now - t > 60:
                        del self._open[rid]
            async def add(self, request_id, send):
                self._prune()
                self._open[request_id] = time.monotonic()
                await send(request_id)
            async def add_sometimes(self, request_id, send, flag):
                if flag:
                    self._prune()
                self._open[request_id] = time.monotonic()
                await send(request_id)
    ''')
    facts = _facts(src)
    graph = call_graph(facts)
    c = _container(facts, "self._open")
    fns = {f.name: f for f in facts.nodes(ast.AsyncFunctionDef)}
    assert swept_on_insertion(facts, graph, c, fns["add"])
    assert not swept_on_insertion(facts, graph, c, fns["add_sometimes"])


def test_prune_filtered_on_other_state_is_not_a_ttl():
    src = textwrap.dedent('''
        class Book:
            def __init__(self):
                self._open = {}
            def _prune(self):
                for rid, e in list(self._open.items()):
                    if e.done:
                        del self._open[rid]
            async def add(self, request_id, e, send):
                self._prune()
                self._open[request_id] = e
                await send(request_id)
    ''')
    facts = _facts(src)
    graph = call_graph(facts)
    fn = next(f for f in facts.nodes(ast.AsyncFunctionDef) if f.name == "add")
    assert not swept_on_insertion(facts, graph, _container(facts, "self._open"), fn)


def test_reset_needs_a_repeating_background_path():
    good = (CORPUS / "good/call_names_reset_on_reconnect.py").read_text()
    bad = (CORPUS / "bad/reset_in_close_only.py").read_text()
    for src, want in ((good, True), (bad, False)):
        facts = _facts(src)
        assert reset_repeatedly(facts, call_graph(facts), _container(facts, "self._call_names")) is want
