"""CTX406 activation-retained-on-module: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.rules import Rule
from ctxlint.semantic.python.syntax import FunctionNode
from ctxlint.semantic.python.hooks import ONCE_PER_OBJECT, hook_methods, once_guard, runs_once
from ctxlint.semantic.python.project_index import named_elsewhere
from ctxlint.semantic.python.instances import scalar_annotation
from ctxlint.semantic.python.tensors import (
    NON_ACTIVATION_ATTR_HINTS, PLAIN_ATTRS, PLAIN_METHODS, is_plain_data, plain_locals, reduced,
)
from ctxlint.semantic.python.registries import (
    names_in,
)


_METADATA = PLAIN_ATTRS | PLAIN_METHODS
_REDUCING_ATTRS = {"item", "tolist", "size", "dim", "numel", "shape", "dtype", "device", "ndim"}


class ActivationRetainedOnModule(Rule):
    code = "CTX406"
    name = "activation-retained-on-module"
    summary = "A per-forward tensor stored on self in forward() or a registered hook method and never cleared."
    tokens = ("forward", "hook")
    doc = """\
## What it does
Flags `self.<attr> = <tensor>` inside `forward()` or a method the class
registers as a torch hook (`register_forward_hook(self.m)`) when the value is computed from the call's inputs (an argument, or a
local derived from one), it is not reduced to a Python value (`.item()`,
`.tolist()`, `.shape`), the attribute is not cache-like (read back in the same
method before the store, or named `*cache*`), and no method of the class ever
clears it after construction (`self.<attr> = None`, `del self.<attr>` in a method
other than `__init__` or what only `__init__` calls: a `None` default set at
construction clears nothing a forward stored). A value is a tensor only
if it flows from a tensor-producing operation: `b, c, h, w = x.shape`,
`x.size(0)`, `len(...)`, `int(...)`, `.item()`/`.tolist()` and arithmetic on
them are plain Python data (see `semantic/python/tensors.py`, `plain_locals`).

A `forward()` of a class with no base (or only `object`, an ABC, `Generic`,
`Protocol`) is no nn.Module's and is not checked; a parameter declared as a
Python scalar (`float`, `Optional[float]`, `int | None`) holds no tensor, and a use
of only an input's metadata (`x.device`, `x.dtype`, `x.shape`) carries none of its values.
Test code is not checked (`test_*.py`, `*_test.py`, `conftest.py`, modules
importing `pytest` or `unittest`: `PythonFacts.is_test_code`): a test's fakes and
fixtures live for one test.

