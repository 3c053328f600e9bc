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
  module it hooks (or the object that owns that module) after registering, or returns
  what a method of either computes from the function's own arguments — unless
  it built that module itself (its hooks die with it). Being called in a loop is not
  enough: installing hooks on each submodule is set-up.
- A registration *captures self* when the hook is a bound method of `self` or a
  closure / lambda / `functools.partial` that reads `self`.
- A registration (or the method holding it) runs *once per object* when it is in
  `__init__`, under an `if` that tests a flag on `self` and sets it in the same
  branch, or in a method all of whose callers in this module run once so.
- An object *keeps* a module it hooks when it stores it (or its owner) on `self`, or
  when the registering method is only reached through `self.model.apply(self.m)` /
  `self.m(<something self keeps>)`: both then die together.
"""

from __future__ import annotations

import ast
import re

from ctxlint.semantic.python.flags import flags_cleared_in, flags_set_by, flags_set_in, flags_unset_by
from ctxlint.semantic.python.syntax import FunctionNode

#: torch's hook-registering methods: `register_<kind>_hook` (torch.nn.Module,
#: torch.Tensor, torch.nn.modules.module global hooks) and `Tensor.register_hook`.
HOOK_REGISTRATION = re.compile(r"^register_(\w+_)?hook$")
#: torch's per-call protocol methods (nn.Module.__call__ -> forward).
PER_CALL_PROTOCOL = frozenset({"forward", "__call__"})
_FUNCS = FunctionNode


#: torch's own hook-registering methods, each returning a `RemovableHandle` (PyTorch docs:
#: `torch.nn.Module.register_*_hook`, `torch.Tensor.register_hook` /
#: `register_post_accumulate_grad_hook`, `torch.autograd.graph.Node.register_hook` /
#: `register_prehook`, `torch.optim.Optimizer.register_step_*_hook` and state-dict hooks,
#: `torch.nn.modules.module.register_module_*_hook`).
TORCH_HOOKS = re.compile(
    r"^register_((forward|forward_pre|full_backward|full_backward_pre|backward|state_dict|state_dict_pre|"
    r"state_dict_post|load_state_dict_pre|load_state_dict_post|post_accumulate_grad|step_pre|step_post|multi_grad|"
    r"module_(forward|forward_pre|full_backward|full_backward_pre|backward|buffer_registration|"
    r"module_registration|parameter_registration))_)?hook$|^register_prehook$")


def is_hook_registration(call: ast.AST, facts=None) -> bool:
    """Is `call` a hook registration that hands back a removable handle:
    `<target>.register_*_hook(...)` with one of torch's names (`TORCH_HOOKS`), or — given
    `facts` — another `register_*_hook` that resolves to a def of this project
    (`project_index.resolve_call`, a wrapper such as `self.register_clip_hook(m)`; whether
    that def hands back a handle is `returns_no_handle`'s question)? A `register_*_hook`
    of a library that resolves to nothing of the project (Megatron-Bridge's
    `provider.register_pre_wrap_hook(fn)`, a callback list) is no torch hook. Without
    `facts`, any `register_*_hook` name."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and HOOK_REGISTRATION.match(call.func.attr)):
        return False
    if facts is None:
        return True
    if TORCH_HOOKS.match(call.func.attr) and _torch_hook_arguments(call):
        return True
    from ctxlint.semantic.python.project_index import resolve_call
    try:
        fn = resolve_call(facts, call)
    except (RecursionError, ValueError):
        return False
    return fn is not None and isinstance(fn, _FUNCS)


def _torch_hook_arguments(call: ast.Call) -> bool:
    """Could `call`'s arguments be those of one of torch's hook registrations? Each takes
    the hook callable first and at most one more positional argument
    (`register_full_backward_hook(hook, prepend=False)`; the rest are keyword-only:
    PyTorch docs, `torch.nn.Module` / `torch.Tensor`). A string first (authlib's
    `grant.register_hook("after_validate_token_request", self.validate)`, a named
    callback list) or three positional arguments is another library's API."""
    if len(call.args) > 2:
        return False
    first = call.args[0] if call.args else None
    return not (isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes)))


