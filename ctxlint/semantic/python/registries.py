"""Registry facts shared by the retention rules (CTX401, CTX403, CTX404).

Helpers over the long-lived container fact (`containers.py`): the local sources of a
name, whether a key reaches a scope id, the sibling functions of a container's owner
and the call closure between them; `dedup_key` (the lookup key that makes an
insertion a get-or-create) and `rebound_per_run` (a container each run of a method
starts over). Also `await_never_suspends` (CTX108): an `await`
that completes without suspending (a `put` on an unbounded asyncio queue), where no
cancellation can be delivered; `helper_removes_key` (a helper of this module that
removes the key it is passed), `swept_for_every_key` (a periodic background sweep
that removes every entry of a container, CTX108), `evicts_oldest` (a dict evicted
head-first past an age or a size: a FIFO/TTL cache, CTX108) and `ends_one_request`
(a method that receives or looks up one request's key rather than tearing the
object down, CTX404). Bounded key domains live in `key_domains`.
"""

from __future__ import annotations

import ast
import re

# ----------------------------------------------------------------- helpers

# Name hints. The rules decide by value facts first (what a key reaches, what a method
# removes or marks, which methods index a container by per-call keys); these tables are
# consulted only where those facts say nothing, and each says where its words come from.

#: Hint: leading verbs of terminal-path method names (the end of a request's life), from
#: vLLM's `finish_requests`/`abort_request`, sglang's `abort_request`/`handle_timeout`,
#: and asyncio's `cancel`. CTX404 also finds terminal paths by value (`_marks`).
TERMINAL_VERBS = ("finish", "abort", "cancel", "timeout", "evict", "close", "expire", "fail", "reject")
TERMINAL_PREFIXES = ("on", "handle", "do", "process", "try", "maybe")

#: Hint: functions whose body runs once per object (setup) rather than once per request
#: (Python's `__init__`/`__post_init__`, transformers' `from_pretrained`/`post_init`,
#: the set-up vocabulary of torch/peft model wrappers: build/install/attach/patch/wrap).
SETUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                         r"_?build\w*|_?register\w*|_?install\w*|_?attach\w*|_?enable\w*|_?add_\w*hook\w*|"
                         r"_?prepare\w*|_?apply\w*|_?wrap\w*|_?patch\w*|_?hook\w*|_?instrument\w*|"
                         r"_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Functions that run once at start-up whatever their key (a subset of `SETUP_NAME`).
STARTUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                           r"_?build\w*|_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Words of a `load_*` name that make it a request-time load of one scope's object
#: (`load_adapter`, `load_lora`, `_load_tenant_config`) rather than start-up code
#: (`load_model`, `load_weights`): vLLM's LoRA manager loads an adapter when the
#: first request naming it arrives, and keeps it in a registry keyed by adapter.
PER_SCOPE_LOAD_WORDS = frozenset({"adapter", "adapters", "lora", "loras", "peft", "tenant", "user",
                                   "session", "request", "req", "conversation"})


def runs_once(name: str, pattern: re.Pattern) -> bool:
    """Does function `name` run once at set-up (`pattern` is `SETUP_NAME` or
    `STARTUP_NAME`)? A `load_*` of a per-scope object (`load_adapter`) does not."""
    if not pattern.match(name):
        return False
    words = name_words(name)
    return not (words and words[0] == "load" and PER_SCOPE_LOAD_WORDS.intersection(words[1:]))


def names_in(expr: ast.AST | None) -> list[str]:
    """Dotted texts of every Name/Attribute chain inside `expr` (outermost chains only)."""
    out: list[str] = []
    if expr is None:
        return out
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Name, ast.Attribute)):
            parts = []
            cur = n
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.append(cur.id)
                out.append(".".join(reversed(parts)))
                continue
            stack.append(cur)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def local_sources(facts, fn: ast.AST | None, name: str, before: ast.AST) -> list[ast.AST]:
    """Values assigned to local `name` in `fn` before `before` (loop targets give their iterable)."""
    if fn is None:
        return []
    index = facts.memo(f"retention.assigns.{id(fn)}", lambda: assign_index(facts, fn))
    line = getattr(before, "lineno", 10**9)
    return [v for (ln, v) in index.get(name, ()) if ln <= line]


def assign_index(facts, fn) -> dict[str, list[tuple[int, ast.AST]]]:
    out: dict[str, list[tuple[int, ast.AST]]] = {}
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Name):
                        out.setdefault(el.id, []).append((n.lineno, n.value))
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)) and isinstance(n.target, ast.Name) and n.value is not None:
            out.setdefault(n.target.id, []).append((n.lineno, n.value))
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            for el in (n.target.elts if isinstance(n.target, ast.Tuple) else [n.target]):
                if isinstance(el, ast.Name):
                    out.setdefault(el.id, []).append((getattr(n, "lineno", getattr(n.iter, "lineno", 0)), n.iter))
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append((n.lineno, n.value))
    return out


def reaches_scope_id(facts, expr: ast.AST | None, fn, depth: int = 3) -> str | None:
    """The scope id `expr` reaches, following local assignments up to `depth` levels.

    A local bound from a lookup of a container of this module (`w = self._req_to_worker.pop(req_id)`,
    `.get(k)`, `c[k]`, `.setdefault(k, d)`) holds one of that container's *values*, not
    its key: it is followed into the values stored in the container (`self._req_to_worker[req_id]
    = idx` -> `idx`), never into the lookup key (`container_lookup`)."""
    for name in names_in(expr):
        sid = facts.scope_id_in(name)
        if sid:
            return sid
        if depth and "." not in name:
            for src in local_sources(facts, fn, name, expr):
                looked_up = container_lookup(facts, src)
                if looked_up is not None:
                    sid = stored_values_scope_id(facts, looked_up, depth - 1)
                else:
                    sid = reaches_scope_id(facts, src, fn, depth - 1)
                if sid:
                    return sid
    return None


def container_lookup(facts, expr: ast.AST | None):
    """The container of this module (`facts.containers`) whose value `expr` reads — a
    `c[k]` load, `c.get(k)`, `c.pop(k)` or `c.setdefault(k, d)` site of it (awaited or not)
    — else None. The result of such an expression is an entry's value, whose kind is
    what the container stores, not what it is keyed by."""
    if isinstance(expr, ast.Await):
        expr = expr.value
    if not isinstance(expr, (ast.Subscript, ast.Call)):
        return None

    def index():
        out = {}
        for c in facts.containers:
            for s in (*c.reads, *c.removals, *c.inserts):
                if s.kind in ("subscript", "get", "pop", "setdefault") and s.key is not None:
                    out.setdefault(id(s.node), c)
                    p = facts.parents.get(s.node)
                    if isinstance(p, ast.Call) and p.func is s.node:
                        out.setdefault(id(p), c)  # the site is `c.get`; the read is the call
        return out

    c = facts.memo("registries.lookup_sites", index).get(id(expr))
    if c is None:
        return None
    if isinstance(expr, ast.Subscript) and not isinstance(expr.ctx, ast.Load):
        return None
    return c


def stored_values_scope_id(facts, c, depth: int) -> str | None:
    """The scope id a value stored into container `c` reaches (`reaches_scope_id` of each
    insertion's value in its own function), or None: what a lookup of `c` hands back."""
    if depth < 0:
        return None
    for s in c.inserts:
        if s.value is not None:
            sid = reaches_scope_id(facts, s.value, s.function, depth)
            if sid:
                return sid
    return None


def key_text(expr: ast.AST | None) -> str | None:
    if expr is None:
        return None
    try:
        return ast.unparse(expr)
    except Exception:  # pragma: no cover - unparse of odd trees
        return None


def name_words(name: str) -> list[str]:
    return [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name.lower()) if w]


