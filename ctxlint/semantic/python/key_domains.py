"""Bounded key domains (CTX401, CTX108): keys that can take only a bounded set of values.

A container written under such a key holds at most one entry per value of the domain,
however many requests write to it, so the write is no per-request growth, and an
entry a cancelled call leaves behind is overwritten by the next call under the same
key rather than stranded. The domain is decided from where the key's value comes
from, never from how it is spelled:

- a fixed value (`fixed_value`): a literal, a module-level name (a constant, an
  imported name: one object for the process), an attribute of a module bound by
  `import` or of a class of this module (`constants.ROUTE_KEY`, `Color.RED`; not of a
  name bound by `from m import x`, which may be a per-request proxy), for an instance
  container an attribute of the receiver that only construction, start-up methods
  (`registries.STARTUP_NAME`) or fixed values ever assign (not a counter bumped per
  call), a tuple/f-string/
  conversion built from fixed values, a loop variable over a bounded iterable, a
  local assigned only such values, or a parameter of a private def that every caller
  (including a thread/executor/event-loop hand-off of the def) passes such a value;
- a bounded iterable (`bounded_iterable`): `range(...)`, a literal display whose
  elements are fixed, a module constant collection that no function mutates,
  an `Enum` class of this module, a local list built from such displays outside any
  loop, and views/copies of these (`sorted(x)`, `x.items()`, `enumerate(x)`);
- a key checked against a fixed set (`bounded_key_domain`): the write runs only
  where the key is already in the container itself (an update, not a new key; also a
  write under the key of a loop over the container's own keys, `for k, v in
  D.items(): D[k] = None`), or in
  a bounded iterable, or in a container whose key set is bounded; or the same call
  indexes (`D[k]`, no default) a plain dict whose key set is bounded
  (`dict.fromkeys(range(n), 0)`, only ever written under fixed keys), so any other key
  raises `KeyError` on that path; or the write is an augmented assignment on a plain
  dict (`d[k] += n` raises for a missing key: it adds none).

Source: Python docs, "Data model" (a dict holds one entry per distinct key),
"Built-in Types: Mapping Types" (`d[k]` raises `KeyError` for a missing key; only
`defaultdict`/`Counter` insert on a miss), `threading.Thread(target, args, kwargs)`,
`threading.Timer(interval, function, args, kwargs)`, `loop.run_in_executor(executor,
func, *args)`, `Executor.submit(fn, *args, **kwargs)`, `asyncio.to_thread(func,
*args, **kwargs)`, `loop.call_soon(callback, *args)`, `loop.call_later(delay,
callback, *args)`.
"""

from __future__ import annotations

import ast

from ctxlint.semantic.python.registries import assign_index

#: Builtins whose result is fixed when their arguments are (conversions of a fixed value).
_FIXED_CONVERSIONS = frozenset({"str", "int", "float", "bool", "repr", "tuple", "frozenset", "format"})
#: Methods of `str`/`bytes`/Enum members whose result is fixed when receiver and arguments are.
_FIXED_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "replace",
                            "format", "encode", "decode", "title", "capitalize"})
#: Attributes of a fixed value that are fixed too (an Enum member's `name`/`value`).
_FIXED_ATTRS = frozenset({"name", "value"})
#: Calls that walk their single iterable argument (or a copy of it) element by element.
_ITER_CALLS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter", "enumerate"})
#: Views of a mapping whose elements are its keys (or (key, value) rows).
_VIEWS = frozenset({"keys", "values", "items", "copy"})
#: Methods that add elements to a list/set/dict.
_GROW_METHODS = frozenset({"append", "add", "extend", "insert", "update", "appendleft", "extendleft"})
#: Base classes whose subclasses enumerate a fixed set of members (Python docs, `enum`).
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})

#: Hand-offs that run a def with the arguments given to them (Python docs: threading,
#: asyncio event loop, concurrent.futures, asyncio.to_thread, trio/anyio `start_soon`):
#: last name of the API -> (index of the callable among positional arguments, whether
#: the keyword arguments go to the callable too). Thread/Process/Timer take `target=`/
#: `function=` and `args=`/`kwargs=` (handled in `_handoff_args`).
_HANDOFF_POSITIONAL = {
    "run_in_executor": (1, False), "submit": (0, True), "to_thread": (0, True),
    "call_soon": (0, False), "call_soon_threadsafe": (0, False), "call_later": (1, False),
    "call_at": (1, False), "start_soon": (0, False), "run_sync": (0, False),
}
_HANDOFF_TARGET_KW = frozenset({"threading.Thread", "threading.Timer", "multiprocessing.Process",
                                "multiprocessing.context.Process"})

_IN_PROGRESS = object()


class _Ctx:
    """What the judgement of one key may assume: the owner class of the container when
    it is an instance container (then an attribute of the receiver that is set only
    while the object is built or started is one value per object)."""

    __slots__ = ("facts", "owner")

    def __init__(self, facts, owner):
        self.facts = facts
        self.owner = owner


# ----------------------------------------------------------------- name scopes

def _global_names(facts) -> set[str]:
    """Names some def of the module declares `global` (rebinds at module level)."""
    def compute():
        out: set[str] = set()
        for n in facts.nodes(ast.Global):
            out.update(n.names)
        return out
    return facts.memo("key_domains.globals", compute)


