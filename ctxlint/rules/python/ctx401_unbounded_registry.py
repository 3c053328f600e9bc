"""CTX401 unbounded-registry: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast
import re

from ctxlint.findings import UNSAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.cache_keys import scope_kind
from ctxlint.semantic.python.containers import GROWING_METHODS, SHRINKING_METHODS
from ctxlint.semantic.python.key_domains import bounded_key_domain
from ctxlint.semantic.python.registries import (
    DATA_CALLS, PER_EVENT_KINDS, SETUP_NAME, STARTUP_NAME, built_for_key, dedup_key, key_is_fresh, key_text,
    local_sources, names_in, reaches_scope_id, rebound_per_run, runs_at_construction, runs_once, name_words,
)


#: The trace step that says why a container outlives a request (`LongLivedContainer.lifetime`).
_LIFETIME_STEP = {
    "module": "`{name}` is created at import time and lives as long as the process",
    "class": "`{name}` is a class attribute: it lives as long as the class",
    "import-time instance": "`{owner}` is instantiated at module level: `{name}` lives as long as the process",
    "singleton": "`{owner}` is a singleton (metaclass or accessor): `{name}` lives as long as the process",
    "registry": "`{owner}` keys `{name}` by per-call ids in several methods: it serves many requests",
    "unknown": "this module never allocates `{owner}`: whether `{name}` outlives a request is not shown (latent)",
}


class UnboundedRegistry(Rule):
    code = "CTX401"
    manifest = "reached"
    reported_when = (
        'the container lives as long as the process by where it is allocated (module level, a class attribute, an instance made at import time, a singleton accessor or metaclass) and the insertion is reached from an entry point (route, handler, task, consumer): it grows once per request.'
    )
    name = "unbounded-registry"
    summary = ("A module-, class- or long-lived-instance container fills with per-request/tenant/"
               "adapter values and nothing ever removes them.")
    tokens = ("{}", "dict(", "Dict(", "set()", "[]", "OrderedDict", "defaultdict", "list(", "deque(", "field(")
    fix_safety = UNSAFE
    doc = """\
## What it does
Follows every long-lived container — a module-level or class-level dict/list/set,
or a `self.` attribute of a class whose instances live as long as the process
(engines, schedulers, managers, servers, frontends, registries, caches, pools) —
across every method of its class or function of its module. It reports the first
insertion when the container is filled per request (the key reaches a scope id
such as `request_id`, `tenant_id`, `user_id`, `adapter_id`, or the stored value is
per-request/per-adapter state, or the same key is removed from a sibling
container, other than to drop an emptied bucket) while no code ever removes an
entry: no `del`, `pop`, `clear`, reassignment, eviction call, no `maxsize`, no weak
references (a weak container, or values stored as `weakref.ref(obj)`, which keep no
object alive). Reading a missing key of a `defaultdict` inserts it
(`pending[request_id].append(chunk)` files an entry). A container keyed by a
population (users, tenants, adapters) is reported when each call appends to the
entry (`events[user_id].append(e)`, `setdefault(user_id, []).append(e)`): the entries
grow however few keys there are, so no bound on the keys is offered as a fix. Code that
removes given elements from the entries (`names[name].remove(user_id)` when a member
leaves) makes them membership collections, not histories: such an entry does not grow
with every call. An undo's `pop()` or a `clear()` of one key still leaves the others
growing, and is reported.

A key bound from a lookup of another container of the module (`w =
self._req_worker.pop(req_id)`, `.get(k)`, `c[k]`) is one of that container's values
(a worker index), judged by what that container stores, never by the lookup key.

A get-or-create grows by its lookup key, not by the key it stores under: when the
insertion runs only where a lookup of a never-emptied table under key `K` missed
(`if K not in d:`, or `x = d.get(K)` / `if x is not None: return x`) and the same
function fills that table under `K`, the entries are one per distinct `K`, and `K`
is what is judged (a token minted once per caller-given secret is not per call; one
minted per `request_id` is). A `self.` container that a method other than
construction (`__init__`, start-up methods, helpers only `__init__` calls) binds
unconditionally to a fresh empty container holds one run of that method, and is
not reported; created lazily under a test, it is the object's for its whole life.

