"""CTX404 terminal-path-missing-removal: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.calls import call_graph
from ctxlint.semantic.python.registries import (
    closure, ends_one_request, key_text, owner_functions,
    reaches_scope_id, is_terminal,
)


class TerminalPathMissingRemoval(Rule):
    code = "CTX404"
    reported_when = (
        "always: the class or function shows the leak by itself (an entry that a path it owns never removes).")
    name = "terminal-path-missing-removal"
    summary = "A per-request registry entry removed on one terminal path and left behind (or only marked finished) on another."
    tokens = ("{}", "dict(", "Dict(", "set()", "[]", "OrderedDict", "defaultdict", "list(", "deque(", "field(")
    doc = """\
## What it does
For every long-lived container (module, class, or `self.` attribute of a
long-lived object), finds a method that looks a request's entry up by its key and
marks it finished — sets an attribute of the entry, or a string key of a dict entry, to a
constant (`entry.status = Status.FINISHED`, `state["finished"] = True`) that the method
removing entries also sets, or
while removing the key from a sibling container — but never removes the entry
itself, when no sweep removes entries by that attribute. It also finds the
terminal methods named as such (a hint: finish, abort, cancel, timeout, evict,
close, expire, fail, reject) and the ones among them that remove an
entry (directly or through a helper method they call). A terminal method that
handles the same key (removes it from a sibling container that some method fills
together with this one) but never removes it from this container is reported, at
its `def`: a close owes removal only from the containers its acquisition path
fills, so closing an async session owes nothing to a table only the sync path
fills. Only terminal paths of one request are compared: a method that takes no key
of the registry and looks none up (a `close()`/`cancel_all(reason)` that walks every
entry and ends the whole object) is not one; what it leaves goes with the object.
So is
a public terminal method that takes the key (`abort_request(request_id)`) and only
logs it or passes it to sibling methods, removing nothing from any container.

Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

## Why is this bad
Requests end on several paths. When only the happy path (finish) removes the
request's entry, every aborted, cancelled or timed-out request leaks one —
under load, or when clients disconnect, the engine grows without limit and
keeps the request's state (prompt, outputs, blocks) reachable.

## Example
```python
class Engine:
    def finish(self, rid):
        self.running.pop(rid)
        self.streams.pop(rid)

    def abort(self, rid):
        self.running.pop(rid)     # streams[rid] is left behind
```

## Use instead
```python
    def abort(self, rid):
        self.running.pop(rid, None)
        self.streams.pop(rid, None)
```
or route every terminal path through one `_free_request(rid)` helper.

## Fix safety
No automatic fix: where the removal belongs depends on the code.