def _stores_in(facts, fn, name: str) -> list[ast.AST]:
    """The Name(Store) nodes of `name` in `fn`'s own body (nested defs excluded)."""
    def compute():
        out: dict[str, list[ast.AST]] = {}
        for n in facts.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.setdefault(n.id, []).append(n)
        return out
    return facts.memo(f"key_domains.stores.{id(fn)}", compute).get(name, [])


def _params(fn) -> dict[str, ast.arg]:
    a = fn.args
    return {p.arg: p for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg) if p is not None}


def _sources(facts, fn, name: str) -> list[ast.AST] | None:
    """Every value `fn` binds local `name` to (loop targets give their iterable), or None
    when one of its bindings is of a shape `assign_index` does not follow (`with ... as`,
    a nested unpacking, a starred target)."""
    index = facts.memo(f"retention.assigns.{id(fn)}", lambda: assign_index(facts, fn))
    got = [v for _ln, v in index.get(name, ())]
    if len(got) != len(_stores_in(facts, fn, name)):
        return None
    return got


def _is_iterable_of(facts, node: ast.AST) -> bool:
    """Is `node` the iterable of a `for`/comprehension (its target takes its elements)?"""
    p = facts.parents.get(node)
    return isinstance(p, (ast.For, ast.AsyncFor, ast.comprehension)) and p.iter is node


def _in_loop(facts, node: ast.AST, fn) -> bool:
    for a in facts.ancestors(node):
        if a is fn:
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While, ast.comprehension, ast.ListComp, ast.SetComp,
                          ast.DictComp, ast.GeneratorExp)):
            return True
    return False


def _binding_def(facts, fn, name: str):
    """The def (`fn` or one enclosing it) that binds `name` as a parameter or local, or
    None when it is free in all of them (module level or builtin)."""
    f = fn
    while f is not None:
        if name in _params(f) or _stores_in(facts, f, name):
            return f
        f = facts.enclosing_function(f)
    return None


def _imported_modules(facts) -> set[str]:
    """Names bound by an `import m` / `import m as n` statement: modules. (A name bound
    by `from m import x` may be any object, among them a context-local proxy to the
    current request such as `flask.g`, whose attributes change per request.)"""
    def compute():
        out: set[str] = set()
        for n in facts.nodes(ast.Import):
            for a in n.names:
                out.add(a.asname or a.name.split(".")[0])
        return out
    return facts.memo("key_domains.imported_modules", compute)


def _module_class(facts, name: str) -> ast.ClassDef | None:
    for s in facts.tree.body:
        if isinstance(s, ast.ClassDef) and s.name == name:
            return s
    return None


def _fixed_module_name(facts, name: str) -> bool:
    """A module-level binding (assignment, import, def, class) that no def rebinds
    through `global`: one object for the life of the process."""
    return name in facts.module_names and name not in _global_names(facts)


# ----------------------------------------------------------------- fixed values

def fixed_value(facts, expr: ast.AST | None, fn, owner: ast.ClassDef | None = None, depth: int = 4) -> bool:
    """Can `expr` (evaluated in the def `fn`) take only a bounded set of values over the
    life of the process (or, with `owner`, of one instance of that class)?

    Args:
        expr: a key expression.
        fn: the def it is evaluated in (None at module level).
        owner: the class whose instance owns the container being judged, when it is an
            instance container: an attribute of the receiver assigned only at
            construction (or only fixed values) is then fixed for the object.
        depth: how many local assignments / caller hops are still followed.
    See the module docstring for the shapes; anything else (a parameter of a public
    def, a call result, a subscript) is not fixed. Never raises on odd code."""
    return _fixed(_Ctx(facts, owner), expr, fn, depth)


def _fixed(ctx: _Ctx, e: ast.AST | None, fn, depth: int) -> bool:
    facts = ctx.facts
    if e is None:
        return False
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.JoinedStr):
        return all(_fixed(ctx, v.value, fn, depth) for v in e.values if isinstance(v, ast.FormattedValue))
    if isinstance(e, ast.Tuple):
        return bool(e.elts) and all(not isinstance(x, ast.Starred) and _fixed(ctx, x, fn, depth) for x in e.elts)
    if isinstance(e, ast.BinOp):
        return _fixed(ctx, e.left, fn, depth) and _fixed(ctx, e.right, fn, depth)
    if isinstance(e, ast.UnaryOp):
        return _fixed(ctx, e.operand, fn, depth)
    if isinstance(e, ast.BoolOp):
        return all(_fixed(ctx, v, fn, depth) for v in e.values)
    if isinstance(e, ast.IfExp):
        return _fixed(ctx, e.body, fn, depth) and _fixed(ctx, e.orelse, fn, depth)
    if isinstance(e, ast.Compare):
        return True  # a bool
    if isinstance(e, ast.Call):
        args = [*e.args, *(k.value for k in e.keywords)]
        if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
            return False
        f = e.func
        if isinstance(f, ast.Name) and f.id in _FIXED_CONVERSIONS and _binding_def(facts, fn, f.id) is None \
                and f.id not in facts.module_names:
            return all(_fixed(ctx, a, fn, depth) for a in args)
        if isinstance(f, ast.Attribute) and f.attr in _FIXED_METHODS:
            return _fixed(ctx, f.value, fn, depth) and all(_fixed(ctx, a, fn, depth) for a in args)
        return False
    if isinstance(e, ast.Name):
        return _fixed_name(ctx, e, fn, depth)
    if isinstance(e, ast.Attribute):
        return _fixed_attr(ctx, e, fn, depth)
    return False