Not reported either, because the keys come from a bounded domain and the container
holds at most one entry per value of it (`semantic.python.key_domains`): a literal
or module-level key (`ctx[ROUTE_FIELD]`, an imported constant), an attribute of an
imported module or of a class of the file, a tuple or f-string of such values, a
loop variable over `range(n)`, a literal collection, a module constant collection
or an `Enum`, a parameter of a private def that every caller passes such a value
(also through `threading.Thread(target=..., args=...)`, `run_in_executor`,
`submit`: a watcher thread per target of a short literal list); a key the write
checks against a fixed set first (`if kind not in KINDS: raise`, `if slot in
self.slots:`) or that is the key of a loop over the container's own keys (`for tid,
d in self.deadlines.items(): self.deadlines[tid] = None` rewrites an entry it holds),
or that the same def indexes without a default in a plain dict whose
keys are fixed (`self.rows = dict.fromkeys(range(n), 0)`; `self.rows[idx] += 1`:
any other index raises); and `d[k] += n` on a plain dict, which adds no key. A
parameter of a public method, a loop over a collection grown per call and a check
on one branch only are no such domain.

A `self.` container of a class whose every instance the file makes is an entry of a
container that drops its entries (created per task invocation and stored in a TTL
cache or a table that is popped or deleted, `defaultdict(Cls)` included) lives as
long as that entry, not as long as the process, and is not reported whatever the
class is named; an instance also kept elsewhere (`self.last = q`), returned or
passed on, or held by a table that never drops entries, keeps it long-lived.

Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

## Why is this bad
Every request, tenant or adapter leaves an entry behind. The process grows until
it is killed, and entries keep their values (compiled graphs, sampling groups,
adapter weights, request objects) reachable, with everything they reference.

## Example
```python
_USER_AGENTS: dict = {}

def get_agent(user_id: str):
    if user_id not in _USER_AGENTS:
        _USER_AGENTS[user_id] = compile_agent(user_id)
    return _USER_AGENTS[user_id]
```

## Use instead
```python
import cachetools