## Source
vllm-project/vllm#16472 (aborted n>1 requests left in `child_to_group`);
sgl-project/sglang abort-path leaks of per-request state.
"""

    def check(self, facts):
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        by_owner: dict[int, list] = {}
        for c in facts.long_lived_containers:
            if c.bound in ("weak", "maxsize") or not c.removals or not c.inserts:
                continue
            by_owner.setdefault(id(c.owner), []).append(c)
        for group in by_owner.values():
            owner = group[0].owner
            funcs = owner_functions(facts, group[0])
            yield from self._marked_not_removed(facts, group, funcs)
            # public terminal methods only: private helpers are phases of a protocol, not the
            # end of a request's life (a finding there was a false positive on real engines)
            terminals = {n: f for n, f in funcs.items() if is_terminal(n) and not n.startswith("_")}
            if len(terminals) < 2:
                continue
            reach = closure(facts, funcs, owner is None)
            all_containers = [c for c in facts.containers if c.owner is owner]
            for c in group:
                if id(c) in self._reported(facts):
                    continue
                keyed = [s for s in c.removals if s.key is not None]
                # the registry must be keyed per request/tenant/adapter (a scope id)
                if not any(reaches_scope_id(facts, s.key, s.function) for s in (*keyed, *c.inserts)):
                    continue
                removers = {s.method_name for s in keyed}
                keys = {t for s in (*keyed, *c.inserts) if (t := key_text(s.key))}
                removing = [t for t in terminals if reach[t] & removers]
                if not removing:
                    continue
                for t, tfn in terminals.items():
                    if reach[t] & removers:
                        continue
                    if not ends_one_request(facts, call_graph(facts), tfn, all_containers):
                        continue  # takes no key and looks none up: it tears the whole object down
                    if not (_touches_key(c, all_containers, reach[t], keys, reach)
                            or _only_logs_key(facts, tfn, keys, reach[t], funcs, all_containers)):
                        continue
                    yield facts.finding(self, tfn,
                                        f"`{t}()` ends the request but leaves its entry in `{c.name}`, "
                                        f"which `{removing[0]}()` removes: every request that ends through "
                                        f"`{t}()` leaks one entry", end=tfn.args)


    @staticmethod
    def _reported(facts) -> set[int]:
        return facts.memo("ctx404.reported", set)

    def _marked_not_removed(self, facts, group, funcs):
        """The value-based terminal path: a method that looks an entry up by its key and
        marks it finished (sets the same attribute to a constant that the removing method
        sets: `req.status = Status.ABORTED`) but never removes it, while a sibling method
        removes the entry. Silent when a sweep removes entries by that attribute."""
        owner = group[0].owner
        reach = closure(facts, funcs, owner is None)
        for c in group:
            keyed = [s for s in c.removals if s.key is not None]
            removers = {s.method_name for s in keyed}
            if not removers:
                continue
            marks = {name: _marks(facts, c, reach[name], funcs) for name in funcs}
            remover_names = [a for a in funcs if reach[a] & removers]
            for b, bfn in funcs.items():
                if reach[b] & removers or not marks[b] or b in ("__init__", "__del__"):
                    continue
                found = None
                for a in remover_names:
                    # the remover marks the entry it removes, in the same function, with
                    # the very value `b` sets: `b` performs the same ending, minus the removal
                    shared = [x for x in set(marks[a]) & set(marks[b])
                              if ast.dump(marks[a][x]) == ast.dump(marks[b][x])
                              and _marked_where_removed(facts, c, a, reach, x)]
                    if shared:
                        found = (a, sorted(shared)[0], "when it marks")
                        break
                if found is None and remover_names and is_terminal(b):
                    # named as a terminal path (a hint) while only marking this entry
                    found = (remover_names[0], sorted(marks[b])[0], "")
                if found is None:
                    continue
                a, attr, how = found
                if _swept(facts, c, attr) or _consumed(facts, attr, funcs, reach, removers):
                    continue
                self._reported(facts).add(id(c))
                field = f"[{attr!r}]" if isinstance(facts.parents.get(marks[b][attr]), ast.Assign) and \
                    isinstance(facts.parents[marks[b][attr]].targets[0], ast.Subscript) else f".{attr}"
                tail = f" when it marks `{field}`" if how else ""
                yield facts.finding(self, bfn,
                                    f"`{b}()` marks the request finished (`{field} = "
                                    f"{facts.segment(marks[b][attr])}`) but leaves its entry in `{c.name}`, "
                                    f"which `{a}()` removes{tail}: every request that ends through `{b}()` "
                                    f"stays in `{c.name}`", end=bfn.args)


def _marked_where_removed(facts, c, a: str, reach, attr: str) -> bool:
    """Does a function reached from `a` both remove an entry of `c` and set `.attr`?"""
    for s in c.removals:
        if s.method_name in reach[a] and s.function is not None and s.key is not None:
            for n in facts.walk(s.function):
                if isinstance(n, ast.Assign) and any(_field(t)[1] == attr for t in n.targets):
                    return True
    return False


def _field(t: ast.AST) -> tuple[ast.AST | None, str | None]:
    """(the object, the field name) of `obj.attr` or `obj["key"]` (a constant string key:
    a dict entry marked as a record is, `state["finished"] = True`); (None, None) else."""
    if isinstance(t, ast.Attribute):
        return t.value, t.attr
    if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
        return t.value, t.slice.value
    return None, None


def _reads_field(n: ast.AST, attr: str) -> bool:
    """Is `n` a read of field `attr`: `x.attr`, `x["attr"]` or `x.get("attr")`?"""
    if isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, ast.Load):
        return _field(n)[1] == attr
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
        and bool(n.args) and isinstance(n.args[0], ast.Constant) and n.args[0].value == attr


def _constant_like(facts, v: ast.AST) -> bool:
    """A literal other than a reset value (None/False/0/""), or a module-level name /
    enum member (`FINISHED`, `Status.ABORTED`): a state, not a cleared field."""
    if isinstance(v, ast.Constant):
        return v.value not in (None, False, 0, "", b"")
    root = v
    while isinstance(root, ast.Attribute):
        root = root.value
    return isinstance(root, ast.Name) and root.id in facts.module_names and root is not v or \
        (isinstance(v, ast.Name) and v.id in facts.module_names)


def _marks(facts, c, methods: set[str], funcs) -> dict[str, ast.AST]:
    """attr -> assigned value: attributes that `methods` set to a constant on an entry of
    `c` they fetched (`e = c[k]`, `e = c.get(k)`, `e = c.pop(k)`, `c[k].attr = ...`)."""
    out: dict[str, ast.AST] = {}
    for s in (*c.reads, *c.removals):
        if s.method_name not in methods or s.function is None:
            continue
        node = s.node
        p = facts.parents.get(node)
        entry_names = set()
        if isinstance(p, ast.Assign) and p.value is node and len(p.targets) == 1 \
                and isinstance(p.targets[0], ast.Name):
            entry_names.add(p.targets[0].id)
        for n in facts.walk(s.function):
            if not isinstance(n, ast.Assign) or len(n.targets) != 1:
                continue
            obj, attr = _field(n.targets[0])
            if obj is None:
                continue
            hit = (isinstance(obj, ast.Name) and obj.id in entry_names) or obj is node
            if hit and _constant_like(facts, n.value):
                out.setdefault(attr, n.value)
    return out


def _consumed(facts, attr: str, funcs, reach, removers) -> bool:
    """Is `.attr` read by a method that (itself or through what it calls) removes entries?
    Then the mark is a deferred release (`release_requested`), consumed on a removal path."""
    for name, fn in funcs.items():
        if not reach[name] & removers:
            continue
        for n in facts.walk(fn, into_defs=True):
            if _reads_field(n, attr):
                return True
    return False


def _swept(facts, c, attr: str) -> bool:
    """Is a removal from `c` conditioned on `.attr` (a sweep of finished entries)?"""
    def reads(expr) -> bool:
        return expr is not None and any(_reads_field(n, attr) for n in ast.walk(expr))
    for s in c.removals:
        for a in facts.ancestors(s.node):
            if isinstance(a, (ast.If, ast.While, ast.IfExp)) and reads(a.test):
                return True
            if isinstance(a, (ast.For, ast.AsyncFor)) and reads(a.iter):
                return True
            if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
    return False


def _touches_key(c, containers, methods: set[str], keys: set[str], reach) -> bool:
    """Does code in `methods` remove one of `keys` from a sibling container that is filled
    together with `c` (a cleanup path for the same request that forgets `c`)?

    A close path owes removal only from the containers its acquisition path fills: when
    no method fills both the sibling and `c` (an async and a sync session table, each
    filled by its own `create_*`), the sibling's close undoes an entry that never had
    one in `c`. `reach` is `closure(...)` over the owner's functions."""
    fillers_c = _fillers(c, reach)
    for other in containers:
        if other is c:
            continue
        for s in other.removals:
            if s.method_name in methods and key_text(s.key) in keys and fillers_c & _fillers(other, reach):
                return True
    return False


