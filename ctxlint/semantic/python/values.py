"""Value origins within one module: what a name, a `self.` attribute, a loop variable,
a container element or a helper's return value holds.

A rule asks *what a value is* (a `ContextVar`, the `Token` its `set()` returned, an
OpenTelemetry tracer / span / context / attach token, an asyncio task, a jinja2
environment class, a torch hook handle, an instance of a class of this module),
never what it is called. The answer is flow-insensitive and intra-module: the union
of everything the module ever binds to the name or attribute.

Public API (stable; other rules import it):

    values = module_values(facts)          # memoized on the PythonFacts
    v = values.value(expr)                 # -> Value
    v.kinds                                # frozenset of the KIND constants below
    values.is_kind(expr, CONTEXTVAR)       # shortcut
    values.contextvar_keys(expr)           # identities of the ContextVar(s) expr holds
    values.callee(call)                    # the def/class of this module a call runs, or None
    values.calls_to(defn)                  # the calls of this module that run `defn`
    values.passed_around(defn)             # is `defn` referenced other than by a call?
    values.methods(cls) / values.self_closure(method)
    values.binding(expr)                   # identity of the variable/attribute expr reads

How a value is found:
    * calls of well-known APIs, by import-resolved qualified name (`KNOWN_CALLS`) or
      by the method of a receiver whose value is known (`ContextVar.set` -> Token,
      `Tracer.start_span` -> span, `Context.items()` -> (ContextVar, value) pairs);
    * a call of a function of this module -> the union of its `return` values;
      a call of a class of this module -> an instance of that class;
    * a local name -> every value the enclosing scope binds to it (assignments,
      tuple unpacking, `for` and comprehension targets, `with ... as`, `:=`),
      a parameter -> its annotation and the arguments of this module's calls;
    * `self.x` (the first parameter of a method, by position) -> every value any
      method of the class (or a base class of this module) assigns to `self.x`,
      plus the class-level assignment; `obj.x` where `obj` is an instance of a
      class of this module likewise;
    * iterating a container -> its element value: list/tuple/set literals,
      comprehensions, `append`/`add`/`insert`/`extend`/`x[k] = v` insertions,
      `reversed`/`list`/`sorted`/`pop`; a tuple literal keeps its item values, so
      `for var, value in pairs:` gives `var` the ContextVar of each pair.

Where a list of names cannot be avoided (well-known APIs) it is one table here,
each entry with its source.
"""

from __future__ import annotations

import ast
from typing import Iterable

from ctxlint.semantic.python.facts import FunctionNode, PythonFacts

# ------------------------------------------------------------------ value kinds
CONTEXTVAR = "contextvar"            #: a contextvars.ContextVar
CV_TOKEN = "contextvar_token"        #: the Token returned by ContextVar.set()
CV_VALUE = "contextvar_value"        #: a value read with ContextVar.get() (a "previous value")
CONTEXT = "context"                  #: a contextvars.Context (copy_context(), Context())
OTEL_TRACER = "otel_tracer"          #: an OpenTelemetry Tracer
OTEL_TRACER_PROVIDER = "otel_tracer_provider"
OTEL_SPAN = "otel_span"              #: a span started by Tracer.start_span (the caller ends it)
OTEL_CONTEXT = "otel_context"        #: an opentelemetry.context.Context
OTEL_TOKEN = "otel_token"            #: the token of opentelemetry.context.attach()
TASK = "task"                        #: an asyncio Task / Future
EVENT_LOOP = "event_loop"            #: an asyncio event loop
JINJA_ENV = "jinja_env"              #: jinja2.Environment (plain)
JINJA_SANDBOXED = "jinja_sandboxed"  #: jinja2.sandbox.SandboxedEnvironment
JINJA_IMMUTABLE = "jinja_immutable"  #: jinja2.sandbox.ImmutableSandboxedEnvironment
HOOK_HANDLE = "hook_handle"          #: torch.utils.hooks.RemovableHandle
GENERATOR = "generator"              #: a generator object of a generator function of this module

#: The identity key of "any ContextVar of a `contextvars.Context` snapshot" (iterating
#: `copy_context()`, its `.keys()` / `.items()`).
SNAPSHOT_VAR = "snapshot:*"

#: Import-resolved qualified name of a call -> the kind of value it returns.
#: Sources: Python docs `contextvars`, `asyncio` (Task creation, event loop);
#: OpenTelemetry Python API reference (`opentelemetry.context`, `opentelemetry.trace`,
#: `opentelemetry.propagate`, `opentelemetry.baggage`); jinja2 API docs (Environment,
#: sandbox); the SDK's `opentelemetry.sdk.trace.TracerProvider`.
KNOWN_CALLS: dict[str, str] = {
    "contextvars.ContextVar": CONTEXTVAR,
    "contextvars.copy_context": CONTEXT,
    "contextvars.Context": CONTEXT,
    "opentelemetry.context.attach": OTEL_TOKEN,
    "opentelemetry.context.context.attach": OTEL_TOKEN,
    "opentelemetry.context.api.attach": OTEL_TOKEN,
    "opentelemetry.context.get_current": OTEL_CONTEXT,
    "opentelemetry.context.set_value": OTEL_CONTEXT,
    "opentelemetry.context.Context": OTEL_CONTEXT,
    "opentelemetry.trace.set_span_in_context": OTEL_CONTEXT,
    "opentelemetry.propagate.extract": OTEL_CONTEXT,
    "opentelemetry.baggage.set_baggage": OTEL_CONTEXT,
    "opentelemetry.trace.get_tracer": OTEL_TRACER,
    "opentelemetry.trace.get_tracer_provider": OTEL_TRACER_PROVIDER,
    "opentelemetry.sdk.trace.TracerProvider": OTEL_TRACER_PROVIDER,
    "asyncio.create_task": TASK,
    "asyncio.ensure_future": TASK,
    "asyncio.tasks.create_task": TASK,
    "asyncio.tasks.ensure_future": TASK,
    "asyncio.get_running_loop": EVENT_LOOP,
    "asyncio.get_event_loop": EVENT_LOOP,
    "asyncio.new_event_loop": EVENT_LOOP,
    "jinja2.Environment": JINJA_ENV,
    "jinja2.environment.Environment": JINJA_ENV,
    "jinja2.sandbox.SandboxedEnvironment": JINJA_SANDBOXED,
    "jinja2.sandbox.ImmutableSandboxedEnvironment": JINJA_IMMUTABLE,
}

