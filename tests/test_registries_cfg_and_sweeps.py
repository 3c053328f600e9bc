"""Round-11 registry misreads fixed as kinds (CTX108, CTX404).

* CTX108 blames only an `await` reachable on the control-flow graph from the
  insertion with the entry still in (`cleanup.statements_reached_after`): a `break`
  out of the claiming loop does not re-enter it, and a `try` whose `finally` removes
  the entry is a barrier (crewai-tools browser_session_manager).
* CTX108 leaves an entry that a periodic background sweep of the same owner removes
  for every key it walks (`registries.swept_for_every_key`; langflow JobQueueService).
* CTX404 compares only terminal paths of one request: a teardown that takes no key
  and looks none up (`registries.ends_one_request`) is not one (lmcache connector close).
"""
import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules.python.ctx108_registration_not_cancellation_safe import RegistrationNotCancellationSafe
from ctxlint.rules.python.ctx404_terminal_path_missing_removal import TerminalPathMissingRemoval
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.cleanup import statements_reached_after
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.registries import ends_one_request, swept_for_every_key


def _facts(src: str) -> PythonFacts:
    src = textwrap.dedent(src)
    return PythonFacts("case.py", src, ast.parse(src), Config())


def _lines(rule, src):
    return sorted(f.line for f in rule.check(_facts(src)))