Also followed: a tensor `forward()` computes and hands to a method of its own class
that stores it on `self` as is (`self._remember(h)`). Not reported: a store under a
first-call flag nothing re-arms (`if self.first: ...; self.first = False`), one a helper
also reads back (accumulated state), a parameter annotated `torch.nn.Module` (the
caller's model) and an instance of a class of the project (an object, not a tensor); a
clearing method another module calls (a decoder calling `attention.reset()`) counts.

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
        if facts.is_test_code:
            return  # a test's state lives for one test (PythonFacts.is_test_code)
        # candidate stores first, from the type index: `<name>.<attr> = value` inside a def
        by_fn: dict[int, ast.AST] = {}
        for n in facts.nodes(ast.Assign):
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                    and isinstance(n.targets[0].value, ast.Name) \
                    and not NON_ACTIVATION_ATTR_HINTS.search(n.targets[0].attr.lower()):
                fn = facts.enclosing_function(n)
                if fn is not None and isinstance(facts.parents.get(fn), ast.ClassDef):
                    by_fn.setdefault(id(fn), fn)
        classes: dict[int, ast.ClassDef] = {}
        for fn in by_fn.values():
            cls = facts.parents[fn]
            classes.setdefault(id(cls), cls)
        for cls in facts.nodes(ast.ClassDef):
            if hook_methods(facts, cls):
                yield from self._hook_appends(facts, cls)
        for cls in classes.values():
            methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            hooked = hook_methods(facts, cls)
            per_forward = [m for m in methods if id(m) in by_fn and not _is_static_or_class(facts, m)
                           and ((m.name == "forward" and _may_be_module(facts, cls)) or m.name in hooked)]
            yield from self._helper_stores(facts, cls, methods)
            if not per_forward:
                continue
            cleared = None
            for m in per_forward:
                args = m.args.posonlyargs + m.args.args
                if not args or args[0].arg == "ctx":  # autograd.Function.forward(ctx, ...)
                    continue
                selfname = args[0].arg
                inputs = {a.arg for a in args[1:] + m.args.kwonlyargs if not scalar_annotation(a.annotation)
                          and not _module_annotation(facts, a.annotation)}
                if m.args.vararg:
                    inputs.add(m.args.vararg.arg)
                if not inputs:
                    continue
                body = list(facts.walk(m))
                stores = [n for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
                          and isinstance(n.targets[0], ast.Attribute)
                          and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == selfname
                          and not NON_ACTIVATION_ATTR_HINTS.search(n.targets[0].attr.lower())]
                if not stores:
                    continue
                first_read: dict[str, int] = {}
                reads: dict[str, list] = {}
                for n in body:
                    if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) \
                            and isinstance(n.value, ast.Name) and n.value.id == selfname:
                        first_read[n.attr] = min(first_read.get(n.attr, n.lineno), n.lineno)
                        reads.setdefault(n.attr, []).append(n)
                # read back before the store: a cache, not a leak (cheap, so first)
                stores = [n for n in stores if first_read.get(n.targets[0].attr, 10**9) > n.lineno]
                if not stores:
                    continue
                if cleared is None:
                    cleared = _cleared_attrs(facts, methods)
                stores = [n for n in stores if n.targets[0].attr not in cleared]
                if not stores:
                    continue
                plain = plain_locals(facts, m)
                derived = _derived_locals(body, inputs, facts) - plain
                for n in stores:
                    t = n.targets[0]
                    if is_plain_data(n.value, plain, facts) \
                            or not _is_tensor_from(n.value, derived) or _built_from_self(n.value, selfname):
                        continue  # plain data (`h` of `b, c, h, w = x.shape`) holds no activation
                    if once_guard(facts, n, m) is not None:
                        continue  # `if self.first: self.masks = ...; self.first = False`: set once per object
                    if any(_exclusive_branches(facts, n, r) for r in reads.get(t.attr, ())):
                        continue  # a later call's other branch reuses it: deliberate state
                    what = "the activation stays alive" if reduced(n.value) else \
                        "the activation (and its autograd graph) stays alive"
                    yield facts.finding(self, t,
                                        f"`{m.name}()` stores a per-call tensor on `{selfname}.{t.attr}` and no "
                                        f"method clears it: {what} until the next call")


    def _hook_appends(self, facts, cls: ast.ClassDef):
        """A method registered as a hook (`block.register_forward_hook(self._capture)`)
        appends a tensor computed from its arguments to a list the object keeps
        (`self.captured.append(output[0])`), and no method of the class empties that list
        (`.clear()`, `.pop()`, `del`, or binds the attribute anew outside `__init__`):
        every forward call adds one activation that stays alive with the object."""
        methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        hooked = hook_methods(facts, cls)
        emptied: set[str] | None = None
        for m in methods:
            if m.name not in hooked or _is_static_or_class(facts, m):
                continue
            args = m.args.posonlyargs + m.args.args
            if len(args) < 2:
                continue
            selfname = args[0].arg
            inputs = {a.arg for a in args[1:] + m.args.kwonlyargs if not scalar_annotation(a.annotation)}
            if m.args.vararg:
                inputs.add(m.args.vararg.arg)
            body = list(facts.walk(m))
            appends = [n for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                       and n.func.attr == "append" and len(n.args) == 1
                       and isinstance(n.func.value, ast.Attribute) and isinstance(n.func.value.value, ast.Name)
                       and n.func.value.value.id == selfname]
            if not appends:
                continue
            if emptied is None:
                emptied = _emptied_attrs(facts, methods) | _cleared_attrs(facts, methods)
            plain = None
            derived = None
            for call in appends:
                attr = call.func.value.attr
                if attr in emptied or NON_ACTIVATION_ATTR_HINTS.search(attr.lower()):
                    continue
                if derived is None:
                    plain = plain_locals(facts, m)
                    derived = _derived_locals(body, inputs, facts) - plain
                v = call.args[0]
                if is_plain_data(v, plain, facts) or not _is_tensor_from(v, derived):
                    continue
                yield facts.finding(self, call,
                                    f"hook `{m.name}()` appends a per-call tensor to `{selfname}.{attr}` and no "
                                    f"method empties it: every forward call's activation stays alive with the object")

    def _helper_stores(self, facts, cls: ast.ClassDef, methods: list):
        """`forward()` hands a tensor it computed from its inputs to a method of its own
        class (`self._remember(h)`), which stores that parameter on `self` as it is
        (`self._last_hidden = hidden`), and no method clears it: reported at the store."""
        fwd = next((m for m in methods if m.name == "forward" and not _is_static_or_class(facts, m)), None)
        if fwd is None or not _may_be_module(facts, cls):
            return
        args = fwd.args.posonlyargs + fwd.args.args
        if not args or args[0].arg == "ctx":
            return
        selfname = args[0].arg
        inputs = {a.arg for a in args[1:] + fwd.args.kwonlyargs if not scalar_annotation(a.annotation)
                  and not _module_annotation(facts, a.annotation)}
        if not inputs:
            return
        body = list(facts.walk(fwd))
        by_name = {m.name: m for m in methods}
        derived = None  # the tensors forward() computed from its inputs: costly, built on the first helper call
        cleared = None
        done: set[int] = set()
        for call in body:
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name) and call.func.value.id == selfname):
                continue
            helper = by_name.get(call.func.attr)
            if helper is None or helper is fwd or helper.name in ONCE_PER_OBJECT or _is_static_or_class(facts, helper):
                continue
            hparams = [a.arg for a in helper.args.posonlyargs + helper.args.args][1:]
            if len(hparams) < len(call.args) and helper.args.vararg is None:
                continue
            if not any(isinstance(a, ast.Name) for a in call.args[:len(hparams)]):
                continue
            if not _stores_a_param(facts, helper, hparams):
                continue
            if derived is None:
                derived = _derived_locals(body, inputs, facts) - plain_locals(facts, fwd)
            handed = {hparams[i] for i, a in enumerate(call.args[:len(hparams)])
                      if isinstance(a, ast.Name) and a.id in derived}
            if not handed:
                continue
            hself = (helper.args.posonlyargs + helper.args.args)[0].arg
            for n in facts.walk(helper):
                if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute)
                        and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == hself
                        and isinstance(n.value, ast.Name) and n.value.id in handed and id(n) not in done):
                    continue
                t = n.targets[0]
                if NON_ACTIVATION_ATTR_HINTS.search(t.attr.lower()):
                    continue
                if once_guard(facts, n, helper) is not None:
                    continue  # `if self.graph is None: self.graph = ...; self.surface = x`: set once
                if any(isinstance(r, ast.Attribute) and isinstance(r.ctx, ast.Load) and r.attr == t.attr
                       and isinstance(r.value, ast.Name) and r.value.id == hself for r in facts.walk(helper)):
                    continue  # the helper reads it too (`self.value + v`): state it keeps on purpose
                if cleared is None:
                    cleared = _cleared_attrs(facts, methods)
                if t.attr in cleared:
                    continue
                done.add(id(n))
                yield facts.finding(self, t,
                                    f"`forward()` hands a per-call tensor to `{helper.name}()`, which stores it on "
                                    f"`{hself}.{t.attr}`, and no method clears it: the activation (and its autograd "
                                    f"graph) stays alive until the next call")


