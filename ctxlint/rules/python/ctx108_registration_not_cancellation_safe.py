"""CTX108 registration-not-cancellation-safe: per-request state registered in a
long-lived container before an `await` that can be cancelled."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import scope_kind
from ctxlint.semantic.python.calls import call_graph, function_index, params_of
from ctxlint.semantic.python.cleanup import (
    catches_cancellation,
    field_of,
    last_name,
    pos,
    statements_reached_after,
)
from ctxlint.semantic.python.registries import (
    key_text,
    unconditional_in,
    await_never_suspends,
    helper_removes_key,
    swept_for_every_key,
    swept_on_insertion,
    reset_repeatedly,
    evicts_oldest,
)
from ctxlint.semantic.python.key_domains import bounded_key_domain
from ctxlint.semantic.python.streams import stream_leaks

#: Words of a callee's name that say it removes an entry; a documented hint for
#: callees this module cannot resolve (a resolved callee is judged by its summary).
_REMOVE_WORDS = ("abort", "cancel", "cleanup", "clean_up", "remove", "release", "free", "discard",
                 "unregister", "close", "finish", "evict", "pop", "delete", "drop")
#: Words of a key's name that say it identifies one request (besides the configured scope ids).
_REQUEST_KEY_WORDS = ("request", "stream_id", "run_id", "call_id", "job_id", "_rid")
#: Scope kinds (`semantic.python.cache_keys.scope_kind`) whose id names one request or
#: connection; the other kinds (tenant, user, adapter, salt, mm) name shared entities.
_PER_REQUEST_KINDS = ("request", "session")
#: Calls that hand the request to a background task (which then owns it).
_SPAWNS = ("create_task", "ensure_future", "create_background_task", "run_coroutine_threadsafe", "start_soon")


class _Site:
    """A candidate insertion: `node` in `fn` (the insertion, or the helper call that
    inserts), the container, the key expression, and the local names the entry is
    built from (for the hand-off test)."""

    __slots__ = ("node", "fn", "container", "key", "names", "via", "ins")

    def __init__(self, node, fn, container, key, names, via=None, ins=None):
        self.node, self.fn, self.container, self.key, self.names, self.via = node, fn, container, key, names, via
        self.ins = ins  # the innermost insertion (`ContainerSite`), in `fn` or in a helper


class RegistrationNotCancellationSafe(Rule):
    code = "CTX108"
    reported_when = (
        "always: the class or function shows the leak by itself (an entry that a path it owns never removes).")
    name = "registration-not-cancellation-safe"
    summary = ("In `async def`, per-request state this call owns (it removes the entry itself later, or "
               "creates it and hands the key on in the awaited call) is put into a long-lived container, "
               "then an `await` with no `try` that removes it on cancellation.")
    tokens = ("async",)
    doc = """\