def is_terminal(name: str) -> bool:
    """`finish_request`, `abort`, `_on_cancel`, `handle_timeout`: the name starts with a
    terminal verb (after an optional on/handle/do prefix)."""
    words = name_words(name)
    while words and words[0] in TERMINAL_PREFIXES:
        words = words[1:]
    return bool(words) and any(words[0].startswith(v) for v in TERMINAL_VERBS)


def owner_functions(facts, c) -> dict[str, ast.AST]:
    """Methods of the container's class, or module-level functions for module containers."""
    body = c.owner.body if c.owner is not None else facts.tree.body
    return {s.name: s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def callees(facts, fn: ast.AST, module: bool) -> set[str]:
    """Names of sibling methods (`self.m(...)`) or module functions (`m(...)`) `fn` calls."""
    out = set()
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Call):
            f = n.func
            if module and isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
    return out


def closure(facts, funcs: dict[str, ast.AST], module: bool) -> dict[str, set[str]]:
    """Method name -> every sibling method it reaches through calls (itself included)."""
    direct = {name: callees(facts, fn, module) & funcs.keys() for name, fn in funcs.items()}
    out: dict[str, set[str]] = {}
    for name in funcs:
        seen = {name}
        todo = [name]
        while todo:
            for nxt in direct.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[name] = seen
    return out


# ------------------------------------------------- how a registry key grows
#: Scope kinds whose ids are new for every event (one request, one session or
#: conversation): a container keyed by them grows with traffic. Tenant, user and
#: adapter ids name a *population*: a container keyed by them grows only as the
#: population does, which is a leak when each entry is heavy state built for that id
#: (gaia#706's per-user compiled agent graphs), not when it is a row of small data.
PER_EVENT_KINDS = frozenset({"request", "session"})


def key_is_fresh(facts, key: ast.AST | None, fn, depth: int = 2) -> bool:
    """Is the key new on every call of `fn`, followed through local assignments?

    Args:
        key: the subscript/`add` argument of an insertion.
        fn: the def the insertion is in.

    True for a per-call unique id (`uuid.uuid4()`, `secrets.token_hex()`), `str()`/`.hex`
    of one, and an attribute of an object constructed here from nothing (`handler.uid`
    right after `handler = StreamingHandler()`): its id can only be minted inside (unless
    the class itself defines that attribute in its body: `_class_level_attr`). An
    object built from arguments (`Job(kind, job_id)`) may carry the caller's id, and a
    `random.randint()` slot index repeats.
    """
    if key is None:
        return False
    for n in ast.walk(key):
        if isinstance(n, ast.Call):
            q = facts.qualname(n.func) or ""
            if q.startswith(FRESH_ID_QUALNAMES) or _next_of_counter(facts, n):
                return True
    base = key
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and depth:
        for src in local_sources(facts, fn, base.id, key):
            if base is not key and isinstance(src, ast.Call) and _constructs(facts, src) \
                    and not src.args and not src.keywords \
                    and not (isinstance(key, ast.Attribute) and _class_level_attr(facts, src.func, key.attr)):
                return True  # `StreamingHandler()`: nothing given, so its id is minted inside
            if base is key and key_is_fresh(facts, src, fn, depth - 1):
                return True
    return False