_USER_AGENTS = cachetools.LRUCache(maxsize=256)
```
or a `weakref.WeakValueDictionary()`, or remove the entry on every path where
the request ends.

## Fix safety
Unsafe: bounding the cache evicts entries that other code may still expect, and
a `WeakValueDictionary` drops values nobody else references. The fix
(`bounded_registry`) uses `weakref.WeakValueDictionary()` only when the stored
values are objects a weak reference can hold (a class instance, `LoraAdapter(...)`,
`LoraAdapter(...).to(device)`) and something else keeps each of them: another
object's attribute (`request.group`), or another attribute or container the same
function stores it in. A parameter or a returned value is not enough: the caller
may drop it (mcp-agent's logger registry: a logger configured with a session id,
returned and dropped, would lose its configuration). Otherwise it bounds the
container, only where a lookup has a miss path (a membership test, `.get()`,
`.setdefault()`), so an evicted entry is recomputed: `cachetools.LRUCache(maxsize=1024)`
when the project depends on cachetools, else a small generated least-recently-used
`OrderedDict` subclass (`_BoundedDict`). Where neither holds, no fix is offered.
The fix's description in every report names the mapping it writes.

## Source
vllm-project/vllm#16472 (n>1 child requests kept in `child_to_group` forever);
theexperiencecompany/gaia#706 (per-user compiled agent graphs never evicted).
Bounded domains and per-invocation owners: ray's KubernetesEventProvider (one
resource version per watched target) and SplitCoordinator (per-split tables),
hatchet-sdk's OrderedCompletionQueue (one per task invocation, in a TTL cache).
"""

    def check(self, facts):  # noqa: C901 - one pass over the containers
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        found = []
        for c in facts.containers:
            if not (c.long_lived or c.lifetime == "unknown"):
                continue  # short-lived: every owner is one call's local
            if c.bounded or c.removals or c.escapes or not c.inserts:
                continue
            if c.kind in ("Counter",):
                continue
            if rebound_per_run(facts, c):
                continue  # started over empty by every run of a method: holds one run's entries
            site, why = self._per_scope_insert(facts, c)
            if site is not None:
                found.append((c, site, why))
        # containers filled together (same function, same key) are one forgotten lifecycle:
        # one finding, at the first insertion, naming the others
        groups: dict[tuple, list] = {}
        for c, site, why in found:
            groups.setdefault((id(site.function), key_text(site.key) or id(site.node)), []).append((c, site, why))
        for members in groups.values():
            members.sort(key=lambda m: (m[1].node.lineno, m[1].node.col_offset))
            c, site, why = members[0]
            others = [m[0].name for m in members[1:]]
            fix = None
            if c.kind in ("dict", "OrderedDict") and isinstance(c.creation, (ast.Dict, ast.Call)) \
                    and not (isinstance(c.creation, ast.Dict) and c.creation.keys) \
                    and not (isinstance(c.creation, ast.Call) and (c.creation.args or c.creation.keywords)) \
                    and not _appends_to_entry(facts, site):  # a bound on keys leaves each entry growing
                kind = _registry_kind(facts, site)
                weak = kind == "weak" and _weakly_holdable(facts, c)
                # the codemod's preconditions (`bounded_registry`): weak only for values kept
                # elsewhere, a bound only where a lookup has a miss path; else no fix at all
                if weak or _has_miss_path(c):
                    fix = Fix(description=("use a weakref.WeakValueDictionary (an entry lives as long as its value "
                                           "is held elsewhere)" if weak else
                                           "bound it with a least-recently-used mapping (cachetools.LRUCache where "
                                           "the project depends on cachetools, else a generated `_BoundedDict`)"),
                              safety=UNSAFE, codemod="bounded_registry",
                              data={"line": c.creation.lineno, "col": c.creation.col_offset, "kind": kind,
                                    "container": c.name})
            where = "module" if c.scope == "module" else (
                f"class `{c.owner.name}`" if c.scope == "class" else f"long-lived `{c.owner.name}`")
            also = (" (as do " + ", ".join(f"`{o}`" for o in others) + ", filled with the same key here)"
                    if others else "")
            # Lifetime from the owner's allocation site; repetition from an entry point.
            lifetime = _LIFETIME_STEP.get(c.lifetime or "", "")
            life = [(c.creation if c.creation is not None else site.node,
                     lifetime.format(name=c.name, owner=getattr(c.owner, "name", "")))] if lifetime else []
            unknown = c.lifetime == "unknown"
            yield facts.finding(self, site.node,
                                f"`{c.name}` ({where} {c.kind}) gets an entry per {why} in "
                                f"`{site.method_name}()`{also} but no path removes entries and it has no bound; "
                                "remove on every terminal path or use a bounded/weak cache", fix=fix,
                                confidence="low" if unknown else None, trace=life)

    @staticmethod
    def _per_scope_insert(facts, c):
        """The first insertion that is per request/tenant/adapter, and why; else (None, None)."""
        siblings = [o for o in facts.containers if o is not c and o.owner is c.owner
                    and any(r.key is not None and not _tidies_bucket(facts, o, r) for r in o.removals)] \
            if (c.owner is not None or c.scope == "module") else []
        for s in c.inserts:
            if s.function is None or s.method_name in ("__init__", "__post_init__", "<module>"):
                continue
            if s.kind in ("update", "extend") or runs_once(s.method_name, STARTUP_NAME):
                continue
            if _weak_value(facts, s.value):
                continue  # `cache[k] = weakref.ref(obj)`: the entry keeps no object alive
            key = s.key if s.key is not None else (s.value if s.kind in ("add",) else None)
            if isinstance(key, ast.Constant):
                continue
            dk = dedup_key(facts, s)
            if dk is not None:
                # a get-or-create: one entry per distinct `dk`, however the stored key is made
                key = dk
            if bounded_key_domain(facts, c, s, key):
                continue  # a key from a bounded domain: one entry per value, overwritten after that
            if runs_at_construction(facts, s.function):
                continue  # a private helper only `__init__` (or module level) calls
            sid = reaches_scope_id(facts, key, s.function)
            if sid and (scope_kind(sid) in PER_EVENT_KINDS or key_is_fresh(facts, key, s.function)
                        or built_for_key(facts, s.value, s.function, s.node)):
                # `register_request(request_id)` is per request even though `register_model` is
                # not; a per-user/tenant/adapter key leaks when each entry is state built for it
                return s, f"`{sid}`"
            if sid and _appends_to_entry(facts, s) and not _entries_shrink(facts, c):
                # `events[user_id].append(e)` on a defaultdict, `setdefault(user_id, []).append(e)`:
                # the entry itself grows on every call, however few users there are
                return s, f"`{sid}` (each call appends to that entry)"
            if sid is None and key_is_fresh(facts, key, s.function):
                return s, "fresh key (new on every call)"
            if runs_once(s.method_name, SETUP_NAME):
                continue
            t = key_text(s.key)
            if t and s.key is not None and _filled_together(facts, s, siblings):
                return s, f"key `{t}` (removed from its sibling containers, never from this one)"
            if s.key is not None and s.value is not None and _per_scope_value(facts, s):
                return s, "request/adapter object"
        return None, None


def _appends_to_entry(facts, site) -> bool:
    """Does insertion `site` add to the entry it files rather than replace it: a
    defaultdict read followed by a growing method (`d[k].append(x)`) or a `setdefault`
    whose result is grown (`d.setdefault(k, []).append(x)`)? Each call then makes the
    entry longer, so even a container keyed by a bounded population (users, tenants)
    grows without bound."""
    if site.kind not in ("defaultdict", "setdefault"):
        return False
    outer = facts.parents.get(site.node)
    call = facts.parents.get(outer) if isinstance(outer, ast.Attribute) else None
    return isinstance(call, ast.Call) and call.func is outer and outer.attr in GROWING_METHODS


def _entries_shrink(facts, c) -> bool:
    """Does some code take a given element back out of the entries of `c`
    (`c[k].remove(v)`, `c[k].discard(v)`, `c.get(k, set()).discard(v)`)? Then the
    entries are membership collections whose elements leave as they came (matrix-nio's
    `MatrixRoom.names`: a member's id appended under their display name, removed on
    leave or rename), not histories that grow with every call; what is left is one
    entry per key, judged as any keyed insert. Trimming (`c[k].pop()` of an undo,
    `c[k].clear()`) is not such a removal: the appends of every other call stay."""
    for site in (*c.inserts, *c.reads):
        outer = facts.parents.get(site.node)
        call = facts.parents.get(outer) if isinstance(outer, ast.Attribute) else None
        if isinstance(call, ast.Call) and call.func is outer and outer.attr in SHRINKING_METHODS:
            return True
    return False


def _weak_value(facts, value) -> bool:
    """Is the stored value a weak reference (`weakref.ref(obj)`, `weakref.proxy(obj)`,
    `weakref.WeakMethod(m)`)? Such an entry keeps nothing of its object alive; what is
    left per entry is a key and a dead reference, not the request's or adapter's state."""
    return isinstance(value, ast.Call) and (facts.qualname(value.func) or "") in (
        "weakref.ref", "weakref.proxy", "weakref.WeakMethod")


def _minted(facts, key, fn, depth: int = 2) -> bool:
    """Is the key an id minted for this call by formatting (`f"{parent}#{i}"`,
    `parent + "-" + str(i)`, `"{}:{}".format(a, b)`), followed through local assignments?
    Such keys are new on every call; an endpoint or a module name repeats."""
    if isinstance(key, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in key.values)
    if isinstance(key, ast.BinOp) and isinstance(key.op, (ast.Add, ast.Mod)):
        return any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(key))
    if isinstance(key, ast.Call) and isinstance(key.func, ast.Attribute) and key.func.attr == "format":
        return True
    if isinstance(key, ast.Name) and depth:
        return any(_minted(facts, src, fn, depth - 1) for src in local_sources(facts, fn, key.id, key))
    return False


def _filled_together(facts, site, siblings) -> bool:
    """Does the function of insertion `site` put the same per-call key — minted by
    formatting, or the id a public method is handed — into a sibling container (the same
    expression, in the same function) that removes entries by key elsewhere?
    Then the owner has a per-key lifecycle, and this container is the one it forgets."""
    t = key_text(site.key)
    fn = site.function
    public_param = isinstance(site.key, ast.Name) and not fn.name.startswith("_") and site.key.id in {
        a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if not (public_param or _minted(facts, site.key, fn)):
        return False
    for o in siblings:
        for ins in o.inserts:
            if ins.function is site.function and ins.key is not None and key_text(ins.key) == t:
                return True
    return False


def _tidies_bucket(facts, c, r) -> bool:
    """Is removal `r` of key `K` from `c` only the tidy-up of an emptied bucket: it runs
    under a test that `c`'s entry under `K` is empty (`if not c[K]:`, `if not paths:` with
    `paths = c.get(K, {})`, `if len(c[K]) == 0:`)? Such a removal drops a multimap's
    empty inner container when its last item goes; the key itself lives on (other
    tables keep it), so it is no evidence that keys have a lifecycle the owner ends."""
    kt = key_text(r.key)
    fn = r.function
    if kt is None or fn is None:
        return False

    def entry(expr) -> bool:
        """`c[K]`, `c.get(K...)`, or a local bound from one of them."""
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
                and len(expr.args) == 1:
            return entry(expr.args[0])
        if isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
                                               and expr.func.attr == "get" and expr.args):
            recv = expr.value if isinstance(expr, ast.Subscript) else expr.func.value
            key = expr.slice if isinstance(expr, ast.Subscript) else expr.args[0]
            return key_text(key) == kt and key_text(recv) == key_text(_receiver(r))
        if isinstance(expr, ast.Name):
            srcs = local_sources(facts, fn, expr.id, r.node)
            return bool(srcs) and all(entry(v) for v in srcs)
        return False

    def says_empty(test) -> bool:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return entry(test.operand)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
            other = test.comparators[0]
            return entry(test.left) and (isinstance(other, ast.Constant) and other.value == 0
                                         or isinstance(other, (ast.Dict, ast.List, ast.Set))
                                         and not getattr(other, "keys", None) and not getattr(other, "elts", None))
        return False

    for a in facts.ancestors(r.node):
        if a is fn:
            break
        if isinstance(a, ast.If) and says_empty(a.test):
            return True
    return False


def _receiver(site) -> ast.AST | None:
    """The container expression of a removal site (`self.c` of `self.c.pop(k)` / `del self.c[k]`)."""
    n = site.node
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
        return n.func.value
    if isinstance(n, ast.Subscript):
        return n.value
    return None


def _per_scope_value(facts, s) -> bool:
    """Is the stored value a per-request/per-adapter object built at the insertion (a
    call named for one: `prepare_lora_adapter(...)`, `RequestState(...)`)? A value that
    is only passed in or looked up (`= session`, `= user`) is the caller's object, and a
    pool of those is bounded by what the caller keeps; the call is the evidence that
    this container is where a new per-scope object starts to live."""
    v = s.value
    if isinstance(v, ast.Await):
        v = v.value
    if not isinstance(v, ast.Call):
        return False
    text = facts.dotted(v.func if isinstance(v, ast.Call) else v) or ""
    if re.search(r"(cls|class|type|factory|fn|func|callback)$", text, re.I):
        return False
    if isinstance(v.func, ast.Name) and s.function is not None:
        held = _held_callables(facts, s.function, v.func.id)
        if held and not any(_per_scope_words(facts.dotted(h) or "") for h in held):
            # a callable held in a local or parameter (`adapter = kwargs.pop("template_adapter",
            # SimpleTemplate)`; `adapter(source=tpl)`): what it builds is told by what it holds
            # (SimpleTemplate), not by the variable's name; one that holds `RequestState` or
            # `partial(load_lora_adapter, ...)` keeps the verdict
            return False
    names = names_in(v)
    if isinstance(v, ast.Call):
        names = [facts.dotted(v.func) or ""]
    for n in names:
        if _per_scope_words(n):
            return True
        if facts.scope_id_in(n):
            return True
    return False


def _per_scope_words(dotted_name: str) -> bool:
    """Does the last part of a callable's name say it builds a per-request/adapter object?"""
    return any(w in ("request", "req", "adapter", "lora") for w in name_words(dotted_name.split(".")[-1]))


def _held_callables(facts, fn, name: str) -> list[ast.AST]:
    """What the local or parameter `name` of `fn` holds, when every binding says: a
    parameter's default, the values assigned to it, with `kwargs.pop(k, D)` / `.get(k, D)`
    read as `D` and `functools.partial(F, ...)` as `F`. [] when any binding is unknown (a
    parameter without default, a loop variable)."""
    a = fn.args
    out: list[ast.AST] = []
    positional = [*a.posonlyargs, *a.args]
    defaults = dict(zip([p.arg for p in positional][len(positional) - len(a.defaults):], a.defaults))
    defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    params = {p.arg for p in (*positional, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x))}
    if name in params:
        if name not in defaults:
            return []
        out.append(defaults[name])
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
            p = facts.parents.get(n)
            if not (isinstance(p, ast.Assign) and p.targets == [n]):
                return []
            out.append(p.value)
    held = []
    for v in out:
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in ("pop", "get") \
                and len(v.args) == 2:
            v = v.args[1]
        elif isinstance(v, ast.Call) and (facts.qualname(v.func) or "").split(".")[-1] == "partial" and v.args:
            v = v.args[0]
        if not isinstance(v, (ast.Name, ast.Attribute)):
            return []
        held.append(v)
    return held