def _fixed_name(ctx: _Ctx, e: ast.Name, fn, depth: int) -> bool:
    facts = ctx.facts
    where = _binding_def(facts, fn, e.id) if fn is not None else None
    if where is None:
        return _fixed_module_name(facts, e.id)
    if depth <= 0:
        return False
    srcs = _sources(facts, where, e.id)
    if srcs is None:
        return False
    if e.id in _params(where):
        if srcs:
            return False  # a parameter rebound in the body: judged by neither alone
        return _param_fixed(ctx, where, e.id, depth - 1)
    if not srcs:
        return False
    for src in srcs:
        if _is_iterable_of(facts, src):
            if not _bounded_iter(ctx, src, where, depth - 1):
                return False
        elif not _fixed(ctx, src, where, depth - 1):
            return False
    return True


def _receiver_attr(facts, e: ast.AST, fn) -> bool:
    """Is `e` `self.X` on the receiver of the method `fn` belongs to (also inside its closures)?"""
    if not (isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)):
        return False
    f = fn
    while f is not None:
        r = facts.receiver_param(f)
        if r is not None:
            return r == e.value.id and e.value.id not in _params_below(facts, fn, f)
        f = facts.enclosing_function(f)
    return False


def _params_below(facts, fn, method) -> set[str]:
    """Parameter names of the defs between `fn` and `method` (closures that shadow `self`)."""
    out: set[str] = set()
    f = fn
    while f is not None and f is not method:
        out |= set(_params(f))
        f = facts.enclosing_function(f)
    return out


def _construction_only(facts, fn) -> bool:
    """Does the def `fn` run once per object: `__init__`/`__post_init__`/`__new__`, a
    private helper only those call (`registries.runs_at_construction`), or a start-up
    method (`registries.STARTUP_NAME`: `_init_client`, `setup`, `load_config`)?"""
    from ctxlint.semantic.python.registries import STARTUP_NAME, runs_at_construction, runs_once
    name = getattr(fn, "name", "")
    return name in ("__init__", "__post_init__", "__new__") or runs_at_construction(facts, fn) \
        or runs_once(name, STARTUP_NAME)


def _fixed_attr(ctx: _Ctx, e: ast.Attribute, fn, depth: int) -> bool:
    facts = ctx.facts
    base = e
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and (fn is None or _binding_def(facts, fn, base.id) is None):
        if base.id in _imported_modules(facts) and base.id not in _global_names(facts):
            return True  # `constants.ROUTE_KEY`: an attribute of an imported module
        cls = _module_class(facts, base.id)
        if cls is not None and e.value is base:
            # a class constant no def rebinds (`Cls.X = ...`, `self.X += 1`, ...)
            return all(facts.enclosing_function(st) is None for st, _v in _attr_stores(facts, cls, e.attr))
    if e.attr in _FIXED_ATTRS and not (isinstance(e.value, ast.Name) and
                                       (fn is None or _binding_def(facts, fn, e.value.id) is None)) \
            and _fixed(ctx, e.value, fn, depth):
        return True  # an Enum member's `name`/`value` (`Color.RED.value`, `phase.value` in `for phase in Phase`)
    if ctx.owner is not None and _receiver_attr(facts, e, fn) and facts.enclosing_class(fn) is ctx.owner:
        stores = _attr_stores(facts, ctx.owner, e.attr)
        if not stores:
            return False
        for st, value in stores:
            where = facts.enclosing_function(st)
            if where is None or _construction_only(facts, where):
                continue  # a class-level default, or set while the object is built
            if value is None or depth <= 0 or not _fixed(ctx, value, where, depth - 1):
                return False  # a counter (`self.n += 1`), an unpacking, a per-call value
        return True
    return False


def _attr_stores(facts, cls: ast.ClassDef, attr: str) -> list[tuple[ast.AST, ast.AST | None]]:
    """Every binding of attribute `attr` in `cls` (its body and its defs, any receiver):
    (statement, value) for a plain `x.attr = v` / `x.attr: T = v` / class-level `attr =
    v`, (statement, None) for any other store (`x.attr += 1`, a tuple target, a loop or
    `with` target), whose value is not one expression."""
    def compute():
        out: dict[str, list] = {}
        for n in facts.walk(cls, into_defs=True):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store):
                st = facts.enclosing_statement(n)
                plain = isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None and \
                    any(t is n for t in (st.targets if isinstance(st, ast.Assign) else [st.target]))
                out.setdefault(n.attr, []).append((st, st.value if plain else None))
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and facts.enclosing_function(n) is None \
                    and facts.enclosing_class(n) is cls:
                st = facts.enclosing_statement(n)
                plain = isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None and \
                    any(t is n for t in (st.targets if isinstance(st, ast.Assign) else [st.target]))
                out.setdefault(n.id, []).append((st, st.value if plain else None))
        return out
    return facts.memo(f"key_domains.attr_stores.{id(cls)}", compute).get(attr, [])