def returns_no_handle(facts, call: ast.Call, depth: int = 2) -> bool:
    """Does the `register_*_hook(...)` call `call` run a def of this project that can
    return no removable handle, so that dropping its result drops nothing?

    The call is resolved through the project's call graph and class hierarchy, across
    its modules (`project_index.resolve_call`: `super().register_module_hook(...)` in a
    subclass of a class another module defines, `cls.register_hook(...)`,
    `Watchdog.register_origin_hook(...)`). It returns no handle when the def is a
    generator, or when every `return` of its own body (nested defs aside) gives no
    value, a constant, an f-string, a comparison or `not ...`, one of the def's own
    parameters (the hook it was handed, the receiver: `return hook` of a
    decorator-style registry), or a call that itself returns no handle (followed
    `depth` levels within this file). A body that is only a stub (docstring, `pass`,
    `...`, `raise`) decides by its return annotation (`-> None`): an override may
    return a handle. False when the call does not resolve to the project (torch's own
    `nn.Module.register_forward_hook` returns a `RemovableHandle`, PyTorch docs) or
    any return may give something else (a local, an attribute, a call of unknown
    result). Never raises."""
    from ctxlint.semantic.python.project_index import resolve_call
    try:
        fn = resolve_call(facts, call)
    except (RecursionError, ValueError):
        return False
    if fn is None or not isinstance(fn, _FUNCS):
        return False
    return _def_returns_no_handle(facts, fn, depth)


def _own_nodes(fn: ast.AST):
    """The nodes of `fn`'s own body (not of nested defs, lambdas or classes); works on
    trees of other modules too (no parent index needed)."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, (*_FUNCS, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))


def _is_stub(fn: ast.AST) -> bool:
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return all(isinstance(s, (ast.Pass, ast.Raise)) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
               for s in body)


def _def_returns_no_handle(facts, fn: ast.AST, depth: int) -> bool:
    nodes = list(_own_nodes(fn))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return True  # a generator function returns a generator
    if _is_stub(fn):
        ann = fn.returns
        return isinstance(ann, ast.Constant) and ann.value is None
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    local = fn in facts.parents
    for n in nodes:
        if not isinstance(n, ast.Return) or n.value is None:
            continue
        v = n.value
        if isinstance(v, (ast.Constant, ast.JoinedStr, ast.Compare)) \
                or (isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.Not)):
            continue
        if isinstance(v, ast.Name) and v.id in params and not _rebound(nodes, v.id):
            continue  # what the caller handed in (the hook, the receiver)
        if isinstance(v, ast.Call) and local and depth > 0 and returns_no_handle(facts, v, depth - 1):
            continue
        return False
    return True


def _rebound(nodes: list, name: str) -> bool:
    """Is `name` assigned anywhere among `nodes` (a parameter reused for another value)?"""
    for n in nodes:
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] \
            if isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.For, ast.AsyncFor)) else \
            [i.optional_vars for i in n.items if i.optional_vars is not None] \
            if isinstance(n, (ast.With, ast.AsyncWith)) else []
        if any(isinstance(x, ast.Name) and x.id == name for t in targets for x in ast.walk(t)):
            return True
    return False


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
    """Method name -> a registration that passes `self.<name>` as the hook, in `cls`
    (its methods and nested defs). The file's registrations are indexed once, by
    every class that encloses them."""
    def build():
        by_class: dict[int, dict[str, ast.Call]] = {}
        for n in facts.nodes(ast.Call):
            if not is_hook_registration(n):
                continue
            selfs = [a.attr for a in [*n.args, *(k.value for k in n.keywords)]
                     if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"]
            if not selfs:
                continue
            for anc in facts.ancestors(n):
                if isinstance(anc, ast.ClassDef):
                    out = by_class.setdefault(id(anc), {})
                    for attr in selfs:
                        out.setdefault(attr, n)
        return by_class
    return facts.memo("hooks.methods", build).get(id(cls), {})


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
    it (`model.get_input_embeddings()`) is not running it. A module hooked through a
    loop variable or local stands for what it comes from (`for m in
    self.model.modules()` -> `self.model`); a tensor's hooks are not followed so."""
    from ctxlint.semantic.python.owners import exclusive_branches
    target = owner_chain(facts, call.func.value)
    if MODULE_HOOKS.match(call.func.attr):  # a submodule stands for the model it comes from
        target = _resolve_local(facts, fn, target)
    if not target or target in ("self", "cls"):
        return False
    def owns(t: str | None) -> bool:
        return bool(t) and t not in ("self", "cls") and (target == t or target.startswith(t + "."))

    for n in facts.walk(fn):
        if isinstance(n, ast.Call) and n is not call and getattr(n, "lineno", 0) >= call.lineno:
            if exclusive_branches(facts, call, n, fn):
                continue  # another arm of the `if`/`elif` chain: never runs after this registration
            if owns(facts.dotted(n.func)):
                return True
            # The hooked model handed to a callable that runs it (`body(self.base_model)`,
            # `trainer.step(model)`): the call may run it; its hooks fire per call. Not a
            # call that only reads it (`isinstance(m, T)`, `"{}".format(m)`, logging).
            if _only_reads(n):
                continue
            if any(owns(facts.dotted(a)) for a in n.args):
                return True
    return _returns_model_output(facts, fn, call, owns)