#: Words naming objects a weak reference can hold (class instances: models, adapters,
#: modules, compiled graphs, clients, sessions...).
_OBJECT_WORDS = frozenset({
    "model", "adapter", "lora", "module", "layer", "graph", "agent", "client", "engine", "session",
    "pipeline", "tokenizer", "processor", "connection", "conn", "worker", "runner", "handler",
    "executor", "manager", "server", "socket", "stream", "future", "task", "request", "req",
    "sequence", "seq", "group", "program", "kernel", "backend", "instance", "object", "obj", "peft",
})
#: Methods that return their receiver (or an object of its class): `LoraAdapter(...).to(dev)`.
_SELF_RETURNING = frozenset({"to", "cuda", "cpu", "eval", "train", "half", "float", "bfloat16",
                             "requires_grad_", "share_memory", "compile", "bind", "with_options"})


def _has_miss_path(c) -> bool:
    """Does a lookup of container `c` have a miss path (a membership test, `.get()`,
    `.setdefault()`)? Then an entry a bound evicts is recomputed, not lost."""
    return any(r.kind in ("get", "in") for r in c.reads) or any(i.kind == "setdefault" for i in c.inserts)


def _weakly_holdable(facts, c) -> bool:
    """Can every value stored in `c` live in a WeakValueDictionary without vanishing:
    each insertion stores an object something else keeps - another object's attribute
    (`request.group`), or a local the same function also stores on an attribute or in
    another container? A parameter or a returned value is not enough: its caller may
    drop it (mcp-agent's logger registry, issue 35). The codemod checks the same
    (`python_codemods._held_elsewhere`)."""
    if not c.inserts:
        return False
    for site in c.inserts:
        v = site.value
        if site.kind not in ("subscript", "setdefault") or v is None:
            return False
        if isinstance(v, ast.Attribute):
            continue
        if not (isinstance(v, ast.Name) and site.function is not None):
            return False
        stmt = facts.enclosing_statement(site.node)
        if not any(isinstance(n, ast.Assign) and n is not stmt and isinstance(n.value, ast.Name)
                   and n.value.id == v.id and any(isinstance(t, (ast.Attribute, ast.Subscript)) for t in n.targets)
                   for n in facts.walk(site.function)):
            return False
    return True


