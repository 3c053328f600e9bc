"""CTX403 hook-handle-leak: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.hooks import (
    MODULE_HOOKS, captures_self, is_hook_registration, kept_by_self, local_root, runs_per_call,
)




class HookHandleLeak(Rule):
    code = "CTX403"
    name = "hook-handle-leak"
    summary = ("A torch hook handle dropped or overwritten in code that runs per model call, or a hook "
               "bound to self left on a caller's model.")
    tokens = ("register_",)
    fix_safety = SAFE
    doc = """\
## What it does
Flags a torch module hook registration (`register_forward_hook`,
`register_forward_pre_hook`, `register_full_backward_hook`, ...) whose
`RemovableHandle` is
- discarded (an expression statement, or a local name never used again) in code
  that runs once per model call, or
- stored on `self` in such code without removing the handle stored there before —
  each call overwrites the only handle, so earlier hooks can never be removed, or
- discarded while the hook is a bound method of `self` (or a closure over `self`)
  registered on a module of a model the object was handed and does not keep: the
  caller's model then keeps the object, and everything it stores, alive for as long
  as the model lives, and nothing can take the hook off.

Code runs once per model call when it is `forward`/`__call__`, when it calls the
hooked module (or the object owning it) after registering, or when a same-file
function calls it in a loop or comprehension — decided by what the code does, not by
its name. `__init__` runs once.

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
            if not is_hook_registration(call):
                continue
            f = call.func
            fn = facts.enclosing_function(call)
            if fn is None:
                continue
            p = facts.parents.get(call)
            in_loop = _in_loop(facts, call, fn)
            per_call = runs_per_call(facts, fn, call)
            dropped = isinstance(p, ast.Expr) or (isinstance(p, ast.Assign) and _unused_local(facts, p, fn))
            msg = None
            fix = Fix(description="keep the handle and remove it in finally", safety=SAFE,
                      codemod="keep_hook_handle", data={"line": call.lineno, "col": call.col_offset})
            if dropped and per_call:
                msg = (f"handle of `{f.attr}()` is dropped in `{fn.name}()`, which runs "
                       f"{'per iteration' if in_loop else 'per call'}: the hook is never removed and hooks pile up")
            elif isinstance(p, ast.Assign) and len(p.targets) == 1 and isinstance(p.targets[0], ast.Attribute):
                target = facts.dotted(p.targets[0])
                if target and per_call \
                        and not _removes_before(facts, fn, target, call):
                    msg = (f"`{fn.name}()` overwrites `{target}` with a new hook handle on every "
                           f"{'iteration' if in_loop else 'call'} without removing the previous hook")
            elif dropped and facts.enclosing_class(fn) is not None and MODULE_HOOKS.match(f.attr):
                hook = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "hook"), None)
                root = local_root(facts, fn, f.value)
                if captures_self(facts, hook, fn) and root and not kept_by_self(facts, fn, root):
                    what = "bound method" if isinstance(hook, ast.Attribute) else "hook closing over `self`"
                    msg = (f"{what} `{facts.segment(hook)}` is registered on a module of `{root}`, which this "
                           f"object does not keep, and the handle of `{f.attr}()` is dropped: the caller's model "
                           "keeps this object (and every tensor it stores) alive, and the hook can never be removed")
                    fix = None  # where the handle should be removed (a close()) is the author's choice
            if msg:
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