# ----------------------------------------------------------------- parameters

def _refs_by_name(facts) -> dict[str, list[ast.AST]]:
    """Every Load of a Name (`n`) or Attribute (`.n`) in the module, by the name read."""
    def compute():
        out: dict[str, list[ast.AST]] = {}
        for n in facts.nodes(ast.Name):
            if isinstance(n.ctx, ast.Load):
                out.setdefault(n.id, []).append(n)
        for n in facts.nodes(ast.Attribute):
            if isinstance(n.ctx, ast.Load):
                out.setdefault("." + n.attr, []).append(n)
        return out
    return facts.memo("key_domains.refs", compute)


def _handoff_args(facts, ref: ast.AST) -> tuple[list[ast.AST], dict[str, ast.AST]] | None:
    """When `ref` (a reference to a def) is handed to an API that runs it with given
    arguments (`threading.Thread(target=ref, args=(a, b))`, `loop.run_in_executor(None,
    ref, a)`, `pool.submit(ref, a, k=v)`): the positional and keyword arguments it is run
    with; else None. Arguments that cannot be read (`args=some_tuple`, `*rest`) give None."""
    p = facts.parents.get(ref)
    if isinstance(p, ast.keyword):
        call = facts.parents.get(p)
        if not isinstance(call, ast.Call) or (facts.qualname(call.func) or "") not in _HANDOFF_TARGET_KW \
                or p.arg not in ("target", "function"):
            return None
        pos: list[ast.AST] = []
        kws: dict[str, ast.AST] = {}
        for k in call.keywords:
            if k.arg == "args":
                if not isinstance(k.value, (ast.Tuple, ast.List)) or \
                        any(isinstance(x, ast.Starred) for x in k.value.elts):
                    return None
                pos = list(k.value.elts)
            elif k.arg == "kwargs":
                if not isinstance(k.value, ast.Dict) or \
                        not all(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in k.value.keys):
                    return None
                kws = {x.value: v for x, v in zip(k.value.keys, k.value.values)}
            elif k.arg is None:
                return None
        return pos, kws
    if isinstance(p, ast.Call) and p.func is not ref and ref in p.args:
        name = p.func.attr if isinstance(p.func, ast.Attribute) else getattr(p.func, "id", "")
        if (facts.qualname(p.func) or "") in _HANDOFF_TARGET_KW:
            # only `threading.Timer(interval, function, args)` is read positionally
            if (facts.qualname(p.func) or "") != "threading.Timer" or len(p.args) < 2 or p.args[1] is not ref \
                    or p.keywords:
                return None
            rest = p.args[2:]
            if len(rest) > 1 or (rest and not isinstance(rest[0], (ast.Tuple, ast.List))) or \
                    (rest and any(isinstance(x, ast.Starred) for x in rest[0].elts)):
                return None
            return (list(rest[0].elts) if rest else []), {}
        shape = _HANDOFF_POSITIONAL.get(name)
        if shape is None:
            return None
        at, kw_too = shape
        if at >= len(p.args) or p.args[at] is not ref:
            return None
        rest = p.args[at + 1:]
        if any(isinstance(x, ast.Starred) for x in rest) or any(k.arg is None for k in p.keywords):
            return None
        return list(rest), ({k.arg: k.value for k in p.keywords} if kw_too else {})
    return None


def _param_fixed(ctx: _Ctx, fn, pname: str, depth: int) -> bool:
    """Is parameter `pname` of the def `fn` fixed at every call: `fn` is private (or a
    nested def), every reference to it in the module is a call that resolves to it or a
    hand-off that runs it (`_handoff_args`), at least one, and each passes a fixed value
    (or omits it, leaving the default)? A public def may be called from anywhere."""
    facts = ctx.facts
    name = getattr(fn, "name", "")
    nested = facts.enclosing_function(fn) is not None and facts.receiver_param(fn) is None
    if not nested and (not name.startswith("_") or name.startswith("__")):
        return False
    table = facts.memo("key_domains.params", dict)
    key = (id(fn), pname, id(ctx.owner), depth)
    got = table.get(key)
    if got is _IN_PROGRESS:
        return False  # a recursion through this parameter adds no value
    if got is not None:
        return got
    table[key] = _IN_PROGRESS
    ok = False
    try:
        ok = _param_fixed_compute(ctx, fn, pname, depth)
    finally:
        table[key] = ok
    return ok


