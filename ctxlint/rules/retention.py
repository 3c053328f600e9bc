"""CTX4xx (Python): retention — containers, caches, hooks, adapters and activations
that keep per-request or per-adapter objects alive after their request is over.

CTX401/CTX404 read the shared long-lived container fact
(`PythonFacts.long_lived_containers`, semantic/python/containers.py); the other rules read the
node-type index only.
"""

from __future__ import annotations

import ast
import re

from ctxlint.findings import SAFE, UNSAFE, Fix
from ctxlint.rules import Rule

# ----------------------------------------------------------------- helpers

#: Words in a stored value's names that mark it as per-request / per-adapter state.
_PER_SCOPE_WORDS = ("request", "req", "adapter", "lora", "tenant", "session", "conversation",
                    "seq", "sequence", "stream", "future", "queue", "group", "state")

#: Leading verbs of terminal-path method names (the end of a request's life).
_TERMINAL_VERBS = ("finish", "abort", "cancel", "timeout", "evict", "close", "expire", "fail", "reject")
_TERMINAL_PREFIXES = ("on", "handle", "do", "process", "try", "maybe")

#: Functions whose body runs once per object (setup) rather than once per request.
_SETUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                         r"_?build\w*|_?register\w*|_?install\w*|_?attach\w*|_?enable\w*|_?add_\w*hook\w*|"
                         r"_?prepare\w*|_?apply\w*|_?wrap\w*|_?patch\w*|_?hook\w*|_?instrument\w*|"
                         r"_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Functions that run once at start-up whatever their key (a subset of `_SETUP_NAME`).
_STARTUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                           r"_?build\w*|_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Words of a `load_*` name that make it a request-time load of one scope's object
#: (`load_adapter`, `load_lora`, `_load_tenant_config`) rather than start-up code
#: (`load_model`, `load_weights`): vLLM's LoRA manager loads an adapter when the
#: first request naming it arrives, and keeps it in a registry keyed by adapter.
_PER_SCOPE_LOAD_WORDS = frozenset({"adapter", "adapters", "lora", "loras", "peft", "tenant", "user",
                                   "session", "request", "req", "conversation"})


def _runs_once(name: str, pattern: re.Pattern) -> bool:
    """Does function `name` run once at set-up (`pattern` is `_SETUP_NAME` or
    `_STARTUP_NAME`)? A `load_*` of a per-scope object (`load_adapter`) does not."""
    if not pattern.match(name):
        return False
    words = _words(name)
    return not (words and words[0] == "load" and _PER_SCOPE_LOAD_WORDS.intersection(words[1:]))


def _names_in(expr: ast.AST | None) -> list[str]:
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


def _local_sources(facts, fn: ast.AST | None, name: str, before: ast.AST) -> list[ast.AST]:
    """Values assigned to local `name` in `fn` before `before` (loop targets give their iterable)."""
    if fn is None:
        return []
    index = facts.memo(f"retention.assigns.{id(fn)}", lambda: _assign_index(facts, fn))
    line = getattr(before, "lineno", 10**9)
    return [v for (ln, v) in index.get(name, ()) if ln <= line]


def _assign_index(facts, fn) -> dict[str, list[tuple[int, ast.AST]]]:
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


def _reaches_scope_id(facts, expr: ast.AST | None, fn, depth: int = 3) -> str | None:
    """The scope id `expr` reaches, following local assignments up to `depth` levels."""
    for name in _names_in(expr):
        sid = facts.scope_id_in(name)
        if sid:
            return sid
        if depth and "." not in name:
            for src in _local_sources(facts, fn, name, expr):
                sid = _reaches_scope_id(facts, src, fn, depth - 1)
                if sid:
                    return sid
    return None


def _key_text(expr: ast.AST | None) -> str | None:
    if expr is None:
        return None
    try:
        return ast.unparse(expr)
    except Exception:  # pragma: no cover - unparse of odd trees
        return None


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name.lower()) if w]


def _is_terminal(name: str) -> bool:
    """`finish_request`, `abort`, `_on_cancel`, `handle_timeout`: the name starts with a
    terminal verb (after an optional on/handle/do prefix)."""
    words = _words(name)
    while words and words[0] in _TERMINAL_PREFIXES:
        words = words[1:]
    return bool(words) and any(words[0].startswith(v) for v in _TERMINAL_VERBS)