#: Methods of `torch.nn.Module` (PyTorch docs, torch.nn.Module) and of transformers'
#: `PreTrainedModel` (transformers docs, "Models") that look up, move, convert or save
#: the model: calling one with arguments does not run its forward pass.
MODULE_NON_RUNNING_METHODS = frozenset({
    "get_submodule", "get_parameter", "get_buffer", "get_extra_state", "set_extra_state",
    "modules", "named_modules", "children", "named_children", "parameters", "named_parameters",
    "buffers", "named_buffers", "state_dict", "load_state_dict", "add_module", "register_module",
    "register_buffer", "register_parameter", "apply", "to", "to_empty", "cuda", "cpu", "xpu", "half",
    "float", "double", "bfloat16", "type", "train", "eval", "requires_grad_", "zero_grad",
    "share_memory", "extra_repr", "set_submodule",
    "get_input_embeddings", "set_input_embeddings", "get_output_embeddings", "set_output_embeddings",
    "resize_token_embeddings", "save_pretrained", "push_to_hub", "tie_weights", "get_decoder",
    "set_adapter", "load_adapter", "add_adapter", "delete_adapter", "enable_adapters", "disable_adapters",
})


def _returns_model_output(facts, fn: ast.AST, call: ast.Call, owns) -> bool:
    """After registering `call`, does `fn` return what a method of the hooked module
    (or of its owner) computes from `fn`'s own inputs (`return self.model.generate(ids)`,
    `out = model.generate(**batch); return decode(out[0])`)? That is running the model on the
    call's data, whatever the method is called; a method given only constants or
    `self` state (`model.get_input_embeddings()`) is not, nor one of torch's look-up,
    conversion and save methods (`MODULE_NON_RUNNING_METHODS`: `get_submodule(name)`,
    `to(device)`)."""
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} - {"self", "cls"}
    for extra in (fn.args.vararg, fn.args.kwarg):
        if extra is not None:
            params.add(extra.arg)
    if not params:
        return False
    returned: set[str] = set()
    rets = [n.value for n in facts.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    for r in rets:
        returned |= {x.id for x in ast.walk(r) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}

    def from_inputs(c: ast.Call) -> bool:
        return any(isinstance(x, ast.Name) and x.id in params
                   for a in [*c.args, *(k.value for k in c.keywords)] for x in ast.walk(a))

    def model_method(c: ast.AST) -> bool:
        return isinstance(c, ast.Call) and c is not call and getattr(c, "lineno", 0) >= call.lineno \
            and isinstance(c.func, ast.Attribute) and owns(owner_chain(facts, c.func.value)) \
            and c.func.attr not in MODULE_NON_RUNNING_METHODS and not HOOK_REGISTRATION.match(c.func.attr) \
            and from_inputs(c)

    if any(model_method(x) for r in rets for x in ast.walk(r)):
        return True
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and model_method(n.value) and any(
                isinstance(x, ast.Name) and x.id in returned for t in n.targets for x in ast.walk(t)):
            return True
    return False


def _resolve_local(facts, fn: ast.AST, text: str | None, depth: int = 3) -> str | None:
    """`text` with a local root replaced by the chain it is bound from in `fn`: a loop
    variable by its iterable's owner (`for _, m in self.model.named_modules()` ->
    "self.model"), an assigned local by its value's chain. Unchanged when unknown."""
    if not text or depth <= 0:
        return text
    root, _, rest = text.partition(".")
    if root in ("self", "cls"):
        return text
    for n in facts.walk(fn):
        src = None
        if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)) and any(
                isinstance(t, ast.Name) and t.id == root for t in ast.walk(n.target)):
            src = n.iter
        elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
            src = n.value
        if src is not None:
            base = owner_chain(facts, src)
            if base and base.split(".")[0] != root:
                got = _resolve_local(facts, fn, base, depth - 1)
                return f"{got}.{rest}" if rest and got else got
            return text
    return text