def _stores_a_param(facts, helper, params: list[str]) -> bool:
    """Does `helper` assign one of its parameters, as it is, to an attribute of its
    first parameter (`self._last = hidden`)? The cheap precondition of a helper store."""
    args = helper.args.posonlyargs + helper.args.args
    if not args:
        return False
    hself, names = args[0].arg, set(params)
    return any(isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute)
               and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == hself
               and isinstance(n.value, ast.Name) and n.value.id in names for n in facts.walk(helper))


def _exclusive_branches(facts, a: ast.AST, b: ast.AST) -> bool:
    """Do `a` and `b` lie in opposite branches of one `if` (`if reset: self.x = p.detach()
    else: p = self.x`)? Then `b` reads what an earlier call of the method stored."""
    chain_a = {}
    child = a
    for anc in facts.ancestors(a):
        if isinstance(anc, ast.If):
            chain_a[id(anc)] = "body" if child in anc.body else "orelse" if child in anc.orelse else "test"
        child = anc
    child = b
    for anc in facts.ancestors(b):
        if isinstance(anc, ast.If) and id(anc) in chain_a:
            side = "body" if child in anc.body else "orelse" if child in anc.orelse else "test"
            return {side, chain_a[id(anc)]} == {"body", "orelse"}
        child = anc
    return False