def _owner_functions(facts, c) -> dict[str, ast.AST]:
    """Methods of the container's class, or module-level functions for module containers."""
    body = c.owner.body if c.owner is not None else facts.tree.body
    return {s.name: s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _callees(facts, fn: ast.AST, module: bool) -> set[str]:
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


def _closure(facts, funcs: dict[str, ast.AST], module: bool) -> dict[str, set[str]]:
    """Method name -> every sibling method it reaches through calls (itself included)."""
    direct = {name: _callees(facts, fn, module) & funcs.keys() for name, fn in funcs.items()}
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


# ----------------------------------------------------------------- CTX401


class UnboundedRegistry(Rule):
    code = "CTX401"
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
container) while no code ever removes an entry: no `del`, `pop`, `clear`,
reassignment, eviction call, no `maxsize`, no weak references.

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
(`bounded_registry`) picks `weakref.WeakValueDictionary()` when the stored values
are objects a weak reference can hold — a class instance (`LoraAdapter(...)`,
`LoraAdapter(...).to(device)`), a value bound from one, or a value named as a
model, adapter, module, graph, client, agent, engine or session — so an entry lives
exactly as long as its object is used elsewhere; an LRU bound would keep up to
`maxsize` deleted adapters (with their weights) alive. It picks
`cachetools.LRUCache(maxsize=1024)` for data a weak reference cannot hold
(strings, numbers, tuples, bytes, lists, dicts, `repr()`/`.hexdigest()` results).

## Source
vllm-project/vllm#16472 (n>1 child requests kept in `child_to_group` forever);
theexperiencecompany/gaia#706 (per-user compiled agent graphs never evicted).
"""

    def check(self, facts):
        for c in facts.long_lived_containers:
            if c.bounded or c.removals or c.escapes or not c.inserts:
                continue
            if c.kind in ("Counter",):
                continue
            site, why = self._per_scope_insert(facts, c)
            if site is None:
                continue
            fix = None
            if c.kind in ("dict", "OrderedDict") and isinstance(c.creation, (ast.Dict, ast.Call)) \
                    and not (isinstance(c.creation, ast.Dict) and c.creation.keys):
                kind = _registry_kind(facts, site)
                fix = Fix(description=("use a weakref.WeakValueDictionary" if kind == "weak"
                                       else "bound it with cachetools.LRUCache(maxsize=...)"),
                          safety=UNSAFE, codemod="bounded_registry",
                          data={"line": c.creation.lineno, "col": c.creation.col_offset, "kind": kind,
                                "container": c.name})
            where = "module" if c.scope == "module" else (
                f"class `{c.owner.name}`" if c.scope == "class" else f"long-lived `{c.owner.name}`")
            yield facts.finding(self, site.node,
                                f"`{c.name}` ({where} {c.kind}) gets an entry per {why} in "
                                f"`{site.method_name}()` but no path removes entries and it has no bound; "
                                "remove on every terminal path or use a bounded/weak cache", fix=fix)

    @staticmethod
    def _per_scope_insert(facts, c):
        """The first insertion that is per request/tenant/adapter, and why; else (None, None)."""
        sibling_keys: set[str] = set()
        if c.owner is not None or c.scope == "module":
            for other in facts.containers:
                if other is c or other.owner is not c.owner:
                    continue
                for s in other.removals:
                    t = _key_text(s.key)
                    if t:
                        sibling_keys.add(t)
        for s in c.inserts:
            if s.function is None or s.method_name in ("__init__", "__post_init__", "<module>"):
                continue
            if s.kind in ("update", "extend") or _runs_once(s.method_name, _STARTUP_NAME):
                continue
            key = s.key if s.key is not None else (s.value if s.kind in ("add",) else None)
            if isinstance(key, ast.Constant):
                continue
            sid = _reaches_scope_id(facts, key, s.function)
            if sid:
                # `register_request(request_id)` is per request even though `register_model` is not
                return s, f"`{sid}`"
            if _runs_once(s.method_name, _SETUP_NAME):
                continue
            t = _key_text(s.key)
            if t and t in sibling_keys and _id_like(t):
                return s, f"key `{t}` (removed from its sibling containers, never from this one)"
            if s.key is not None and s.value is not None and _per_scope_value(facts, s):
                return s, "request/adapter object"
        return None, None


_ID_WORDS = frozenset({"rid", "request", "req", "child", "seq", "sequence", "session", "stream",
                       "conversation", "tenant", "user"})


def _id_like(text: str) -> bool:
    """Does a key's text name a per-request id (`child`, `req.rid`, `stream_id`)?"""
    last = re.split(r"[^\w]+", text.strip("()[] "))[-1] if text else ""
    return any(w in _ID_WORDS for w in _words(last))


