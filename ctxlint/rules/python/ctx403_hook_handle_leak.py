"""CTX403 hook-handle-leak: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.owners import followed_in_block
from ctxlint.semantic.python.hooks import (
    MODULE_HOOKS,
    captures_self,
    chain_text,
    hook_stores_on_self,
    is_hook_registration,
    kept_by_self,
    local_root,
    once_guard,
    only_guarded_callers,
    returns_no_handle,
    runs_per_call,
)


class HookHandleLeak(Rule):
    code = "CTX403"
    reported_when = (
        "always: the class or function shows the leak by itself (an entry that a path it owns never removes).")
    name = "hook-handle-leak"
    summary = ("A torch hook handle dropped or overwritten in code that runs per model call (not "
               "once-guarded), or a hook that stores on self left on a caller's model the object does not "
               "keep.")
    tokens = ("register_",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags a torch module hook registration (`register_forward_hook`,
`register_forward_pre_hook`, `register_full_backward_hook`, ...) only with positive
evidence that hooks accumulate or are lost. Its `RemovableHandle` is
- discarded (an expression statement, or a local name never used again) in code
  that runs once per model call, or
- stored on an attribute in such code without removing the handle stored there
  before (read back as `self.h` or `getattr(model, "h", None)`) —
  each call overwrites the only handle, so earlier hooks can never be removed, or
- bound to a local inside a loop that registers on the same module every iteration
  (the receiver does not change with the loop) while nothing in the loop removes or
  keeps that handle: only the last one survives the loop, or
- discarded while the hook is a bound method of `self` (or a closure over `self`)
  that stores per-call values on the object (`self.x = output`,
  `self.values.append(...)`), registered on a module of a model the object was
  handed and does not keep: the caller's model then keeps the object, and
  everything its hook stores, alive for as long as the model lives, and nothing can
  take the hook off.

A tensor's own hook (`Tensor.register_hook`, `register_post_accumulate_grad_hook`) on
a tensor the function computes per call (`loss, cache = self.compute(...)`;
`loss.register_hook(...)`) is never reported: the hook lives on that tensor and is
freed with it. On a Parameter (`w = self.linear.weight`, a loop over
`model.parameters()`, a parameter of the function) it accumulates like a module hook.

Code runs once per model call when it is `forward`/`__call__`, when it calls the
hooked module (or the object owning it; a submodule reached through
`for m in model.modules()` stands for `model`) after registering, or returns what a
method of that model computes from its own arguments (`return
self.model.generate(input_ids)`), or when a same-file function calls it in a loop or
comprehension — decided by what the code does, not by its name. Only what can run
after the registration counts: a call in another arm of the same `if`/`elif` chain
(`if location == "input": register...; elif location == "weight": fuse(module)`)
never does. It does not when the registration is installed once per
object: in `__init__`, under an `if` that tests a flag on `self` and sets it in the
same branch (`if not self.hooked: ...; self.hooked = True`), or after an early
exit on a flag the function sets on any object — the hooked module, its model, a
parameter (`if getattr(module, ATTR, None) is not None: return` ... `setattr(module,
ATTR, pf)`; `if getattr(p, "_hooked", False): continue` ... `p._hooked = True`), or in a method all of
whose callers in this module run once so (only from `__init__`, a load method
`__init__` calls, or a flag-guarded call). The object keeps a model when it stores
it on `self`, or when the registering method only receives modules of what it keeps
(`self.model.apply(self._hook_one)`, `self._hook_one(self.model)`).

A `register_*_hook` call that runs a def of this project which hands back no handle
is not reported: the call is resolved through the call graph and the class
hierarchy, into the project's other modules (`super().register_module_hook(...)` in a
subclass of an import watcher another module defines, `self.register_hook(...)`,
`Registry.register_hook(...)`), and that def only returns nothing, constants, the
callback it was given or the result of another such def (or is a stub annotated
`-> None`): the project's registry keeps the hook itself and removes it its own way
(`unregister_*_hook`), so there is no handle to drop. Still reported: a call that
resolves to nothing of the project (torch's own methods), and a project def that may
return torch's handle (`return super().register_forward_hook(hook)`, `return
module.register_forward_hook(fn)` on one of its paths).

A `register_hook` whose arguments cannot be torch's (a hook name first, or three
positional arguments: authlib's grant hooks) is another library's callback table. A
module reached through a parameter or `self` (`model.get_input_embeddings()`) is part
of the caller's model; a flag on the object the hooked parameters come from (`for p in
layer.parameters()` under `layer.__dict__[FLAG]`) guards them.

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
            if not is_hook_registration(call, facts):
                continue
            f = call.func
            fn = facts.enclosing_function(call)
            if fn is None or returns_no_handle(facts, call):
                continue  # the project's own register_*_hook, which hands back no handle
            if not MODULE_HOOKS.match(f.attr) and _fresh_local_tensor(facts, f.value, fn):
                continue  # `loss.register_hook(h)` on this call's own tensor: the hook dies with it
            p = facts.parents.get(call)
            in_loop = _in_loop(facts, call, fn)
            per_call = runs_per_call(facts, fn, call)
            dropped = isinstance(p, ast.Expr) or (isinstance(p, ast.Assign) and _unused_local(facts, p, fn))
            msg = None
            fix = Fix(description="keep the handle and remove it in finally", safety=SAFE,
                      codemod="keep_hook_handle", data={"line": call.lineno, "col": call.col_offset})
            lost = _local_overwritten_in_loop(facts, call, p, fn)
            if dropped and not followed_in_block(facts, call):
                fix = None  # nothing follows in its block: no `finally` to remove it in (the codemod declines)
            if dropped and (per_call or lost):
                msg = (f"handle of `{f.attr}()` is dropped in `{fn.name}()`, which runs "
                       f"{'per iteration' if in_loop else 'per call'}: the hook is never removed and hooks pile up")
            elif lost:
                msg = (f"`{fn.name}()` registers a hook on `{facts.segment(f.value)}` on every iteration of a loop "
                       f"and overwrites `{lost}`, the only handle, before removing it: every hook but the last "
                       "stays registered and can never be removed")
            elif isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Attribute):
                target = facts.dotted(p.targets[0])
                if target and per_call \
                        and not _removes_before(facts, fn, target, call):
                    msg = (f"`{fn.name}()` overwrites `{target}` with a new hook handle on every "
                           f"{'iteration' if in_loop else 'call'} without removing the previous hook")
            elif dropped and facts.enclosing_class(fn) is not None and MODULE_HOOKS.match(f.attr):
                hook = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "hook"), None)
                root = local_root(facts, fn, f.value)
                stored = captures_self(facts, hook, fn) and root and not kept_by_self(facts, fn, root) \
                    and hook_stores_on_self(facts, hook, fn)
                if stored and (once_guard(facts, call, fn) is not None or only_guarded_callers(facts, fn)):
                    stored = None  # installed once per owner, by a flag-guarded call: meant to stay
                if stored:
                    what = "bound method" if isinstance(hook, ast.Attribute) else "hook closing over `self`"
                    msg = (f"{what} `{facts.segment(hook)}` is registered on a module of `{root}`, which this "
                           f"object does not keep, and the handle of `{f.attr}()` is dropped: the caller's model "
                           f"keeps this object alive, with what the hook stores in `{stored}` on every call, "
                           "and the hook can never be removed")
                    fix = None  # where the handle should be removed (a close()) is the author's choice
            if msg:
                yield facts.finding(self, call, msg, fix=fix)


def _fresh_local_tensor(facts, recv: ast.AST, fn) -> bool:
    """Is the receiver of a tensor hook (`Tensor.register_hook`,
    `register_post_accumulate_grad_hook`) a tensor this call of `fn` computes: a local
    name whose every binding in `fn` is a call or arithmetic, or an element unpacked
    from a call (`loss, cache = self.calculate_loss(...)`; `loss = loss.detach()`), never a
    parameter, a `self.` attribute, a loop variable or a `with` target? A tensor's hooks
    live on the tensor (PyTorch docs, `Tensor.register_hook`), so they are freed with a
    tensor made per call; a Parameter (`self.weight`, `for p in model.parameters()`)
    lives as long as the model and keeps every hook registered on it."""
    if not isinstance(recv, ast.Name) or fn is None:
        return False
    if recv.id in {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}:
        return False
    values = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and n.id == recv.id and isinstance(n.ctx, ast.Store):
            st = facts.parents.get(n)
            if isinstance(st, (ast.Assign, ast.AnnAssign)) and (st.targets == [n] if isinstance(st, ast.Assign)
                                                                else st.target is n):
                values.append(st.value)
            elif isinstance(st, ast.AugAssign):
                continue
            elif isinstance(st, ast.Tuple) and isinstance(facts.parents.get(st), ast.Assign) \
                    and facts.parents.get(st).targets == [st]:
                # `loss, cache = self.compute(...)`: fresh only when the helper (a def of
                # this module) builds that element by computing, never hands back an
                # attribute (`return self.linear.weight, self.linear.bias`)
                if not _returns_computed(facts, facts.parents.get(st).value, st.elts.index(n)):
                    return False
                values.append(facts.parents.get(st).value)
            else:
                return False  # a loop variable, a `with` target: not known to be fresh
        elif isinstance(n, (ast.Global, ast.Nonlocal)) and recv.id in n.names:
            return False
    return bool(values) and all(isinstance(v, (ast.Call, ast.BinOp, ast.UnaryOp)) for v in values)


def _returns_computed(facts, call: ast.AST, index: int) -> bool:
    """Does the def of this module that `call` reaches return, at position `index` of
    every returned tuple, a computed value (a call, arithmetic) rather than an attribute
    or a name bound to one?"""
    from ctxlint.semantic.python.calls import call_graph
    if not isinstance(call, ast.Call):
        return False
    target = call_graph(facts).resolve(call)
    if target is None:
        return False
    rets = [n.value for n in facts.walk(target) if isinstance(n, ast.Return)]
    if not rets:
        return False
    for r in rets:
        if not (isinstance(r, ast.Tuple) and len(r.elts) > index):
            return False
        e = r.elts[index]
        if isinstance(e, ast.Name):
            binds = [x.value for x in facts.walk(target) if isinstance(x, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == e.id for t in x.targets)]
            if not binds or not all(isinstance(b, (ast.Call, ast.BinOp, ast.UnaryOp)) for b in binds):
                return False
        elif not isinstance(e, (ast.Call, ast.BinOp, ast.UnaryOp)):
            return False
    return True


def _in_loop(facts, node, fn) -> bool:
    """Is the registration repeated by a loop of `fn` other than a walk over the
    hooked model's own submodules (`for m in model.modules(): m.register_...`)?"""
    recv_root = (chain_text(facts, node.func.value) or "").split(".")[0]
    for a in facts.ancestors(node):
        if a is fn:
            return False
        if isinstance(a, (ast.For, ast.AsyncFor)) and any(
                isinstance(t, ast.Name) and t.id == recv_root for t in ast.walk(a.target)):
            continue  # one registration per submodule: set-up, not repetition
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
            return True
    return False