#: Annotation (last component of its import-resolved name, with the module it must come
#: from) -> kind. `ContextVar[str]`, `"ContextVar[str]"`, `trace.Tracer`, `Span`.
KNOWN_ANNOTATIONS: dict[str, tuple[str, str]] = {
    "ContextVar": ("contextvars", CONTEXTVAR),
    "Token": ("contextvars", CV_TOKEN),
    "Tracer": ("opentelemetry", OTEL_TRACER),
    "Span": ("opentelemetry", OTEL_SPAN),
}

#: Receiver kind -> {method: kind of the returned value}.
#: Sources: Python docs `contextvars.ContextVar.set/get`, `asyncio.loop.create_task`;
#: OpenTelemetry API `TracerProvider.get_tracer`, `Tracer.start_span`; torch docs,
#: `nn.Module.register_*_hook` and `Tensor.register_hook` return a RemovableHandle.
KNOWN_METHODS: dict[str, dict[str, str]] = {
    CONTEXTVAR: {"set": CV_TOKEN, "get": CV_VALUE},
    OTEL_TRACER_PROVIDER: {"get_tracer": OTEL_TRACER},
    OTEL_TRACER: {"start_span": OTEL_SPAN},
    EVENT_LOOP: {"create_task": TASK, "run_in_executor": TASK},
}

#: torch hook registration APIs (any receiver: a module, a tensor, a parameter) -> handle.
#: Source: torch.nn.Module / torch.Tensor reference ("Returns: a handle that can be used
#: to remove the added hook by calling handle.remove()").
HOOK_REGISTRATIONS = frozenset({
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_backward_hook", "register_hook",
    "register_state_dict_pre_hook", "register_load_state_dict_post_hook",
    "register_module_forward_hook", "register_module_forward_pre_hook",
    "register_post_accumulate_grad_hook",
})

#: OpenTelemetry tracer methods that only a tracer has (evidence that an untyped receiver
#: of `start_span` is an OTel tracer). Source: OpenTelemetry API `Tracer`.
OTEL_TRACER_ONLY_METHODS = frozenset({"start_as_current_span"})

#: Builtins whose result iterates the same elements as their argument.
_SAME_ELEMENTS = frozenset({"reversed", "list", "tuple", "sorted", "iter", "set", "frozenset", "deque"})
#: Container methods that insert their (last) argument as an element.
_INSERTS = frozenset({"append", "appendleft", "add", "insert", "push", "put", "put_nowait"})
#: Container methods that insert every element of their argument.
_EXTENDS = frozenset({"extend", "extendleft", "update"})
#: Container methods that return one element.
_TAKES = frozenset({"pop", "popleft", "popitem", "get", "get_nowait", "setdefault"})


class Value:
    """What an expression may hold (a union over every way it can be bound).

    Attributes:
        kinds: frozenset of KIND constants (`CONTEXTVAR`, `OTEL_SPAN`, ...).
        vars: for `CONTEXTVAR`/`CV_TOKEN`/`CV_VALUE`: identity keys of the ContextVar
            bindings involved (`contextvar_key`), e.g. {"module:_tenant"}; a `CV_VALUE`
            also carries "readin:<id of the def>" for each function that read it.
        classes: the classes of this module the value may be an instance of.
        defs: functions/classes of this module the value may *be* (a callable).
        items: for a tuple: the value of each item (None when unknown or mixed).
        elem: the value of the elements (of a dict: its values) (None when unknown).
        keys: for a mapping: the value of its keys, which iteration yields (None when
            unknown or not a mapping). `iterated(v)` gives what a `for` loop binds.
    """

    __slots__ = ("kinds", "vars", "classes", "defs", "items", "elem", "keys")

    def __init__(self, kinds=frozenset(), vars=frozenset(), classes=(), defs=(), items=None, elem=None,
                 keys=None):
        self.kinds = frozenset(kinds)
        self.vars = frozenset(vars)
        self.classes = tuple(classes)
        self.defs = tuple(defs)
        self.items = items
        self.elem = elem
        self.keys = keys

    def __bool__(self) -> bool:
        return bool(self.kinds or self.vars or self.classes or self.defs or self.items or self.elem or self.keys)

    def __repr__(self) -> str:
        return (f"Value(kinds={sorted(self.kinds)}, vars={sorted(self.vars)}, "
                f"classes={[c.name for c in self.classes]}, items={self.items}, elem={self.elem})")

    def merge(self, other: "Value") -> "Value":
        """Union of two values (items kept only when both are tuples of one length)."""
        if not other:
            return self
        if not self:
            return other
        items = merge_items(self.items, other.items)
        if items is None and self.items is None:
            items = other.items if not self.kinds and not self.elem else None
        elif items is None and other.items is None:
            items = self.items if not other.kinds and not other.elem else None
        elem = self.elem.merge(other.elem) if self.elem and other.elem else (self.elem or other.elem)
        keys = self.keys.merge(other.keys) if self.keys and other.keys else (self.keys or other.keys)
        return Value(self.kinds | other.kinds, self.vars | other.vars,
                     _uniq(self.classes + other.classes), _uniq(self.defs + other.defs), items, elem, keys)


EMPTY = Value()


def merge_items(a: tuple | None, b: tuple | None) -> tuple | None:
    """Item-wise union of two tuple values' items (`Value.items`, `summaries.Flow.items`),
    or None unless both are tuples of one length."""
    if a is not None and b is not None and len(a) == len(b):
        return tuple(x.merge(y) for x, y in zip(a, b))
    return None


