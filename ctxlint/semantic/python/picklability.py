"""What an instance of a class of this module holds that cannot (or must not) be pickled.

Facts:
    unpicklable_fields(facts, cls) -> list[Field]: the instance attributes
        (`self.x = ...` in any method of `cls` or of its bases in this module)
        whose value is, by where it comes from:
          - a lock, event, condition or semaphore (`threading`, `asyncio`,
            `multiprocessing`): pickling raises `TypeError`;
          - an event loop (`asyncio.new_event_loop()`/`get_event_loop()`/
            `get_running_loop()`) or a thread;
          - an open client, session, connection, socket or file (`CLIENT_FACTORIES`);
          - a ContextVar, a ContextVar's value (`var.get()`) or a copied Context:
            one request's context shipped to every reader (a ContextVar itself
            cannot be pickled);
          - a CUDA tensor, or a dict/list filled with them (`torch.*(device="cuda")`,
            `.cuda()`, `.to(<cuda device>)`; the device followed through `self.`
            attributes and parameter defaults): copied to every reader's GPU.
    defines_pickling(facts, cls): the class (or a base in this module) defines
        `__getstate__`, `__reduce__`, `__reduce_ex__` or `__getnewargs__`.
    class_of_value(facts, expr, fn): the class of this module `expr` is an
        instance of (a constructor call, a name or `self.` attribute assigned one,
        a parameter annotated with the class, `self` in one of its methods).

Read by CTX407 (Ray) and its codemod's data.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ctxlint.semantic.python.syntax import FunctionNode

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts

FUNCS = FunctionNode

#: Synchronisation primitives (Python docs: threading, asyncio "Synchronization
#: Primitives", multiprocessing): `pickle` raises "cannot pickle '_thread.lock' object".
_LOCK_MODULES = ("threading", "asyncio", "multiprocessing", "asyncio.locks")
_LOCK_TYPES = frozenset({"Lock", "RLock", "Condition", "Event", "Semaphore", "BoundedSemaphore", "Barrier"})
#: Thread-safe queues hold a lock (Python docs, queue: `Queue` is built on
#: `threading.Condition`; `SimpleQueue` is a C type without pickling): pickle raises.
QUEUE_TYPES = frozenset({"queue.Queue", "queue.LifoQueue", "queue.PriorityQueue", "queue.SimpleQueue"})
#: Event loops and threads (asyncio "Event Loop" docs; threading.Thread).
LOOP_FACTORIES = frozenset({"asyncio.new_event_loop", "asyncio.get_event_loop", "asyncio.get_running_loop",
                            "uvloop.new_event_loop"})
THREAD_TYPES = frozenset({"threading.Thread", "threading.Timer"})
#: Open clients, sessions, sockets, files (each library's client class; `open`).
CLIENT_FACTORIES = frozenset({
    "socket.socket", "socket.create_connection", "open", "io.open", "sqlite3.connect",
    "httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.session", "aiohttp.ClientSession",
    "openai.OpenAI", "openai.AsyncOpenAI", "openai.AzureOpenAI", "openai.AsyncAzureOpenAI",
    "anthropic.Anthropic", "anthropic.AsyncAnthropic", "redis.Redis", "redis.StrictRedis",
    "redis.asyncio.Redis", "redis.from_url", "grpc.insecure_channel", "grpc.secure_channel",
    "grpc.aio.insecure_channel", "grpc.aio.secure_channel", "boto3.client", "boto3.session.Session",
    "psycopg2.connect", "psycopg.connect", "asyncpg.connect", "asyncpg.create_pool", "pymongo.MongoClient",
    "zmq.Context", "concurrent.futures.ThreadPoolExecutor", "concurrent.futures.ProcessPoolExecutor",
})
#: Dunders that take over pickling (pickle docs, "Pickling Class Instances").
PICKLING_DUNDERS = frozenset({"__getstate__", "__reduce__", "__reduce_ex__", "__getnewargs__", "__getnewargs_ex__"})


@dataclass(frozen=True)
class Field:
    """One instance attribute that should not travel by pickle.

    attr: the attribute name (`lock` for `self.lock`).
    kind: "lock", "loop", "thread", "client", "context-object" (a Context or a
        ContextVar: pickling raises), "context" (a ContextVar's value) or "cuda".
    what: a phrase for messages ("a `threading.Lock`", "CUDA tensors").
    init: source of the value assigned in `__init__` (or the first assignment),
        used by the codemod to re-create primitives in `__setstate__`.
    inner: for a field holding an instance of another class of this module that
        itself cannot travel (`self.registry = AdapterRegistry()`, whose `self._lock`
        is a lock): that class; None for a field that holds the primitive itself.
    inner_fields: the inner class's own fields (`unpicklable_fields(inner)`).
    """

    attr: str
    kind: str
    what: str
    init: str
    inner: "ast.ClassDef | None" = None
    inner_fields: tuple = ()


def class_chain(facts: "PythonFacts", cls: ast.ClassDef) -> list[ast.ClassDef]:
    """`cls` and its bases defined in this module (depth-first, no repeats)."""
    classes = facts.classes_by_name
    out: list[ast.ClassDef] = []
    stack = [cls]
    while stack:
        c = stack.pop()
        if c in out:
            continue
        out.append(c)
        for b in c.bases:
            if isinstance(b, ast.Name) and b.id in classes:
                stack.append(classes[b.id])
    return out


def has_external_pickling_base(facts: "PythonFacts", cls: ast.ClassDef) -> bool:
    """Does a base outside this module (other than `object`) take part? Its pickling
    behaviour is unknown here, so the class is left alone."""
    classes = facts.classes_by_name
    for c in class_chain(facts, cls):
        for b in c.bases:
            if isinstance(b, ast.Name) and b.id in classes:
                continue
            q = facts.qualname(b) or ""
            if q in ("object", "typing.Generic", "abc.ABC", "Generic", "ABC") or q.startswith("typing.Generic"):
                continue
            if isinstance(b, ast.Subscript):
                continue
            return True
    return False


def defines_pickling(facts: "PythonFacts", cls: ast.ClassDef) -> bool:
    """Does `cls` or a base of this module define a pickling dunder (`PICKLING_DUNDERS`)?"""
    for c in class_chain(facts, cls):
        for s in c.body:
            if isinstance(s, FUNCS) and s.name in PICKLING_DUNDERS:
                return True
            if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id in PICKLING_DUNDERS
                                                 for t in s.targets):
                return True
    return False


def _self_assignments(facts: "PythonFacts", cls: ast.ClassDef) -> dict[str, list[tuple]]:
    """attr -> [(method, value, annotation)] for `self.attr = value` / `self.attr: T = value` in
    the class's methods, and (method, value, None) per `self.attr[k] = value` store."""
    def compute():
        out: dict[str, list] = {}
        for s in cls.body:
            # dataclass fields: `lock: Lock = field(default_factory=threading.Lock)` is per instance
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and isinstance(s.value, ast.Call) \
                    and (facts.qualname(s.value.func) or "") in ("dataclasses.field", "field"):
                factory = next((k.value for k in s.value.keywords if k.arg == "default_factory"), None)
                if factory is not None:
                    out.setdefault(s.target.id, []).append((cls, ast.Call(func=factory, args=[], keywords=[]),
                                                            s.annotation))
        for m in cls.body:
            if not isinstance(m, FUNCS):
                continue
            pos = [*m.args.posonlyargs, *m.args.args]
            if not pos:
                continue
            me = pos[0].arg
            for n in facts.walk(m):
                if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
                    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                    ann = getattr(n, "annotation", None)
                    for t in targets:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                            out.setdefault(t.attr, []).append((m, n.value, ann))
                        elif (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute)
                              and isinstance(t.value.value, ast.Name) and t.value.value.id == me):
                            out.setdefault(t.value.attr, []).append((m, n.value, "item"))
        return out
    return facts.memo(f"pickle.self_assign.{id(cls)}", compute)