def _param_fixed_compute(ctx: _Ctx, fn, pname: str, depth: int) -> bool:
    from ctxlint.semantic.python.calls import call_graph, params_of
    facts = ctx.facts
    graph = call_graph(facts)
    method = facts.receiver_param(fn) is not None
    refs = _refs_by_name(facts).get(("." if method else "") + fn.name, [])
    positional = params_of(fn)
    a = fn.args
    defaults = {p.arg for p in (a.posonlyargs + a.args)[len(a.posonlyargs + a.args) - len(a.defaults):]}
    defaults |= {p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None}
    seen = 0
    for ref in refs:
        p = facts.parents.get(ref)
        if isinstance(p, ast.Call) and p.func is ref:
            target = graph.resolve(p)
            if target is not fn:
                if target is not None:
                    continue  # a same-named def elsewhere
                return False
            if any(isinstance(x, ast.Starred) for x in p.args) or any(k.arg is None for k in p.keywords):
                return False
            arg = graph.arg_for(p, fn, positional.index(pname)) if pname in positional else \
                next((k.value for k in p.keywords if k.arg == pname), None)
            caller = facts.enclosing_function(p)
        else:
            got = _handoff_args(facts, ref)
            if got is None:
                return False
            if method and not _receiver_attr(facts, ref, facts.enclosing_function(ref)):
                return False  # `other.m` handed off: not known to be this def
            pos, kws = got
            off = 1 if method else 0
            if pname in positional and 0 <= positional.index(pname) - off < len(pos):
                arg = pos[positional.index(pname) - off]
            else:
                arg = kws.get(pname)
            caller = facts.enclosing_function(ref)
        seen += 1
        if arg is None:
            if pname not in defaults:
                return False
            continue  # the default: evaluated once, when the def is
        if not _fixed(ctx, arg, caller, depth):
            return False
    return seen > 0


# ----------------------------------------------------------------- bounded iterables

def bounded_iterable(facts, it: ast.AST | None, fn, owner: ast.ClassDef | None = None, depth: int = 4) -> bool:
    """Does iterating `it` (in the def `fn`) yield only a bounded set of values, whatever
    the call? See the module docstring; `owner` as in `fixed_value`."""
    return _bounded_iter(_Ctx(facts, owner), it, fn, depth)


def _element_fixed(ctx: _Ctx, e: ast.AST, fn, depth: int) -> bool:
    """An element of a literal display: a fixed value (a receiver attribute set only
    while the object is built or started counts, for an instance container), or a
    tuple of those."""
    if isinstance(e, ast.Tuple):
        return all(not isinstance(x, ast.Starred) and _element_fixed(ctx, x, fn, depth) for x in e.elts)
    return _fixed(ctx, e, fn, depth)


def _bounded_display(ctx: _Ctx, e: ast.AST, fn, depth: int) -> bool:
    if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
        return all(not isinstance(x, ast.Starred) and _element_fixed(ctx, x, fn, depth) for x in e.elts)
    if isinstance(e, ast.Dict):
        return all(k is not None and _element_fixed(ctx, k, fn, depth) for k in e.keys)
    return False


def _bounded_iter(ctx: _Ctx, it: ast.AST | None, fn, depth: int) -> bool:
    facts = ctx.facts
    if it is None or depth < 0:
        return False
    if isinstance(it, ast.Constant):
        return isinstance(it.value, (str, bytes, tuple, frozenset))
    if _bounded_display(ctx, it, fn, depth):
        return True
    if isinstance(it, ast.Call):
        f = it.func
        builtin = isinstance(f, ast.Name) and f.id not in facts.module_names and \
            (fn is None or _binding_def(facts, fn, f.id) is None)
        if builtin and f.id == "range":
            return True
        if builtin and f.id in _ITER_CALLS and len(it.args) == 1:
            return _bounded_iter(ctx, it.args[0], fn, depth)
        if builtin and f.id == "zip" and it.args:
            return any(_bounded_iter(ctx, x, fn, depth) for x in it.args if not isinstance(x, ast.Starred))
        if isinstance(f, ast.Attribute) and f.attr in _VIEWS and not it.args:
            return _bounded_iter(ctx, f.value, fn, depth)
        return False
    if isinstance(it, ast.Name):
        where = _binding_def(facts, fn, it.id) if fn is not None else None
        if where is None:
            return _module_collection(ctx, it.id)
        if it.id in _params(where) or depth <= 0:
            return False
        srcs = _sources(facts, where, it.id)
        if not srcs or any(_is_iterable_of(facts, s) for s in srcs):
            return False  # a loop variable used as a collection: its elements are not known
        if not all(_bounded_display(ctx, s, where, depth - 1) or
                   (not isinstance(s, ast.Name) and _bounded_iter(ctx, s, where, depth - 1)) for s in srcs):
            return False
        return _grown_boundedly(ctx, where, it.id, depth - 1)
    if isinstance(it, ast.Attribute) and ctx.owner is not None and _receiver_attr(facts, it, fn) \
            and facts.enclosing_class(fn) is ctx.owner:
        stores = _attr_stores(facts, ctx.owner, it.attr)
        if not stores or _mutated_attr(facts, ctx.owner, it.attr):
            return False
        return all(v is not None and _bounded_display(ctx, v, facts.enclosing_function(st), depth - 1)
                   for st, v in stores)
    return False


def _grown_boundedly(ctx: _Ctx, fn, name: str, depth: int) -> bool:
    """Is every growth of local list/set `name` in `fn` (`name.append(x)`, `.add`,
    `.extend`, `.insert`, `.update`) outside any loop, with fixed elements? Then the
    collection holds a bounded number of fixed slots."""
    facts = ctx.facts
    for n in facts.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _GROW_METHODS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name:
            if _in_loop(facts, n, fn):
                return False
            m = n.func.attr
            args = n.args[1:] if m == "insert" else n.args
            if not args or n.keywords:
                return False
            for x in args:
                if m in ("extend", "update", "extendleft"):
                    if not _bounded_iter(ctx, x, fn, depth):
                        return False
                elif not _element_fixed(ctx, x, fn, depth):
                    return False
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == name \
                and _in_loop(facts, n, fn):
            return False
    return True