def _only_reads(call: ast.Call) -> bool:
    """A call that only reads its arguments (`owners.READ_ONLY_CALLS`: builtins and
    logging methods; a method of a literal, `"...".format(m)`)."""
    from ctxlint.semantic.python.owners import READ_ONLY_CALLS
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Constant):
        return True
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return name in READ_ONLY_CALLS


#: torch hooks registered on a module (`nn.Module.register_*`); a tensor's own hooks
#: (`Tensor.register_hook`, `register_post_accumulate_grad_hook`) die with the tensor.
MODULE_HOOKS = re.compile(r"^register_(forward|forward_pre|full_backward|full_backward_pre|backward|"
                          r"state_dict|state_dict_pre|load_state_dict_pre|load_state_dict_post)_hook$")


def runs_per_call(facts, fn: ast.AST, call: ast.Call) -> bool:
    """Does the function registering `call` run once per model call (see the module doc)?
    Not when the registration is guarded once per object (`once_guard`) or `fn` runs
    once per object (`runs_once`)."""
    if fn.name == "__init__" or _local_model(facts, fn, call):
        return False
    if not (fn.name in PER_CALL_PROTOCOL or runs_model_after(facts, fn, call)):
        return False
    return once_guard(facts, call, fn) is None and not runs_once(facts, fn)


#: Methods that run once per object by Python's object protocol.
ONCE_PER_OBJECT = frozenset({"__init__", "__post_init__", "__new__"})


def once_guard(facts, node: ast.AST, fn: ast.AST) -> ast.If | None:
    """The `if` of `fn` that makes `node` run at most once per object, else None.

    A flag is an attribute of some object `O` — `self`, the hooked module, its model, a
    parameter: `O.flag`, `getattr(O, NAME[, d])`, `hasattr(O, NAME)`, `O.__dict__.get(NAME)`
    / `O.__dict__[NAME]` (NAME a literal or a module constant, compared as written). Two
    shapes guard:

    * an `if` around `node` whose test is false once the flag is set (`if not self.flag:`,
      `if self.flag is None:`, `if ... and not getattr(m, ATTR, None):`) and whose branch
      holding `node` sets that flag (`self.flag = True`, `setattr(m, ATTR, pf)`);
    * an early exit before `node` (`if getattr(module, ATTR, None) is not None: return`,
      `if getattr(p, "_hooked", False): continue` in the loop holding `node`) whose test
      is true once the flag is set, while `fn` sets that flag.

    Either way a second run finds the flag and registers nothing again on that object
    (unsloth's `PREFETCHER_ATTR`, `_unsloth_grad_all_reduce`). A flag set to a falsy
    constant (`None`, `False`, `0`) sets nothing, and one that `fn` also clears (`finally:
    self._in_forward = False`, a re-entrancy guard) guards nothing once. The flag must be
    on `self` or on the object that receives the hook (the registration's receiver or the
    name it is reached from): a flag on a per-call request or input says nothing about
    hooks piling up on a shared model."""
    cleared = flags_cleared_in(fn.body)
    owners = _flag_owners(facts, node)
    owners_self = ast.dump(ast.Name(id="self", ctx=ast.Load()))
    for a in facts.ancestors(node):
        if a is fn:
            break
        if isinstance(a, ast.If) and _inside(facts, node, a.body):
            flags = {f for f in flags_unset_by(a.test) & flags_set_in(a.body) if f not in cleared
                     and f[0] in owners}
            if flags:
                return a
            # the inverse: `if self.first: ...; self.first = False`, a first-call flag that
            # only construction sets (speechbrain's FastDropChunk builds its masks so)
            first = {f for f in flags_set_by(a.test) & flags_cleared_in(a.body)
                     if f[0] == owners_self and not _set_after_construction(facts, fn, f)}
            if first:
                return a
    # early exits: an `if <flag set>: return|continue|raise` before `node`, in its block
    # or an enclosing one (up to `fn`; `continue` only inside a loop that also holds `node`)
    chain = [node, *facts.ancestors(node)]
    fn_sets = None
    for i, a in enumerate(chain[1:], 1):
        child = chain[i - 1]
        for field in ("body", "orelse", "finalbody"):
            block = getattr(a, field, None)
            if not isinstance(block, list) or child not in block:
                continue
            for st in block[:block.index(child)]:
                if not (isinstance(st, ast.If) and st.body and not st.orelse):
                    continue
                last = st.body[-1]
                exits = isinstance(last, (ast.Return, ast.Raise)) or \
                    (isinstance(last, ast.Continue) and _loop_between(facts, st, node, fn))
                if not exits:
                    continue
                flags = {f for f in flags_set_by(st.test) if f not in cleared and f[0] in owners}
                if not flags:
                    continue
                if fn_sets is None:
                    fn_sets = flags_set_in(fn.body)
                if flags & fn_sets:
                    return st
        if a is fn:
            break
    return None