def _fn(facts, name):
    return next(n for n in ast.walk(facts.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.name == name)


def _stmt_lines(facts, ids):
    return sorted({n.lineno for n in ast.walk(facts.tree) if isinstance(n, ast.stmt) and id(n) in ids})


# ------------------------------------------------------------ statements_reached_after

_LOOP = """
async def get(self, k):
    while True:
        if k in self.done:
            return self.done[k]
        if k not in self.creating:
            self.creating[k] = 1
            break
        ev = self.creating[k]
        await ev.wait()
    try:
        return await self.make(k)
    finally:
        self.creating.pop(k)
    await self.after(k)
"""


def test_break_leaves_the_loop_without_reentering_it():
    f = _facts(_LOOP)
    fn = _fn(f, "get")
    ins = next(n for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.lineno == 7)
    lines = _stmt_lines(f, statements_reached_after(f, fn, ins.targets[0]))
    assert 10 not in lines and 9 not in lines  # the wait for another owner
    assert {8, 11, 12, 14} <= set(lines)
    assert 15 not in lines  # the `try` body returns: only its `finally` runs on the way out


def test_try_with_removing_finally_is_a_barrier():
    f = _facts(_LOOP.replace("return await self.make(k)", "await self.make(k)"))
    fn = _fn(f, "get")
    ins = next(n for n in ast.walk(fn) if isinstance(n, ast.Assign) and n.lineno == 7)
    assert 15 in _stmt_lines(f, statements_reached_after(f, fn, ins.targets[0]))
    lines = _stmt_lines(f, statements_reached_after(f, fn, ins.targets[0],
                                                    barrier=lambda s: isinstance(s, ast.Try)))
    assert 12 in lines and 14 in lines and 15 not in lines


def test_continue_reenters_the_loop_and_raise_ends_the_path():
    f = _facts("""
        async def f(self, xs):
            for x in xs:
                await self.pre(x)
                if x:
                    self.c[x] = 1
                    continue
                raise ValueError(x)
            await self.post()
    """)
    fn = _fn(f, "f")
    ins = next(n for n in ast.walk(fn) if isinstance(n, ast.Assign))
    lines = _stmt_lines(f, statements_reached_after(f, fn, ins.targets[0]))
    assert {3, 4, 8, 9} <= set(lines)  # the next pass, and the end of the loop
    lines = _stmt_lines(f, statements_reached_after(f, fn, fn.body[0].body[2]))  # from the raise
    assert lines == [8]


def test_exclusive_branches_and_handlers():
    f = _facts("""
        async def f(self, k):
            try:
                if k:
                    self.c[k] = 1
                else:
                    await self.other(k)
            except KeyError:
                await self.on_error(k)
            await self.tail(k)
    """)
    fn = _fn(f, "f")
    ins = next(n for n in ast.walk(fn) if isinstance(n, ast.Assign))
    lines = _stmt_lines(f, statements_reached_after(f, fn, ins.targets[0]))
    assert 7 not in lines and {9, 10} <= set(lines)


# ------------------------------------------------------------ CTX108: claim loops

def test_ctx108_claim_loop_that_breaks_into_finally_is_silent():
    assert _lines(RegistrationNotCancellationSafe(), """
        import asyncio
        class Pool:
            def __init__(self):
                self._made = {}
                self._claims = {}
            async def get(self, run_id):
                while True:
                    if run_id in self._made:
                        return self._made[run_id]
                    if run_id not in self._claims:
                        self._claims[run_id] = asyncio.Event()
                        break
                    waiter = self._claims[run_id]
                    await waiter.wait()
                try:
                    self._made[run_id] = await self.build(run_id)
                    return self._made[run_id]
                finally:
                    self._claims.pop(run_id).set()
    """) == []


def test_ctx108_claim_loop_awaiting_between_break_and_try_fires():
    assert _lines(RegistrationNotCancellationSafe(), """
        import asyncio
        class Pool:
            def __init__(self):
                self._made = {}
                self._claims = {}
            async def get(self, run_id):
                while True:
                    if run_id in self._made:
                        return self._made[run_id]
                    if run_id not in self._claims:
                        self._claims[run_id] = asyncio.Event()
                        break
                    waiter = self._claims[run_id]
                    await waiter.wait()
                await self.announce(run_id)
                try:
                    self._made[run_id] = await self.build(run_id)
                    return self._made[run_id]
                finally:
                    self._claims.pop(run_id).set()
    """) == [12]


def test_ctx108_continue_after_insert_reaches_the_loops_await():
    # the pass that inserts goes round again and awaits before the guarded `try`
    assert _lines(RegistrationNotCancellationSafe(), """
        import asyncio
        class Pool:
            def __init__(self):
                self._claims = {}
            async def get(self, run_id, tries):
                for t in tries:
                    if t and run_id not in self._claims:
                        self._claims[run_id] = asyncio.Event()
                        continue
                    await self.probe(run_id)
                try:
                    return await self.build(run_id)
                finally:
                    self._claims.pop(run_id, None)
    """) == [9]


# ------------------------------------------------------------ swept_for_every_key

_SWEPT = """
import asyncio, time
class Svc:
    def __init__(self):
        self._jobs = {}
        self._marks = set()
        self._closed = False
    def start(self):
        self._t = asyncio.create_task(self._loop())
    async def mark(self, job_id):
        self._marks.add(job_id)
        await self.store.put(job_id)
    async def drop(self, job_id):
        self._jobs.pop(job_id, None)
        self._marks.discard(job_id)
    async def _loop(self):
        while not self._closed:
            await asyncio.sleep(5)
            await self._walk()
    async def _walk(self):
        now = time.monotonic()
        for job_id, started in list(self._jobs.items()):
            if now - started > 60:
                await self.drop(job_id)
"""


def _c(facts, name):
    return next(c for c in facts.containers if c.name == name)


def test_swept_through_companion_cleanup_from_a_task():
    f = _facts(_SWEPT)
    assert swept_for_every_key(f, call_graph(f), _c(f, "self._marks"))
    assert _lines(RegistrationNotCancellationSafe(), _SWEPT) == []


def test_not_swept_when_the_loop_never_starts():
    src = _SWEPT.replace("self._t = asyncio.create_task(self._loop())", "pass")
    f = _facts(src)
    assert not swept_for_every_key(f, call_graph(f), _c(f, "self._marks"))
    assert _lines(RegistrationNotCancellationSafe(), src) == [11]


def test_not_swept_when_the_cleanup_keeps_the_marker():
    src = _SWEPT.replace("        self._marks.discard(job_id)\n", "") + \
        "    def unmark(self, job_id):\n        self._marks.discard(job_id)\n"
    f = _facts(src)
    assert not swept_for_every_key(f, call_graph(f), _c(f, "self._marks"))
    assert _lines(RegistrationNotCancellationSafe(), src) == [11]


def test_not_swept_when_the_cleanup_does_not_drop_the_walked_table():
    # the loop walks `_jobs` but drops only the marker: nothing ties a marker to a job
    src = _SWEPT.replace("        self._jobs.pop(job_id, None)\n", "")
    f = _facts(src)
    assert not swept_for_every_key(f, call_graph(f), _c(f, "self._marks"))


def test_swept_by_a_thread_walking_the_table_itself():
    src = """
        import threading, time
        class Client:
            def __init__(self, conn):
                self.conn = conn
                self._pending = {}
                threading.Thread(target=self._tidy, daemon=True).start()
            async def call(self, call_id, waiter):
                self._pending[call_id] = waiter
                await self.conn.send(call_id)
                return await waiter
            def on_reply(self, call_id, v):
                self._pending.pop(call_id).set_result(v)
            def _tidy(self):
                while True:
                    time.sleep(1)
                    for call_id, (t0, w) in list(self._pending.items()):
                        if time.monotonic() - t0 > 30:
                            del self._pending[call_id]
    """
    f = _facts(src)
    assert swept_for_every_key(f, call_graph(f), _c(f, "self._pending"))
    assert _lines(RegistrationNotCancellationSafe(), src) == []


# ------------------------------------------------------------ CTX404: one request's terminal paths

_CONNECTOR = """
class Conn:
    def __init__(self, client):
        self.client = client
        self._open = set()
        self._stored = {}
    def store(self, request_id, n):
        self._open.add(request_id)
        self._stored[request_id] = n
    def end_session(self, request_id):
        self._open.discard(request_id)
    def finish_request(self, request_id):
        self.end_session(request_id)
        self._stored.pop(request_id, None)
    def close(self):
        for request_id in list(self._open):
            self.end_session(request_id)
        self.client.close()
"""


def test_ends_one_request_tells_teardown_from_per_request_paths():
    f = _facts(_CONNECTOR)
    g = call_graph(f)
    cs = [c for c in f.containers]
    assert ends_one_request(f, g, _fn(f, "finish_request"), cs)
    assert not ends_one_request(f, g, _fn(f, "close"), cs)


def test_ctx404_teardown_close_is_silent_but_abort_beside_it_fires():
    assert _lines(TerminalPathMissingRemoval(), _CONNECTOR) == []
    src = _CONNECTOR + "    def abort_request(self, request_id):\n        self.end_session(request_id)\n"
    assert _lines(TerminalPathMissingRemoval(), src) == [19]


def test_ctx404_terminal_with_a_non_key_argument_is_a_teardown():
    src = _CONNECTOR.replace("def close(self):", "def close(self, timeout=5.0):")
    assert _lines(TerminalPathMissingRemoval(), src) == []


def test_ctx404_terminal_that_looks_the_key_up_still_counts():
    src = _CONNECTOR + ("    def cancel_current(self):\n        request_id = self.current\n"
                        "        self._open.discard(request_id)\n")
    assert _lines(TerminalPathMissingRemoval(), src) == [19]