def _emptied_attrs(facts, methods) -> set[str]:
    """Attributes some method empties: `self.x.clear()`, `self.x.pop(...)`, `del self.x[...]`,
    or binds anew outside `__init__` (`self.x = []` in `reset()`)."""
    out: set[str] = set()
    for m in methods:
        for n in facts.walk(m, into_defs=True):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("clear", "pop", "popleft") \
                    and isinstance(n.func.value, ast.Attribute):
                out.add(n.func.value.attr)
            elif isinstance(n, ast.Delete):
                for t in n.targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute):
                        out.add(t.value.attr)
            elif isinstance(n, (ast.Assign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    for el in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
                        if isinstance(el, ast.Subscript) and isinstance(el.value, ast.Attribute) \
                                and isinstance(el.slice, ast.Slice):
                            out.add(el.value.attr)  # `self.captured[:] = []`
                        elif isinstance(el, ast.Attribute) and (m.name != "__init__" or _bounded_deque(facts, n.value)):
                            out.add(el.attr)  # `out, self.captured = self.captured, []`; a deque(maxlen=)
    return out


def _bounded_deque(facts, v) -> bool:
    """`collections.deque(it, N)` / `deque(maxlen=N)` (N not None): it drops its oldest
    entries itself."""
    if not (isinstance(v, ast.Call) and (facts.qualname(v.func) or "").split(".")[-1] == "deque"):
        return False
    n = v.args[1] if len(v.args) >= 2 else next((k.value for k in v.keywords if k.arg == "maxlen"), None)
    return n is not None and not (isinstance(n, ast.Constant) and n.value is None)


def _is_static_or_class(facts, fn) -> bool:
    """staticmethod/classmethod (torch.autograd.Function.forward(ctx, ...) is a staticmethod)."""
    return any((facts.dotted(d) or "").split(".")[-1] in ("staticmethod", "classmethod") for d in fn.decorator_list)


def _cleared_attrs(facts, methods) -> set[str]:
    """Attributes some method that can run after construction sets to None or deletes.
    A default set in `__init__` (or in a method only `__init__` calls: `runs_once`, and
    that no other module of the project names: speechbrain's decoders call the
    attention's `reset()` before each sequence) is no clearing: it runs before the
    first forward, never after one (a function it
    defines, which runs later, still counts); lazily initialised state is recognised
    by its read-before-store instead."""
    out = set()
    for m in methods:
        # in a method run at construction only the functions it defines (a wrapper
        # installed on a submodule, a hook closure) run later, per call; the outermost
        # nested defs (and classes) are the roots, each walked once with what it holds
        roots = [d for d in facts.walk(m) if isinstance(d, (FunctionNode, ast.ClassDef)) and d is not m] \
            if runs_once(facts, m) and (m.name in ONCE_PER_OBJECT or not named_elsewhere(facts, m.name)) else [m]
        for n in (x for r in roots for x in facts.walk(r, into_defs=True)):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    pairs = zip(t.elts, n.value.elts) if isinstance(t, ast.Tuple) and isinstance(n.value, ast.Tuple) \
                        and len(t.elts) == len(n.value.elts) else [(t, n.value)]
                    for el, v in pairs:  # `self.x = None`, `out, self.x = self.x, None`
                        if isinstance(el, ast.Attribute) and isinstance(v, ast.Constant) and v.value is None:
                            out.add(el.attr)
            elif isinstance(n, ast.Delete):
                for t in n.targets:
                    if isinstance(t, ast.Attribute):
                        out.add(t.attr)
    return out


def _built_from_self(v: ast.AST, selfname: str) -> bool:
    """Is `v` a call handed the module itself (`get_manager(self, args)`,
    `Wrapper(self, cfg)`)? What it returns is an object about the module (a manager,
    a wrapper), not an activation computed from the inputs."""
    return isinstance(v, ast.Call) and any(isinstance(a, ast.Name) and a.id == selfname
                                           for a in [*v.args, *(k.value for k in v.keywords)])


#: Bases that make no class a torch Module (PEP 3119 ABCs, typing's generics and protocols).
_PLAIN_BASES = frozenset({"object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol", "typing.Protocol"})
#: Annotations of Python scalars: a parameter declared so holds no tensor.


def _may_be_module(facts, cls: ast.ClassDef) -> bool:
    """Can instances of `cls` be torch Modules? Not when it has no base at all, or only
    `object`, ABCs, `Generic[...]`, `Protocol`: a wrapper class with a `forward()` of its
    own (flashinfer's `BatchDecodeWithPagedKVCacheWrapper`) is no `nn.Module`, and what it
    keeps on `self` is no module state a forward pass leaves behind. (A plain class's
    method registered as a hook is still checked: a tap object; so is a base-less mixin
    or ABC that a class of this file derives from.)"""
    for b in cls.bases:
        head = b.value if isinstance(b, ast.Subscript) else b
        if (facts.dotted(head) or "") not in _PLAIN_BASES:
            return True
    # a mixin or abstract base whose forward a subclass of this file inherits
    # (`class CapturingBlock(AttentionCaptureMixin, nn.Module)`) is a Module's forward
    derived_from = facts.memo("ctx406.base_names", lambda: {
        (facts.dotted(b.value if isinstance(b, ast.Subscript) else b) or "").split(".")[-1]
        for c in facts.nodes(ast.ClassDef) for b in c.bases})
    return cls.name in derived_from


#: Annotations of a parameter that is a model, not per-call data: a `torch.nn.Module`
#: handed to `forward` (torch_geometric's `CaptumExplainer.forward(model, x, ...)`) is
#: the caller's long-lived model, and an object built around it holds no activation.
_MODULE_TYPES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})