def _local_overwritten_in_loop(facts, call, assign, fn) -> str | None:
    """The local a registration's handle is bound to when a loop of `fn` re-registers on
    the same module (its receiver does not depend on the loop's variables or on names the
    loop rebinds) and nothing in that loop reads the local after the store (no
    `.remove()`, no hand-off to a list): each iteration then drops the previous handle.
    None otherwise."""
    if not (isinstance(assign, ast.Assign) and assign.value is call and len(assign.targets) == 1
            and isinstance(assign.targets[0], ast.Name)):
        return None
    name = assign.targets[0].id
    recv = {n.id for n in ast.walk(call.func.value) if isinstance(n, ast.Name)}
    for a in facts.ancestors(call):
        if a is fn or isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return None
        if not isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
            continue
        rebound = {x.id for st in (a.body + a.orelse) for n in ast.walk(st)
                   for t in _store_targets(n) for x in ast.walk(t) if isinstance(x, ast.Name)} - {name}
        if isinstance(a, (ast.For, ast.AsyncFor)):
            rebound |= {t.id for t in ast.walk(a.target) if isinstance(t, ast.Name)}
        if recv & rebound:
            return None  # another module each iteration: set-up over several modules
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for st in (a.body + a.orelse) for n in ast.walk(st)):
            return None  # the loop removes or keeps each handle
        return name
    return None