def _fillers(c, reach) -> set[str]:
    """Names of the owner's functions that insert into `c`, themselves or through the
    functions they call (`get_browser` reaching `_create_session`); construction excluded."""
    direct = {s.method_name for s in c.inserts if s.method_name not in ("__init__", "__post_init__", "<module>")}
    return {name for name, seen in reach.items() if seen & direct}


_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def _is_log_call(facts, call: ast.Call) -> bool:
    """`logger.info(...)`, `logging.warning(...)`, `self._log.debug(...)`, `print(...)`."""
    f = call.func
    if isinstance(f, ast.Name):
        return f.id == "print"
    if isinstance(f, ast.Attribute) and f.attr in _LOG_METHODS:
        recv = (facts.dotted(f.value) or "").split(".")[-1].lower()
        return "log" in recv
    return False


def _only_logs_key(facts, tfn, keys: set[str], methods: set[str], funcs: dict[str, ast.AST],
                   containers) -> bool:
    """Is `tfn` a terminal method that takes the request's key (a parameter named like
    the container's key, `request_id`) and does nothing with it but log it or pass it to
    sibling methods, while removing nothing from any container of the owner (itself
    or through the methods it reaches)? Such an `abort_request` ends the request in
    name only: every entry its sibling terminal method pops stays behind. A key handed
    to another object (`self.scheduler.abort(rid)`) may be removed there, so it is not
    this case."""
    params = {a.arg for a in (*tfn.args.posonlyargs, *tfn.args.args, *tfn.args.kwonlyargs)}
    kparams = params & keys
    if not kparams:
        return False
    for other in containers:
        if any(s.method_name in methods for s in other.removals):
            return False
    used = False
    for n in facts.walk(tfn, into_defs=True):
        if not (isinstance(n, ast.Name) and n.id in kparams and isinstance(n.ctx, ast.Load)):
            continue
        ok = False
        for a in facts.ancestors(n):
            if a is tfn or isinstance(a, ast.stmt):
                break
            if isinstance(a, ast.Call):
                if _is_log_call(facts, a):
                    ok = True
                    break
                f = a.func
                if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                        and f.value.id in ("self", "cls") and f.attr in funcs):
                    ok = True
                    break
                if isinstance(f, ast.Name) and f.id in funcs:
                    ok = True
                    break
        if not ok:
            return False
        used = True
    return used