def _param_default(fn, name: str) -> ast.AST | None:
    if not isinstance(fn, FUNCS):
        return None
    a = fn.args
    pos = [*a.posonlyargs, *a.args]
    for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        if arg.arg == name:
            return d
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        if arg.arg == name:
            return d
    return None


def _is_cuda_device(facts: "PythonFacts", expr: ast.AST | None, cls: ast.ClassDef, fn, depth: int = 0) -> bool:
    """Does `expr` (a device argument) name a CUDA device, by value?"""
    if expr is None or depth > 3:
        return False
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value.startswith("cuda")
    if isinstance(expr, ast.Call):
        q = facts.qualname(expr.func) or ""
        if q in ("torch.device",) and expr.args:
            return _is_cuda_device(facts, expr.args[0], cls, fn, depth + 1)
        if q in ("torch.cuda.current_device",):
            return True
        return False
    if isinstance(expr, ast.Name) and fn is not None:
        d = _param_default(fn, expr.id)
        if d is not None:
            return _is_cuda_device(facts, d, cls, fn, depth + 1)
        return False
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        for c in class_chain(facts, cls):
            for m, v, ann in _self_assignments(facts, c).get(expr.attr, ()):
                if ann != "item" and _is_cuda_device(facts, v, c, m, depth + 1):
                    return True
    return False


