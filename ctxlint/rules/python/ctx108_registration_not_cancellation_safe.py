"""CTX108 registration-not-cancellation-safe: per-request state registered in a
long-lived container before an `await` that can be cancelled."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.calls import call_graph, function_index
from ctxlint.semantic.python.cleanup import (
    catches_cancellation,
    field_of,
    last_name,
    pos,
)
from ctxlint.semantic.python.streams import stream_leaks

#: Words of a callee's name that say it removes an entry; a documented hint for
#: callees this module cannot resolve (a resolved callee is judged by its summary).
_REMOVE_WORDS = ("abort", "cancel", "cleanup", "clean_up", "remove", "release", "free", "discard",
                 "unregister", "close", "finish", "evict", "pop", "delete", "drop")
#: Words of a removing method's name that say it reaps abandoned entries on a timer.
_SWEEP_WORDS = ("sweep", "expire", "evict", "reap", "gc", "timeout", "prune", "janitor")
#: Words of a key's name that say it identifies one request (besides the configured scope ids).
_REQUEST_KEY_WORDS = ("request", "stream_id", "run_id", "call_id", "job_id", "_rid")
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
    name = "registration-not-cancellation-safe"
    summary = "async def puts per-request state in a long-lived container, then awaits with no cancellation-safe removal."
    tokens = ("async",)
    doc = """\