def _module_collection(ctx: _Ctx, name: str) -> bool:
    """A module-level collection whose every module-level value is a bounded display
    (or range), that no def rebinds (`global`) or grows; or an Enum class of this module."""
    facts = ctx.facts
    cls = _module_class(facts, name)
    if cls is not None:
        return any((facts.dotted(b) or "").split(".")[-1] in _ENUM_BASES for b in cls.bases)
    if not _fixed_module_name(facts, name):
        return False
    vals = facts.module_assignments.get(name, [])
    if not vals or not all(_bounded_iter(ctx, v, None, 1) for v in vals):
        return False
    for c in facts.containers:
        if c.scope == "module" and c.name == name and any(s.function is not None for s in c.inserts):
            return False
    return True


def _mutated_attr(facts, cls, attr: str) -> bool:
    """Does some def grow `self.attr` of `cls` (a container insertion, or an augmented
    assignment)?"""
    for c in facts.containers:
        if c.scope == "instance" and c.owner is cls and c.attr == attr:
            return bool(c.inserts) or bool(c.escapes)
    for n in facts.walk(cls, into_defs=True):
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Attribute) and n.target.attr == attr:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _GROW_METHODS \
                and isinstance(n.func.value, ast.Attribute) and n.func.value.attr == attr:
            return True
    return False


# ----------------------------------------------------------------- keys checked against a fixed set

def _bounded_builder(ctx: _Ctx, v: ast.AST | None, fn, depth: int) -> bool:
    """Does `v` build a dict with a bounded key set: `{}`, a display with fixed keys,
    `dict.fromkeys(<bounded>, ...)`, a comprehension over bounded iterables,
    `dict(zip(<bounded>, ...))`, `dict()`/`OrderedDict()`?"""
    if v is None:
        return False
    if isinstance(v, ast.Dict):
        return all(k is not None and _fixed(ctx, k, fn, depth) for k in v.keys)
    if isinstance(v, ast.DictComp):
        return all(_bounded_iter(ctx, g.iter, fn, depth) for g in v.generators)
    if isinstance(v, ast.Call):
        f = v.func
        last = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if last == "fromkeys" and v.args:
            return _bounded_iter(ctx, v.args[0], fn, depth)
        if last in ("dict", "OrderedDict"):
            if not v.args:
                return not v.keywords or all(k.arg is not None for k in v.keywords)
            if len(v.args) == 1:
                return _bounded_builder(ctx, v.args[0], fn, depth) or _bounded_iter(ctx, v.args[0], fn, depth)
    return False


def bounded_key_set(facts, d, depth: int = 3) -> bool:
    """Is the key set of container `d` (a `LongLivedContainer`) bounded: a plain dict
    (not a `defaultdict`/`Counter`, which insert on a miss) that nothing outside its
    sites reaches, created and re-created only by bounded builders (`_bounded_builder`),
    and written only under fixed keys (`fixed_value`) or by augmented assignment?
    Then indexing it with `d[k]` (no default) succeeds only for a key of that set."""
    if d.kind not in ("dict", "OrderedDict") or d.escapes:
        return False

    def compute() -> bool:
        ctx = _Ctx(facts, d.owner if d.scope == "instance" else None)
        if not _bounded_builder(ctx, d.creation, d.creation_method, depth):
            return False
        for r in d.removals:
            if r.kind == "reassign" and isinstance(r.node, (ast.Assign, ast.AnnAssign)) and \
                    not _bounded_builder(ctx, r.node.value, r.function, depth):
                return False
        for s in d.inserts:
            if s.kind == "augassign":
                continue
            if s.kind in ("subscript", "setdefault", "__setitem__") and s.key is not None:
                if not (_fixed(ctx, s.key, s.function, depth) or _present_already(facts, d, s)):
                    return False
            elif s.kind == "update" and len(s.node.args) == 1 and not s.node.keywords:
                if not _bounded_builder(ctx, s.node.args[0], s.function, depth):
                    return False
            else:
                return False
        return True
    return facts.memo(f"key_domains.keyset.{id(d)}", compute)


def _rewrites_own_key(facts, store: ast.AST, fn) -> bool:
    """Is `store` (the subscript `D[k]` of `D[k] = v`) inside a loop over `D`'s own keys, with
    `k` the loop's key (`for k, v in D.items(): ... D[k] = None`, `for k in list(D):`)?
    Then it overwrites an entry `D` already holds: the container does not grow (dramatiq's
    time-limit deadlines, reset per worker thread while they are scanned)."""
    if not isinstance(store, ast.Subscript) or not isinstance(store.slice, ast.Name):
        return False
    key, want = store.slice, ast.dump(store.value)
    for a in facts.ancestors(store):
        if a is fn:
            return False
        if not isinstance(a, (ast.For, ast.AsyncFor)):
            continue
        it = a.iter
        while isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("list", "tuple", "sorted") \
                and len(it.args) == 1:
            it = it.args[0]
        target = a.target
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args \
                and it.func.attr in ("items", "keys"):
            if it.func.attr == "items":
                target = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
            it = it.func.value
        if ast.dump(it) != want or not (isinstance(target, ast.Name) and target.id == key.id):
            continue
        # the key name is not rebound inside the loop before the store
        return not any(isinstance(n, ast.Name) and n.id == key.id and isinstance(n.ctx, ast.Store)
                       and n is not target for st in a.body for n in ast.walk(st))
    return False