def iterated(v: Value) -> Value:
    """What iterating a value yields: a mapping's keys, else its elements."""
    if v.keys:
        return v.keys
    return v.elem or EMPTY


def _uniq(nodes: tuple) -> tuple:
    seen: dict[int, ast.AST] = {}
    for n in nodes:
        seen.setdefault(id(n), n)
    return tuple(seen.values())


def merge_all(values: Iterable[Value]) -> Value:
    out = EMPTY
    for v in values:
        out = out.merge(v)
    return out


def module_values(facts: PythonFacts) -> "ModuleValues":
    """The value-origin analysis of `facts`' module (built once, on first use)."""
    return facts.memo("semantic.values", lambda: ModuleValues(facts))


class ModuleValues:
    """Value origins and the intra-module call graph of one file (see the module doc).

    Args:
        facts: the file's `PythonFacts`. Nothing is computed until asked; every
            answer is memoized. Never raises on odd code (unknown shapes give `EMPTY`).
    """

    def __init__(self, facts: PythonFacts):
        self.facts = facts
        self._memo: dict[int, Value] = {}
        self._busy: set[int] = set()
        self._scope_bindings: dict[int, dict[str, list[tuple[str, ast.AST, ast.AST]]]] = {}
        self._attr_bindings: dict[int, dict[str, list[ast.AST]]] = {}
        self._locals: dict[int, set[str]] = {}
        self._calls_to: dict[int, list[ast.Call]] | None = None
        self._building_calls = False
        self._memo_early: dict[int, Value] = {}
        self._returns: dict[tuple[bool, int], Value] = {}
        self._passed: set[int] | None = None
        self._methods: dict[int, dict[str, ast.AST]] = {}

    # ---------------------------------------------------------------- queries
    def value(self, expr: ast.AST | None) -> Value:
        """What `expr` may hold (`EMPTY` when nothing is known)."""
        if expr is None:
            return EMPTY
        k = id(expr)
        memo = self._memo_early if self._building_calls else self._memo
        v = memo.get(k)
        if v is not None:
            return v
        if k in self._busy:
            return EMPTY  # a cycle (x = f(x), mutual recursion): what is known so far
        self._busy.add(k)
        try:
            v = self._compute(expr)
        except RecursionError:
            v = EMPTY
        finally:
            self._busy.discard(k)
        memo[k] = v
        return v

    def kinds(self, expr: ast.AST | None) -> frozenset[str]:
        return self.value(expr).kinds

    def is_kind(self, expr: ast.AST | None, kind: str) -> bool:
        return kind in self.value(expr).kinds

    def contextvar_keys(self, expr: ast.AST) -> frozenset[str]:
        """Identity keys of the ContextVars `expr` holds (empty when it holds none)."""
        v = self.value(expr)
        return v.vars if CONTEXTVAR in v.kinds else frozenset()

    # ------------------------------------------------------------ OpenTelemetry
    def is_otel_tracer(self, recv: ast.AST) -> bool:
        """Does `recv` hold an OpenTelemetry tracer?

        Yes when its value is `OTEL_TRACER` (`trace.get_tracer(...)`,
        `provider.get_tracer(...)`, a `Tracer` annotation, through any binding), or when
        the same binding (whatever it is called) is used for a tracer-only API
        (`OTEL_TRACER_ONLY_METHODS`: `start_as_current_span`). No when it holds an
        instance of a class of this module or a function: their `start_span` is theirs.
        """
        v = self.value(recv)
        if OTEL_TRACER in v.kinds:
            return True
        if v.classes or v.defs:
            return False
        b = self.binding(recv)
        if b is None:
            return False
        for c in self.facts.nodes(ast.Call):
            f = c.func
            if isinstance(f, ast.Attribute) and f.attr in OTEL_TRACER_ONLY_METHODS \
                    and type(f.value) is type(recv) and self.binding(f.value) == b:
                return True
        return False

    def is_otel_span_start(self, call: ast.Call) -> bool:
        """Is `call` (`x.start_span(...)`) OpenTelemetry's `Tracer.start_span`?

        By the receiver (`is_otel_tracer`), else by what goes in or out: an argument that
        is an OpenTelemetry value (`kind=SpanKind.CLIENT`, `context=<otel context>`,
        `links=[trace.Link(...)]`), or the span handed to an `opentelemetry.*` API
        (`trace.set_span_in_context(span)`, `trace.use_span(span)`). A receiver that
        holds a class of this module (a meter with its own `start_span`) never is.
        """
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr == "start_span"):
            return False
        if self.is_otel_tracer(f.value):
            return True
        recv = self.value(f.value)
        if recv.classes or recv.defs:
            # a class of this module: its own `start_span` decides (a wrapper returning an
            # OTel span is a tracer; a meter returning a closure is not)
            for cls in recv.classes:
                m = self.lookup_method(cls, "start_span")
                if m is not None and OTEL_SPAN in self.returns(m).kinds:
                    return True
            return False
        facts = self.facts
        for a in (*call.args, *(k.value for k in call.keywords)):
            for n in ast.walk(a):
                if isinstance(n, (ast.Name, ast.Attribute)) and (facts.qualname(n) or "").startswith("opentelemetry."):
                    if not isinstance(n, ast.Name) or n.id in facts.imports:
                        return True
                if isinstance(n, (ast.Name, ast.Attribute, ast.Call)) and self.kinds(n) & {OTEL_CONTEXT, OTEL_SPAN}:
                    return True
        # the span goes into an OpenTelemetry API
        p = facts.parents.get(call)
        sites: list[ast.AST] = [call]
        if isinstance(p, (ast.Assign, ast.AnnAssign)) and p.value is call:
            tg = p.targets[0] if isinstance(p, ast.Assign) else p.target
            b = self.binding(tg)
            if b is not None:
                ident = tg.id if isinstance(tg, ast.Name) else getattr(tg, "attr", None)
                # (same binding implies the same identifier: a cheap pre-filter)
                sites.extend(n for n in facts.nodes(ast.Name, ast.Attribute)
                             if isinstance(n.ctx, ast.Load) and (n.id if isinstance(n, ast.Name) else n.attr) == ident
                             and self.binding(n) == b)
        for n in sites:
            q = facts.parents.get(n)
            if isinstance(q, ast.Call) and n in q.args and (facts.qualname(q.func) or "").startswith("opentelemetry."):
                return True
        return False

    # ------------------------------------------------------------ call graph
    def callee(self, call: ast.Call) -> ast.AST | None:
        """The function or class of this module that `call` runs, or None.

        `f(...)` where `f` resolves to a module-level (or enclosing) def or class;
        `self.m(...)`/`cls.m(...)`/`super().m(...)` and `obj.m(...)` where `obj` is an
        instance of a class of this module -> the method (searched in the class and its
        bases of this module); `Cls.m(...)` likewise. A def/class object held in a
        variable (`handler = self._on_chunk`) resolves through its value.
        """
        f = call.func
        if isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Name) and f.value.func.id == "super":
                cls = self.facts.enclosing_class(call)
                if cls is not None:
                    for base in self.bases(cls):
                        m = self.methods(base).get(f.attr)
                        if m is not None:
                            return m
                return None
            recv = self.value(f.value)
            for cls in recv.classes:
                m = self.lookup_method(cls, f.attr)
                if m is not None:
                    return m
            for d in recv.defs:
                if isinstance(d, ast.ClassDef):
                    m = self.lookup_method(d, f.attr)
                    if m is not None:
                        return m
            return None
        v = self.value(f)
        return v.defs[0] if len(v.defs) == 1 else None

    def calls_to(self, defn: ast.AST) -> list[ast.Call]:
        """Calls in this module that run `defn` (a def, or a class: its constructor calls)."""
        if self._calls_to is None:
            if self._building_calls:
                # asked while the call graph is being built (resolving a receiver): the
                # values computed in this phase ignore call-site arguments and are kept
                # apart (`_memo_early`), so each node is computed at most twice
                return []
            self._building_calls = True
            try:
                out: dict[int, list[ast.Call]] = {}
                for c in self.facts.nodes(ast.Call):
                    d = self.callee(c)
                    if d is not None:
                        out.setdefault(id(d), []).append(c)
            finally:
                self._building_calls = False
            self._calls_to = out
        return self._calls_to.get(id(defn), [])

    def passed_around(self, defn: ast.AST) -> bool:
        """Is `defn` referenced other than as the function of a call (handed to
        `create_task`, a callback, `Thread(target=...)`, stored)?"""
        if self._passed is None:
            passed: set[int] = set()
            names = {d.name for d in self.facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef)}
            for n in self.facts.nodes(ast.Name, ast.Attribute):
                nm = n.id if isinstance(n, ast.Name) else n.attr
                if nm not in names or not isinstance(n.ctx, ast.Load):
                    continue
                p = self.facts.parents.get(n)
                if isinstance(p, ast.Call) and p.func is n:
                    continue
                if isinstance(n, ast.Name):
                    for d in self.value(n).defs:
                        passed.add(id(d))
                else:
                    recv = self.value(n.value)
                    for cls in (*recv.classes, *(d for d in recv.defs if isinstance(d, ast.ClassDef))):
                        m = self.lookup_method(cls, n.attr)
                        if m is not None:
                            passed.add(id(m))
            self._passed = passed
        return id(defn) in self._passed

    def methods(self, cls: ast.ClassDef) -> dict[str, ast.AST]:
        """name -> def of the methods defined directly in `cls`'s body."""
        m = self._methods.get(id(cls))
        if m is None:
            m = {s.name: s for s in cls.body if isinstance(s, FunctionNode)}
            self._methods[id(cls)] = m
        return m

    def bases(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """The base classes of `cls` defined in this module (direct and indirect)."""
        out: list[ast.ClassDef] = []
        todo = list(cls.bases)
        while todo:
            b = todo.pop(0)
            for d in self.value(b).defs:
                if isinstance(d, ast.ClassDef) and d is not cls and d not in out:
                    out.append(d)
                    todo.extend(d.bases)
        return out

    def lookup_method(self, cls: ast.ClassDef, name: str) -> ast.AST | None:
        """`name` as an instance of `cls` sees it: `cls`'s own, else a base's of this module."""
        for c in (cls, *self.bases(cls)):
            m = self.methods(c).get(name)
            if m is not None:
                return m
        return None

    def self_closure(self, method: ast.AST) -> list[ast.AST]:
        """`method` plus the methods of its class it calls through `self.m(...)`,
        transitively (the code that runs when `method` runs)."""
        cls = self.facts.enclosing_class(method)
        out = [method]
        if cls is None:
            return out
        i = 0
        while i < len(out):
            for n in self.facts.walk(out[i], into_defs=True):
                if isinstance(n, ast.Call):
                    d = self.callee(n)
                    if d is not None and isinstance(d, FunctionNode) and d not in out \
                            and self.facts.enclosing_class(d) in (cls, *self.bases(cls)):
                        out.append(d)
            i += 1
        return out

    def binding(self, expr: ast.AST) -> tuple | None:
        """Identity of the variable or attribute `expr` reads: ("local", scope, name),
        ("module", name), ("attr", class, attr) for `self.x` / `obj.x` of a class of this
        module; None for anything else. Two expressions with the same binding read the
        same variable, whatever it is called."""
        if isinstance(expr, ast.Name):
            scope = self.resolve_scope(expr)
            if scope is None or isinstance(scope, ast.Module):
                return ("module", expr.id)
            return ("local", id(scope), expr.id)
        if isinstance(expr, ast.Attribute):
            recv = self.value(expr.value)
            if len(recv.classes) == 1:
                return ("attr", id(self._owning_class(recv.classes[0], expr.attr)), expr.attr)
            cls_defs = [d for d in recv.defs if isinstance(d, ast.ClassDef)]
            if len(cls_defs) == 1:
                return ("attr", id(self._owning_class(cls_defs[0], expr.attr)), expr.attr)
            q = self.facts.qualname(expr)
            return ("qual", q) if q else None
        return None

    def contextvar_key_of_target(self, target: ast.AST) -> str | None:
        """The identity key a ContextVar bound to `target` (an assignment target) gets."""
        if isinstance(target, ast.Name):
            scope = self.resolve_scope(target)
            if isinstance(scope, ast.ClassDef):
                return f"class:{id(scope)}.{target.id}"
            if scope is None or isinstance(scope, ast.Module):
                return f"module:{target.id}"
            return f"local:{id(scope)}.{target.id}"
        if isinstance(target, ast.Attribute):
            b = self.binding(target)
            if b and b[0] == "attr":
                return f"class:{b[1]}.{b[2]}"
            return f"expr:{self.facts.dotted(target)}"
        return None

    # ------------------------------------------------------------ computing
    def _compute(self, e: ast.AST) -> Value:
        if isinstance(e, ast.Call):
            return self._call_value(e)
        if isinstance(e, ast.Name):
            return self._name_value(e)
        if isinstance(e, ast.Attribute):
            return self._attr_value(e)
        if isinstance(e, ast.Subscript):
            base = self.value(e.value)
            if isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, int) and base.items is not None \
                    and -len(base.items) <= e.slice.value < len(base.items):
                return base.items[e.slice.value]
            return base.elem or EMPTY
        if isinstance(e, ast.Tuple):
            items = tuple(self.value(x) for x in e.elts)
            return Value(items=items, elem=merge_all(items))
        if isinstance(e, (ast.List, ast.Set)):
            return Value(elem=merge_all(self.value(x) for x in e.elts))
        if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return Value(elem=self.value(e.elt))
        if isinstance(e, ast.DictComp):
            return Value(elem=self.value(e.value), keys=self.value(e.key) or None)
        if isinstance(e, ast.Dict):
            return Value(elem=merge_all(self.value(x) for x in e.values),
                         keys=merge_all(self.value(k) for k in e.keys if k is not None) or None)
        if isinstance(e, ast.IfExp):
            return self.value(e.body).merge(self.value(e.orelse))
        if isinstance(e, ast.BoolOp):
            return merge_all(self.value(x) for x in e.values)
        if isinstance(e, (ast.Await, ast.NamedExpr, ast.Starred)):
            return self.value(e.value)
        return EMPTY

    def _call_value(self, call: ast.Call) -> Value:
        facts = self.facts
        f = call.func.value if isinstance(call.func, ast.Subscript) else call.func  # `ContextVar[T](...)`
        q = facts.qualname(f) if isinstance(f, (ast.Name, ast.Attribute)) else None
        if q:
            kind = KNOWN_CALLS.get(q)
            if kind is None and q.split(".")[-1] == "ContextVar":
                kind = CONTEXTVAR  # a re-export of contextvars.ContextVar (`from .compat import ContextVar`)
            if kind is not None and not self._locally_shadowed(f):
                if kind == CONTEXTVAR:
                    key = self._contextvar_key_of_call(call)
                    return Value({CONTEXTVAR}, {key} if key else ())
                if kind == CONTEXT:
                    return Value({CONTEXT}, keys=Value({CONTEXTVAR}, {SNAPSHOT_VAR}))
                return Value({kind})
        if isinstance(f, ast.Attribute):
            if f.attr in HOOK_REGISTRATIONS:
                return Value({HOOK_HANDLE})
            recv = self.value(f.value)
            out = EMPTY
            for k in recv.kinds:
                r = KNOWN_METHODS.get(k, {}).get(f.attr)
                if r is not None:
                    vars_ = recv.vars if k == CONTEXTVAR else frozenset()
                    if r == CV_VALUE:
                        # where the value was read: a restore must undo a set made there
                        fn = facts.enclosing_function(call)
                        vars_ = vars_ | {f"readin:{id(fn) if fn is not None else 0}"}
                    out = out.merge(Value({r}, vars_))
            if recv.elem or recv.keys:
                if f.attr in _TAKES:
                    out = out.merge(recv.elem or EMPTY)
                elif f.attr == "copy":
                    out = out.merge(Value(elem=recv.elem, keys=recv.keys))
                elif f.attr == "items":
                    out = out.merge(Value(elem=Value(items=(recv.keys or EMPTY, recv.elem or EMPTY))))
                elif f.attr == "keys":
                    out = out.merge(Value(elem=recv.keys))
                elif f.attr == "values":
                    out = out.merge(Value(elem=recv.elem))
            if out:
                return out
        if isinstance(f, ast.Name) and f.id in _SAME_ELEMENTS and call.args and not self._locally_shadowed(f) \
                and f.id not in facts.module_names:
            return Value(elem=iterated(self.value(call.args[0])))
        if isinstance(f, ast.Name) and f.id == "next" and call.args and f.id not in facts.module_names:
            return iterated(self.value(call.args[0]))
        if isinstance(f, ast.Name) and f.id == "enumerate" and call.args and f.id not in facts.module_names:
            return Value(elem=Value(items=(EMPTY, iterated(self.value(call.args[0])))))
        d = self.callee(call)
        if isinstance(d, ast.ClassDef):
            return Value(classes=(d,))
        if isinstance(d, FunctionNode):
            return self.returns(d)
        if isinstance(f, ast.Name) and f.id in facts.imports and not self._building_calls:
            # a function imported from another module of the project: what it returns there
            from ctxlint.semantic.python.project_index import imported_def
            got = imported_def(facts, f, any_def=True)
            if got is not None:
                v = module_values(got[0]).returns(got[1])
                return Value(v.kinds - {GENERATOR}, v.vars) if v.kinds else EMPTY
        return EMPTY

    def _imported_contextvar(self, name: ast.Name) -> Value | None:
        """The ContextVar `name` holds when it is imported from another module of the
        project whose top level binds it once, by an assignment (asked only for a name
        this module does not bind itself); its identity key is the defining module's path
        and name, the same in every module that imports it. None otherwise."""
        from ctxlint.semantic.python.project_index import imported_value
        got = imported_value(self.facts, name)
        if got is None:
            return None
        other, expr = got
        if CONTEXTVAR not in module_values(other).value(expr).kinds:
            return None
        return Value({CONTEXTVAR}, {f"import:{other.path}:{(self.facts.qualname(name) or '').rpartition('.')[2]}"})

    def returns(self, fn: ast.AST) -> Value:
        """The union of what `fn` (a def of this module) returns; a generator function
        gives a `GENERATOR` whose elements are what it yields."""
        key = (self._building_calls, id(fn))
        v = self._returns.get(key)
        if v is not None:
            return v
        self._returns[key] = EMPTY  # recursion guard
        ys = [n for n in self.facts.walk(fn) if isinstance(n, (ast.Yield, ast.YieldFrom))]
        if ys:
            v = Value({GENERATOR}, elem=merge_all(self.value(y.value) for y in ys if isinstance(y, ast.Yield)))
        else:
            v = merge_all(self.value(n.value) for n in self.facts.walk(fn)
                          if isinstance(n, ast.Return) and n.value is not None)
        self._returns[key] = v
        return v

    def _contextvar_key_of_call(self, call: ast.Call) -> str | None:
        p = self.facts.parents.get(call)
        if isinstance(p, ast.Assign) and len(p.targets) == 1:
            return self.contextvar_key_of_target(p.targets[0])
        if isinstance(p, ast.AnnAssign):
            return self.contextvar_key_of_target(p.target)
        return f"call:{call.lineno}:{call.col_offset}"

    def _locally_shadowed(self, f: ast.AST) -> bool:
        """Is the root name of `f` bound in a function scope (not the import it looks like)?"""
        root = f
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        scope = self.resolve_scope(root)
        return scope is not None and not isinstance(scope, (ast.Module, ast.ClassDef)) \
            and any(k != "import" for k, _, _ in self._bindings(scope).get(root.id, ()))

    # --------------------------------------------------------------- names
    def resolve_scope(self, name: ast.Name) -> ast.AST | None:
        """The scope node (def, lambda, class, comprehension, Module) that binds `name`."""
        facts = self.facts
        ident = name.id
        first = True
        for a in facts.ancestors(name):
            if isinstance(a, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                for g in a.generators:
                    if any(isinstance(t, ast.Name) and t.id == ident for t in ast.walk(g.target)):
                        return a
            elif isinstance(a, (*FunctionNode, ast.Lambda)):
                if ident in self._local_names(a):
                    return a
                first = False
            elif isinstance(a, ast.ClassDef):
                if first and ident in self._local_names(a):
                    return a  # a name used directly in the class body
            elif isinstance(a, ast.Module):
                return a
        return facts.tree

    def _local_names(self, scope: ast.AST) -> set[str]:
        s = self._locals.get(id(scope))
        if s is None:
            s = set(self._bindings(scope))
            if not isinstance(scope, ast.ClassDef):
                for n in self.facts.walk(scope):
                    if isinstance(n, (ast.Global, ast.Nonlocal)):
                        s.difference_update(n.names)
            self._locals[id(scope)] = s
        return s

    def _bindings(self, scope: ast.AST) -> dict[str, list[tuple[str, ast.AST, ast.AST]]]:
        """name -> [(how, node, source)] for every binding of the scope's own names.

        how: "assign" (source: the assigned expression, node: the target part),
        "param" (node: the ast.arg), "for" (source: the iterable), "with" (source: the
        context expression), "def"/"class"/"import" (node: the statement).
        """
        b = self._scope_bindings.get(id(scope))
        if b is not None:
            return b
        b = {}
        facts = self.facts

        def add_target(t: ast.AST, how: str, source: ast.AST, stmt: ast.AST):
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    b.setdefault(n.id, []).append((how, n, source))

        if isinstance(scope, (*FunctionNode, ast.Lambda)):
            a = scope.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)):
                b.setdefault(arg.arg, []).append(("param", arg, scope))
        stack = [scope.body] if isinstance(scope, ast.Lambda) else list(scope.body)
        while stack:
            n = stack.pop()
            if isinstance(n, (*FunctionNode, ast.ClassDef)):
                b.setdefault(n.name, []).append(("class" if isinstance(n, ast.ClassDef) else "def", n, n))
                for d in n.decorator_list:
                    stack.append(d)
                continue
            if isinstance(n, ast.Lambda):
                continue
            if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                # only NamedExpr inside binds here; targets are the comprehension's
                for sub in ast.walk(n):
                    if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                        b.setdefault(sub.target.id, []).append(("assign", sub.target, sub.value))
                continue
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    add_target(t, "assign", n.value, n)
            elif isinstance(n, ast.AnnAssign):
                if n.value is not None:
                    add_target(n.target, "assign", n.value, n)
                elif isinstance(n.target, ast.Name):
                    b.setdefault(n.target.id, []).append(("annotation", n.target, n.annotation))
            elif isinstance(n, ast.AugAssign):
                add_target(n.target, "aug", n.value, n)
            elif isinstance(n, ast.NamedExpr):
                add_target(n.target, "assign", n.value, n)
            elif isinstance(n, (ast.For, ast.AsyncFor)):
                add_target(n.target, "for", n.iter, n)
            elif isinstance(n, ast.withitem):
                if n.optional_vars is not None:
                    add_target(n.optional_vars, "with", n.context_expr, n)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for al in n.names:
                    nm = al.asname or al.name.split(".")[0]
                    b.setdefault(nm, []).append(("import", n, n))
            elif isinstance(n, ast.ExceptHandler) and n.name:
                b.setdefault(n.name, []).append(("except", n, n))
            kids = facts._children.get(n)
            if kids is None:
                kids = list(ast.iter_child_nodes(n))
            stack.extend(kids)
        if isinstance(scope, ast.Module):
            # `global x` in a def: its assignments to `x` bind the module's `x`
            for g in facts.nodes(ast.Global):
                fn = facts.enclosing_function(g)
                if fn is None:
                    continue
                for n in facts.walk(fn):
                    if isinstance(n, ast.Assign):
                        for t in n.targets:
                            if isinstance(t, ast.Name) and t.id in g.names:
                                b.setdefault(t.id, []).append(("assign", t, n.value))
        self._scope_bindings[id(scope)] = b
        return b

    def _name_value(self, name: ast.Name) -> Value:
        scope = self.resolve_scope(name)
        if scope is None:
            return EMPTY
        if isinstance(scope, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            out = EMPTY
            for g in scope.generators:
                out = out.merge(self._unpack(g.target, name.id, iterated(self.value(g.iter))))
            return out
        binds = self._bindings(scope).get(name.id, ())
        out = EMPTY
        for how, node, source in binds:
            if how == "assign":
                out = out.merge(self._target_value(node, source))
            elif how == "annotation":
                out = out.merge(self._annotation_value(source, node))
            elif how == "for":
                out = out.merge(self._target_value(node, source, iterate=True))
            elif how == "with":
                v = self.value(source)
                # `with tracer.start_as_current_span() as span`: the span; a class of this
                # module: what its __enter__ returns (usually self)
                if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) \
                        and source.func.attr in OTEL_TRACER_ONLY_METHODS \
                        and OTEL_TRACER in self.value(source.func.value).kinds:
                    v = Value({OTEL_SPAN})
                out = out.merge(self._target_value(node, None, preset=v))
            elif how == "param":
                out = out.merge(self._param_value(node, source))
            elif how in ("def", "class"):
                out = out.merge(Value(defs=(node,)))
            elif how == "import" and isinstance(node, ast.ImportFrom) and len(binds) == 1:
                # a ContextVar of another module of the project, asked for only here
                got = self._imported_contextvar(name)
                if got is not None:
                    out = out.merge(got)
        if isinstance(scope, (ast.Module, *FunctionNode, ast.Lambda)):
            key = self.binding(name)
            if key is not None:
                out = out.merge(self._inserted(key, scope, name.id))
        return out

    def _target_value(self, store: ast.AST, source: ast.AST | None, iterate: bool = False,
                      preset: Value | None = None) -> Value:
        """The value the Name `store` gets when `source` (iterated when `iterate`) is
        assigned to the target that contains it (tuple unpacking followed)."""
        v = preset if preset is not None else self.value(source)
        if iterate:
            v = iterated(v)
        # path from the whole target down to `store`
        path: list[int] = []
        node = store
        while True:
            p = self.facts.parents.get(node)
            if isinstance(p, (ast.Tuple, ast.List)) and isinstance(getattr(p, "ctx", None), ast.Store):
                path.append(next(i for i, x in enumerate(p.elts) if x is node))
                node = p
                continue
            if isinstance(p, ast.Starred):
                return EMPTY
            break
        for i in reversed(path):
            if v.items is not None and i < len(v.items):
                v = v.items[i]
            else:
                return EMPTY
        return v

    def _unpack(self, target: ast.AST, ident: str, v: Value) -> Value:
        if isinstance(target, ast.Name):
            return v if target.id == ident else EMPTY
        if isinstance(target, (ast.Tuple, ast.List)):
            for i, t in enumerate(target.elts):
                if any(isinstance(n, ast.Name) and n.id == ident for n in ast.walk(t)):
                    if v.items is not None and i < len(v.items):
                        return self._unpack(t, ident, v.items[i])
                    return EMPTY
        return EMPTY

    def _annotation_value(self, ann: ast.AST | None, where: ast.AST | None = None) -> Value:
        """Kinds an annotation declares (`ContextVar[str]`, `"ContextVar[str]"`, `trace.Tracer`)."""
        if ann is None:
            return EMPTY
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return EMPTY
            q = self.facts.qualname(ann.value if isinstance(ann, ast.Subscript) else ann) or ""
        else:
            if isinstance(ann, ast.Subscript):
                ann = ann.value
            q = self.facts.qualname(ann) or ""
        if isinstance(ann, ast.BinOp):  # `X | None`
            return self._annotation_value(ann.left).merge(self._annotation_value(ann.right))
        last = q.split(".")[-1]
        known = KNOWN_ANNOTATIONS.get(last)
        if known is None:
            # a class of this module (`meter: LatencyMeter`): an instance of it
            if isinstance(ann, ast.Name) and ann.id in self.facts.module_names and ann.id not in self.facts.imports:
                for d in self._bindings(self.facts.tree).get(ann.id, ()):
                    if d[0] == "class":
                        return Value(classes=(d[1],))
            return EMPTY
        mod, kind = known
        resolved = q if "." in q else self.facts.imports.get(last, last)
        if not (resolved.startswith(mod) or (kind == CONTEXTVAR and last == "ContextVar")):
            return EMPTY
        if kind == CONTEXTVAR and where is not None:
            key = self.contextvar_key_of_target(where) if isinstance(where, (ast.Name, ast.Attribute)) else None
            return Value({CONTEXTVAR}, {key} if key else ())
        return Value({kind})

    def _param_value(self, arg: ast.arg, fn: ast.AST) -> Value:
        out = self._annotation_value(arg.annotation)
        if CONTEXTVAR in out.kinds:
            out = Value({CONTEXTVAR}, {f"param:{id(fn)}.{arg.arg}"})
        if isinstance(fn, ast.Lambda):
            return out
        cls = self.facts.enclosing_class(fn)
        params = [*fn.args.posonlyargs, *fn.args.args]
        is_method = cls is not None and self.facts.parents.get(fn) is cls and not any(
            (self.facts.qualname(d) or "").split(".")[-1] == "staticmethod" for d in fn.decorator_list)
        if is_method and params and params[0] is arg:
            return out.merge(Value(classes=(cls,)))  # self / cls, by position
        # the arguments this module passes (a constructor call runs __init__)
        targets = self.calls_to(cls) if (is_method and fn.name == "__init__") else []
        targets = [*targets, *self.calls_to(fn)]
        idx = next((i for i, p in enumerate(params) if p is arg), None)
        for c in targets:
            bound = (c.func.value if isinstance(c.func, ast.Attribute) else None)
            shift = 1 if is_method else 0
            if is_method and c in self.calls_to(fn) and bound is not None \
                    and any(isinstance(d, ast.ClassDef) for d in self.value(bound).defs):
                shift = 0  # `Cls.m(obj, x)`: explicit self
            if idx is not None and 0 <= idx - shift < len(c.args) and not any(
                    isinstance(a, ast.Starred) for a in c.args[:idx - shift + 1]):
                out = out.merge(self.value(c.args[idx - shift]))
            for kw in c.keywords:
                if kw.arg == arg.arg:
                    out = out.merge(self.value(kw.value))
        return out

    # ----------------------------------------------------------- attributes
    def _owning_class(self, cls: ast.ClassDef, attr: str) -> ast.ClassDef:
        for c in (cls, *self.bases(cls)):
            if attr in self._attr_assignments(c):
                return c
        return cls

    def _attr_assignments(self, cls: ast.ClassDef) -> dict[str, list[ast.AST]]:
        """attr -> the Store-context expressions that bind it on `cls` or its instances
        (`self.x = ...` in any method, by the first parameter's position; class-level `x = ...`)."""
        b = self._attr_bindings.get(id(cls))
        if b is not None:
            return b
        b = {}
        for s in cls.body:
            if isinstance(s, (ast.Assign, ast.AnnAssign)):
                for t in (s.targets if isinstance(s, ast.Assign) else [s.target]):
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                            b.setdefault(n.id, []).append(n)
        for m in self.methods(cls).values():
            params = [*m.args.posonlyargs, *m.args.args]
            if not params:
                continue
            me = params[0].arg
            for n in self.facts.walk(m, into_defs=True):
                if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) \
                        and isinstance(n.value, ast.Name) and n.value.id == me:
                    b.setdefault(n.attr, []).append(n)
        self._attr_bindings[id(cls)] = b
        return b

    def _attr_value(self, e: ast.Attribute) -> Value:
        recv = self.value(e.value)
        out = EMPTY
        classes = list(recv.classes) + [d for d in recv.defs if isinstance(d, ast.ClassDef)]
        for cls in classes:
            owner = self._owning_class(cls, e.attr)
            for store in self._attr_assignments(owner).get(e.attr, ()):
                out = out.merge(self._store_value(store))
            out = out.merge(self._inserted(("attr", id(owner), e.attr), owner, e.attr))
        if not classes:
            # a module attribute (`mod.var`) or an unknown object: nothing more is known
            return out
        return out

    def _store_value(self, store: ast.AST) -> Value:
        """The value bound by a Store-context Name/Attribute `store`."""
        p = self.facts.parents.get(store)
        while isinstance(p, (ast.Tuple, ast.List)):
            p = self.facts.parents.get(p)
        if isinstance(p, ast.Assign):
            return self._target_value(store, p.value)
        if isinstance(p, ast.AnnAssign):
            if p.value is None:
                return self._annotation_value(p.annotation, store)
            v = self.value(p.value)
            if not v:
                v = self._annotation_value(p.annotation, store)
            return v
        if isinstance(p, (ast.For, ast.AsyncFor)):
            return self._target_value(store, p.iter, iterate=True)
        if isinstance(p, ast.withitem):
            return self._target_value(store, p.context_expr)
        if isinstance(p, ast.NamedExpr):
            return self.value(p.value)
        return EMPTY

    def _inserted(self, key: tuple, scope: ast.AST, ident: str) -> Value:
        """Elements put into the container bound at `key` (`x.append(v)`, `x[k] = v`, `x.extend(vs)`)."""
        memo_key = ("inserted", self._building_calls, key)
        cache = self.facts.memo("semantic.values.inserted", dict)
        if memo_key in cache:
            return cache[memo_key]
        cache[memo_key] = EMPTY  # cycle guard
        elems = EMPTY
        keys = EMPTY
        for recv, item, items, k in self._insertion_index().get(ident, ()):
            if self.binding(recv) != key:
                continue
            if item is not None:
                elems = elems.merge(self.value(item))
            elif items is not None:
                elems = elems.merge(iterated(self.value(items)))
            if k is not None:
                keys = keys.merge(self.value(k))
        out = Value(elem=elems or None, keys=keys or None) if (elems or keys) else EMPTY
        cache[memo_key] = out
        return out

    def _insertion_index(self) -> dict[str, list[tuple]]:
        """identifier of the receiver -> [(receiver, inserted item, inserted iterable, key)] for every
        container insertion of the file (one pass, shared by every `_inserted` query)."""
        def compute():
            out: dict[str, list] = {}

            def add(recv, item, items, key=None):
                if isinstance(recv, ast.Name):
                    out.setdefault(recv.id, []).append((recv, item, items, key))
                elif isinstance(recv, ast.Attribute):
                    out.setdefault(recv.attr, []).append((recv, item, items, key))

            for n in self.facts.nodes(ast.Call):
                if isinstance(n.func, ast.Attribute) and n.args:
                    a = n.func.attr
                    if a in _INSERTS:
                        add(n.func.value, n.args[-1], None)
                    elif a in _EXTENDS:
                        add(n.func.value, None, n.args[0])
                    elif a == "setdefault" and len(n.args) == 2:
                        add(n.func.value, n.args[1], None, n.args[0])
            for n in self.facts.nodes(ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Subscript):
                        add(t.value, n.value, None, t.slice)
            return out
        return self.facts.memo("semantic.values.insertion_index", compute)
