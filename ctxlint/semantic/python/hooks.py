"""torch hook facts (read by CTX403 and CTX406).

- A *hook registration* is a call of one of torch's `register_*_hook` methods
  (`torch.nn.Module.register_forward_hook`, `register_forward_pre_hook`,
  `register_full_backward_hook`, `register_full_backward_pre_hook`,
  `Tensor.register_hook`, `register_post_accumulate_grad_hook`, ...; PyTorch docs,
  torch.nn.Module and torch.Tensor): it returns a `RemovableHandle`.
- A *hook method* of a class is a method passed (bound, `self.m`) to such a
  registration anywhere in the class: torch calls it once per forward/backward.
- A function *runs per call* of a model when it is torch's per-call protocol
  (`forward`, `__call__`: `nn.Module.__call__` runs `forward`), or when it calls the
  module it hooks (or the object that owns that module) after registering — unless
  it built that module itself (its hooks die with it). Being called in a loop is not
  enough: installing hooks on each submodule is set-up.
- A registration *captures self* when the hook is a bound method of `self` or a
  closure / lambda / `functools.partial` that reads `self`.
"""

from __future__ import annotations

import ast
import re

from ctxlint.semantic.python.syntax import FunctionNode

#: torch's hook-registering methods: `register_<kind>_hook` (torch.nn.Module,
#: torch.Tensor, torch.nn.modules.module global hooks) and `Tensor.register_hook`.
HOOK_REGISTRATION = re.compile(r"^register_(\w+_)?hook$")
#: torch's per-call protocol methods (nn.Module.__call__ -> forward).
PER_CALL_PROTOCOL = frozenset({"forward", "__call__"})
_FUNCS = FunctionNode


def is_hook_registration(call: ast.AST) -> bool:
    """Is `call` `<target>.register_*_hook(...)`?"""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
        and bool(HOOK_REGISTRATION.match(call.func.attr))


def chain_text(facts, expr: ast.AST) -> str | None:
    """Dotted text of the Name/Attribute chain at the root of `expr`, skipping
    subscripts and calls (`self.model.layers[i]` -> "self.model.layers",
    `dict(m.named_modules())[k]` -> "m.named_modules")."""
    while True:
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Name) and expr.args:
                expr = expr.args[0]  # dict(x), list(x): the argument's chain
            else:
                expr = expr.func
        else:
            break
    return facts.dotted(expr)


def hook_methods(facts, cls: ast.ClassDef) -> dict[str, ast.Call]:
    """Method name -> a registration that passes `self.<name>` as the hook, in `cls`."""
    def build():
        out: dict[str, ast.Call] = {}
        for n in facts.walk(cls, into_defs=True):
            if is_hook_registration(n):
                for a in [*n.args, *(k.value for k in n.keywords)]:
                    if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self":
                        out.setdefault(a.attr, n)
        return out
    return facts.memo(f"hooks.methods.{id(cls)}", build)


def captures_self(facts, hook: ast.AST | None, fn: ast.AST) -> bool:
    """Does the hook argument keep `self` alive (a bound method of `self`, or a
    closure/lambda/partial whose code reads `self`)?"""
    if hook is None:
        return False
    if isinstance(hook, ast.Attribute) and isinstance(hook.value, ast.Name) and hook.value.id == "self":
        return True
    if isinstance(hook, ast.Lambda):
        return any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(hook))
    if isinstance(hook, ast.Call):  # functools.partial(self.m, ...) / partial(f, obj=self)
        return any(captures_self(facts, a, fn) for a in [*hook.args, *(k.value for k in hook.keywords)]) \
            or any(isinstance(a, ast.Name) and a.id == "self" for a in [*hook.args, *(k.value for k in hook.keywords)])
    if isinstance(hook, ast.Name):
        for d in facts.walk(fn, into_defs=True):
            if isinstance(d, _FUNCS) and d.name == hook.id and d is not fn:
                return any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(d))
    return False


def owner_chain(facts, expr: ast.AST) -> str | None:
    """The Name/Attribute chain an expression starts from, up to its first call or
    subscript (`self.model.layers[i]` -> "self.model.layers",
    `model.get_input_embeddings()` -> "model")."""
    while True:
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call):
            f = expr.func
            expr = f.value if isinstance(f, ast.Attribute) else f
        else:
            d = facts.dotted(expr)
            if d is not None:
                return d
            if isinstance(expr, ast.Attribute):
                expr = expr.value
            else:
                return None


def runs_model_after(facts, fn: ast.AST, call: ast.Call) -> bool:
    """After registering `call`, does `fn` call the hooked module itself, or an object
    that owns it (`self.model(x)` after `self.model.layers[i].register_forward_hook(...)`),
    or hand either to a callable positionally (`body(self.model)`)? Calling a method of
    it (`model.get_input_embeddings()`) is not running it."""
    target = owner_chain(facts, call.func.value)
    if not target or target in ("self", "cls"):
        return False
    def owns(t: str | None) -> bool:
        return bool(t) and t not in ("self", "cls") and (target == t or target.startswith(t + "."))

    for n in facts.walk(fn):
        if isinstance(n, ast.Call) and n is not call and getattr(n, "lineno", 0) >= call.lineno:
            if owns(facts.dotted(n.func)):
                return True
            # The hooked model handed to a callable that runs it (`body(self.base_model)`,
            # `trainer.step(model)`): the call may run it; its hooks fire per call.
            if any(owns(facts.dotted(a)) for a in n.args):
                return True
    return False


#: torch hooks registered on a module (`nn.Module.register_*`); a tensor's own hooks
#: (`Tensor.register_hook`, `register_post_accumulate_grad_hook`) die with the tensor.
MODULE_HOOKS = re.compile(r"^register_(forward|forward_pre|full_backward|full_backward_pre|backward|"
                          r"state_dict|state_dict_pre|load_state_dict_pre|load_state_dict_post)_hook$")


def runs_per_call(facts, fn: ast.AST, call: ast.Call) -> bool:
    """Does the function registering `call` run once per model call (see the module doc)?"""
    if fn.name == "__init__" or _local_model(facts, fn, call):
        return False
    return fn.name in PER_CALL_PROTOCOL or runs_model_after(facts, fn, call)


def _local_model(facts, fn: ast.AST, call: ast.Call) -> bool:
    """Is the hooked module built inside `fn` (`encoder = Encoder(...)`)? Its hooks die
    with it when the call returns."""
    root = (owner_chain(facts, call.func.value) or "").split(".")[0]
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) \
                and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
            return True
    return False


def kept_by_self(facts, fn: ast.AST, root: str) -> bool:
    """Is the local/parameter `root` stored on `self` in `fn` (`self.model = model`): the
    object then owns what it hooks, and both die together."""
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                             and t.value.id == "self" for t in n.targets):
            if any(isinstance(m, ast.Name) and m.id == root for m in ast.walk(n.value)):
                return True
    return False


def local_root(facts, fn: ast.AST, expr: ast.AST, depth: int = 3) -> str | None:
    """The parameter a hook target comes from (`modules[name]` with `modules =
    dict(model.named_modules())` -> "model"), following local assignments; None for
    `self.` targets or unknown origins."""
    text = chain_text(facts, expr)
    if not text:
        return None
    root = text.split(".")[0]
    if root in ("self", "cls"):
        return None
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    if root in params:
        return root
    if depth:
        for n in facts.walk(fn):
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
                r = local_root(facts, fn, n.value, depth - 1)
                if r:
                    return r
    return None