def _set_after_construction(facts, fn: ast.AST, flag) -> bool:
    """Does any method of `fn`'s class other than `__init__`-like ones (`ONCE_PER_OBJECT`)
    set `self.<flag>` to something other than a falsy constant? A class without one
    (or a `fn` outside a class) cannot re-arm a first-call flag."""
    cls = facts.parents.get(fn)
    if not isinstance(cls, ast.ClassDef):
        return True
    for m in cls.body:
        if isinstance(m, _FUNCS) and m.name not in ONCE_PER_OBJECT and flag in flags_set_in(m.body):
            return True
    return False


def _inside(facts, node: ast.AST, stmts: list) -> bool:
    ids = {id(s) for s in stmts}
    return any(id(a) in ids for a in facts.ancestors(node)) or id(node) in ids


def _flag_owners(facts, node) -> set:
    """`ast.dump`s of the objects whose flag can guard registration `node`: `self`, the
    receiver of the registration and the name at its root (`module` of `module.x.register_...`)."""
    out = {ast.dump(ast.Name(id="self", ctx=ast.Load()))}
    recv = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None
    root = None
    while recv is not None:
        out.add(ast.dump(recv))
        root = recv
        recv = recv.value if isinstance(recv, (ast.Attribute, ast.Subscript)) else None
    # a loop variable drawn from an object (`for param in layer.parameters():`): the
    # object it comes from owns the hooks too, and a flag on it guards them (unsloth's
    # `layer.__dict__["_unsloth_block_grad_hooks"]`)
    if isinstance(root, ast.Name):
        for a in facts.ancestors(node):
            if isinstance(a, (ast.For, ast.AsyncFor)) and isinstance(a.target, ast.Name) and a.target.id == root.id:
                src = a.iter.func.value if isinstance(a.iter, ast.Call) and isinstance(a.iter.func, ast.Attribute) \
                    else a.iter
                while src is not None:
                    out.add(ast.dump(src))
                    src = src.value if isinstance(src, (ast.Attribute, ast.Subscript)) else None
                break
    return out


def _loop_between(facts, stmt, node, fn) -> bool:
    """Is there a loop enclosing both `stmt` (a `continue`'s `if`) and `node`, inside `fn`?"""
    for a in facts.ancestors(stmt):
        if a is fn:
            return False
        if isinstance(a, (ast.For, ast.AsyncFor, ast.While)):
            return any(x is a for x in facts.ancestors(node))
    return False