def _present_already(facts, d, site) -> bool:
    """Does insertion `site` of `d` run only where its key is already in `d` (`if k in
    d: d[k] = v`, `if k not in d: raise`, a loop over `d`'s own keys: `_rewrites_own_key`):
    an update that adds no key?"""
    from ctxlint.semantic.python.registries import key_text
    if site.kind == "subscript" and _rewrites_own_key(facts, site.node, site.function):
        return True
    kt = key_text(site.key)
    return any(key_text(k) == kt and _tested_container(facts, cmp) is d
               for test, truth in _holds_at(facts, site.node, site.function)
               for k, coll, cmp in _memberships(test, truth))


def _tested_container(facts, compare: ast.AST | None):
    """The container of the module whose membership `compare` (`k in self.slots`) tests."""
    def compute():
        out = {}
        for c in facts.containers:
            for r in c.reads:
                if r.kind == "in":
                    out.setdefault(id(r.node), c)
        return out
    return facts.memo("key_domains.in_tests", compute).get(id(compare)) if compare is not None else None


def _holds_at(facts, node: ast.AST, fn):
    """The `if` tests known to hold where `node` runs in `fn`, as (test, truth) pairs:
    the tests of `if`/`while` statements whose body holds `node` (True) or whose `else`
    does (False), and of earlier `if` statements in an enclosing block whose body ends
    by leaving it (`if k not in ALLOWED: raise`: False after it)."""
    out = []
    child = facts.enclosing_statement(node)
    for a in facts.ancestors(child):
        if isinstance(a, (ast.If, ast.While)):
            if any(x is child for x in a.body):
                out.append((a.test, True))
            elif any(x is child for x in a.orelse):
                out.append((a.test, False))
        for fld in ("body", "orelse", "finalbody"):
            seq = getattr(a, fld, None)
            if isinstance(seq, list) and any(x is child for x in seq):
                for prev in seq[:next(i for i, x in enumerate(seq) if x is child)]:
                    if isinstance(prev, ast.If) and prev.body and \
                            isinstance(prev.body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break)) \
                            and not prev.orelse:
                        out.append((prev.test, False))
        if a is fn or isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            break
        child = a
    return out