def _per_scope_value(facts, s) -> bool:
    """Is the stored value a per-request/per-adapter object (by its names)?"""
    v = s.value
    if not isinstance(v, (ast.Name, ast.Attribute, ast.Call)):
        return False
    text = facts.dotted(v.func if isinstance(v, ast.Call) else v) or ""
    if re.search(r"(cls|class|type|factory|fn|func|callback)$", text, re.I):
        return False
    names = _names_in(v)
    if isinstance(v, ast.Call):
        names = [facts.dotted(v.func) or ""]
    for n in names:
        last = n.split(".")[-1]
        words = _words(last)
        if any(w in ("request", "req", "adapter", "lora", "session", "conversation") for w in words):
            return True
        if facts.scope_id_in(n):
            return True
    return False


#: Words naming objects a weak reference can hold (class instances: models, adapters,
#: modules, compiled graphs, clients, sessions...).
_OBJECT_WORDS = frozenset({
    "model", "adapter", "lora", "module", "layer", "graph", "agent", "client", "engine", "session",
    "pipeline", "tokenizer", "processor", "connection", "conn", "worker", "runner", "handler",
    "executor", "manager", "server", "socket", "stream", "future", "task", "request", "req",
    "sequence", "seq", "group", "program", "kernel", "backend", "instance", "object", "obj", "peft",
})
#: Calls whose result cannot be weakly referenced (str, int, tuple, bytes, list, dict...).
_DATA_CALLS = frozenset({
    "str", "repr", "int", "float", "bool", "bytes", "tuple", "list", "dict", "set", "frozenset",
    "len", "sorted", "format", "join", "encode", "decode", "hexdigest", "digest", "hex", "dumps",
    "tolist", "item", "split", "strip", "lower", "upper", "tensor", "as_tensor", "zeros", "ones",
})
#: Methods that return their receiver (or an object of its class): `LoraAdapter(...).to(dev)`.
_SELF_RETURNING = frozenset({"to", "cuda", "cpu", "eval", "train", "half", "float", "bfloat16",
                             "requires_grad_", "share_memory", "compile", "bind", "with_options"})


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
        if name in _DATA_CALLS:
            return False
        if name[:1].isupper():
            return True
        if isinstance(f, ast.Attribute) and name in _SELF_RETURNING:
            return _is_object_value(facts, f.value, fn, before, depth)
        return bool(_OBJECT_WORDS.intersection(_words(name)))
    if isinstance(v, ast.Name):
        if depth:
            srcs = _local_sources(facts, fn, v.id, before)
            if srcs:
                return any(_is_object_value(facts, src, fn, before, depth - 1) for src in srcs
                           if not _is_lookup(src))
        return bool(_OBJECT_WORDS.intersection(_words(v.id)))
    if isinstance(v, ast.Attribute):
        return bool(_OBJECT_WORDS.intersection(_words(v.attr)))
    return False


def _is_lookup(v: ast.AST) -> bool:
    """`reg.get(k)` / `reg[k]`: a read of the registry itself, no evidence of the value's type."""
    return isinstance(v, ast.Subscript) or (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                                            and v.func.attr in ("get", "pop", "setdefault"))


# ----------------------------------------------------------------- CTX402

_CACHE_DECORATORS = {"functools.lru_cache", "functools.cache"}