def _store_targets(n: ast.AST) -> list:
    """The targets a statement or walrus binds."""
    if isinstance(n, ast.Assign):
        return n.targets
    if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
        return [n.target]
    return []


def _unused_local(facts, assign: ast.Assign, fn) -> bool:
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
        return False
    name = assign.targets[0].id
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            return False
    return True


def _removes_before(facts, fn, target: str, call) -> bool:
    """Does `fn` read/remove `target` (guard or `.remove()`) other than by this store?
    A read through `getattr(model, "hook_attr", None)` counts (`hook = getattr(model,
    "ct_hook", None); if hook is not None: hook.remove()` before the new store)."""
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and facts.dotted(n) == target:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" \
                and len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) \
                and f"{facts.dotted(n.args[0])}.{n.args[1].value}" == target and _removed(facts, fn, n):
            return True
    return False


def _removed(facts, fn, read: ast.Call) -> bool:
    """Is the handle `read` (a `getattr(...)`) removed: `getattr(...).remove()`, or a local
    bound to it whose `.remove()` is called in `fn`? A read only to log removes nothing."""
    p = facts.parents.get(read)
    if isinstance(p, ast.Attribute) and p.attr == "remove":
        return True
    if isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Name):
        name = p.targets[0].id
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "remove"
                   and isinstance(n.func.value, ast.Name) and n.func.value.id == name for n in facts.walk(fn))
    return False
