"""Review fixes for the registry facts behind CTX108 and CTX404: a barrier must remove
this entry's key, a sweep must remove every key on every pass and run in the
background for good, and a terminal method's parameter is followed through locals."""

import ast
import pathlib
import textwrap

from ctxlint.config import Config
from ctxlint.rules.python.ctx108_registration_not_cancellation_safe import RegistrationNotCancellationSafe
from ctxlint.rules.python.ctx404_terminal_path_missing_removal import TerminalPathMissingRemoval
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.registries import swept_for_every_key

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "corpus"


def _facts(src: str, path: str = "case.py") -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts(path, src, ast.parse(src), Config())


def _lines(rule, src):
    return sorted(f.line for f in rule.check(_facts(src)))


def _corpus_lines(rule, rel):
    p = CORPUS / rel
    return sorted(f.line for f in rule.check(_facts(p.read_text(), str(p))))


def test_lock_release_in_finally_is_not_a_barrier():
    assert _corpus_lines(RegistrationNotCancellationSafe(), "CTX108/bad/lock_released_in_finally_not_entry.py") == [14]


def test_removal_of_another_key_is_not_a_barrier():
    assert _corpus_lines(RegistrationNotCancellationSafe(), "CTX108/bad/evicts_previous_request_not_own.py") == [13]


def test_conditional_sweep_does_not_reap_every_key():
    rule = RegistrationNotCancellationSafe()
    assert _corpus_lines(rule, "CTX108/bad/housekeeping_drops_only_finished.py") == [17]
    assert _corpus_lines(rule, "CTX108/bad/reaper_drops_only_done_entries.py") == [24]


def test_awaited_one_shot_drain_is_not_a_background_sweep():
    assert _corpus_lines(RegistrationNotCancellationSafe(), "CTX108/bad/drain_on_stop_is_not_a_sweep.py") == [13]


def test_age_test_sweep_counts():
    src = (CORPUS / "CTX108/good/task_group_janitor_expires_by_deadline.py").read_text()
    f = _facts(src)
    c = next(c for c in f.containers if c.name == "self._waiters")
    assert swept_for_every_key(f, call_graph(f), c)
    assert _lines(RegistrationNotCancellationSafe(), src) == []


def test_terminal_parameter_followed_through_local():
    assert _corpus_lines(TerminalPathMissingRemoval(), "CTX404/bad/abort_by_request_object_ends_session.py") == [43]


def test_close_without_key_still_silent():
    src = """
        class Pool:
            def __init__(self):
                self._live = {}
                self._tokens = {}

            def add(self, request_id):
                self._live[request_id] = 1
                self._tokens[request_id] = 1

            def finish_request(self, request_id):
                self._live.pop(request_id, None)
                self._tokens.pop(request_id, None)

            def _end(self, request_id):
                self._live.pop(request_id, None)

            def close(self):
                for request_id in list(self._live):
                    self._end(request_id)
    """
    assert _lines(TerminalPathMissingRemoval(), src) == []