class CachedMethodHoldsSelf(Rule):
    code = "CTX402"
    name = "cached-method-holds-self"
    summary = "functools.lru_cache/cache on an instance method: the shared cache keeps every self alive."
    tokens = ("lru_cache", "cache")
    fix_safety = SAFE
    doc = """\
## What it does
Flags `@functools.lru_cache`/`@functools.cache` (however imported) on an instance
method. Static methods are not instance methods and are skipped; class methods
are fine (the class lives as long as the process anyway). `maxsize=1` (or 0)
keeps at most the last instance and is not reported; a line already carrying
ruff's `# noqa: B019` (the same check) is not reported either.

## Why is this bad
The cache belongs to the function, i.e. to the class, and its keys include
`self`. Every instance that ever called the method (a per-request view, a
per-block reader, a per-model wrapper) stays alive in the cache, with all it
references, until `maxsize` pushes it out — forever with `@cache`.

## Example
```python
class SettingsView:
    @functools.lru_cache(maxsize=256)
    def get_setting(self, key):
        return self._read_state(self._root, key)
```

## Use instead
```python
class SettingsView:
    def __init__(self, read_state, root):
        self._read_state, self._root = read_state, root
        self._cache = {}

    def get_setting(self, key):
        if key not in self._cache:
            self._cache[key] = self._read_state(self._root, key)
        return self._cache[key]
```
or `functools.cached_property` for argument-less methods.

## Fix safety
Safe: the codemod moves the cache onto the instance (created in `__init__`), so
results are still cached, per instance.

## Source
ruff/flake8-bugbear B019; hyperledger-archives/sawtooth-core#2104;
python/cpython#96851 (docs FAQ "How do I cache method calls?").
"""

    def check(self, facts):
        for cls in facts.nodes(ast.ClassDef):
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                decos = [(facts.qualname(d.func if isinstance(d, ast.Call) else d) or "") for d in fn.decorator_list]
                if any(q.split(".")[-1] in ("staticmethod", "classmethod") for q in decos):
                    continue
                args = fn.args.posonlyargs + fn.args.args
                if not args:
                    continue
                for d, q in zip(fn.decorator_list, decos):
                    if q not in _CACHE_DECORATORS:
                        continue
                    if _tiny_maxsize(d):
                        continue  # keeps at most the last instance: bounded, no growth
                    line = facts.lines[d.lineno - 1] if d.lineno <= len(facts.lines) else ""
                    if re.search(r"noqa:[^#]*\bB019\b", line):
                        continue  # the same check, already acknowledged for ruff/flake8-bugbear
                    fix = Fix(description="cache per instance instead of on the class",
                              safety=SAFE, codemod="per_instance_cache",
                              data={"line": d.lineno, "col": d.col_offset, "method": fn.name})
                    yield facts.finding(self, d,
                                        f"`@{q.split('.')[-1]}` on instance method `{cls.name}.{fn.name}` "
                                        "keys the class-wide cache on `self`: every instance stays alive "
                                        "in it", fix=fix)


def _tiny_maxsize(deco: ast.AST) -> bool:
    """`@lru_cache(maxsize=1)` / `@lru_cache(0)`: at most one entry, so at most one `self`."""
    if not isinstance(deco, ast.Call):
        return False
    vals = [kw.value for kw in deco.keywords if kw.arg == "maxsize"] + list(deco.args[:1])
    return any(isinstance(v, ast.Constant) and isinstance(v.value, int) and not isinstance(v.value, bool)
               and v.value <= 1 for v in vals)


# ----------------------------------------------------------------- CTX403

_HOOK_RE = re.compile(r"^register_\w+_hook$")
#: Per-call entry points: a hook registered here is registered again on every call.
_PER_CALL_NAME = re.compile(r"^(forward|__call__|_?call|step|\w+_step|generate|_?predict\w*|infer\w*|"
                            r"decode\w*|prefill\w*|sample\w*|_?run\w*|process\w*|handle\w*|"
                            r"execute\w*|evaluate\w*|_?eval\w*|training_step|score\w*|embed\w*|"
                            r"compute\w*|extract\w*|__iter__|__next__)$")