def _next_of_counter(facts, call: ast.Call) -> bool:
    """Is `call` `next(c)` of an `itertools.count()` that lives across calls: a module
    binding (`_ids = itertools.count()`) or an attribute of the object (`self._ids =
    itertools.count(1)` in one of its methods)? Each call then takes a new id, as
    `uuid4()` gives one (Python docs, `itertools.count`)."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "next" and len(call.args) == 1):
        return False
    it = call.args[0]

    def is_count(v) -> bool:
        return isinstance(v, ast.Call) and (facts.qualname(v.func) or "") == "itertools.count"

    if isinstance(it, ast.Name):
        return any(is_count(v) for v in facts.module_assignments.get(it.id, ()))
    cls = facts.enclosing_class(call)
    if isinstance(it, ast.Attribute) and cls is not None:
        return any(is_count(n.value) for n in facts.attr_assignments(cls).get(it.attr, ()))
    return False


def _class_level_attr(facts, func: ast.AST, attr: str, depth: int = 0) -> bool:
    """Does the class that `func` names (a class of this module, also one defined inside
    a function, and its bases of this module) define `attr` in its class body: a class
    attribute or a property/method of that name? Such a value is the class's, not minted
    per instance: dbt's `dep = AdapterDeprecationWarning(); deprecations[dep.name] = dep`
    reads the `name` property over a class-level `_name`, the same for every instance."""
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if depth > 4 or not name:
        return False
    for cls in facts.nodes(ast.ClassDef):
        if cls.name != name:
            continue
        for st in cls.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == attr:
                return True
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in st.targets):
                return True
            if isinstance(st, ast.AnnAssign) and st.value is not None and isinstance(st.target, ast.Name) \
                    and st.target.id == attr:
                return True
        if any(_class_level_attr(facts, b, attr, depth + 1) for b in cls.bases):
            return True
    return False


#: Callables whose result is a new unique id on every call (Python docs: `uuid`,
#: `secrets`, `os.urandom`); `random.*` draws are not ids (an index, a jitter).
FRESH_ID_QUALNAMES = ("uuid.uuid1", "uuid.uuid4", "secrets.", "os.urandom")


def _constructs(facts, call: ast.Call) -> bool:
    """Is `call` a class instantiation (a class of this module, or a CapWords callable)?"""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
    return name in facts.classes_by_name or name[:1].isupper()


#: Calls whose result is plain data (strings, numbers, tuples, bytes, containers, tensors
#: of numbers) or a copy/lookup of their argument, not an object built for it: CTX401
#: reads it both for "state built for this id" and for the fix's weak-vs-LRU choice.
DATA_CALLS = frozenset({
    "str", "repr", "int", "float", "bool", "bytes", "tuple", "list", "dict", "set", "frozenset",
    "len", "sorted", "format", "join", "encode", "decode", "hexdigest", "digest", "hex", "dumps",
    "tolist", "item", "split", "strip", "lower", "upper", "tensor", "as_tensor", "zeros", "ones",
    "copy", "deepcopy", "get",
})


def built_for_key(facts, value: ast.AST | None, fn, before: ast.AST, depth: int = 2) -> bool:
    """Is the stored `value` state built for the scope it is keyed by: a call (not a
    plain data conversion or a lookup) given a scope id, followed through local
    assignments (`graph = _compile_agent(integration_id, user_id, tools)`;
    `self.adapters[name] = transformer.prepare_lora_adapter(lora_path=path)`).

    Such an entry is per-id state whose size does not depend on the caller (weights, a
    compiled graph, a client); a copy of a field (`= user`, `= {}`, `= creds`) is not."""
    if value is None:
        return False
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        f = value.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if name in DATA_CALLS:
            return False
        args = [*value.args, *(k.value for k in value.keywords)]
        if any(reaches_scope_id(facts, a, fn) for a in args):
            return True
        # a method chain on a built object: `LoraAdapter(name, digest).to("cpu")`
        return isinstance(f, ast.Attribute) and isinstance(f.value, (ast.Call, ast.Await)) and \
            built_for_key(facts, f.value, fn, before, depth)
    if isinstance(value, ast.Name) and depth:
        return any(built_for_key(facts, src, fn, before, depth - 1)
                   for src in local_sources(facts, fn, value.id, before) if not _is_loop_iterable(facts, src))
    return False


def _is_loop_iterable(facts, node: ast.AST) -> bool:
    """Is `node` the iterable of a `for`/comprehension (its target takes elements, not
    the call's result)?"""
    p = facts.parents.get(node)
    return isinstance(p, (ast.For, ast.AsyncFor, ast.comprehension)) and p.iter is node


def runs_at_construction(facts, fn) -> bool:
    """Does the private def `fn` run only while its object or module is built: every
    reference to its name in the module is a call from `__init__`/`__post_init__` or
    from module level? A registry filled there grows once per construction (a route
    registered at start-up), not per request. Public defs may be called from anywhere.
    """
    name = getattr(fn, "name", "")
    if not name.startswith("_") or name.startswith("__"):
        return False
    return facts.memo(f"registries.construction.{id(fn)}", lambda: _only_constructors_call(facts, fn, name))


def _only_constructors_call(facts, fn, name: str) -> bool:
    from ctxlint.semantic.python.calls import call_graph
    g = call_graph(facts)
    refs = 0
    for n in facts.nodes(ast.Name, ast.Attribute):
        if (n.id if isinstance(n, ast.Name) else n.attr) == name and not isinstance(n.ctx, ast.Store):
            refs += 1
    calls = 0
    for call in facts.nodes(ast.Call):
        if g.resolve(call) is not fn:
            continue
        caller = facts.enclosing_function(call)
        if caller is not None and getattr(caller, "name", "") not in ("__init__", "__post_init__"):
            return False
        calls += 1
    return calls > 0 and calls == refs


# ------------------------------------------------------- awaits that never suspend

#: asyncio queue types whose `put` suspends only while the queue is full; built with no
#: `maxsize` (or `maxsize <= 0`) they are never full, so `await q.put(x)` returns without
#: suspending. Source: CPython Lib/asyncio/queues.py (`Queue.put`: `while self.full():
#: ... await putter`; `full()` is False when `maxsize <= 0`).
UNBOUNDED_QUEUE_TYPES = frozenset({"asyncio.Queue", "asyncio.LifoQueue", "asyncio.PriorityQueue",
                                   "asyncio.queues.Queue", "asyncio.queues.LifoQueue",
                                   "asyncio.queues.PriorityQueue"})


def _unbounded_queue_built(facts, value: ast.AST | None) -> bool:
    """Is `value` a call of an `UNBOUNDED_QUEUE_TYPES` constructor with no size, or
    with a constant size `<= 0`?"""
    if not isinstance(value, ast.Call) or facts.call_qualname(value) not in UNBOUNDED_QUEUE_TYPES:
        return False
    sizes = list(value.args[:1]) + [k.value for k in value.keywords if k.arg == "maxsize"]
    if any(k.arg is None for k in value.keywords) or any(isinstance(a, ast.Starred) for a in value.args):
        return False
    return all(isinstance(s, ast.Constant) and isinstance(s.value, int) and s.value <= 0 for s in sizes)


def is_unbounded_queue(facts, expr: ast.AST, fn, _depth: int = 0) -> bool:
    """Does `expr` (the receiver of a `put`) hold an unbounded asyncio queue?

    `self.attr`: every assignment of `attr` in the enclosing class that is not `None`
    (at least one) builds one; `self.m()`: every `return` of the class's sync method `m`
    is such a receiver (a lazily re-created queue); a bare name: every module-level assignment of it, or (when `fn` binds it) every
    local assignment in `fn` before use, builds one. Anything else: False."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls"):
        cls = facts.enclosing_class(expr)
        if cls is None:
            return False
        stmts = facts.attr_assignments(cls).get(expr.attr, [])
        values = [s.value for s in stmts if s.value is not None]
        # `self._q = None` until first use: a `put` on it raises, it never waits
        built = [v for v in values if not (isinstance(v, ast.Constant) and v.value is None)]
        if _other_stores(facts, expr.attr, {id(s) for s in stmts}):
            return False  # a tuple target, `setattr`, a subclass's own store: not all seen
        return bool(built) and len(values) == len(stmts) and all(_unbounded_queue_built(facts, v) for v in built)
    if isinstance(expr, ast.Call) and not expr.args and not expr.keywords and isinstance(expr.func, ast.Attribute) \
            and isinstance(expr.func.value, ast.Name) and expr.func.value.id in ("self", "cls") and _depth < 2:
        # `self._get_event_queue().put(e)`: a method of the class whose every return is one
        cls = facts.enclosing_class(expr)
        meth = next((d for d in getattr(cls, "body", ()) if isinstance(d, ast.FunctionDef)
                     and d.name == expr.func.attr), None)
        if meth is None or sum(1 for d in facts.nodes(ast.FunctionDef) if d.name == expr.func.attr) > 1:
            return False  # a subclass (or another class) of the module may override it
        rets = [n.value for n in facts.walk(meth) if isinstance(n, ast.Return)]
        return bool(rets) and all(r is not None and is_unbounded_queue(facts, r, meth, _depth + 1) for r in rets)
    if isinstance(expr, ast.Name):
        if fn is not None and expr.id in params_names(fn):
            return False
        local = fn is not None and any(isinstance(n, ast.Name) and n.id == expr.id and isinstance(n.ctx, ast.Store)
                                       for n in facts.walk(fn))
        srcs = local_sources(facts, fn, expr.id, expr) if local else facts.module_assignments.get(expr.id, [])
        return bool(srcs) and all(_unbounded_queue_built(facts, v) for v in srcs)
    return False


def _other_stores(facts, attr: str, seen: set[int]) -> bool:
    """Is `.attr` stored anywhere in the module other than by the statements `seen`
    (ids): an unpacking target, another class's method, `setattr(obj, "attr" or a
    computed name, ...)`?"""
    stores, setattrs = attribute_stores(facts)
    return any(id(st) not in seen for st in stores.get(attr, ())) or bool(setattrs & {attr, None})


def attribute_stores(facts) -> tuple[dict[str, list[ast.AST]], set[str | None]]:
    """The module's attribute stores, computed once per file: attribute name -> the
    statements storing it, and the names `setattr(obj, name, ...)` sets (None for a
    computed name)."""
    def compute():
        stores: dict[str, list[ast.AST]] = {}
        for n in facts.nodes(ast.Attribute):
            if isinstance(n.ctx, ast.Store):
                stores.setdefault(n.attr, []).append(facts.parents.get(n))
        setattrs: set[str | None] = set()
        for c in facts.nodes(ast.Call):
            if isinstance(c.func, ast.Name) and c.func.id == "setattr" and len(c.args) >= 2:
                a = c.args[1]
                setattrs.add(a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None)
        return stores, setattrs
    return facts.memo("registries.attribute_stores", compute)


def params_names(fn) -> set[str]:
    """Every parameter name of the def `fn` (positional, keyword-only, `*args`, `**kw`)."""
    a = getattr(fn, "args", None)
    if a is None:
        return set()
    out = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    out |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    return out


def await_never_suspends(facts, graph, aw: ast.AST, depth: int = 2) -> bool:
    """Does the `await` node `aw` always complete without suspending its task?

    A task's cancellation (`Task.cancel`, a timeout) is delivered only where the task
    suspends, so such an await is no cancellation point. True when the awaited
    expression is `q.put(x)` on an unbounded asyncio queue (`is_unbounded_queue`), or a
    call of a coroutine def of this module (`graph.resolve`) whose own body has no
    `async with`/`async for` and whose every `await` is of this kind (`depth` levels of
    calls). Anything else (an unresolved call, a future, a lock) may suspend: False.
    `graph` is the module's `calls.call_graph(facts)`. Never raises on odd code.
    Source: Python docs, "Coroutines and Tasks: Task.cancel" (the CancelledError is
    thrown into the coroutine at its next suspension); CPython Lib/asyncio/queues.py."""
    if not isinstance(aw, ast.Await) or not isinstance(aw.value, ast.Call):
        return False
    call = aw.value
    fn = facts.enclosing_function(aw)
    if isinstance(call.func, ast.Attribute) and call.func.attr == "put" and not call.keywords \
            and len(call.args) == 1 and is_unbounded_queue(facts, call.func.value, fn):
        return True
    if depth <= 0:
        return False
    target = graph.resolve(call)
    if not isinstance(target, ast.AsyncFunctionDef):
        return False
    for n in facts.walk(target):
        if isinstance(n, (ast.AsyncWith, ast.AsyncFor)):
            return False
        if isinstance(n, ast.Await) and not await_never_suspends(facts, graph, n, depth - 1):
            return False
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return False
    return True


# ------------------------------------------------- get-or-create (dedup) insertions

def dedup_key(facts, site) -> ast.AST | None:
    """The key by which insertion `site` is deduplicated (a get-or-create), else None.

    Args:
        site: a `ContainerSite` insertion of a long-lived container.

    The insertion is one per distinct value of key `K` when, in the same function, a
    lookup of a container `D` under `K` guards it — the insertion sits in the branch
    where `K` is absent (`if K not in D: ...`, `if D.get(K) is None: ...`), or follows
    a branch that returns (raises, continues) when `K` is present (`x = D.get(K)` /
    `if x is not None: return x`; `if K in D: return D[K]`) — and that function also
    fills `D` under `K`, while `D` never loses entries (no removal, no bound that evicts).
    Then a second call with the same `K` finds it and stops before inserting, whatever
    key the insertion itself uses (a token minted only for a new `K`). `D` may be the
    container inserted into. What the entries grow with is then what `K` is. Never
    raises on odd code. Source: the get-or-create idiom (`dict.setdefault`, Python docs
    "Mapping Types"); praisonaiagents' secret sentinel map (one token per secret).
    """
    fn = site.function
    if fn is None:
        return None
    stmt = facts.enclosing_statement(site.node)
    reads = _read_sites(facts)
    for n in facts.walk(fn):
        if not isinstance(n, ast.If):
            continue
        got = _lookup_test(facts, n.test, fn, reads)
        if got is None:
            continue
        d, key, present = got
        if d.removals or d.bounded:
            continue
        kt = key_text(key)
        if not any(i.function is fn and key_text(i.key) == kt for i in d.inserts):
            continue
        if not present and _inside(facts, stmt, n.body):
            return key
        if present and (_inside(facts, stmt, n.orelse) or (_exits(n.body) and _after(facts, n, stmt, fn))):
            return key
    return None


def _read_sites(facts) -> dict[int, tuple]:
    """id(read node) -> (container, read site), for the `in`/`get` reads of every
    container; built once per file."""
    def compute():
        out: dict[int, tuple] = {}
        for c in facts.containers:
            for r in c.reads:
                if r.key is not None and r.kind in ("in", "get"):
                    out[id(r.node)] = (c, r)
        return out
    return facts.memo("registries.read_sites", compute)


def _lookup_test(facts, test: ast.AST, fn, reads, depth: int = 2):
    """(container, key, present) when the `if` test `test` is true exactly when `key` is
    present in `container` (`present` True: `K in D`, `D.get(K)`, `x is not None` with
    `x = D.get(K)`) or absent (`present` False: `K not in D`, `not x`, `x is None`)."""
    neg = False
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        neg = not neg
        test = test.operand
    got = None
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        if isinstance(op, (ast.In, ast.NotIn)) and id(test) in reads:
            c, r = reads[id(test)]
            got = (c, r.key, isinstance(op, ast.In))
        elif isinstance(op, (ast.Is, ast.IsNot)) and isinstance(test.comparators[0], ast.Constant) \
                and test.comparators[0].value is None:
            inner = _lookup_test(facts, test.left, fn, reads, depth)
            if inner is not None:
                got = (inner[0], inner[1], inner[2] == isinstance(op, ast.IsNot))
    elif isinstance(test, ast.Call) and id(test) in reads and reads[id(test)][1].kind == "get":
        c, r = reads[id(test)]
        got = (c, r.key, True)
    elif isinstance(test, ast.NamedExpr):
        got = _lookup_test(facts, test.value, fn, reads, depth)
    elif isinstance(test, ast.Name) and depth:
        srcs = local_sources(facts, fn, test.id, test)
        if len(srcs) == 1 and isinstance(srcs[0], ast.Call):
            got = _lookup_test(facts, srcs[0], fn, reads, depth - 1)
    if got is None:
        return None
    return (got[0], got[1], got[2] != neg)


def _inside(facts, stmt: ast.AST, body: list) -> bool:
    """Is `stmt` one of the statements of `body`, or nested in one?"""
    ids = {id(b) for b in body}
    return id(stmt) in ids or any(id(a) in ids for a in facts.ancestors(stmt))


def _exits(body: list) -> bool:
    """Does the statement list end by leaving its block (return, raise, continue, break)?"""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _after(facts, first: ast.AST, stmt: ast.AST, fn) -> bool:
    """Is `stmt` (or a statement enclosing it, inside `fn`) later in the same statement
    list as `first`, so that reaching it means `first` ran to its end?"""
    for a in (stmt, *facts.ancestors(stmt)):
        if a is fn:
            return False
        parent = facts.parents.get(a)
        for field in ("body", "orelse", "finalbody"):
            lst = getattr(parent, field, None)
            if isinstance(lst, list) and any(x is a for x in lst) and any(x is first for x in lst):
                ia = next(i for i, x in enumerate(lst) if x is a)
                ifirst = next(i for i, x in enumerate(lst) if x is first)
                return ia > ifirst
    return False


# ------------------------------------------------- per-run containers

#: Container-building calls that start empty when given no data (`dict()`, `set()`,
#: `defaultdict(list)`: a factory is no data).
_EMPTY_FACTORIES = frozenset({"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Dict", "List", "Set"})


def empty_container(facts, value: ast.AST | None) -> bool:
    """Is `value` a fresh empty container (`{}`, `[]`, `set()`, `dict()`, `defaultdict(list)`)?"""
    if isinstance(value, ast.Dict):
        return not value.keys
    if isinstance(value, (ast.List, ast.Set)):
        return not value.elts
    if isinstance(value, ast.Call):
        last = (facts.qualname(value.func) or "").split(".")[-1]
        if last not in _EMPTY_FACTORIES:
            return False
        return not value.args or (last == "defaultdict" and len(value.args) == 1)
    return False


def rebound_per_run(facts, c) -> bool:
    """Is instance container `c` scoped to one run of a method rather than to its object?

    True when the only place `c` is created is a method that is not construction
    (`__init__`/`__post_init__`, a start-up method by `STARTUP_NAME`, or a private helper
    only `__init__` calls, `runs_at_construction`) and that binds it, unconditionally
    (no `if`/loop around the assignment, not in a nested def), to a fresh empty
    container: each call starts the container over, so it holds what one run adds
    (anthropic's session runner keeps per-conversation clients for one `_run()`). A
    conditional creation (`if self._cache is None: self._cache = {}`) is a lazily made
    long-lived container, not this.
    """
    m = c.creation_method
    if c.scope != "instance" or m is None or c.creation is None:
        return False
    if m.name in ("__init__", "__post_init__", "__new__") or runs_once(m.name, STARTUP_NAME) \
            or runs_at_construction(facts, m):
        return False
    if not empty_container(facts, c.creation):
        return False
    stmt = facts.parents.get(c.creation)
    if stmt is None or facts.enclosing_function(stmt) is not m:
        return False
    for a in facts.ancestors(stmt):
        if a is m:
            return True
        if isinstance(a, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler)):
            return False
    return False


# ------------------------------------------------- removal by key, periodic sweeps

def unconditional_in(facts, c, node: ast.AST, fn) -> bool:
    """Does `node` run whenever `fn` runs to its end: not under an `if` (other than a
    membership guard on `c`, or in the `if`'s own test, which always runs), a loop, a
    `match` case or an `except` handler of `fn`?

    Args: `c` a `LongLivedContainer`, `node` a node of `fn`'s body."""
    reads = {id(r.node) for r in c.reads}
    child = node
    for a in facts.ancestors(node):
        if a is fn:
            return True
        if isinstance(a, ast.If) and child is not a.test and not any(id(n) in reads for n in ast.walk(a.test)):
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.match_case, ast.ExceptHandler)):
            return False
        child = a
    return True


def _name_ids(expr: ast.AST | None) -> set[str]:
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)} if expr is not None else set()


def helper_removes_key(facts, graph, call: ast.Call, c, key_names: set[str], depth: int) -> bool:
    """Does the helper `call` runs (a def of this module, `graph.resolve`) remove from
    `c` the key it is passed (an argument built from the local names `key_names`),
    unconditionally in its body (`unconditional_in`), directly or through a helper of
    its own (`depth` levels)? A helper that removes some entry only on one branch
    (`if not available: c.pop(k)`) is not this call's removal. `graph` is the module's
    `calls.call_graph(facts)`."""
    from ctxlint.semantic.python.calls import params_of
    target = graph.resolve(call)
    if target is None or depth <= 0:
        return False
    key_params: set[str] = set()
    for i, p in enumerate(params_of(target)):
        arg = graph.arg_for(call, target, i)
        if arg is not None and _name_ids(arg) & key_names:
            key_params.add(p)
    key_params.discard(facts.receiver_param(target))
    if not key_params:
        return False
    for r in c.removals:
        if r.function is target and r.key is not None and _name_ids(r.key) & key_params \
                and unconditional_in(facts, c, r.node, target):
            return True
    for inner, _t in graph.calls_in(target):
        if graph.removes_from(inner, c) and unconditional_in(facts, c, inner, target) \
                and helper_removes_key(facts, graph, inner, c, key_params, depth - 1):
            return True
    return False


#: Calls that only copy or view what they are given: iterating `list(d.keys())` walks `d`.
_ITER_WRAPPERS = frozenset({"list", "tuple", "sorted", "set", "frozenset", "reversed", "iter"})
_ITER_VIEWS = frozenset({"keys", "items", "copy"})


def _iterated_container(facts, graph, it: ast.AST, fn):
    """The container of this module a `for` loop's iterable walks (`self.jobs`,
    `list(self.jobs)`, `list(self.jobs.keys())`, `self.jobs.items()`), and whether the
    loop target's first element is the key (`items()`) rather than the whole target;
    (None, False) when it is something else. Matched as the same reference the
    container analysis spells (`LongLivedContainer.name`) in the owner's class (or a
    class of its chain), or the module variable."""
    items = False
    while True:
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in _ITER_WRAPPERS \
                and len(it.args) == 1 and it.func.id not in facts.module_names:
            it = it.args[0]
        elif isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _ITER_VIEWS \
                and not it.args:
            items = items or it.func.attr == "items"
            it = it.func.value
        else:
            break
    text = facts.dotted(it)
    if not text:
        return None, False
    cls = facts.enclosing_class(fn)
    chain = graph.class_chain(cls) if cls is not None else []
    for c in facts.containers:
        if c.name != text:
            continue
        if c.owner is None or any(k is c.owner for k in chain) or \
                (cls is not None and any(k is cls for k in graph.class_chain(c.owner))):
            return c, items
    return None, False


#: Clocks whose reading an age test compares (Python docs, `time` module; asyncio
#: "Event Loop" `loop.time()`; `datetime.datetime.now`/`utcnow`): an entry's age grows
#: with every pass, so a test `now - started > ttl` is met by every stranded entry.
CLOCK_QUALNAMES = frozenset({"time.time", "time.monotonic", "time.perf_counter", "time.time_ns",
                             "time.monotonic_ns", "time.perf_counter_ns", "datetime.datetime.now",
                             "datetime.datetime.utcnow", "datetime.now", "datetime.utcnow"})


def _reads_clock(facts, expr: ast.AST | None, fn, depth: int = 2) -> bool:
    """Does `expr` read a clock (`CLOCK_QUALNAMES`, `<loop>.time()`), directly or through
    a local of `fn` assigned from one (`now = time.monotonic()`)?"""
    from ctxlint.semantic.python.tasks import is_event_loop
    if expr is None:
        return False
    for n in ast.walk(expr):
        if isinstance(n, ast.Call):
            if (facts.qualname(n.func) or "") in CLOCK_QUALNAMES:
                return True
            if isinstance(n.func, ast.Attribute) and n.func.attr == "time" and not n.args \
                    and is_event_loop(facts, n.func.value):
                return True
        elif isinstance(n, ast.Name) and depth and isinstance(n.ctx, ast.Load):
            if any(_reads_clock(facts, src, fn, depth - 1) for src in local_sources(facts, fn, n.id, n)
                   if not isinstance(src, ast.Name) or src.id != n.id):
                return True
    return False


def _age_test(facts, test: ast.AST, fn) -> bool:
    """Is `test` an ordering comparison of a clock reading (`now - started > self.ttl`,
    `time.monotonic() >= deadline`): an age every entry eventually reaches?"""
    for n in ast.walk(test):
        if isinstance(n, ast.Compare) and all(isinstance(o, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) for o in n.ops) \
                and _reads_clock(facts, n, fn):
            return True
    return False


def _every_pass(facts, c, node: ast.AST, loop: ast.AST, fn) -> bool:
    """Does `node` (in the body of `loop`, in `fn`) run for every key the loop walks:
    not under an `if` other than a membership guard on `c` or an age test (`_age_test`),
    a nested loop, a `match` case or an `except` handler? A removal only for entries
    some other state reports done (`if self.engine.is_finished(rid)`, `if
    self._pending[rid].done`) can miss an entry forever."""
    reads = {id(r.node) for r in c.reads if r.kind == "in"}
    child = node
    for a in facts.ancestors(node):
        if a is loop:
            return True
        if a is fn or isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if isinstance(a, ast.If) and child is not a.test and not any(id(n) in reads for n in ast.walk(a.test)) \
                and not _age_test(facts, a.test, fn):
            return False
        if isinstance(a, (ast.IfExp, ast.BoolOp)) and child is not getattr(a, "test", None) \
                and not (isinstance(a, ast.BoolOp) and child is a.values[0]):
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.match_case, ast.ExceptHandler)):
            return False
        child = a
    return False


def _loop_removes(facts, graph, loop: ast.AST, c, keys: set[str], fn) -> bool:
    """Does the body of `loop` (in `fn`) remove from `c`, on every pass (`_every_pass`),
    the entry under the loop's key (one of the local names `keys`): a removal site
    keyed by it, or a call of a helper of this module that removes the key it is passed
    (`self.cleanup_job(job_id)`)?"""
    calls, inside = _loop_contents(facts, loop)
    for r in c.removals:
        if id(r.node) in inside and r.key is not None and _name_ids(r.key) & keys \
                and _every_pass(facts, c, r.node, loop, fn):
            return True
    for n in calls:
        if graph.removes_from(n, c) and _every_pass(facts, c, n, loop, fn) \
                and helper_removes_key(facts, graph, n, c, keys, 4):
            return True
    return False


def _loop_contents(facts, loop: ast.AST):
    """(calls, ids of every node) in the body of `loop`; one walk per loop, memoised."""
    def compute():
        nodes = [n for s in loop.body for n in facts.walk(s)]
        return [n for n in nodes if isinstance(n, ast.Call)], {id(n) for n in nodes}
    return facts.memo(f"registries.loop_contents.{id(loop)}", compute)


#: Qualified names of callables that run a function they are given in the background
#: (Python docs: `threading.Thread(target=)`/`Timer`, `asyncio.to_thread` is awaited and
#: so not one); methods (last name) of task groups and executors that start one
#: (asyncio `TaskGroup.create_task`, anyio/trio `start_soon`, gevent `spawn`,
#: concurrent.futures `Executor.submit`, asyncio `loop.run_in_executor`).
BACKGROUND_RUNNER_QUALNAMES = frozenset({"threading.Thread", "threading.Timer"})
BACKGROUND_RUNNER_METHODS = frozenset({"create_task", "start_soon", "submit", "run_in_executor", "spawn"})


def _runs_in_background(facts, holder: ast.Call) -> bool:
    """Is `holder` (a call that is given a coroutine or a function) one that starts it
    in the background: a task factory (`tasks.is_task_factory_ref`), a thread, a task
    group's or an executor's start method (`BACKGROUND_RUNNER_*`), not awaited?"""
    from ctxlint.semantic.python.tasks import is_task_factory_ref
    if isinstance(facts.parents.get(holder), ast.Await):
        return False  # `await asyncio.wait_for(self._drain(), 5)`: run once, here
    if is_task_factory_ref(facts, holder.func):
        return True
    if (facts.qualname(holder.func) or "") in BACKGROUND_RUNNER_QUALNAMES:
        return True
    return isinstance(holder.func, ast.Attribute) and holder.func.attr in BACKGROUND_RUNNER_METHODS


def _handed_off(facts, graph, fn) -> bool:
    """Is the def `fn` run in the background: its coroutine (`fn(...)` not awaited) or
    the function itself (`target=self.fn`, `start_soon(self.fn)`) passed to a call that
    starts it in the background (`_runs_in_background`: a task factory, a thread, a
    task group, an executor)? Memoised per def; the module's references are indexed
    once by the name they read."""
    def refs():
        out: dict[str, list[ast.AST]] = {}
        for n in facts.nodes(ast.Attribute):
            if isinstance(n.ctx, ast.Load):
                out.setdefault("." + n.attr, []).append(n)
        for n in facts.nodes(ast.Name):
            if isinstance(n.ctx, ast.Load):
                out.setdefault(n.id, []).append(n)
        return out

    def compute() -> bool:
        for call, _caller in graph.callers(fn):
            p = facts.parents.get(call)
            if isinstance(p, ast.keyword):
                p = facts.parents.get(p)
            if isinstance(p, ast.Call) and p.func is not call and isinstance(fn, ast.AsyncFunctionDef) \
                    and _runs_in_background(facts, p):
                return True  # `asyncio.create_task(self._sweep_loop())`
        cls = facts.enclosing_class(fn)
        index = facts.memo("registries.load_refs", refs)
        for n in index.get(("." + fn.name) if cls is not None else fn.name, ()):
            p = facts.parents.get(n)
            holder = facts.parents.get(p) if isinstance(p, ast.keyword) else p
            if not (isinstance(holder, ast.Call) and holder.func is not n):
                continue
            if cls is not None:
                here = facts.enclosing_class(n)
                if here is None or graph.find_method(here, fn.name) is not fn:
                    continue
            elif graph.module_functions.get(fn.name) is not fn:
                continue
            if _runs_in_background(facts, holder):
                return True  # `threading.Thread(target=self._reaper)`
        return False
    return facts.memo(f"registries.handed_off.{id(fn)}", compute)


#: Calls that pause a loop pass (Python docs: `asyncio.sleep`, `time.sleep`; trio/anyio `sleep`).
SLEEP_QUALNAMES = frozenset({"asyncio.sleep", "time.sleep", "trio.sleep", "anyio.sleep"})


def _repeats(facts, loop: ast.While) -> bool:
    """Does the `while` loop run for the object's life rather than until some work is
    drained: its test is a true constant (`while True`) or a flag (`while not
    self._closed`, `while self._running`, `while not stop.is_set()`) that is not a
    container of this module (`while self._pending` drains), or each pass sleeps
    (an unconditional `sleep` of a non-zero delay at the top of its body)?"""
    t = loop.test
    if isinstance(t, ast.Constant):
        return bool(t.value)
    inner = t.operand if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) else t
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and not inner.args:
        inner = inner.func.value  # `stop.is_set()`
    names = {c.name for c in facts.containers}
    if isinstance(inner, (ast.Name, ast.Attribute)) and (facts.dotted(inner) or "") not in names:
        return True
    for s in loop.body:
        v = s.value if isinstance(s, ast.Expr) else None
        v = v.value if isinstance(v, ast.Await) else v
        if isinstance(v, ast.Call) and (facts.qualname(v.func) or "") in SLEEP_QUALNAMES and v.args \
                and not (isinstance(v.args[0], ast.Constant) and not v.args[0].value):
            return True
    return False


def _in_while(facts, node: ast.AST, fn) -> bool:
    """Is `node` (in `fn`) under a `while` loop that repeats for the object's life (`_repeats`)?"""
    for a in facts.ancestors(node):
        if a is fn or isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return False
        if isinstance(a, ast.While) and _repeats(facts, a):
            return True
    return False


def _runs_repeatedly(facts, graph, fn, node: ast.AST, depth: int = 3) -> bool:
    """Does `node` (in `fn`) run again and again in the background: under a `while`
    loop that repeats for the object's life (`_repeats`), in `fn` or in a caller on
    the way up (up to `depth` calls), in a def that is handed off to run in the
    background (`_handed_off`)?"""
    todo = [(fn, _in_while(facts, node, fn), depth)]
    seen: set[tuple[int, bool]] = set()
    while todo:
        f, looped, d = todo.pop()
        if (id(f), looped) in seen:
            continue
        seen.add((id(f), looped))
        if looped and _handed_off(facts, graph, f):
            return True
        if d <= 0:
            continue
        for call, caller in graph.callers(f):
            todo.append((caller, looped or _in_while(facts, call, caller), d - 1))
    return False


def _sweep_loops(facts, graph) -> list[tuple[ast.AST, ast.AST, object, set[str]]]:
    """Every `for` loop of the module over one of its containers: (def, loop, iterated
    container, {key name}); one pass over the module, memoised."""
    def compute():
        out = []
        for fn in [*facts.nodes(ast.FunctionDef), *facts.nodes(ast.AsyncFunctionDef)]:
            for loop in facts.walk(fn):
                if not isinstance(loop, (ast.For, ast.AsyncFor)):
                    continue
                d, items = _iterated_container(facts, graph, loop.iter, fn)
                if d is None:
                    d, items = _collected_keys_of(facts, graph, loop, fn)
                if d is None:
                    continue
                t = loop.target
                if items and isinstance(t, ast.Tuple) and t.elts:
                    t = t.elts[0]
                if isinstance(t, ast.Name):
                    out.append((fn, loop, d, {t.id}))
        return out
    return facts.memo("registries.sweep_loops", compute)


def _age_filter(facts, test: ast.AST, key: str, fn) -> bool:
    """Is the comprehension filter `test` met by every entry once it is old enough: an
    age test (`_age_test`), alone or `and`-ed with age tests and tests that the key is
    NOT in some other container (`rid not in self._releasing`: an entry whose release
    is already under way)? A filter on other state (`if entry.done`) is not."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    aged = False
    for p in parts:
        if _age_test(facts, p, fn):
            aged = True
        elif not (isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], ast.NotIn)
                  and isinstance(p.left, ast.Name) and p.left.id == key):
            return False
    return aged


def _collected_keys_of(facts, graph, loop: ast.AST, fn):
    """The container whose stale keys the `for` loop walks when it iterates a local
    collected first (`stale = [rid for rid, ts in self._pending.items() if now - ts >
    ttl]`, then `for rid in stale:`): the local's only source in `fn` is a list/set/
    generator comprehension of one generator over a container of this module
    (`_iterated_container`) whose element is the generator's key and whose filters are
    age filters (`_age_filter`), so every entry is collected once it is old; with
    whether the element is a row whose first item is the key (`(key, value)`, so the
    loop target's first name is the key). (None, False) otherwise. Source: the collect-then-remove sweep (sglang EncoderMetaRegistry
    `_sweep_loop`), which avoids changing a dict while iterating it."""
    it = loop.iter
    if not isinstance(it, ast.Name):
        return None, False
    srcs = local_sources(facts, fn, it.id, loop)
    if len(srcs) != 1:
        return None, False
    comp = srcs[0]
    if isinstance(comp, ast.Call) and isinstance(comp.func, ast.Name) and comp.func.id in _ITER_WRAPPERS \
            and len(comp.args) == 1 and comp.func.id not in facts.module_names:
        comp = comp.args[0]
    if not isinstance(comp, (ast.ListComp, ast.SetComp, ast.GeneratorExp)) or len(comp.generators) != 1:
        return None, False
    gen = comp.generators[0]
    d, items = _iterated_container(facts, graph, gen.iter, fn)
    if d is None:
        return None, False
    t = gen.target
    if items and isinstance(t, ast.Tuple) and t.elts:
        t = t.elts[0]
    elt = comp.elt
    rows = isinstance(elt, ast.Tuple) and bool(elt.elts)
    if rows:
        elt = elt.elts[0]  # `(key, value, ...)` rows: the loop unpacks the key first
    if not (isinstance(t, ast.Name) and isinstance(elt, ast.Name) and elt.id == t.id):
        return None, False
    if not all(_age_filter(facts, f, t.id, fn) for f in gen.ifs):
        return None, False
    return d, rows


def swept_for_every_key(facts, graph, c) -> bool:
    """Does a periodic sweep of `c`'s owner remove every entry of `c`, whatever left it?

    True when a def of the owner (its class chain, or the module for a module
    container) has a `for` loop over a container `D` of the same owner (`for job_id in
    list(self._queues)`, `.keys()`, `.items()`) whose body removes the loop's key from
    `c` on every pass (`_every_pass`: unconditionally, or under a membership guard or
    an age test `now - started > ttl` that every stranded entry eventually meets;
    directly, or through a helper of this module that removes the key it is passed,
    `self.cleanup_job(job_id)`) — and, when `D` is not `c` itself, removes it from `D`
    as well (the cleanup treats `c`'s entry as a companion of `D`'s) — and that loop
    runs again and again in the background (`_runs_repeatedly`: under a `while True`/
    flag/sleeping `while` in a def handed to a task factory, a thread or a task group).
    Then an entry a cancelled call leaves behind is reaped by the sweep: the container
    does not keep it forever. A sweep that removes only from `D`, only entries another
    state reports finished, or a loop run once (a `stop()` that drains every job), does
    not count. `graph` is the module's `calls.call_graph`. The module's loops over
    containers are indexed once (`_sweep_loops`).
    Source: the janitor-task idiom (langflow's JobQueueService `_periodic_cleanup` →
    `_cleanup_old_queues` → `cleanup_job`); Python docs, asyncio "Coroutines and Tasks".
    """
    def compute() -> bool:
        for fn, loop, d, keys in _sweep_loops(facts, graph):
            if not _loop_removes(facts, graph, loop, c, keys, fn):
                continue
            if d is not c and not _loop_removes(facts, graph, loop, d, keys, fn):
                continue
            if _runs_repeatedly(facts, graph, fn, loop):
                return True
        return False
    return facts.memo(f"registries.swept.{id(c)}", compute)


def swept_on_insertion(facts, graph, c, fn, depth: int = 2) -> bool:
    """Does every call of `fn` (the def that puts an entry into `c`, directly or through
    a helper) first run a sweep of `c` that removes every entry once it is old: a `for`
    loop of this module over `c`'s keys (`_sweep_loops`: directly, or over keys an
    age-filtered comprehension collected) whose body removes the key from `c` on every
    pass (`_loop_removes`, an age test allowed), the loop unconditional in its def, and
    that def called unconditionally in `fn` (`unconditional_in`), or through up to
    `depth` such calls? Then the container is a time-to-live cache that each insertion
    prunes: an entry a cancelled call leaves behind is dropped by a later call once
    it is stale, not kept forever. `graph` is the module's `calls.call_graph`.
    Source: the prune-on-use cache idiom (litellm CodeInterpreterInterception
    `_prune_expired_cache`, awaited before each `_acquire_sandbox`)."""
    sweepers = {id(f) for f, loop, d, keys in _sweep_loops(facts, graph)
                if d is c and unconditional_in(facts, c, loop, f) and _loop_removes(facts, graph, loop, c, keys, f)
                and any(_age_test(facts, t, f) for t in _filters_of(facts, loop, f))}
    if not sweepers:
        return False
    todo, seen = [(fn, depth)], set()
    while todo:
        f, d = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        for call, target in graph.calls_in(f):
            if not unconditional_in(facts, c, call, f):
                continue
            if id(target) in sweepers:
                return True
            if d > 0:
                todo.append((target, d - 1))
    return False


def _filters_of(facts, loop: ast.AST, fn) -> list[ast.AST]:
    """The tests that choose which keys a sweep loop removes: the `if` tests around
    removals in its body and, for a loop over a collected local, the comprehension's
    filters."""
    out = [n.test for s in loop.body for n in facts.walk(s) if isinstance(n, ast.If)]
    if isinstance(loop.iter, ast.Name):
        for src in local_sources(facts, fn, loop.iter.id, loop):
            for n in ast.walk(src):
                if isinstance(n, ast.comprehension):
                    out.extend(n.ifs)
    return out


def reset_repeatedly(facts, graph, c) -> bool:
    """Is instance container `c` started over, again and again, by a method of its
    owner that is not construction: a `c.clear()` or a rebinding to a fresh empty
    container (`self.X = {}`, `empty_container`), unconditional in its def
    (`unconditional_in`: a `try` body counts, an `if`/loop/`except` does not), in a def
    that runs repeatedly in the background (`_runs_repeatedly`: the reset is reached,
    through up to three calls, from a `while True`/flag/sleeping loop of a def handed
    to a task factory, a thread or a task group — a connection loop that reconnects,
    which disconnects and drops the session's state)? Then `c` holds one
    session's/connection's entries; an entry a cancelled call leaves is dropped at the
    next reset, not kept forever. A reset only in `__init__` (or a start-up/
    construction-only helper, `runs_at_construction`), under an `if`, or in a method
    nothing in a repeating background loop reaches (a `close()` run once) does not
    count. `graph` is the module's `calls.call_graph`.
    Source: per-connection state of a realtime client (pipecat GeminiLiveLLMService
    `_disconnect`, reached from `_reconnect` in the `_connection_task_handler` loop)."""
    if c.scope != "instance":
        return False
    for r in c.removals:
        f = r.function
        if f is None or r.method is not f or f.name in ("__init__", "__post_init__", "__new__") \
                or runs_once(f.name, STARTUP_NAME) or runs_at_construction(facts, f):
            continue
        if r.kind == "clear":
            pass
        elif r.kind == "reassign" and isinstance(r.node, (ast.Assign, ast.AnnAssign)) \
                and empty_container(facts, r.node.value):
            pass
        else:
            continue
        if unconditional_in(facts, c, r.node, f) and _runs_repeatedly(facts, graph, f, r.node):
            return True
    return False


# ------------------------------------------------- eviction of the oldest entry

def _refers_to(facts, expr: ast.AST | None, c) -> bool:
    """Is `expr` a reference to container `c` as its own code spells it (`self.X` /
    `cls.X` / `Class.X` for a class or instance container, the bare name for a module one)?"""
    if c.scope == "module":
        return isinstance(expr, ast.Name) and expr.id == c.name
    return isinstance(expr, ast.Attribute) and expr.attr == c.attr and isinstance(expr.value, ast.Name)


def _head_of(facts, expr: ast.AST | None, c) -> bool:
    """Is `expr` the oldest key of `c` in insertion order: `next(iter(C))`,
    `next(iter(C.keys()))`, `list(C)[0]`, `list(C.keys())[0]` (a dict iterates in
    insertion order: Python docs, "Mapping Types")?"""
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == 0:
        inner = expr.value
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "list" \
                and len(inner.args) == 1:
            return _plain_keys(facts, inner.args[0], c)
        return False
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "next" and expr.args:
        it = expr.args[0]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "iter" and len(it.args) == 1:
            return _plain_keys(facts, it.args[0], c)
    return False


def _plain_keys(facts, expr: ast.AST, c) -> bool:
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "keys" \
            and not expr.args:
        expr = expr.func.value
    return _refers_to(facts, expr, c)


def _oldest_key_names(facts, c, fn) -> set[str]:
    """Locals of `fn` bound to the oldest key of `c` (`k = next(iter(C))`; the first
    name of `k, v = next(iter(C.items()))`)."""
    out: set[str] = set()
    for n in facts.walk(fn):
        if not isinstance(n, ast.Assign) or len(n.targets) != 1:
            continue
        t, v = n.targets[0], n.value
        if isinstance(t, ast.Name) and _head_of(facts, v, c):
            out.add(t.id)
        elif isinstance(t, ast.Tuple) and len(t.elts) == 2 and isinstance(t.elts[0], ast.Name) \
                and isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "next" and v.args:
            it = v.args[0]
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "iter" \
                    and len(it.args) == 1 and isinstance(it.args[0], ast.Call) \
                    and isinstance(it.args[0].func, ast.Attribute) and it.args[0].func.attr == "items" \
                    and _refers_to(facts, it.args[0].func.value, c):
                out.add(t.elts[0].id)
    return out


def _size_test(facts, test: ast.AST, c) -> bool:
    """Does `test` compare the size of `c` (`len(C) > self.max`, `len(C) >= n`)?"""
    for n in ast.walk(test):
        if isinstance(n, ast.Compare) and all(isinstance(o, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) for o in n.ops):
            for m in ast.walk(n):
                if isinstance(m, ast.Call) and isinstance(m.func, ast.Name) and m.func.id == "len" \
                        and len(m.args) == 1 and _refers_to(facts, m.args[0], c):
                    return True
    return False


def _eviction_condition(facts, c, node: ast.AST, fn) -> str | None:
    """"lru" when `node` (a removal in `fn`) runs only while `c` is over a size
    (an `if`/`while` around it tests `len(C)`), "ttl" when only for an entry past an
    age (an age test `_age_test` around it, or, in a `while` loop, an earlier `if` of
    the loop body on an age or size that leaves the loop: `if ts > cutoff: break`);
    None when it runs unconditionally (a drain)."""
    child = node
    for a in facts.ancestors(node):
        if a is fn or isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return None
        if isinstance(a, (ast.If, ast.While)) and child is not a.test:
            if _size_test(facts, a.test, c):
                return "lru"
            if _age_test(facts, a.test, fn):
                return "ttl"
        if isinstance(a, ast.While) and any(x is child for x in a.body):
            for prev in a.body[:next(i for i, x in enumerate(a.body) if x is child)]:
                if isinstance(prev, ast.If) and prev.body and isinstance(prev.body[-1], (ast.Break, ast.Return)):
                    if _age_test(facts, prev.test, fn):
                        return "ttl"
                    if _size_test(facts, prev.test, c):
                        return "lru"
        child = a
    return None


def evicts_oldest(facts, c) -> str | None:
    """Does some def of the module remove the oldest entry of dict `c` (the head of its
    insertion order: `C.pop(k)` / `del C[k]` with `k = next(iter(C))`, `k, ts =
    next(iter(C.items()))`, `list(C)[0]`, or that expression itself as the key) only
    while `c` is over a size ("lru": `if len(C) > self.max:`) or while that entry is
    past an age ("ttl": `while C: k, ts = next(iter(C.items())); if ts > cutoff: break;
    C.pop(k)`, with `cutoff` read from a clock, `CLOCK_QUALNAMES`)? Then `c` is a
    bounded FIFO/TTL cache, the same as one evicted with `popitem(last=False)`: every
    entry, whatever left it, is dropped once enough newer ones arrive or once it is old.
    A head removal with no such condition is a drain (`close()` emptying the table), not
    a bound: None. Memoised per container. Source: Python docs, "Mapping Types" (dicts
    keep insertion order; `OrderedDict.popitem(last=False)` is FIFO); ray's
    KVTokenTracker `_evict_stale_requests` (completion markers past a TTL)."""
    if c.kind not in ("dict", "OrderedDict", "defaultdict"):
        return None

    def compute():
        for r in c.removals:
            if r.kind not in ("pop", "del") or r.key is None or r.function is None:
                continue
            fn = r.function
            if isinstance(r.key, ast.Name):
                if r.key.id not in _oldest_key_names(facts, c, fn):
                    continue
            elif not _head_of(facts, r.key, c):
                continue
            why = _eviction_condition(facts, c, r.node, fn)
            if why is not None:
                return why
        return None
    return facts.memo(f"registries.evicts_oldest.{id(c)}", compute)


# ------------------------------------------------- terminal paths of one request

def _loop_bound(facts, name: str, node: ast.AST, fn) -> bool:
    """Is `name` at `node` the target of a `for` loop or comprehension around it in `fn`
    (one of many keys walked, not one request's)?"""
    for a in facts.ancestors(node):
        if a is fn:
            return False
        gens = a.generators if isinstance(a, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) else \
            [a] if isinstance(a, (ast.For, ast.AsyncFor)) else []
        if any(name in _name_ids(g.target) for g in gens):
            return True
    return False


def ends_one_request(facts, graph, fn, containers, depth: int = 3) -> bool:
    """Does the def `fn` deal with one request's entry: does it receive the key or look
    it up, rather than tear the whole object down?

    True when a parameter of `fn` (other than the method's receiver) flows — itself or
    through a local of `fn` built from it (`rid = req.request_id`) — into the key of a
    site (read, insertion, removal) of one of `containers` in `fn`'s body, or into an
    argument of a call of a def of this module (`graph.resolve`) whose matching
    parameter does (`depth` levels: `finish(rid)` → `self._free(rid)`); or when a
    parameter is a configured scope id (`facts.scope_id_in`: an `abort_request(request_id)`
    that only logs the id still receives it); or when `fn`
    itself indexes one of `containers` by a key that is not the target of a loop it
    runs over many keys (`rid = self.current; self.live.pop(rid)`). A `close()`/
    `shutdown()` that takes no key and only walks every entry (`for rid in
    list(self.active): self.end(rid)`) is not: it ends the object, and what it leaves
    in a registry goes with the object. `containers` are the owner's
    `LongLivedContainer`s; `graph` is `calls.call_graph(facts)`. Decided by value flow
    only, never by how a parameter is spelled.
    """
    from ctxlint.semantic.python.calls import params_of
    from ctxlint.semantic.python.requests import local_assignments
    ids = {id(c) for c in containers}
    own = [s for c in containers for s in (*c.reads, *c.inserts, *c.removals)
           if s.key is not None and id(c) in ids]
    memo: dict[tuple, bool] = {}

    def with_locals(f, params: set[str]) -> set[str]:
        """`params` and the locals of `f` assigned from them (to a fixed point)."""
        out = set(params)
        assigns = local_assignments(facts, f)
        changed = True
        while changed:
            changed = False
            for name, values in assigns.items():
                if name not in out and any(_name_ids(v) & out for v in values):
                    out.add(name)
                    changed = True
        return out

    def flows(f, params: set[str], d: int) -> bool:
        if not params:
            return False
        k = (id(f), frozenset(params), d)
        if k in memo:
            return memo[k]
        memo[k] = False  # a recursive call through this def adds nothing new
        names = with_locals(f, params)
        ok = any(s.function is f and _name_ids(s.key) & names for s in own)
        if not ok and d > 0:
            for call, target in graph.calls_in(f):
                mapped = set()
                for i, p in enumerate(params_of(target)):
                    arg = graph.arg_for(call, target, i)
                    if arg is not None and _name_ids(arg) & names:
                        mapped.add(p)
                mapped.discard(facts.receiver_param(target))
                if flows(target, mapped, d - 1):
                    ok = True
                    break
        memo[k] = ok
        return ok

    a = fn.args
    params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None}
    params.discard(facts.receiver_param(fn))
    if flows(fn, params, depth):
        return True
    if any(facts.scope_id_in(p) for p in params):
        return True  # it is handed a scope id (`abort_request(request_id)` that only logs it)
    for s in own:
        if s.function is fn and not all(_loop_bound(facts, n, s.node, fn) for n in _name_ids(s.key)):
            return True
    return False