def runs_once(facts, fn: ast.AST, depth: int = 2) -> bool:
    """Does method `fn` run at most once per object, judged by its callers in this
    module: it is `__init__`-like, or it has callers and every call is in an
    `__init__`-like method, under a `once_guard`, or in a function that itself runs
    once? A function nobody in this module calls is not known to run once."""
    if getattr(fn, "name", "") in ONCE_PER_OBJECT:
        return True
    return _callers_all(facts, fn, depth, runs_once)


def only_guarded_callers(facts, fn: ast.AST, depth: int = 2) -> bool:
    """Is every call of `fn` in this module under a `once_guard` of its caller (or in
    a caller all of whose calls are so guarded)? Unlike `runs_once`, being called from
    `__init__` does not count: a new object per model would register again."""
    return _callers_all(facts, fn, depth, only_guarded_callers)


def _callers_all(facts, fn: ast.AST, depth: int, caller_ok) -> bool:
    """Has `fn` callers in this module, each under a `once_guard` or in a caller for
    which `caller_ok(facts, caller, depth - 1)` holds?"""
    if depth <= 0:
        return False
    from ctxlint.semantic.python.values import module_values
    calls = module_values(facts).calls_to(fn)
    if not calls:
        return False
    for c in calls:
        caller = facts.enclosing_function(c)
        if caller is None or caller is fn:
            return False
        if once_guard(facts, c, caller) is None and not caller_ok(facts, caller, depth - 1):
            return False
    return True


def hook_stores_on_self(facts, hook: ast.AST | None, fn: ast.AST, depth: int = 2) -> str | None:
    """Where a hook bound to `self` keeps per-call values on the object: the text of
    the first `self.x = ...`, `self.x[k] = ...`, `self.x += ...` or `self.x.append(...)`
    (any growing call) in the hook's code or in the methods of `self` it calls
    (`depth` levels). None when the hook only reads the object's state."""
    from ctxlint.semantic.python.calls import call_graph
    cls = facts.enclosing_class(fn)
    body: ast.AST | None = None
    if isinstance(hook, ast.Attribute) and isinstance(hook.value, ast.Name) and hook.value.id == "self":
        body = call_graph(facts).find_method(cls, hook.attr) if cls is not None else None
    elif isinstance(hook, ast.Lambda):
        body = hook
    elif isinstance(hook, ast.Name):
        body = next((d for d in facts.walk(fn, into_defs=True)
                     if isinstance(d, _FUNCS) and d.name == hook.id and d is not fn), None)
    elif isinstance(hook, ast.Call):  # functools.partial(self.m, ...)
        for a in hook.args[:1]:
            return hook_stores_on_self(facts, a, fn, depth)
    if body is None:
        return None
    return _self_store(facts, body, cls, depth)


#: Calls that grow a container in place (list/deque/set/dict methods).
_GROWING = frozenset({"append", "appendleft", "extend", "extendleft", "add", "insert", "update", "setdefault"})


def _self_store(facts, body: ast.AST, cls, depth: int) -> str | None:
    from ctxlint.semantic.python.calls import call_graph
    for n in ast.walk(body):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] \
            if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []
        for t in targets:
            base = t.value if isinstance(t, ast.Subscript) else t
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "self":
                return facts.dotted(base)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            recv = n.func.value
            if n.func.attr in _GROWING and isinstance(recv, ast.Attribute) \
                    and isinstance(recv.value, ast.Name) and recv.value.id == "self":
                return facts.dotted(recv)
            if depth > 1 and cls is not None and isinstance(recv, ast.Name) and recv.id == "self":
                m = call_graph(facts).find_method(cls, n.func.attr)
                if m is not None and m is not body:
                    got = _self_store(facts, m, cls, depth - 1)
                    if got:
                        return got
    return None


def _local_model(facts, fn: ast.AST, call: ast.Call) -> bool:
    """Is the hooked module built inside `fn` (`encoder = Encoder(...)`)? Its hooks die
    with it when the call returns. A module reached through a parameter or `self`
    (`embed = model.get_input_embeddings()`) is part of a model that outlives the call."""
    root = (owner_chain(facts, call.func.value) or "").split(".")[0]
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) \
                and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
            f = n.value.func
            while isinstance(f, (ast.Attribute, ast.Subscript, ast.Call)):
                f = f.value if not isinstance(f, ast.Call) else f.func
            if isinstance(f, ast.Name) and (f.id in params or f.id in ("self", "cls")):
                return False  # `embed = model.get_input_embeddings()`: a part of the caller's model
            return True
    return False