## What it does
In an `async def`, flags an insertion of per-request state (keyed by a request,
stream, run, call or session id; by any key when the call removes the entry
itself) into a long-lived container (`self.live[rid] =
state` on an engine/frontend/manager, a module dict; a dict of `self` that an
`async def` fills under its own call's key and empties again itself, which only
makes sense while several calls share the object) that the code removes
(an abort/finish path exists, or the call's own later removal), when an `await` follows the insertion
outside any `try` whose `finally` or `except BaseException`/`except
CancelledError` removes the entry. An insertion made by a helper of this module
(`self._init_req_state(obj)`, found through the call graph's function summaries)
counts as the `async def`'s own, reported at the helper call.

The rule needs evidence that the entry is this call's own registration, which only
this call's normal path leads to removing. One of:

- the `async def` itself (or a helper it calls, passing the key) removes the same
  key after the `await` on its normal path, whenever it gets there (not on one
  branch only, not in another pass of a receive loop): the entry is meant to live
  for the call, and any `await` before that removal skips it when cancelled;
- the call creates the entry (it does not look the key up first: a duplicate
  check that raises is fine) and the `await` hands the key on (the awaited call is
  passed the key, or state built from it): until that hand-off completes, the
  party whose reply triggers the removal (`on_output`, `finish`) never hears of
  the request.

Not flagged, then: an entry this call finds already there or adds only if absent
(`if run_id not in self.active: self.active.add(run_id)`, `cur = self.gen.get(k)`
then a store, `setdefault`): it belongs to a run, a stream or another path of the object's
lifecycle (a server event's handler, a cleanup method) that removes it whatever
this call does; an `await` that only waits for the entry's own future after a
synchronous hand-off (the dispatcher that resolves it also pops it); an entry
keyed by a tenant, user, adapter or other shared scope (a per-user token store),
which many requests share and which outlives each of them.

Only an `await` on the insertion's own control-flow path counts: not one in
another `if`/`elif`/`else` branch, `match` case or `except` handler, not one past
an unconditional `return`/`raise` that follows the insertion, not one that the
control-flow graph reaches only through a `try` whose `finally` removes the entry,
not one earlier in a loop the insertion leaves with `break` (a claim loop: a pass
that finds the key taken waits for its owner, the pass that inserts breaks out into
the `try` that releases it), not one past an
`if` that returns on the value a helper returns on its inserting path (`fenced =
await self._fenced_add(...)`; `if fenced is not None: return fenced`), and not the
await inside the inserting statement (`self.live[rid] = await make(rid)` stores
only once it completed). Not flagged either: an entry holding a task spawned here
whose coroutine (a def of this module) removes the entry in its own `finally`, and
a bare id of finished work (added after an awaited call on that id) in a set or
constant-valued dict that another method clears or reassigns wholesale.

Not flagged either, because nothing can strand the entry: an entry that a periodic
sweep of the owner removes whatever left it (a def handed to a task, a thread or a
task group loops with `while` over a sweep that walks the container, or a table of
jobs whose cleanup removes this container's entry under the same key together with
the job's: `for job_id in list(self._jobs): await self.cleanup_job(job_id)`; or that
first collects the keys past an age, `stale = [k for k, t in self._at.items() if
now - t > ttl]`, then removes each, through up to four helpers of this module, a
coroutine handed to a task among them); an entry of a time-to-live cache that every
inserting call first prunes (a call, unconditional on its path, of a def whose loop
removes every entry past an age test); an entry of a container that a method other
than construction starts over (`self.X = {}`, `self.X.clear()`, unconditionally) on
a path a repeating background loop reaches (a connection loop that reconnects, and
so disconnects and drops the session's state); an `await` that never
suspends, so no cancellation can be delivered there (`put` on an `asyncio.Queue`
built without a size, directly or through a coroutine of this module that only
does that: announcing a parked approval on the session's event queue); and an
entry the call creates only after it already handed the key itself out (a
completed `await` of a call passed exactly the key, before the insertion, in the
inserting function or a caller on the way to it: `await cdp.setAutoAttach(
session_id=session_id)` then `self.sessions[session_id] = s`; `reply = await
rpc(conn, run_id)` then `registry[run_id] = conn`): whoever the key went to knows
the request already, the entry records what that exchange established (an attached
session, a run that answered) and is meant to outlive the call, so no later await
is the hand-off that announces it. An object that merely carries the key (`await
self.tokenize(req)`) is not the key handed out. Neither exemption covers an entry
the call removes itself later.

Not flagged either: an entry of a dict that is evicted oldest-first (the head of its
insertion order, `k, ts = next(iter(d.items()))` then `d.pop(k)` / `del d[k]`,
removed only while that entry is past an age read from a clock, `if ts > cutoff:
break`, or while the dict is over a size, `if len(d) > n:`): a FIFO/TTL cache like
one evicted with `popitem(last=False)`, whose entries (completion markers meant to
outlive the request) expire whatever left them; a head removal with no such test
is a drain, not a bound. And an entry written under a key from a bounded domain
(`semantic.python.key_domains`: a module constant such as an access-log field name,
a loop index over `range(n)`, a key checked against a fixed set) that the call does
not remove itself: the next request overwrites the same key, and the container
never holds more than the domain; such an entry that the call removes itself later
(a slot it frees after the `await`) is still reported.

A registry entry held by a streaming generator handed to a response is CTX110's;
cleanup after `yield` in a `@contextmanager` is CTX106's.

Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

## Why is this bad
Any `await` is a cancellation point: a client disconnect or a timeout raises
`CancelledError` there. When the entry is the call's own (it removes it later
itself, or only the reply to the hand-off it is awaiting would remove it), the
code that would normally arrange the removal (the call's own cleanup, the
caller's `except CancelledError`, the finish path) never runs or never learns
about the request, so the entry — and the prompt, the KV blocks and the queue it
holds — stays in the long-lived container forever.

## Example
```python
async def add(self, rid, prompt_ids):
    state = RequestState(rid, prompt_ids)
    self.live[rid] = state
    await self.core.submit(rid, prompt_ids)   # cancelled here: entry leaks
    return state.queue
```

## Use instead
```python
async def add(self, rid, prompt_ids):
    state = RequestState(rid, prompt_ids)
    self.live[rid] = state
    try:
        await self.core.submit(rid, prompt_ids)
    except BaseException:
        self.live.pop(rid, None)
        raise
    return state.queue
```

## Fix safety
No automatic fix: the right removal (pop, abort, release) depends on the container.

## Source
vllm-project/vllm#57061; sgl-project/sglang#28380; ray serve's ReplicaBase
`_access_log_context` and ray's KVTokenTracker `_completed_request_ids` (not
reported); Python docs, "asyncio: Task Cancellation"
(a `CancelledError` is thrown in at the task's next suspension); CPython
`Lib/asyncio/queues.py` (`Queue.put` waits only while the queue is full).
"""

    def check(self, facts):
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        graph = call_graph(facts)
        owned_by_stream = {id(leak.acq.node) for leak in stream_leaks(facts)}
        for site in _sites(facts, graph):
            if id(site.node) in owned_by_stream:
                continue  # a registry entry a response stream holds across its yields is CTX110's
            c = site.container
            fn = site.fn
            removal_methods = _removal_closure(facts, c)
            if swept_for_every_key(facts, graph, c):
                continue  # a periodic background sweep removes every entry, whatever left it
            if swept_on_insertion(facts, graph, c, fn):
                continue  # each call first prunes the entries past their age: a time-to-live cache
            if reset_repeatedly(facts, graph, c):
                continue  # started over on every reconnect/session from a background loop
            # a key of one request (not a server/adapter/config or per-user entry); other keys
            # count only when this call removes the entry itself (then it is per-call anyway)
            per_request = _per_request_key(facts, site.key) and not (
                site.ins is not None and bounded_key_domain(facts, c, site.ins))
            guard_keys = _key_names(facts, graph, site) or None
            if _guard_removes(facts, graph, site.node, fn, c, removal_methods, guard_keys):
                continue
            if _attached_to_registered_request(facts, site):
                continue  # the request's own registration (and its terminal path) owns the entry
            if _owned_by_spawned_task(facts, graph, site, removal_methods):
                continue  # the task stored in the entry removes it in its own `finally`
            if _callers_clean_up(facts, graph, fn, c):
                continue  # every caller removes the entry in `finally`/`except BaseException`
            if _settled_ids_reset_wholesale(facts, site):
                continue  # a record of finished work's ids, reset wholesale elsewhere
            limit = None
            for r in c.removals:
                if r.function is fn and pos(r.node) > pos(site.node) and _same_key(facts, graph, site, r.key) and not any(
                        isinstance(a, ast.ExceptHandler) for a in facts.ancestors(r.node)):
                    limit = pos(r.node) if limit is None else min(limit, pos(r.node))
            if any(r.function is not fn and r.function is not None
                   and fn in facts.ancestors(r.function) for r in c.removals):
                continue  # a callback/task defined here removes the entry
            key_names = _key_names(facts, graph, site)
            # Without this call's own removal, the entry is this call's only if the call
            # creates it: it does not look the key up first (an entry that may already be
            # there is shared with other calls or paths, which add to it or update it).
            created_here = per_request and not _key_read_before(facts, site, key_names)
            carriers = _carriers(facts, site, key_names)
            exit_if = _caller_exits_on_helper_result(facts, graph, site)
            sent_before = None  # computed on first need
            reach = None
            for aw in _awaits_after(facts, fn, site.node):
                if limit is not None and pos(aw) > limit:
                    break
                if not _on_path_after(facts, fn, site.node, aw):
                    continue  # another branch, or past a `return`/`raise` of the insertion's path
                if reach is None:
                    reach = _reached_with_entry(facts, graph, site, removal_methods)
                if not _same_statement(facts, site.node, aw) and id(facts.enclosing_statement(aw)) not in reach:
                    continue  # not on the control-flow graph after the insertion with the entry still in
                if exit_if is not None and pos(aw) > pos(exit_if) and not any(a is exit_if for a in facts.ancestors(aw)):
                    continue  # the helper's inserting path returns a value on which this call returns
                if _guard_removes(facts, graph, aw, fn, c, removal_methods, guard_keys):
                    continue
                if _cleanup_await_before_removal(facts, graph, aw, fn, c, removal_methods):
                    continue  # the cleanup block itself (abort, then remove): not the registration's window
                if _spawns_between(facts, fn, site.node, aw):
                    break  # a background task now owns the request
                if await_never_suspends(facts, graph, aw):
                    continue  # no cancellation can be delivered there (`await` of an unbounded queue's put)
                if not _removed_later_here(facts, graph, fn, site, aw, key_names):
                    if not created_here:
                        continue  # an entry this call neither creates nor removes: not its registration
                    if sent_before is None:
                        sent_before = _key_sent_before(facts, graph, site)
                    if sent_before:
                        continue  # the key was already handed out: this entry records that exchange
                    if not _hands_off(facts, graph, aw, carriers, removal_methods, c):
                        continue
                via = f" (registered by `{site.via}`)" if site.via else ""
                yield facts.finding(
                    self, site.node,
                    f"per-request entry put in long-lived `{c.name}`{via} before an `await` (line "
                    f"{aw.lineno}) with no `finally`/`except BaseException` that removes it: "
                    "a cancellation there leaves the entry forever",
                    # an owner this module never allocates may be one call's object: latent
                    confidence="low" if c.lifetime == "unknown" else "high",
                    trace=[(c.creation, f"this module never allocates `{getattr(c.owner, 'name', '')}`: "
                                        "whether the entry outlives the request is not shown")]
                    if c.lifetime == "unknown" and c.creation is not None else ())
                break


def _reached_with_entry(facts, graph, site, removal_methods: set[str]) -> set[int]:
    """Ids of the statements of `site.fn` that control reaches after the insertion while
    the entry may still be in the container (`cleanup.statements_reached_after`): a
    `break` out of the loop that inserted leaves that loop (an `await` earlier in the
    loop body runs only on passes that did not insert: waiting for another caller that
    owns the entry), and control does not get past a `try` whose `finally` removes the
    entry, nor past a plain statement holding a removal site of the container.

    Both barriers must remove THIS entry: the removal's key is the insertion's key (the
    same expression, or built from the same local names, `_key_names`), or a helper of
    this module is passed the key and removes it (`helper_removes_key`); and it runs
    whenever the `finally`/statement runs (`unconditional_in` below the barrier, and
    not one arm of a conditional expression). A `finally` that only releases a lock,
    or a removal of some other key (`self.live.pop(self.last)`), does not stop the
    entry's path."""
    c = site.container
    key_names = _key_names(facts, graph, site)
    direct = {id(r.node) for r in c.removals if r.function is site.fn and _same_key(facts, graph, site, r.key)}

    def removes_entry(n, stmt) -> bool:
        if id(n) in direct:
            pass
        elif isinstance(n, ast.Call) and key_names and graph.removes_from(n, c) \
                and helper_removes_key(facts, graph, n, c, key_names, 3):
            pass
        else:
            return False
        if not unconditional_in(facts, c, n, stmt):
            return False
        child = n
        for a in facts.ancestors(n):
            if a is stmt:
                return True
            if isinstance(a, ast.IfExp) and child is not a.test or \
                    isinstance(a, ast.BoolOp) and child is not a.values[0] or \
                    isinstance(a, (ast.Lambda, ast.comprehension, ast.ListComp, ast.SetComp, ast.DictComp,
                                   ast.GeneratorExp)):
                return False
            child = a
        return True

    def barrier(stmt) -> bool:
        if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            return any(removes_entry(n, stmt) for b in stmt.finalbody for n in facts.walk(b))
        if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete)):
            return any(removes_entry(n, stmt) for n in facts.walk(stmt))
        return False
    return statements_reached_after(facts, site.fn, site.node, barrier)


def _same_key(facts, graph, site, k: ast.AST | None) -> bool:
    """Is `k` (a removal's key in `site.fn`) the key of the site's entry: the same
    expression, or built from exactly the same locals of the call (`_key_names`; the
    method's receiver is not one: `self.live.pop(self.last)` removes another entry)?"""
    if k is None:
        return False
    if site.via is None and key_text(k) == key_text(site.key):
        return True
    key_names = _key_names(facts, graph, site)
    names = {n.id for n in ast.walk(k) if isinstance(n, ast.Name)} - {facts.receiver_param(site.fn)}
    return bool(key_names) and names == key_names


def _same_statement(facts, a: ast.AST, b: ast.AST) -> bool:
    return facts.enclosing_statement(a) is facts.enclosing_statement(b)


def _sites(facts, graph) -> list[_Site]:
    """Insertions into long-lived, removable, unbounded containers made by an
    `async def` directly or through a helper of this module, in source order."""
    out: list[_Site] = []
    seen: set[tuple[int, int]] = set()
    for c in facts.containers:
        if not (c.long_lived or c.lifetime == "unknown"):
            continue  # every owner is one call's local
        if not c.removals or c.bounded or evicts_oldest(facts, c):
            continue
        for site in c.inserts:
            fn = site.function
            if isinstance(fn, ast.AsyncFunctionDef) and site.key is not None:
                out.append(_Site(site.node, fn, c, site.key, _names_of(site.key, site.value), ins=site))
    for fn in facts.nodes(ast.AsyncFunctionDef):
        for call, reg in graph.registrations_by_calls(fn):
            c = reg.container
            if not c.removals or c.bounded or evicts_oldest(facts, c) or reg.key is None or not reg.params \
                    or reg.awaits_after:
                continue
            if (id(call), id(c)) in seen:
                continue
            seen.add((id(call), id(c)))
            target = graph.resolve(call)
            names: set[str] = set()
            for i in reg.params:
                arg = graph.arg_for(call, target, i)
                if arg is not None:
                    names |= {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
            names.discard("self")
            names.discard("cls")
            if not names:
                continue  # only the receiver flows in: not this request's entry
            out.append(_Site(call, fn, c, reg.key, names, via=facts.segment(call.func) or last_name(call.func),
                             ins=reg.site))
    out.sort(key=lambda s: pos(s.node))
    return out


def _helper_args(facts, graph, site, names: set[str]) -> set[str] | None:
    """For a helper-call site whose callee inserts itself: the caller's local names passed
    for the callee's parameters `names` (the callee's terms). None when the insertion is
    deeper than the called helper (then the parameters cannot be mapped)."""
    target = graph.resolve(site.node) if isinstance(site.node, ast.Call) else None
    if target is None or site.ins is None or target is not site.ins.function:
        return None
    out: set[str] = set()
    for i, p in enumerate(params_of(target)):
        if p in names:
            arg = graph.arg_for(site.node, target, i)
            if arg is not None:
                out |= {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
    return out - {"self", "cls"}


def _key_names(facts, graph, site) -> set[str]:
    """The local names of `site.fn` the entry's key is built from (`rid` for
    `self.live[rid]`, `obj` for `self.live[obj.rid]`; for a helper's insertion, the
    arguments passed for the parameters its key is built from)."""
    names = {n.id for n in ast.walk(site.key) if isinstance(n, ast.Name)} - {"self", "cls"}
    if site.via is None:
        return names
    mapped = _helper_args(facts, graph, site, names)
    return set(site.names) if mapped is None else mapped


def _is_duplicate_check(facts, read, ins_node) -> bool:
    """Is the same-key read the test of an `if` that raises when the entry exists, or of
    an `assert` (`if rid in self.live: raise ValueError("already running")`)? Such a
    check says one entry per call: the read does not make the entry shared."""
    stmt = facts.enclosing_statement(read.node)
    if isinstance(stmt, ast.Assert):
        return True
    return isinstance(stmt, ast.If) and any(a is stmt.test for a in (read.node, *facts.ancestors(read.node))) \
        and bool(stmt.body) and isinstance(stmt.body[-1], ast.Raise) \
        and not any(a is stmt for a in facts.ancestors(ins_node))


def _key_read_before(facts, site, key_names: set[str]) -> bool:
    """Does the inserting function look the same key up in the same container before
    it inserts (`if call_id not in self.pending:`, `cur = self.gen.get(run_id)`, a
    `setdefault`)?

    Then the entry may exist already, put there by another call or another path of
    the object's lifecycle (a per-run record, a per-stream buffer updated in place),
    and this call only adds or updates it: it is not a registration this call owns.
    A duplicate check that raises when the entry exists does not count."""
    ins = site.ins
    if ins is None or ins.key is None or ins.function is None:
        return False
    if ins.kind == "setdefault":
        return True  # get-or-create: the entry may be there already
    key = ast.dump(ins.key)
    for r in site.container.reads:
        if r.key is None or _is_duplicate_check(facts, r, ins.node if r.function is ins.function else site.node):
            continue
        if r.function is ins.function and pos(r.node) < pos(ins.node) and ast.dump(r.key) == key:
            return True
        if site.via is not None and r.function is site.fn and pos(r.node) < pos(site.node) and key_names \
                and {n.id for n in ast.walk(r.key) if isinstance(n, ast.Name)} == key_names:
            return True  # the `async def` looks the key up before calling the inserting helper
    return False


def _carriers(facts, site, key_names: set[str]) -> set[str]:
    """Names whose value carries the entry's key into a call: the key's names, and
    local names of `site.fn` assigned from an expression that uses one of them (the
    state built from the key, `state = RequestState(rid, ...)`; a message holding it,
    `msg = {"id": rid}`), followed through two assignments. A value not built from the
    key (`waiter = Waiter()`) does not carry it: awaiting it is waiting for the entry's
    owner, not handing the request on. For a helper's insertion, every local name the
    helper is passed counts."""
    out = set(key_names)
    if site.via is not None:
        out |= set(site.names)
    assigns = facts.memo(f"ctx108.assigns.{id(site.fn)}", lambda: [
        (n, {t.id for tg in (n.targets if isinstance(n, ast.Assign) else [n.target])
             for t in ast.walk(tg) if isinstance(t, ast.Name)},
         {m.id for m in ast.walk(n.value) if isinstance(m, ast.Name)},
         {id(m) for m in ast.walk(n.value)})
        for n in facts.walk(site.fn) if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
        and not any(isinstance(m, ast.Await) for m in ast.walk(n.value))])  # an awaited result is work done, not the key
    for _ in range(2):
        for _node, targets, used, inside in assigns:
            if used & out and id(site.node) not in inside:  # the registering call's result is not the key
                out |= targets
    return out - {"self", "cls"}


def _removed_later_here(facts, graph, fn, site, aw, key_names: set[str]) -> bool:
    """Does `fn` itself remove the entry (the same key), on its normal path after `aw`
    (not in an `except` handler), directly or through a helper of this module whose
    summary removes from the container? Then the author meant the entry to live for
    this call, and any `await` before that removal is a cancellation point that skips it."""
    c = site.container
    awaited = aw.value if isinstance(aw, ast.Await) else None
    if isinstance(awaited, ast.Call) and (graph.removes_from(awaited, c) or any(r.node is awaited for r in c.removals)):
        return False  # the await is the removal itself
    inside = {id(n) for n in ast.walk(aw)}
    key = ast.dump(site.key) if site.via is None else None
    for r in c.removals:
        if r.function is not fn or r.key is None or pos(r.node) <= pos(aw) or id(r.node) in inside:
            continue
        if key is not None:
            if ast.dump(r.key) != key:
                continue
        elif not ({n.id for n in ast.walk(r.key) if isinstance(n, ast.Name)} & key_names):
            continue
        if _removal_on_path(facts, c, fn, site.node, aw, r.node):
            return True
    for call in function_index(facts, fn).calls:
        if pos(call) <= pos(aw) or id(call) in inside or not graph.removes_from(call, c):
            continue
        if helper_removes_key(facts, graph, call, c, key_names, 2) \
                and _removal_on_path(facts, c, fn, site.node, aw, call):
            return True
    return False


def _removal_on_path(facts, c, fn, site_node, aw, removal) -> bool:
    """Is `removal` on the normal path after both the insertion and `aw`, in the same
    pass of any enclosing loop, and run whenever control gets there from `aw`: not
    under an `if` (other than a membership guard on the container, `if rid in c:`),
    a loop, a `match` case or an `except` handler that `aw` is not also inside?
    A removal on one branch only (`if ttl <= 0: c.pop(k)`) says the entry normally
    outlives the call."""
    if any(isinstance(a, ast.ExceptHandler) for a in facts.ancestors(removal)):
        return False
    if not (_on_path_after(facts, fn, site_node, removal, same_iteration=True)
            and _on_path_after(facts, fn, aw, removal, same_iteration=True)):
        return False
    around_aw = {id(a) for a in facts.ancestors(aw)}
    reads = {id(r.node) for r in c.reads}
    for a in facts.ancestors(removal):
        if a is fn or id(a) in around_aw:
            break
        if isinstance(a, ast.If) and not any(id(n) in reads for n in ast.walk(a.test)):
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.match_case)):
            return False
    return True


def _step_in(graph, target, reg_site) -> ast.AST | None:
    """The node of `target` that performs the insertion `reg_site`: the insertion itself,
    or the call of the helper (of this module) whose summary holds it."""
    if reg_site.function is target:
        return reg_site.node
    for call, t in graph.calls_in(target):
        if any(r.site is reg_site for r in graph.summary(t).registers):
            return call
    return None


_NO_EXIT = object()


def _exit_after(facts, node: ast.AST, fn) -> object:
    """The value `fn` returns on the path through `node`: the expression of the first
    unconditional `return` after it (`ast.Constant(None)` at the end of the body),
    or `_NO_EXIT` when that path cannot be told (a `raise`, or a statement in between
    that may itself return, break or continue)."""
    stmt = facts.enclosing_statement(node)
    cur = stmt
    while cur is not fn:
        parent = facts.parents.get(cur)
        if parent is None:
            return _NO_EXIT
        fld = field_of(parent, cur)
        if fld is None or isinstance(parent, (ast.For, ast.AsyncFor, ast.While, ast.Try)) \
                or type(parent).__name__ == "TryStar" or isinstance(parent, ast.ExceptHandler):
            return _NO_EXIT  # a loop or handler: the path does not simply fall out of the block
        seq = getattr(parent, fld)
        idx = next(k for k, x in enumerate(seq) if x is cur)
        for x in seq[idx + 1:]:
            if isinstance(x, ast.Return):
                return x.value if x.value is not None else ast.Constant(None)
            if isinstance(x, ast.Raise):
                return _NO_EXIT
            if any(isinstance(n, (ast.Return, ast.Raise, ast.Break, ast.Continue)) for n in facts.walk(x)):
                return _NO_EXIT
        cur = parent
    return ast.Constant(None)


def _test_holds(test: ast.AST, name: str, value) -> bool | None:
    """Value of the `if` test `test` when local `name` holds the constant `value`
    (`x is not None`, `x`, `not x`, `x == -1`, ...), or None when it cannot be told."""
    if isinstance(test, ast.Name) and test.id == name:
        return bool(value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _test_holds(test.operand, name, value)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
            and test.left.id == name and isinstance(test.comparators[0], ast.Constant):
        other = test.comparators[0].value
        op = test.ops[0]
        ops = {ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
               ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b}
        for t, f in ops.items():
            if isinstance(op, t):
                return f(value, other)
    return None


def _caller_exits_on_helper_result(facts, graph, site) -> ast.If | None:
    """For an insertion made by a helper (`fenced = await self._fenced_add(run_id, ev)`):
    the `if` right after the call that returns or raises (`if fenced is not None:
    return fenced`) when the helper's inserting path returns a constant that makes its
    test true. Then the awaits after that `if` are on another path than the insertion
    (the helper inserted only where it returned that value)."""
    if site.via is None or site.ins is None or not isinstance(site.node, ast.Call):
        return None
    stmt = facts.enclosing_statement(site.node)
    if not (isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None):
        return None
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    value = stmt.value.value if isinstance(stmt.value, ast.Await) else stmt.value
    if value is not site.node or len(targets) != 1 or not isinstance(targets[0], ast.Name):
        return None
    target = graph.resolve(site.node)
    if target is None:
        return None
    step = _step_in(graph, target, site.ins)
    if step is None:
        return None
    ret = _exit_after(facts, step, target)
    if ret is _NO_EXIT:
        return None
    try:
        returned = ast.literal_eval(ret)  # `-1`, `None`, `False`: a literal the caller can test
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    parent = facts.parents.get(stmt)
    seq = getattr(parent, field_of(parent, stmt) or "", None)
    i = _index(seq, stmt)
    if i is None or i + 1 >= len(seq):
        return None
    nxt = seq[i + 1]
    if isinstance(nxt, ast.If) and not nxt.orelse and nxt.body and isinstance(nxt.body[-1], (ast.Return, ast.Raise)) \
            and _test_holds(nxt.test, targets[0].id, returned) is True:
        return nxt
    return None


def _attached_to_registered_request(facts, site) -> bool:
    """Does `site.fn` look the same key up in another long-lived container before the
    insertion (`state = self.req_states.get(req_id)`, then `if state is None: raise`)?
    (A membership test such as `rid in self.aborted` does not count: only fetching the
    request's state object shows the request is registered.)
    Then the entry is auxiliary data of a request registered elsewhere, and that
    request's lifecycle, not this coroutine, is what removes it."""
    key = ast.dump(site.key)
    for c in facts.long_lived_containers:
        if c is site.container:
            continue
        for r in c.reads:
            if r.function is site.fn and r.key is not None and r.kind in ("get", "subscript") \
                    and pos(r.node) < pos(site.node) and ast.dump(r.key) == key \
                    and isinstance(facts.parents.get(r.node), (ast.Assign, ast.NamedExpr)):
                return True  # the request's state object is fetched: it exists already
    return False


def _call_chain(facts, graph, site) -> list[tuple[ast.AST, ast.AST]]:
    """(function, node) pairs from `site.fn` down to the insertion: `site.fn` with the
    call it makes (or the insertion itself), then each helper of this module on the
    way with the call of the next one, ending with the inserting function and the
    insertion. Empty when a step cannot be resolved."""
    ins = site.ins
    if ins is None or ins.function is None:
        return []
    chain = [(site.fn, site.node)]
    if site.via is None:
        return chain
    target = graph.resolve(site.node) if isinstance(site.node, ast.Call) else None
    for _ in range(4):
        if target is None:
            return []
        if target is ins.function:
            chain.append((target, ins.node))
            return chain
        step = _step_in(graph, target, ins)
        if step is None:
            return []
        chain.append((target, step))
        target = graph.resolve(step)
    return []


def _key_sent_before(facts, graph, site) -> bool:
    """Was the entry's key itself already handed out before the insertion: is there, on
    the insertion's path in the inserting function or in a caller on the way down from
    `site.fn`, a completed `await` of a call passed exactly the key (`await
    cdp.setAutoAttach(session_id=session_id)` before `self.sessions[session_id] = s`;
    `result = await rpc(session, execution_id)` before `registry[execution_id] = ...`)?

    Then whoever the key was sent to knows the request already, and the insertion records
    what that exchange established (a session that is attached, a run that answered):
    no later `await` is the hand-off that announces the entry to the path that removes
    it, so a cancellation there does not strand it. A call passed only an object
    carrying the key (`await self.tokenize(obj)`) does not count."""
    chain = _call_chain(facts, graph, site)
    keys: list[ast.AST] = [site.ins.key]
    for i in range(len(chain) - 1, -1, -1):
        fn, node = chain[i]
        if _awaits_key_before(facts, fn, node, {ast.dump(k) for k in keys}):
            return True
        if i == 0:
            break
        call = chain[i - 1][1]  # the call of `fn` one level up
        keys = [m for m in (_key_at_caller(graph, call, fn, k) for k in keys) if m is not None]
        if not keys:
            break
    return False


def _key_at_caller(graph, call: ast.Call, target, key: ast.AST) -> ast.AST | None:
    """`key` (a parameter of `target`, or an attribute of one) in the terms of the
    caller that passes the argument at `call`; None when it is not built that way."""
    base, attr = (key, None) if isinstance(key, ast.Name) else \
        (key.value, key.attr) if isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) else (None, None)
    params = params_of(target)
    if base is None or base.id not in params:
        return None
    arg = graph.arg_for(call, target, params.index(base.id))
    if arg is None or attr is None:
        return arg
    return ast.Attribute(value=arg, attr=attr, ctx=ast.Load())


def _awaits_key_before(facts, fn, node, dumps: set[str]) -> bool:
    """Does `fn` await, before `node` and on its path (or inside `node`'s own simple
    statement, which runs first), a call passed an argument equal to one of `dumps`?"""
    if not dumps:
        return False
    stmt = facts.enclosing_statement(node)
    for aw in function_index(facts, fn).awaits:
        if not isinstance(aw, ast.Await) or not isinstance(aw.value, ast.Call):
            continue
        if any(a is aw for a in facts.ancestors(node)):
            continue  # the await of the inserting call itself
        own = facts.enclosing_statement(aw) is stmt and isinstance(stmt, _SIMPLE_STMTS)
        if not own and (pos(aw) >= pos(node) or not _on_path_after(facts, fn, aw, node)):
            continue
        call = aw.value
        if any(ast.dump(a) in dumps for a in [*call.args, *(k.value for k in call.keywords)]):
            return True
    return False


def _names_of(key, value) -> set[str]:
    """Local names the inserted key and value are built from (`rid`, `req`, `state`)."""
    out: set[str] = set()
    for part in (key, value):
        if part is None:
            continue
        for n in ast.walk(part):
            if isinstance(n, ast.Name) and n.id not in ("self", "cls"):
                out.add(n.id)
    return out


#: Simple statements whose sub-expressions all run before the insertion they make
#: (`self.live[rid] = await make(rid)` stores only once the await has completed).
_SIMPLE_STMTS = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)


def _awaits_after(facts, fn, site_node):
    """The awaits of `fn`'s own body after the insertion `site_node`, in source order,
    without those inside the insertion's own simple statement (evaluated before it)."""
    start = pos(site_node)
    stmt = facts.enclosing_statement(site_node)
    own = stmt if isinstance(stmt, _SIMPLE_STMTS) else None
    out = []
    for n in function_index(facts, fn).awaits:
        if pos(n) > start and (own is None or facts.enclosing_statement(n) is not own):
            out.append(n)
    return out


def _chain(facts, node, fn) -> list:
    """`node`'s enclosing statement and its ancestors up to (excluding) `fn`, innermost first."""
    out = [facts.enclosing_statement(node)]
    for a in facts.ancestors(out[0]):
        if a is fn:
            break
        out.append(a)
    return out


def _exits(stmts) -> bool:
    return any(isinstance(s, (ast.Return, ast.Raise)) for s in stmts)


def _on_path_after(facts, fn, a: ast.AST, b: ast.AST, same_iteration: bool = False) -> bool:
    """Can control reach `b` after `a` (b later in the source) within one run of `fn`?

    False when they sit in exclusive branches of one statement (`if`/`elif`/`else`
    bodies, two `match` cases, two `except` handlers, a handler and the `else`) that
    no enclosing loop re-enters, or when an unconditional `return`/`raise` follows
    `a` on its path before `b` (a `finally` holding `b` still runs). Decided on the
    syntax tree: a conditional exit (`if x: return`) does not count. With
    `same_iteration`, an enclosing loop does not re-enter: `b` must follow `a` in one
    pass through the loop body.
    """
    ca_chain = _chain(facts, a, fn)
    cb_chain = _chain(facts, b, fn)
    cb_ids = {id(x): i for i, x in enumerate(cb_chain)}
    lca = None
    ia = ib = -1
    for i, x in enumerate(ca_chain):
        if id(x) in cb_ids:
            lca, ia, ib = x, i, cb_ids[id(x)]
            break
    if lca is None:  # both directly in `fn`'s body: compare top-level statements
        lca, ia, ib = fn, len(ca_chain), len(cb_chain)
        ca_chain = [*ca_chain, fn]
        cb_chain = [*cb_chain, fn]
    if ia == 0 or ib == 0:
        return True  # one contains the other (an `if` test, a loop header)
    sa, sb = ca_chain[ia - 1], cb_chain[ib - 1]
    fa, fb = field_of(lca, sa), field_of(lca, sb)
    in_loop = not same_iteration and any(
        isinstance(x, (ast.For, ast.AsyncFor, ast.While)) and field_of(x, y) == "body"
        for x, y in zip(ca_chain[ia:] + [fn], ca_chain[ia - 1:]))
    if not in_loop:
        if isinstance(lca, ast.If) and {fa, fb} == {"body", "orelse"}:
            return False
        if isinstance(sa, ast.match_case) and isinstance(sb, ast.match_case) and sa is not sb:
            return False
        if isinstance(lca, ast.Try) or type(lca).__name__ == "TryStar":
            if fa == "handlers" and fb in ("handlers", "orelse") and sa is not sb:
                return False
    if (isinstance(lca, ast.Try) or type(lca).__name__ == "TryStar") and fb == "finalbody" and fa != "finalbody":
        return True
    # an unconditional exit after `a` in one of its blocks, below the common statement
    for x in ca_chain[:ia - 1]:
        parent = facts.parents.get(x)
        seq = getattr(parent, field_of(parent, x) or "", None)
        i = _index(seq, x)
        if i is not None and _exits(seq[i + 1:]):
            return False
    if fa == fb and fa is not None:
        seq = getattr(lca, fa, None)
        i, j = _index(seq, sa), _index(seq, sb)
        if i is not None and j is not None and _exits(seq[i + 1:j]):
            return False
    return True


def _index(seq, x) -> int | None:
    """Position of `x` (by identity) in the statement list `seq`, or None."""
    if isinstance(seq, list):
        for k, y in enumerate(seq):
            if y is x:
                return k
    return None


def _owned_by_spawned_task(facts, graph, site, removal_methods) -> bool:
    """Is the entry's value a task spawned here (`task = self.create_task(self._run(job_id))`,
    `self.tasks[job_id] = task`) whose coroutine, a def of this module, removes the
    entry from the container in its own `finally`? Then cancelling the spawner
    leaves nothing behind: the task cleans up after itself whenever it ends."""
    ins = site.ins
    value = getattr(ins, "value", None)
    if value is None or ins.function is None:
        return False
    if isinstance(value, ast.Name):
        spawn = None
        for n in facts.walk(ins.function):
            if isinstance(n, ast.Assign) and pos(n) < pos(ins.node) and any(
                    isinstance(t, ast.Name) and t.id == value.id for t in n.targets):
                spawn = n.value
        value = spawn
    if not (isinstance(value, ast.Call) and last_name(value.func) in _SPAWNS and value.args
            and isinstance(value.args[0], ast.Call)):
        return False
    target = graph.resolve(value.args[0])
    if target is None:
        return False
    for t in facts.walk(target):
        if isinstance(t, ast.Try) or type(t).__name__ == "TryStar":
            for b in t.finalbody:
                for n in facts.walk(b):
                    if _removes(facts, graph, n, site.container, removal_methods):
                        return True
    return False


def _awaited_with(aw: ast.AST, names: set[str]) -> bool:
    """Is `aw` an `await` of a call passed one of `names` (the work done on that id)?"""
    if not isinstance(aw, ast.Await) or not isinstance(aw.value, ast.Call):
        return False
    call = aw.value
    return any(isinstance(n, ast.Name) and n.id in names
               for a in [*call.args, *(k.value for k in call.keywords)] for n in ast.walk(a))


def _settled_ids_reset_wholesale(facts, site) -> bool:
    """Is the entry a bare id of finished work in a container that is reset wholesale?

    All three must hold: the entry holds no object (a set's `add(id)`, or a dict
    value that is a constant); the inserting function awaited a call passed that id
    before inserting (the work the id records is done: `await self._send(call_id, r)`
    then `done.add(call_id)`);
    and the container is cleared or reassigned in a method other than the one that
    creates it (a session reset). Such a record is bounded by the reset, and a
    cancellation leaves no state of an unfinished request behind.
    """
    ins, c = site.ins, site.container
    if ins is None or ins.function is None:
        return False
    if ins.kind == "add":
        pass
    elif ins.kind in ("subscript", "setdefault", "__setitem__") and isinstance(ins.value, ast.Constant):
        pass
    else:
        return False
    ids = {n.id for n in ast.walk(ins.key) if isinstance(n, ast.Name)} if ins.key is not None else set()
    ids -= {"self", "cls"}
    if not ids or not any(pos(a) < pos(ins.node) and _awaited_with(a, ids)
                          for a in function_index(facts, ins.function).awaits):
        return False
    return any(r.kind in ("clear", "reassign") and r.method is not None and r.method is not c.creation_method
               and r.function is not ins.function for r in c.removals)


def _removes(facts, graph, n: ast.AST, container, removal_methods: set[str], key_names=None) -> bool:
    """Does node `n` remove from `container` (a removal site, a helper of this module
    whose summary removes from it, or a call whose name says it does)? With
    `key_names` (the locals the entry's key is built from), a call known only by its
    name must also be passed the key (`await self.engine.abort(rid)`): a
    `self._lock.release()` removes no entry."""
    if any(r.node is n for r in container.removals):
        return True
    if isinstance(n, ast.Call):
        if graph.removes_from(n, container):
            return True
        nm = last_name(n.func)
        if nm in removal_methods or any(w in nm.lower() for w in _REMOVE_WORDS):
            if key_names is None:
                return True
            passed = {x.id for a in (*n.args, *(k.value for k in n.keywords)) for x in ast.walk(a)
                      if isinstance(x, ast.Name)}
            return bool(passed & key_names)
    return False


def _guard_removes(facts, graph, node: ast.AST, fn, container, removal_methods: set[str],
                   key_names=None) -> bool:
    """Is `node` inside a `try` (its body, `else` or an `except` handler) whose `finally`
    — or, outside the handlers, whose cancellation handler — removes from `container`?"""
    child = node
    for a in facts.ancestors(node):
        if a is fn:
            return False
        where = field_of(a, child) if isinstance(a, ast.Try) or type(a).__name__ == "TryStar" else None
        if where in ("body", "orelse", "handlers"):
            # `finally` covers the body, `else` and the handlers; a cancellation handler
            # of the same `try` covers only its body and `else`
            blocks = list(a.finalbody)
            for h in a.handlers if where != "handlers" else ():
                if catches_cancellation(h):
                    blocks.extend(h.body)
            for b in blocks:
                for n in facts.walk(b):
                    if _removes(facts, graph, n, container, removal_methods, key_names):
                        return True
        child = a
    return False


def _cleanup_await_before_removal(facts, graph, aw: ast.AST, fn, container, removal_methods: set[str]) -> bool:
    """Is `aw` inside a `finally` block or an `except` handler that removes the entry
    after it (`finally: await self.abort(rid); self.live.discard(rid)`)? That block is
    the call's cleanup, run once the request is over or already being torn down; only a
    second cancellation arriving during it could skip the removal, which is not the
    window between registering and handing off that this rule reports."""
    child = aw
    for a in facts.ancestors(aw):
        if a is fn:
            return False
        block = None
        if (isinstance(a, ast.Try) or type(a).__name__ == "TryStar") and field_of(a, child) == "finalbody":
            block = a.finalbody
        elif isinstance(a, ast.ExceptHandler):
            block = a.body
        if block is not None and any(pos(n) > pos(aw) and _removes(facts, graph, n, container, removal_methods)
                                     for b in block for n in facts.walk(b)):
            return True
        child = a
    return False


def _removal_closure(facts, c) -> set[str]:
    """Names of the functions that remove from `c`, directly or by calling one that does."""
    names = set(c.removal_methods())
    scope = c.owner if c.owner is not None else facts.tree

    def compute():
        funcs = [n for n in facts.walk(scope, into_defs=True) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return {f.name: {last_name(n.func) for n in facts.walk(f, into_defs=True) if isinstance(n, ast.Call)}
                for f in funcs}
    calls = facts.memo(f"ctx108.calls_in.{id(scope)}", compute)
    changed = True
    while changed:
        changed = False
        for f, called in calls.items():
            if f not in names and called & names:
                names.add(f)
                changed = True
    names.discard("<module>")
    return names


def _per_request_key(facts, key: ast.AST) -> bool:
    """Does the key name one request (a configured scope id of the request or session
    kind such as `rid`/`request_id`/`session_id`, or a name saying request/stream/run/
    call/job id)? A key of a tenant, user, adapter or other shared scope names an
    entity that many requests share and that outlives each of them (a per-user token
    store): its entry is not one call's registration."""
    for n in ast.walk(key):
        if isinstance(n, (ast.Name, ast.Attribute)):
            d = facts.dotted(n) or ""
            last = d.split(".")[-1].lower()
            sid = facts.scope_id_in(d)
            if (sid and scope_kind(sid) in _PER_REQUEST_KINDS) or any(w in last for w in _REQUEST_KEY_WORDS):
                return True
    return False


def _spawns_between(facts, fn, start: ast.AST, end: ast.AST) -> bool:
    for n in function_index(facts, fn).calls:
        if last_name(n.func) in _SPAWNS and pos(start) < pos(n) < pos(end):
            return True
    return False


def _hands_off(facts, graph, aw: ast.AST, names: set[str], removal_methods: set[str], container) -> bool:
    """Is the awaited call the hand-off of this request (it is passed the key or the state)?

    `await self.core.submit(rid, prompt)` after `self.live[rid] = state` is the
    window of vllm#57061: cancelled there, nobody downstream knows the request.
    Awaits unrelated to the entry (a lock, a sleep, a cleanup call) are not.
    """
    if not isinstance(aw, ast.Await) or not isinstance(aw.value, ast.Call):
        return False
    call = aw.value
    if last_name(call.func) in removal_methods or last_name(call.func) in ("shield", "sleep"):
        return False
    if graph.removes_from(call, container):
        return False
    for a in [*call.args, *(k.value for k in call.keywords)]:
        for n in ast.walk(a):
            if isinstance(n, ast.Name) and n.id in names:
                return True
    return False


def _callers_clean_up(facts, graph, fn, c, depth: int = 0) -> bool:
    """Does every path into `fn` run under a cleanup that removes from container `c` on
    cancellation: each caller (the module's call graph) calls `fn` inside a `try` whose
    `finally` or `except BaseException`/`CancelledError`/bare `except` removes from `c`
    (a removal site of `c`, or a call of a def whose summary removes from `c`), or is
    itself called only so, up to three levels (lightllm's `generate` -> ... ->
    `fetch_stream`, whose `finally: remove_req(...)`, fresh review)."""
    if depth > 3:
        return False
    callers = graph.callers(fn)
    if not callers:
        return False
    removal_nodes = {id(r.node) for r in c.removals}
    for call, caller in callers:
        if _under_cleanup(facts, graph, call, caller, c, removal_nodes):
            continue
        if not _callers_clean_up(facts, graph, caller, c, depth + 1):
            return False
    return True


def _under_cleanup(facts, graph, call, caller, c, removal_nodes) -> bool:
    for a in facts.ancestors(call):
        if a is caller:
            return False
        if not isinstance(a, ast.Try):
            continue
        blocks = list(a.finalbody)
        for h in a.handlers:
            names = {facts.dotted(t) or "" for t in ([h.type] if not isinstance(h.type, ast.Tuple)
                                                      else h.type.elts)} if h.type is not None else {""}
            if names & {"", "BaseException", "asyncio.CancelledError", "CancelledError"}:
                blocks.extend(h.body)
        if not blocks or not any(call is n for st in a.body for n in ast.walk(st)):
            continue
        for st in blocks:
            if isinstance(st, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)):
                continue  # a conditional cleanup (L07: `if q is not None`, never true mid-`add`)
            for n in ast.walk(st):
                if id(n) in removal_nodes:
                    return True
                if isinstance(n, ast.Call) and graph.removes_from(n, c):
                    return True
    return False