## What it does
In an `async def`, flags an insertion of per-request state (keyed by a request,
session, stream or tenant id) into a long-lived container (`self.live[rid] = state`
on an engine/frontend/manager, a module dict) that the code removes elsewhere (an
abort/finish path exists), when an `await` that hands the request on follows the
insertion outside any `try` whose `finally` or `except BaseException`/`except
CancelledError` removes the entry. An insertion made by a helper of this module
(`self._init_req_state(obj)`, found through the call graph's function summaries)
counts as the `async def`'s own, reported at the helper call.

Only an `await` on the insertion's own control-flow path counts: not one in
another `if`/`elif`/`else` branch, `match` case or `except` handler, not one past
an unconditional `return`/`raise` that follows the insertion, and not the await
inside the inserting statement (`self.live[rid] = await make(rid)` stores only once
it completed). Not flagged either: an entry holding a task spawned here whose
coroutine (a def of this module) removes the entry in its own `finally`, and a bare
id of finished work (added after an awaited call on that id) in a set or
constant-valued dict that another method clears or reassigns wholesale.

A registry entry held by a streaming generator handed to a response is CTX110's;
cleanup after `yield` in a `@contextmanager` is CTX106's.

## Why is this bad
Any `await` is a cancellation point: a client disconnect or a timeout raises
`CancelledError` there. The code that would normally arrange the removal (the
caller's `except CancelledError`, the finish path) never learns about the
request, so the entry — and the prompt, the KV blocks and the queue it holds —
stays in the long-lived container forever.

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
vllm-project/vllm#57061; sgl-project/sglang#28380; Python docs, "asyncio: Task Cancellation".
"""

    def check(self, facts):
        graph = call_graph(facts)
        owned_by_stream = {id(leak.acq.node) for leak in stream_leaks(facts)}
        for site in _sites(facts, graph):
            if id(site.node) in owned_by_stream:
                continue  # a registry entry a response stream holds across its yields is CTX110's
            c = site.container
            fn = site.fn
            removal_methods = _removal_closure(facts, c)
            if any(w in m.lower() for m in removal_methods for w in _SWEEP_WORDS):
                continue  # a sweeper/expiry loop reaps abandoned entries
            if not _per_request_key(facts, site.key):
                continue  # a server/adapter/config registration, not one request's state
            if _guard_removes(facts, graph, site.node, fn, c, removal_methods):
                continue
            if _attached_to_registered_request(facts, site):
                continue  # the request's own registration (and its terminal path) owns the entry
            if _owned_by_spawned_task(facts, graph, site, removal_methods):
                continue  # the task stored in the entry removes it in its own `finally`
            if _settled_ids_reset_wholesale(facts, site):
                continue  # a record of finished work's ids, reset wholesale elsewhere
            limit = None
            for r in c.removals:
                if r.function is fn and pos(r.node) > pos(site.node) and not any(
                        isinstance(a, ast.ExceptHandler) for a in facts.ancestors(r.node)):
                    limit = pos(r.node) if limit is None else min(limit, pos(r.node))
            if any(r.function is not fn and r.function is not None
                   and fn in facts.ancestors(r.function) for r in c.removals):
                continue  # a callback/task defined here removes the entry
            for aw in _awaits_after(facts, fn, site.node):
                if limit is not None and pos(aw) > limit:
                    break
                if not _on_path_after(facts, fn, site.node, aw):
                    continue  # another branch, or past a `return`/`raise` of the insertion's path
                if _guard_removes(facts, graph, aw, fn, c, removal_methods):
                    continue
                if _spawns_between(facts, fn, site.node, aw):
                    break  # a background task now owns the request
                if not _hands_off(facts, graph, aw, site.names, removal_methods, c):
                    continue
                via = f" (registered by `{site.via}`)" if site.via else ""
                yield facts.finding(
                    self, site.node,
                    f"per-request entry put in long-lived `{c.name}`{via} before an `await` (line "
                    f"{aw.lineno}) with no `finally`/`except BaseException` that removes it: "
                    "a cancellation there leaves the entry forever")
                break


def _sites(facts, graph) -> list[_Site]:
    """Insertions into long-lived, removable, unbounded containers made by an
    `async def` directly or through a helper of this module, in source order."""
    out: list[_Site] = []
    seen: set[tuple[int, int]] = set()
    for c in facts.long_lived_containers:
        if not c.removals or c.bounded:
            continue
        for site in c.inserts:
            fn = site.function
            if isinstance(fn, ast.AsyncFunctionDef) and site.key is not None:
                out.append(_Site(site.node, fn, c, site.key, _names_of(site.key, site.value), ins=site))
    for fn in facts.nodes(ast.AsyncFunctionDef):
        for call, reg in graph.registrations_by_calls(fn):
            c = reg.container
            if not c.removals or c.bounded or reg.key is None or not reg.params or reg.awaits_after:
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


def _on_path_after(facts, fn, a: ast.AST, b: ast.AST) -> bool:
    """Can control reach `b` after `a` (b later in the source) within one run of `fn`?

    False when they sit in exclusive branches of one statement (`if`/`elif`/`else`
    bodies, two `match` cases, two `except` handlers, a handler and the `else`) that
    no enclosing loop re-enters, or when an unconditional `return`/`raise` follows
    `a` on its path before `b` (a `finally` holding `b` still runs). Decided on the
    syntax tree: a conditional exit (`if x: return`) does not count.
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
    in_loop = any(isinstance(x, (ast.For, ast.AsyncFor, ast.While)) and field_of(x, y) == "body"
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


def _removes(facts, graph, n: ast.AST, container, removal_methods: set[str]) -> bool:
    """Does node `n` remove from `container` (a removal site, a helper of this module
    whose summary removes from it, or a call whose name says it does)?"""
    if any(r.node is n for r in container.removals):
        return True
    if isinstance(n, ast.Call):
        if graph.removes_from(n, container):
            return True
        nm = last_name(n.func)
        if nm in removal_methods or any(w in nm.lower() for w in _REMOVE_WORDS):
            return True
    return False


def _guard_removes(facts, graph, node: ast.AST, fn, container, removal_methods: set[str]) -> bool:
    """Is `node` inside a `try` whose `finally`/cancellation handler removes from `container`?"""
    child = node
    for a in facts.ancestors(node):
        if a is fn:
            return False
        if (isinstance(a, ast.Try) or type(a).__name__ == "TryStar") and field_of(a, child) in ("body", "orelse"):
            blocks = list(a.finalbody)
            for h in a.handlers:
                if catches_cancellation(h):
                    blocks.extend(h.body)
            for b in blocks:
                for n in facts.walk(b):
                    if _removes(facts, graph, n, container, removal_methods):
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
    """Does the key name one request (a configured scope id such as `rid`/`request_id`/
    `session_id`, or a name saying request/stream/run/call/job id)?"""
    for n in ast.walk(key):
        if isinstance(n, (ast.Name, ast.Attribute)):
            d = facts.dotted(n) or ""
            last = d.split(".")[-1].lower()
            if facts.scope_id_in(d) or any(w in last for w in _REQUEST_KEY_WORDS):
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