def _module_annotation(facts, ann) -> bool:
    """Is `ann` `torch.nn.Module` (import-resolved), or `Optional[...]` of it?"""
    if ann is None:
        return False
    if isinstance(ann, ast.Subscript) and (facts.dotted(ann.value) or "").split(".")[-1] == "Optional":
        ann = ann.slice
    return (facts.qualname(ann) or "") in _MODULE_TYPES



def _derived_locals(body: list, inputs: set[str], facts=None) -> set[str]:
    """Input names plus locals assigned (in order) from expressions that use one's data.
    A use of only an input's metadata (`x.device`, `x.dtype`, `x.shape`, `x.size`:
    `tensors.PLAIN_ATTRS`/`PLAIN_METHODS`) carries none of its values and no graph:
    `torch.bernoulli(p).to(input.device)` is a fresh mask, not an activation. Nor does an
    instance of a class of the project (`CaptumModel(model, mask_type, index)`, resolved
    with `project_index.resolve_class`) that does not derive from `torch.Tensor`: it is
    an object built around its arguments, not their values."""
    derived = set(inputs)
    for n in body:
        if isinstance(n, ast.Assign) and facts is not None and _project_object(facts, n.value):
            continue
        if isinstance(n, ast.Assign):
            used = {x.split(".")[0] for x in names_in(n.value)
                    if not (len(x.split(".")) > 1 and x.split(".")[1] in _METADATA)}
            if used & derived:
                for t in n.targets:
                    for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                        if isinstance(el, ast.Name):
                            derived.add(el.id)
    return derived


def _project_object(facts, v: ast.AST) -> bool:
    """Is `v` a call of a class of the project (this module or one it imports) that
    derives from no `torch.Tensor` (its direct bases, as written)?"""
    if not isinstance(v, ast.Call) or not isinstance(v.func, (ast.Name, ast.Attribute)):
        return False
    from ctxlint.semantic.python.project_index import resolve_class
    scope = resolve_class(facts, v.func)
    if scope is None:
        return False
    for b in scope.node.bases:
        parts = ast.unparse(b).split(".")
        q = ".".join([scope.imports.get(parts[0], parts[0]), *parts[1:]])
        if q in ("torch.Tensor", "torch._tensor.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"):
            return False
    return True


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
        return any(x.split(".")[0] in derived for x in names_in(v))
    return False