def kept_by_self(facts, fn: ast.AST, root: str, depth: int = 2) -> bool:
    """Is the local/parameter `root` something the object keeps, so that it owns what
    it hooks and both die together? Yes when `fn` stores it on `self`
    (`self.model = model`), or when `root` is a parameter and every call of `fn` in
    this module hands it a module of something `self` keeps: `self.model.apply(self.fn)`
    (torch's `Module.apply` calls `fn` on every submodule), `self.fn(self.model)`, or
    `for m in self.model.modules(): self.fn(m)`."""
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                                             and t.value.id == "self" for t in n.targets):
            if any(isinstance(m, ast.Name) and m.id == root for m in ast.walk(n.value)):
                return True
    if depth <= 0:
        return False
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    if root not in params:
        return False
    index = params.index(root) - (1 if params and params[0] == "self" else 0)
    sites = _hand_offs(facts, fn)
    if not sites:
        return False
    for caller, origin in sites:
        if origin is None:
            return False
        if origin == "apply":  # Module.apply(fn): fn(submodule) of the receiver
            continue
        arg = origin.args[index] if 0 <= index < len(origin.args) else None
        if arg is None or not _self_kept_expr(facts, caller, arg, depth - 1):
            return False
    return True


def _hand_offs(facts, fn: ast.AST) -> list[tuple[ast.AST, object]]:
    """How method `fn` is reached in this module: (caller, call) for each `self.fn(...)`
    call, (caller, "apply") for each `<self-kept>.apply(self.fn)`; (caller, None) for
    any other reference (`fn` handed elsewhere: its arguments are unknown)."""
    cls = facts.enclosing_class(fn)
    if cls is None:
        return []
    out: list[tuple[ast.AST, object]] = []
    for n in facts.walk(cls, into_defs=True):
        if isinstance(n, ast.Attribute) and n.attr == fn.name and isinstance(n.value, ast.Name) \
                and n.value.id == "self" and isinstance(n.ctx, ast.Load):
            caller = facts.enclosing_function(n)
            p = facts.parents.get(n)
            if isinstance(p, ast.Call) and p.func is n:
                out.append((caller, p))
            elif isinstance(p, ast.Call) and isinstance(p.func, ast.Attribute) and p.func.attr == "apply" \
                    and n in p.args and caller is not None and _self_kept_expr(facts, caller, p.func.value, 1):
                out.append((caller, "apply"))
            else:
                out.append((caller, None))
    return out


def _self_kept_expr(facts, fn: ast.AST | None, expr: ast.AST, depth: int) -> bool:
    """Does `expr` come from what `self` keeps (`self.model`, `self.model.layers[0]`,
    a loop variable over `self.model.modules()`, a parameter the callers fill so)?"""
    text = owner_chain(facts, expr) or chain_text(facts, expr)
    if not text:
        return False
    root = text.split(".")[0]
    if root == "self":
        return text != "self"
    if fn is None:
        return False
    for n in facts.walk(fn):
        if isinstance(n, (ast.For, ast.comprehension)) and any(
                isinstance(t, ast.Name) and t.id == root for t in ast.walk(n.target)):
            return _self_kept_expr(facts, fn, n.iter, depth)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
            return _self_kept_expr(facts, fn, n.value, depth)
    return kept_by_self(facts, fn, root, depth) if depth > 0 else False


def local_root(facts, fn: ast.AST, expr: ast.AST, depth: int = 3) -> str | None:
    """The parameter a hook target comes from (`modules[name]` with `modules =
    dict(model.named_modules())` -> "model", `m` in `for m in model.modules()` ->
    "model"), following local assignments and loop variables; None for `self.`
    targets or unknown origins."""
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
            src = None
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == root for t in n.targets):
                src = n.value
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)) and any(
                    isinstance(t, ast.Name) and t.id == root for t in ast.walk(n.target)):
                src = n.iter  # `for m in model.modules()`: a module of `model`
            if src is not None:
                r = local_root(facts, fn, src, depth - 1)
                if r:
                    return r
    return None