def _registry_kind(facts, site) -> str:
    """"weak" when the stored value is an object a `weakref.WeakValueDictionary` can hold
    (a class instance: model, adapter, module, graph, client), else "lru" (strings,
    numbers, tuples, bytes, lists and other data a weak reference cannot hold).

    Evidence, in order: the value expression itself (a CapWords constructor call, a
    method chain on one such as `.to(device)`, a literal or data-returning call), then
    the local assignments it comes from, then the words of its names."""
    return "weak" if _is_object_value(facts, site.value, site.function, site.node, 3) else "lru"


def _is_object_value(facts, v: ast.AST | None, fn, before: ast.AST, depth: int) -> bool:
    if v is None:
        return False
    if isinstance(v, (ast.Constant, ast.JoinedStr, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.BinOp,
                      ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Compare, ast.BoolOp,
                      ast.UnaryOp)):
        return False
    if isinstance(v, ast.IfExp):
        return _is_object_value(facts, v.body, fn, before, depth) or \
            _is_object_value(facts, v.orelse, fn, before, depth)
    if isinstance(v, ast.Await):
        return _is_object_value(facts, v.value, fn, before, depth)
    if isinstance(v, ast.Call):
        f = v.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if name in DATA_CALLS:
            return False
        if name[:1].isupper():
            return True
        if isinstance(f, ast.Attribute) and name in _SELF_RETURNING:
            return _is_object_value(facts, f.value, fn, before, depth)
        return bool(_OBJECT_WORDS.intersection(name_words(name)))
    if isinstance(v, ast.Name):
        if depth:
            srcs = local_sources(facts, fn, v.id, before)
            if srcs:
                return any(_is_object_value(facts, src, fn, before, depth - 1) for src in srcs
                           if not _is_lookup(src))
        return bool(_OBJECT_WORDS.intersection(name_words(v.id)))
    if isinstance(v, ast.Attribute):
        return bool(_OBJECT_WORDS.intersection(name_words(v.attr)))
    return False


def _is_lookup(v: ast.AST) -> bool:
    """`reg.get(k)` / `reg[k]`: a read of the registry itself, no evidence of the value's type."""
    return isinstance(v, ast.Subscript) or (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                                            and v.func.attr in ("get", "pop", "setdefault"))