class HookHandleLeak(Rule):
    code = "CTX403"
    name = "hook-handle-leak"
    summary = "A torch register_*_hook handle discarded or overwritten per call: the hook is never removed."
    tokens = ("register_",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags a torch module hook registration (`register_forward_hook`,
`register_forward_pre_hook`, `register_full_backward_hook`, ...) whose
`RemovableHandle` is
- discarded (an expression statement, or a local name never used again) in code
  that runs per call rather than once at setup, or
- stored on `self` in a per-call method (`forward`, `step`, `generate`, ...)
  without removing the handle stored there before — each call overwrites the only
  handle, so earlier hooks can never be removed, or
- registered inside a loop with the handle dropped.

## Why is this bad
A hook lives in the module's hook dict until its handle is removed. Registered
per call, hooks pile up: each keeps its closure (tensors, scalings, `self`)
alive, and every forward pass runs all of them — memory grows and outputs change.

## Example
```python
def forward(self, input_ids):
    hook = functools.partial(inject, scalings=self.classifier(input_ids))
    self._hook = self.model.register_forward_pre_hook(hook, with_kwargs=True)
    return self.model(input_ids)
```

## Use instead
```python
def forward(self, input_ids):
    hook = functools.partial(inject, scalings=self.classifier(input_ids))
    handle = self.model.register_forward_pre_hook(hook, with_kwargs=True)
    try:
        return self.model(input_ids)
    finally:
        handle.remove()
```

## Fix safety
Safe: the codemod keeps the handle in a local and removes it in `finally`.

## Source
huggingface/peft#2761 (X-LoRA registering a pre-hook per decode step);
PyTorch docs, `torch.nn.Module.register_forward_hook` ("Returns: a handle that can
be used to remove the added hook").
"""

    def check(self, facts):
        for call in facts.nodes(ast.Call):
            f = call.func
            if not (isinstance(f, ast.Attribute) and _HOOK_RE.match(f.attr)):
                continue
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            p = facts.parents.get(call)
            in_loop = _in_loop(facts, call, fn)
            per_call = bool(_PER_CALL_NAME.match(fn.name)) and not _SETUP_NAME.match(fn.name)
            msg = None
            if isinstance(p, ast.Expr) or (isinstance(p, ast.Assign) and _unused_local(facts, p, fn)):
                if per_call:
                    msg = (f"handle of `{f.attr}()` is dropped in `{fn.name}()`, which runs "
                           f"{'per iteration' if in_loop else 'per call'}: the hook is never removed and hooks pile up")
            elif isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Attribute):
                target = facts.dotted(p.targets[0])
                if target and per_call \
                        and not _removes_before(facts, fn, target, call):
                    msg = (f"`{fn.name}()` overwrites `{target}` with a new hook handle on every "
                           f"{'iteration' if in_loop else 'call'} without removing the previous hook")
            if msg:
                fix = Fix(description="keep the handle and remove it in finally", safety=SAFE,
                          codemod="keep_hook_handle", data={"line": call.lineno, "col": call.col_offset})
                yield facts.finding(self, call, msg, fix=fix)


def _in_loop(facts, node, fn) -> bool:
    for a in facts.ancestors(node):
        if a is fn:
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
            return True
    return False


def _unused_local(facts, assign: ast.Assign, fn) -> bool:
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return False
    name = assign.targets[0].id
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            return False
    return True


def _removes_before(facts, fn, target: str, call) -> bool:
    """Does `fn` read/remove `target` (guard or `.remove()`) other than by this store?"""
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and facts.dotted(n) == target:
            return True
    return False


# ----------------------------------------------------------------- CTX404


class TerminalPathMissingRemoval(Rule):
    code = "CTX404"
    name = "terminal-path-missing-removal"
    summary = ("A per-request registry entry removed by one terminal method (finish/abort/...) "
               "and left behind by another.")
    tokens = ("{}", "dict(", "Dict(", "set()", "[]", "OrderedDict", "defaultdict", "list(", "deque(", "field(")
    doc = """\
## What it does
For every long-lived container (module, class, or `self.` attribute of an
engine/scheduler/manager/server/frontend), finds the terminal methods of its
class or module — names saying a request ends: finish, abort, cancel, timeout,
evict, close, expire, fail, reject — and the ones among them that remove an
entry (directly or through a helper method they call). A terminal method that
handles the same key (removes it from a sibling container, or reads this one
with it) but never removes it from this container is reported, at its `def`. So is
a public terminal method that takes the key (`abort_request(request_id)`) and only
logs it or passes it to sibling methods, removing nothing from any container.

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
        by_owner: dict[int, list] = {}
        for c in facts.long_lived_containers:
            if c.bound in ("weak", "maxsize") or not c.removals or not c.inserts:
                continue
            by_owner.setdefault(id(c.owner), []).append(c)
        for group in by_owner.values():
            owner = group[0].owner
            funcs = _owner_functions(facts, group[0])
            # public terminal methods only: private helpers are phases of a protocol, not the
            # end of a request's life (a finding there was a false positive on real engines)
            terminals = {n: f for n, f in funcs.items() if _is_terminal(n) and not n.startswith("_")}
            if len(terminals) < 2:
                continue
            reach = _closure(facts, funcs, owner is None)
            all_containers = [c for c in facts.containers if c.owner is owner]
            for c in group:
                keyed = [s for s in c.removals if s.key is not None]
                # the registry must be keyed per request/tenant/adapter (a scope id)
                if not any(_reaches_scope_id(facts, s.key, s.function) for s in (*keyed, *c.inserts)):
                    continue
                removers = {s.method_name for s in keyed}
                keys = {t for s in (*keyed, *c.inserts) if (t := _key_text(s.key))}
                removing = [t for t in terminals if reach[t] & removers]
                if not removing:
                    continue
                for t, tfn in terminals.items():
                    if reach[t] & removers:
                        continue
                    if not (_touches_key(c, all_containers, reach[t], keys)
                            or _only_logs_key(facts, tfn, keys, reach[t], funcs, all_containers)):
                        continue
                    yield facts.finding(self, tfn,
                                        f"`{t}()` ends the request but leaves its entry in `{c.name}`, "
                                        f"which `{removing[0]}()` removes: every request that ends through "
                                        f"`{t}()` leaks one entry", end=tfn.args)


def _touches_key(c, containers, methods: set[str], keys: set[str]) -> bool:
    """Does code in `methods` remove one of `keys` from a sibling container (a cleanup path
    for the same request that forgets `c`)?"""
    for other in containers:
        if other is c:
            continue
        for s in other.removals:
            if s.method_name in methods and _key_text(s.key) in keys:
                return True
    return False


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


# ----------------------------------------------------------------- CTX405

_LOAD_ADAPTER = {"load_adapter", "add_adapter", "load_lora_weights", "load_lora_adapter"}
_UNLOAD_ADAPTER = {"delete_adapter", "delete_adapters", "unload", "unload_lora_weights",
                   "remove_adapter", "unload_lora", "delete_lora", "remove_lora",
                   "merge_and_unload", "unload_lora_adapter", "delete_adapter_layers"}
_USE_WORDS = ("set_adapter", "set_adapters", "activate", "generate", "eval", "evaluate",
              "predict", "infer", "score", "forward", "run", "test", "benchmark", "compute")


class AdapterLoadWithoutUnload(Rule):
    code = "CTX405"
    name = "adapter-load-without-unload"
    summary = "An adapter loaded and used inside a loop with no delete_adapter/unload in the loop or a finally."
    tokens = ("load_adapter", "add_adapter", "load_lora_weights", "load_lora_adapter")
    doc = """\
## What it does
Flags `load_adapter`/`add_adapter`/`load_lora_weights` inside a loop that also
activates or uses the adapter (`set_adapter`, `generate`, an evaluate/predict
call), when neither the loop body nor a `finally` of the function calls
`delete_adapter`/`delete_adapters`/`unload*`/`unload_lora_weights`.

## Why is this bad
Each loaded adapter stays registered in the shared model's per-adapter module
dicts (`lora_A`, `lora_B`, scalings, ...). A sweep or a per-request loop over
adapters keeps every one of them resident: GPU memory grows with the number of
adapters until the process runs out.

## Example
```python
for name, path in adapter_dirs.items():
    model.load_adapter(path, adapter_name=name)
    model.set_adapter(name)
    scores[name] = evaluate(model, batch)
```

## Use instead
```python
for name, path in adapter_dirs.items():
    model.load_adapter(path, adapter_name=name)
    try:
        model.set_adapter(name)
        scores[name] = evaluate(model, batch)
    finally:
        model.set_adapter("default")
        model.delete_adapter(name)
```

## Fix safety
No automatic fix: which adapter to switch back to is the caller's choice.

## Source
huggingface/peft#738 (memory grows when loading adapters in a loop).
"""

    def check(self, facts):
        for call in facts.nodes(ast.Call):
            attr = call.func.attr if isinstance(call.func, ast.Attribute) else None
            if attr not in _LOAD_ADAPTER:
                continue
            fn = facts.enclosing_function(call)
            loop = None
            for a in facts.ancestors(call):
                if a is fn:
                    break
                if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
                    loop = a
                    break
            if loop is None:
                continue
            calls = [n for n in facts.walk(loop, into_defs=True) if isinstance(n, ast.Call)]
            names = [(n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) for n in calls]
            if any(n in _UNLOAD_ADAPTER or n.startswith("unload") for n in names):
                continue
            if not any(any(w in n.lower() for w in _USE_WORDS) for n in names if n not in _LOAD_ADAPTER):
                continue
            if fn is not None and _finally_unloads(facts, fn):
                continue
            yield facts.finding(self, call,
                                f"`{attr}()` in a loop that uses each adapter, with no `delete_adapter`/`unload` "
                                "in the loop or a `finally`: every adapter stays resident in the model")


def _finally_unloads(facts, fn) -> bool:
    for t in facts.walk(fn, into_defs=False):
        if isinstance(t, ast.Try):
            for s in t.finalbody:
                for n in ast.walk(s):
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                            (n.func.attr in _UNLOAD_ADAPTER or n.func.attr.startswith("unload")):
                        return True
    return False


# ----------------------------------------------------------------- CTX406

_HOOK_FN = re.compile(r"^_?(\w+_)?hook(_fn)?$")
_HOOK_PARAMS = {"module", "input", "inputs", "output", "outputs", "args", "kwargs", "grad", "grad_input",
                "grad_output", "hidden_states", "x", "inp", "out", "mod"}
_NOT_ACTIVATION = re.compile(r"cache|cached|shape|len|size|step|count|idx|index|dtype|device|mode|flag|"
                             r"training|seed|num|max|min|warned|initialized|enabled|ready|offset|scal|"
                             r"factor|weight|bias|config|compiled|stats|running|bytecode|fn$|func|"
                             r"callback|handle|hook|lock|event|thread|task")
_REDUCING_ATTRS = {"item", "tolist", "size", "dim", "numel", "shape", "dtype", "device", "ndim"}


class ActivationRetainedOnModule(Rule):
    code = "CTX406"
    name = "activation-retained-on-module"
    summary = "A per-forward tensor stored on self in forward()/a hook and never cleared."
    tokens = ("forward", "hook")
    doc = """\
## What it does
Flags `self.<attr> = <tensor>` inside `forward()` (or a method whose name says it
is a hook) when the value is computed from the call's inputs (an argument, or a
local derived from one), it is not reduced to a Python value (`.item()`,
`.tolist()`, `.shape`), the attribute is not cache-like (read back in the same
method before the store, or named `*cache*`), and no method of the class ever
clears it (`self.<attr> = None`, `del self.<attr>`).

## Why is this bad
The stored tensor — and, during training, the whole autograd graph behind it —
stays alive until the next forward overwrites it. For a large model that is one
extra copy of an activation per layer per module instance, held across requests;
with `torch.no_grad()` off it also pins the graph's saved tensors.

## Example
```python
def forward(self, hidden_states):
    attn = self.attn(hidden_states)
    self.last_attn = attn
    return self.proj(attn)
```

## Use instead
Return the tensor (or collect it through a hook whose handle you remove), or
store a detached copy only while a debug flag is on and clear it after reading.

## Fix safety
No automatic fix.

## Source
PyTorch forum "Memory leak when storing activations on the module";
huggingface/transformers issues on output-capturing hooks holding tensors.
"""

    def check(self, facts):
        # candidate stores first, from the type index: `<name>.<attr> = value` inside a def
        by_fn: dict[int, ast.AST] = {}
        for n in facts.nodes(ast.Assign):
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                    and isinstance(n.targets[0].value, ast.Name) \
                    and not _NOT_ACTIVATION.search(n.targets[0].attr.lower()):
                fn = facts.enclosing_function(n)
                if fn is not None and isinstance(facts.parents.get(fn), ast.ClassDef):
                    by_fn.setdefault(id(fn), fn)
        classes: dict[int, ast.ClassDef] = {}
        for fn in by_fn.values():
            cls = facts.parents[fn]
            classes.setdefault(id(cls), cls)
        for cls in classes.values():
            methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            per_forward = [m for m in methods if id(m) in by_fn and not _is_static_or_class(facts, m) and (
                m.name == "forward" or (_HOOK_FN.match(m.name) and not m.name.startswith(("set_", "register_", "add_", "remove_", "get_"))
                                        and {a.arg for a in m.args.args} & _HOOK_PARAMS))]
            if not per_forward:
                continue
            cleared = None
            for m in per_forward:
                args = m.args.posonlyargs + m.args.args
                if not args or args[0].arg == "ctx":  # autograd.Function.forward(ctx, ...)
                    continue
                selfname = args[0].arg
                inputs = {a.arg for a in args[1:] + m.args.kwonlyargs}
                if m.args.vararg:
                    inputs.add(m.args.vararg.arg)
                if not inputs:
                    continue
                body = list(facts.walk(m))
                stores = [n for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
                          and isinstance(n.targets[0], ast.Attribute)
                          and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == selfname
                          and not _NOT_ACTIVATION.search(n.targets[0].attr.lower())]
                if not stores:
                    continue
                if cleared is None:
                    cleared = _cleared_attrs(facts, methods)
                derived = _derived_locals(body, inputs)
                first_read: dict[str, int] = {}
                for n in body:
                    if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) \
                            and isinstance(n.value, ast.Name) and n.value.id == selfname:
                        first_read[n.attr] = min(first_read.get(n.attr, n.lineno), n.lineno)
                for n in stores:
                    t = n.targets[0]
                    if t.attr in cleared or not _is_tensor_from(n.value, derived):
                        continue
                    if first_read.get(t.attr, 10**9) <= n.lineno:
                        continue  # read back before the store: a cache, not a leak
                    yield facts.finding(self, t,
                                        f"`{m.name}()` stores a per-call tensor on `{selfname}.{t.attr}` and no "
                                        f"method clears it: the activation (and its autograd graph) stays alive "
                                        f"until the next call")


def _is_static_or_class(facts, fn) -> bool:
    """staticmethod/classmethod (torch.autograd.Function.forward(ctx, ...) is a staticmethod)."""
    return any((facts.dotted(d) or "").split(".")[-1] in ("staticmethod", "classmethod") for d in fn.decorator_list)


def _cleared_attrs(facts, methods) -> set[str]:
    out = set()
    for m in methods:
        for n in facts.walk(m):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant) and n.value.value is None:
                for t in n.targets:
                    if isinstance(t, ast.Attribute):
                        out.add(t.attr)
            elif isinstance(n, ast.Delete):
                for t in n.targets:
                    if isinstance(t, ast.Attribute):
                        out.add(t.attr)
    return out


def _derived_locals(body: list, inputs: set[str]) -> set[str]:
    """Input names plus locals assigned (in order) from expressions that use one."""
    derived = set(inputs)
    for n in body:
        if isinstance(n, ast.Assign):
            used = {x.split(".")[0] for x in _names_in(n.value)}
            if used & derived:
                for t in n.targets:
                    for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                        if isinstance(el, ast.Name):
                            derived.add(el.id)
    return derived


def _is_tensor_from(v: ast.AST, derived: set[str]) -> bool:
    if isinstance(v, (ast.Constant, ast.JoinedStr, ast.Compare, ast.BoolOp, ast.Dict, ast.List,
                      ast.Tuple, ast.Set, ast.Lambda)):
        return False
    for n in ast.walk(v):
        if isinstance(n, ast.Attribute) and n.attr in _REDUCING_ATTRS:
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in (
                "int", "float", "bool", "len", "str", "tuple", "list", "isinstance", "getattr", "type"):
            return False
    if isinstance(v, ast.Name):
        return v.id in derived
    if isinstance(v, (ast.Call, ast.BinOp, ast.Subscript, ast.Attribute)):
        return any(x.split(".")[0] in derived for x in _names_in(v))
    return False