def _cuda_tensor(facts: "PythonFacts", v: ast.AST, cls: ast.ClassDef, fn) -> bool:
    """Is `v` a tensor placed on a CUDA device?"""
    if not isinstance(v, ast.Call):
        return False
    f = v.func
    if isinstance(f, ast.Attribute) and f.attr == "cuda":
        return True
    if isinstance(f, ast.Attribute) and f.attr == "to":
        dev = v.args[0] if v.args else next((k.value for k in v.keywords if k.arg == "device"), None)
        return _is_cuda_device(facts, dev, cls, fn)
    q = facts.qualname(f) or ""
    if q.startswith("torch."):
        dev = next((k.value for k in v.keywords if k.arg == "device"), None)
        return _is_cuda_device(facts, dev, cls, fn)
    return False


def _classify(facts: "PythonFacts", v: ast.AST, ann, cls: ast.ClassDef, fn, depth: int = 0) -> tuple | None:
    """(kind, what[, inner class, its fields]) for a value stored on `self`, else None.
    Followed through a local bound in the same method (`lock = threading.Lock();
    self._lock = lock`), the items of a dict/list/tuple/set display, and an instance of
    another class of this module that cannot travel itself (one object deeper)."""
    if depth > 2:
        return None
    if isinstance(v, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        for e in (v.values if isinstance(v, ast.Dict) else v.elts):
            k = _classify(facts, e, "item", cls, fn, depth + 1)
            if k is not None:
                return k
        return None
    if isinstance(v, ast.Name) and isinstance(fn, FUNCS):
        for n in facts.walk(fn):
            if isinstance(n, ast.Assign) and n.value is not v \
                    and any(isinstance(t, ast.Name) and t.id == v.id for t in n.targets):
                k = _classify(facts, n.value, ann, cls, fn, depth + 1)
                if k is not None:
                    return k
    inner = class_of_value(facts, v, fn if isinstance(fn, FUNCS) else None)
    if inner is None and isinstance(ann, ast.AST):
        inner = _annotated_class(facts, ann)
    if inner is not None and inner is not cls:
        return _nested(facts, inner, depth)
    if isinstance(v, ast.Call):
        q = facts.qualname(v.func) or ""
        parts = q.rsplit(".", 1)
        if len(parts) == 2 and parts[0] in _LOCK_MODULES and parts[1] in _LOCK_TYPES:
            return "lock", f"a lock (`{q}`)"
        if q in QUEUE_TYPES:
            return "lock", f"a queue (`{q}`, which holds a lock)"
        if q in LOOP_FACTORIES:
            return "loop", "an event loop"
        if q in THREAD_TYPES:
            return "thread", f"a thread (`{q}`)"
        if q in CLIENT_FACTORIES:
            return "client", f"an open client (`{q}`)"
        if q in ("contextvars.copy_context",):
            return "context-object", "a copied Context"
        if q in ("contextvars.ContextVar",):
            return "context-object", "a ContextVar"
        if isinstance(v.func, ast.Attribute) and v.func.attr == "get" and facts.is_contextvar(v.func.value):
            return "context", f"the value of ContextVar `{facts.dotted(v.func.value)}`"
        if _cuda_tensor(facts, v, cls, fn):
            return "cuda", "CUDA tensors" if ann == "item" else "a CUDA tensor"
    return None


def _annotated_class(facts: "PythonFacts", ann: ast.AST) -> ast.ClassDef | None:
    """The class of this module an annotation names (`AdapterRegistry`, `"AdapterRegistry"`,
    `Optional[AdapterRegistry]`, `AdapterRegistry | None`)."""
    classes = facts.classes_by_name
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return classes.get(ann.value.strip())
    if isinstance(ann, ast.Name):
        return classes.get(ann.id)
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return _annotated_class(facts, ann.left) or _annotated_class(facts, ann.right)
    if isinstance(ann, ast.Subscript) and (facts.qualname(ann.value) or "").split(".")[-1] == "Optional":
        return _annotated_class(facts, ann.slice)
    return None


def _nested(facts: "PythonFacts", inner: ast.ClassDef, depth: int) -> tuple | None:
    """(kind, what, inner, fields) when an instance of `inner` cannot travel itself: it
    holds unpicklable fields and neither it nor a base takes over pickling."""
    if depth > 2 or defines_pickling(facts, inner) or has_external_pickling_base(facts, inner):
        return None
    busy = facts.memo("pickle.nested_busy", set)
    if id(inner) in busy:
        return None  # a cycle of classes holding each other
    busy.add(id(inner))
    try:
        fields = unpicklable_fields(facts, inner)
    finally:
        busy.discard(id(inner))
    if not fields:
        return None
    first = fields[0]
    return first.kind, f"an instance of `{inner.name}` (which holds {first.what} in `self.{first.attr}`)", inner, tuple(fields)


def unpicklable_fields(facts: "PythonFacts", cls: ast.ClassDef) -> list[Field]:
    """The instance attributes of `cls` that should not be pickled (see the module docstring)."""
    def compute():
        out: dict[str, Field] = {}
        for c in class_chain(facts, cls):
            # a class-level annotation declares what an instance's field holds
            # (`registry: AdapterRegistry` of a dataclass, filled by the caller)
            for st in c.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id not in out:
                    inner = _annotated_class(facts, st.annotation)
                    k = _nested(facts, inner, 0) if inner is not None and inner is not cls else None
                    if k is not None:
                        out[st.target.id] = Field(st.target.id, k[0], k[1], "", k[2], k[3])
            for attr, sites in _self_assignments(facts, c).items():
                if attr in out:
                    continue
                init = next((facts.segment(v) for m, v, ann in sites if ann != "item" and m.name == "__init__"), None) \
                    or next((facts.segment(v) for m, v, ann in sites if ann != "item"), "")
                if not init:  # a dataclass field: re-created by calling its default_factory
                    init = next((facts.segment(v.func) + "()" for m, v, ann in sites
                                 if isinstance(v, ast.Call) and facts.segment(v.func)), "")
                for m, v, ann in sites:
                    k = _classify(facts, v, ann, c, m)
                    if k is not None:
                        out[attr] = Field(attr, k[0], k[1], init, *k[2:])
                        break
        return sorted(out.values(), key=lambda f: f.attr)
    return facts.memo(f"pickle.fields.{id(cls)}", compute)


def class_of_value(facts: "PythonFacts", expr: ast.AST, fn, depth: int = 0) -> ast.ClassDef | None:
    """The class of this module `expr` (inside `fn`) is an instance of, else None: a
    constructor call, a call of a module-level factory every `return` of which makes one
    class, or a name / `self.` attribute bound to one of those."""
    classes = facts.classes_by_name
    if depth > 3:
        return None
    if isinstance(expr, ast.Call):
        if not isinstance(expr.func, ast.Name):
            return None
        if expr.func.id in classes:
            return classes.get(expr.func.id)
        # a factory of this module: `build_table(n)` whose every `return` is an instance
        # of one class of the module (`return LogitBiasTable(n, device)`)
        factory = next((d for d in facts.tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and d.name == expr.func.id), None)
        if factory is None or expr.func.id in facts.imports:
            return None
        rets = [r for r in facts.walk(factory) if isinstance(r, ast.Return) and r.value is not None]
        found = {id(c): c for r in rets if (c := class_of_value(facts, r.value, factory, depth + 1)) is not None}
        return next(iter(found.values())) if rets and len(found) == 1 and all(
            class_of_value(facts, r.value, factory, depth + 1) is not None for r in rets) else None
    if isinstance(expr, ast.Name):
        if fn is not None:
            a = fn.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
                if arg.arg == expr.id:
                    ann = arg.annotation
                    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                        return classes.get(ann.value.strip())
                    if isinstance(ann, ast.Name):
                        return classes.get(ann.id)
                    pos = [*a.posonlyargs, *a.args]
                    cls = facts.enclosing_class(fn)
                    if pos and pos[0] is arg and cls is not None and facts.parents.get(fn) is cls and not any(
                            (facts.dotted(d) or "") in ("staticmethod", "classmethod") for d in fn.decorator_list):
                        return cls
                    return None
            for n in facts.walk(fn):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets):
                    c = class_of_value(facts, n.value, fn, depth + 1)
                    if c is not None:
                        return c
        for v in facts.module_assignments.get(expr.id, ()):
            c = class_of_value(facts, v, None, depth + 1)
            if c is not None:
                return c
        return None
    if isinstance(expr, ast.Attribute):
        # `self.cfg` in a method, or `cfg.registry` / `self.cfg.registry` one object deeper
        pos = [*fn.args.posonlyargs, *fn.args.args] if isinstance(fn, FUNCS) else []
        if isinstance(expr.value, ast.Name) and pos and pos[0].arg == expr.value.id:
            cls = facts.enclosing_class(fn)
        else:
            cls = class_of_value(facts, expr.value, fn, depth + 1)
        if cls is None:
            return None
        for c in class_chain(facts, cls):
            for m, v, ann in _self_assignments(facts, c).get(expr.attr, ()):
                if ann != "item":
                    got = class_of_value(facts, v, m if isinstance(m, FUNCS) else None, depth + 1)
                    if got is not None:
                        return got
            for st in c.body:
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == expr.attr:
                    got = _annotated_class(facts, st.annotation)
                    if got is not None:
                        return got
    return None