def _memberships(test: ast.AST, truth: bool):
    """(key, collection, compare) triples of `key in collection` facts that `test` being
    `truth` implies (`compare` is the membership test itself, None for `key == v`)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        yield from _memberships(test.operand, not truth)
        return
    if isinstance(test, ast.BoolOp):
        if isinstance(test.op, ast.And) and truth or isinstance(test.op, ast.Or) and not truth:
            for v in test.values:
                yield from _memberships(v, truth)
        return
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        if isinstance(op, ast.In) and truth or isinstance(op, ast.NotIn) and not truth:
            yield test.left, test.comparators[0], test
        elif isinstance(op, ast.Eq) and truth or isinstance(op, ast.NotEq) and not truth:
            yield test.left, ast.Tuple(elts=[test.comparators[0]], ctx=ast.Load()), None


def _checked_in_fixed_set(facts, c, site, key: ast.AST, ctx: _Ctx, depth: int) -> bool:
    """Does the insertion run only where `key` is in `c` itself, in a bounded iterable,
    or in a container with a bounded key set (`if rid in self.slots:`, `if kind not in
    KINDS: raise`, `if k == "x":`)?"""
    from ctxlint.semantic.python.registries import key_text
    kt = key_text(key)
    fn = site.function
    for test, truth in _holds_at(facts, site.node, fn):
        for k, coll, cmp in _memberships(test, truth):
            if key_text(k) != kt:
                continue
            held = _tested_container(facts, cmp)
            if held is c or (held is not None and bounded_key_set(facts, held, depth)):
                return True
            if held is None and _bounded_iter(ctx, coll, fn, depth):
                return True
    return False


def _on_same_path(facts, a: ast.AST, b: ast.AST, fn) -> bool:
    """Does `a` run whenever `b` does within one pass of `fn`: below their common
    ancestor, `a` is not under an `if` branch, a loop body, an `except` handler, a
    `match` case or one arm of a conditional expression, and at the common ancestor
    they are not in two different fields (the two branches of an `if`, a `try` body
    and its handler)?"""
    around_b = {id(x) for x in facts.ancestors(b)}
    child = a
    for x in facts.ancestors(a):
        if id(x) in around_b:
            if isinstance(x, (ast.If, ast.Try, ast.match_case, ast.IfExp, ast.BoolOp)) or \
                    type(x).__name__ == "TryStar":
                other = next((y for y in (b, *facts.ancestors(b)) if facts.parents.get(y) is x), None)
                fa = _field(x, child)
                if other is None or fa != _field(x, other) or fa == "handlers":
                    return False
            return True
        if x is fn or isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if _makes_conditional(x, child):
            return False
        child = x
    return False


def _makes_conditional(x: ast.AST, child: ast.AST) -> bool:
    """Does ancestor `x` run its descendant `child` only on some paths: an `if`/`while`
    body or a conditional expression's arm (not its test), a loop body (not its
    iterable), a later operand of `and`/`or`, an `except` handler, a `match` case or a
    comprehension?"""
    if isinstance(x, (ast.If, ast.IfExp, ast.While)) and child is not x.test:
        return True
    if isinstance(x, (ast.For, ast.AsyncFor)) and child is not x.iter:
        return True
    if isinstance(x, ast.BoolOp) and child is not x.values[0]:
        return True
    return isinstance(x, (ast.ExceptHandler, ast.match_case, ast.comprehension))


def _field(parent: ast.AST, child: ast.AST) -> str | None:
    for name, value in ast.iter_fields(parent):
        if value is child or (isinstance(value, list) and any(v is child for v in value)):
            return name
    return None


def _always_runs(facts, node: ast.AST, fn) -> bool:
    """Does `node` run on every normal completion of `fn`: not under an `if` branch, a
    loop body, an `except` handler, a `match` case or one arm of a conditional
    expression (a `with` block, a `try` body, `else` or `finally` is fine), and no
    `return` earlier in the def?"""
    from ctxlint.semantic.python.calls import function_index
    from ctxlint.semantic.python.cleanup import pos
    if any(pos(r) < pos(node) for r in function_index(facts, fn).returns):
        return False
    child = node
    for x in facts.ancestors(node):
        if x is fn:
            return True
        if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        if _makes_conditional(x, child):
            return False
        child = x
    return False


def _strictly_indexed(facts, site, key: ast.AST, depth: int) -> bool:
    """Does the inserting def also index a plain dict with a bounded key set under the
    same key without a default (`self.rows[idx] += n`, `x = self.table[idx]`), either on
    the insertion's own path or on every normal completion of the def? Any key outside
    that set raises `KeyError` there: the def completes only for keys of the set (a
    call that fails on a bad key leaves at most the entry of that failure)."""
    from ctxlint.semantic.python.registries import key_text
    kt = key_text(key)
    fn = site.function
    for d, s in _strict_sites(facts).get(id(fn), ()):
        if s.key is not None and key_text(s.key) == kt \
                and (_on_same_path(facts, s.node, site.node, fn) or _always_runs(facts, s.node, fn)) \
                and _key_not_rebound(facts, fn, key) and bounded_key_set(facts, d, depth):
            return True
    return False


def _strict_sites(facts) -> dict[int, list]:
    """id(def) -> the (container, site) pairs that index a container strictly in that
    def (a subscript read, an augmented assignment), in container order: built once
    per file, not once per insertion."""
    def compute():
        out: dict[int, list] = {}
        for d in facts.containers:
            for s in [s for s in d.reads if s.kind == "subscript"] + [s for s in d.inserts if s.kind == "augassign"]:
                out.setdefault(id(s.function), []).append((d, s))
        return out
    return facts.memo("key_domains.strict_sites", compute)


def _key_not_rebound(facts, fn, key: ast.AST) -> bool:
    """Is every local name the key reads bound at most once in `fn` (a parameter never
    reassigned, or a local assigned once), so the strict index and the insertion see
    the same value?"""
    for n in ast.walk(key):
        if isinstance(n, ast.Name):
            stores = len(_stores_in(facts, fn, n.id))
            if stores > (0 if n.id in _params(fn) else 1):
                return False
    return True


def bounded_key_domain(facts, c, site, key: ast.AST | None = None, depth: int = 4) -> bool:
    """Can insertion `site` of container `c` write only under a bounded set of keys?

    Args:
        c: the `LongLivedContainer` inserted into.
        site: one of its insertion `ContainerSite`s.
        key: the key to judge, when not the site's own (a get-or-create's lookup key).
    True when the key is a fixed value (`fixed_value`), when the insertion runs only
    where the key is already in `c`, in a bounded iterable or in a container with a
    bounded key set, when the same def indexes a plain dict with a bounded key set
    under the key without a default on the insertion's path, or when the insertion is
    an augmented assignment on a plain dict (which adds no key). Then the container
    holds at most one entry per key of that domain from this site: no per-request
    growth, and nothing a cancelled call leaves is not overwritten by the next one.
    Memoised per site; never raises on odd code."""
    if key is None:
        key = site.key if site.key is not None else (site.value if site.kind == "add" else None)
    if key is None or site.function is None:
        return False

    def compute() -> bool:
        if site.kind == "augassign" and c.kind in ("dict", "OrderedDict"):
            return True
        if site.kind == "subscript" and key is site.key and _rewrites_own_key(facts, site.node, site.function):
            return True  # `for k, v in D.items(): D[k] = None`: an entry D already holds
        ctx = _Ctx(facts, c.owner if c.scope == "instance" else None)
        if _fixed(ctx, key, site.function, depth):
            return True
        if _checked_in_fixed_set(facts, c, site, key, ctx, depth - 1):
            return True
        return _strictly_indexed(facts, site, key, depth - 1)
    return facts.memo(f"key_domains.site.{id(site)}.{id(key)}", compute)
