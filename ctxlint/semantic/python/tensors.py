"""Autograd facts (read by CTX601, and by CTX406 for what a hook or forward receives).

What a value is, for the purpose of "does it carry an autograd graph":
- a *graph tensor*: a local on which `.backward()` is called in its function (only a
  tensor that requires grad can be back-propagated), or the result of a same-file
  function whose returned value is such a local, unreduced;
- a *reduced* value: `.item()`, `.detach()`, `.tolist()`, `float(...)`: no history;
- a *graph-free* tensor: one autograd never records (see `graph_free`): a comparison
  (`labels != ignore`, a bool tensor), an integer/bool cast (`.long()`, `.bool()`),
  an index result (`argmax`), a value computed under `torch.no_grad()`, and shape- and
  device-preserving operations on such a tensor (`mask.sum()`, `mask.float().mean()`).

And what a loop does: it *trains* when its body calls `.backward()`, a same-file
function that (transitively) calls `.backward()`, or `step()` on an optimizer (a value
built by `torch.optim.*` / a `GradScaler`, or, as a documented hint, a receiver named
like one).

The name hints (`LOSS_NAME_HINTS`, `LOSS_CALL_HINTS`, `OPTIMIZER_NAME_HINTS`) are kept
for code whose graph tensors come from outside the file (a `criterion` argument, a
model passed in): they come from the PyTorch tutorials' vocabulary ("Training a
classifier": `criterion`, `loss`, `outputs`, `optimizer`; torch.nn.functional's loss
functions `cross_entropy`, `nll_loss`, `mse_loss`, `l1_loss`,
`binary_cross_entropy`, `kl_div`; torch.cuda.amp `GradScaler`).
"""

from __future__ import annotations

import ast
import re

from ctxlint.semantic.python.syntax import FunctionNode, container_root

#: Attributes whose use turns a tensor into a value without autograd history.
REDUCER_ATTRS = frozenset({"item", "detach", "tolist", "numpy", "detach_", "data"})
#: Builtins that turn a tensor into a Python value.
REDUCER_CALLS = frozenset({"float", "int", "bool", "len", "round", "str"})
#: Hint: names of values that are losses or model outputs (PyTorch tutorial vocabulary).
LOSS_NAME_HINTS = re.compile(r"loss|criterion|logits|outputs?$|preds?$|predictions?$", re.I)
#: Hint: callables that return a loss or a model output (torch.nn.functional losses, a model).
LOSS_CALL_HINTS = re.compile(r"loss|criterion|cross_entropy|nll|mse|l1|bce|kl_div|model$|net$|forward$", re.I)
#: Hint: receivers of `.step()` that are optimizers or grad scalers.
OPTIMIZER_NAME_HINTS = re.compile(r"optim|^opt$|^opt_|scaler", re.I)
#: Hint: attribute names of per-forward state that is not an activation (caches, shapes,
#: counters, flags, handles), from the attributes transformers/sglang modules keep on
#: `self` in `forward` (`self.cache`, `self.seq_len`, `self.step`, `self._handle`). CTX406
#: consults it after the value facts (the value is derived from the call's inputs and is
#: not reduced).
NON_ACTIVATION_ATTR_HINTS = re.compile(r"cache|cached|shape|len|size|step|count|idx|index|dtype|device|mode|flag|"
                             r"training|seed|num|max|min|warned|initialized|enabled|ready|offset|scal|"
                             r"factor|weight|bias|config|compiled|stats|running|bytecode|fn$|func|"
                             r"callback|handle|hook|lock|event|thread|task")
#: Import-resolved constructors of optimizers / grad scalers (value origin of `.step()`'s receiver).
OPTIMIZER_QUALNAMES = ("torch.optim.", "torch.cuda.amp.GradScaler", "torch.amp.GradScaler",
                       "torch.cuda.amp.grad_scaler.GradScaler", "transformers.optimization.")

_FUNCS = FunctionNode


def reduced(x: ast.AST) -> bool:
    """Does `x` reduce its tensor to a value without history (`.item()`, `float(...)`)?"""
    for n in ast.walk(x):
        if isinstance(n, ast.Attribute) and n.attr in REDUCER_ATTRS:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in REDUCER_CALLS:
            return True
    return False


def backward_names(facts, fn: ast.AST) -> set[str]:
    """Locals of `fn` on which `.backward()` is called (`loss.backward()`,
    `(loss / n).backward()`, `scaler.scale(loss).backward()`): graph tensors. A
    `.backward(loss, ...)` with arguments on a non-tensor receiver — a training
    strategy's or accelerator's (`self.strategy.backward(loss, model, opt)`,
    `accelerator.backward(loss)`) — back-propagates its first argument: that is the graph
    tensor, not the receiver (`self` is never one)."""
    def build():
        out: set[str] = set()
        for n in facts.walk(fn):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward":
                recv = n.func.value
                src = recv
                if n.args and (isinstance(recv, ast.Attribute) or (
                        isinstance(recv, ast.Name) and not _bound_in(facts, fn, recv.id))):
                    # a strategy's or accelerator's (`self.strategy.backward(loss, ...)`, a
                    # parameter's or global's `accelerator.backward(loss)`): the loss; a local
                    # of the def (`h.backward(g)`, `t.backward(w * d.grad)` over a loop) is a
                    # tensor whose Tensor.backward takes a gradient
                    src = n.args[0]
                for m in ast.walk(src):
                    if isinstance(m, ast.Name) and m.id not in ("self", "cls"):
                        out.add(m.id)
        return out
    return facts.memo(f"tensors.backward.{id(fn)}", build)


def _bound_in(facts, fn, name: str) -> bool:
    """Is `name` bound in `fn`'s body (an assignment, a loop or `with` target), as opposed
    to a parameter or a module global?"""
    for n in facts.walk(fn):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
            return True
    return False


def same_file_callees(facts, call: ast.Call) -> list[ast.AST]:
    """Defs of this file a call can reach: `f(...)` a module function, `self.m(...)` /
    `cls.m(...)` a method of the enclosing class (by name within that class)."""
    f = call.func
    index = facts.memo("tensors.defs", lambda: _def_index(facts))
    if isinstance(f, ast.Name):
        return [d for d in index.get(f.id, ()) if facts.enclosing_class(d) is None]
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
        cls = facts.enclosing_class(call)
        return [d for d in index.get(f.attr, ()) if cls is not None and facts.parents.get(d) is cls]
    return []


def _def_index(facts) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for d in facts.nodes(*_FUNCS):
        out.setdefault(d.name, []).append(d)
    return out


def calls_backward(facts, node: ast.AST, depth: int = 3) -> bool:
    """Does the code under `node` call `.backward()`, directly or through same-file
    functions it calls (up to `depth` levels)?"""
    for n in facts.walk(node):
        if not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Attribute) and n.func.attr == "backward":
            return True
        if depth:
            for d in same_file_callees(facts, n):
                if d is not node and facts.memo(f"tensors.cb.{id(d)}.{depth - 1}",
                                                lambda d=d: calls_backward(facts, d, depth - 1)):
                    return True
    return False


def returns_graph_tensor(facts, call: ast.Call) -> bool:
    """Is `call` a call of a same-file function that returns a graph tensor unreduced
    (`loss.backward(); return loss`, as `Trainer.training_step` did before
    huggingface/transformers#6999)?"""
    for d in same_file_callees(facts, call):
        names = backward_names(facts, d)
        if not names:
            continue
        for r in facts.walk(d):
            if isinstance(r, ast.Return) and r.value is not None and not reduced(r.value):
                if any(isinstance(m, ast.Name) and m.id in names for m in ast.walk(r.value)):
                    return True
    return False


def returns_reduced(facts, call: ast.AST, depth: int = 2) -> bool:
    """Is `call` a call of same-file functions whose every return is reduced
    (`return loss.detach()`), or is itself such a call (up to `depth` helpers deep:
    torchrl's `update()` returns `update_all(...)` or `update_qloss(...)`, each
    `.detach()`ed)? A receiver-only method on the result (`update(batch).clone()`,
    `.float()`, `.cpu()`) keeps it free of history: autograd has nothing to record
    on a detached tensor."""
    while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
            and call.func.attr in RECEIVER_ONLY_METHODS and isinstance(call.func.value, ast.Call):
        call = call.func.value
    if not isinstance(call, ast.Call):
        return False
    defs = same_file_callees(facts, call)
    if not defs:
        f = call.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
        defs = facts.memo("tensors.defs", lambda: _def_index(facts)).get(name, []) if name else []
    if not defs:
        return False
    for d in defs:
        rets = [r for r in facts.walk(d) if isinstance(r, ast.Return) and r.value is not None]
        if not rets or not all(reduced(r.value) or (depth > 0 and r.value is not call
                                                    and returns_reduced(facts, r.value, depth - 1))
                               for r in rets):
            return False
    return True


def returns_reduced_entries(facts, call: ast.AST) -> bool:
    """Is `call` a call of same-file defs whose every return is a mapping or list whose
    entries are all reduced: a display of reduced values (`{"loss": loss.detach()}`), or
    a local that a loop over its own items rewrites entry by entry with reduced values
    (`for k, v in d.items(): d[k] = v.detach().clone() * w`) after every other store
    into it (composer's `Trainer._train_microbatch` returns its loss dict so, for
    logging)? A loop over that result then walks values without history."""
    if not isinstance(call, ast.Call):
        return False
    defs = same_file_callees(facts, call)
    if not defs:
        return False
    for d in defs:
        rets = [r for r in facts.walk(d) if isinstance(r, ast.Return) and r.value is not None]
        if not rets:
            return False
        for r in rets:
            v = r.value
            if isinstance(v, ast.Dict) and v.values and all(reduced(x) for x in v.values):
                continue
            if isinstance(v, (ast.List, ast.Tuple)) and v.elts and all(reduced(x) for x in v.elts):
                continue
            if not (isinstance(v, ast.Name) and _rewritten_reduced(facts, d, v.id, r)):
                return False
    return True


def _rewritten_reduced(facts, fn, name: str, ret: ast.Return) -> bool:
    """Is local `name`, returned by `ret`, last written by a loop over its own entries
    that stores a reduced value back under each key, with no store into it after?"""
    loop = None
    for n in facts.walk(fn):
        if isinstance(n, ast.For) and n.lineno < ret.lineno and isinstance(n.iter, ast.Call) \
                and isinstance(n.iter.func, ast.Attribute) and n.iter.func.attr == "items" \
                and isinstance(n.iter.func.value, ast.Name) and n.iter.func.value.id == name \
                and isinstance(n.target, ast.Tuple) and len(n.target.elts) == 2 \
                and all(isinstance(e, ast.Name) for e in n.target.elts):
            key = n.target.elts[0].id
            stores = [st for st in n.body if isinstance(st, ast.Assign) and len(st.targets) == 1
                      and isinstance(st.targets[0], ast.Subscript) and isinstance(st.targets[0].value, ast.Name)
                      and st.targets[0].value.id == name]
            if len(n.body) == 1 and len(stores) == 1 and isinstance(stores[0].targets[0].slice, ast.Name) \
                    and stores[0].targets[0].slice.id == key and reduced(stores[0].value):
                loop = n
    if loop is None:
        return False
    end = getattr(loop, "end_lineno", loop.lineno)
    for n in facts.walk(fn):
        if end < getattr(n, "lineno", 0) < ret.lineno:
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
                return False
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name \
                    and isinstance(n.ctx, ast.Store):
                return False
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.value.id == name and n.func.attr in ("update", "setdefault", "append", "extend"):
                return False
    return True


def is_optimizer(facts, recv: ast.AST) -> bool:
    """Is `recv` (the receiver of `.step()`) an optimizer or grad scaler: assigned from a
    `torch.optim` / GradScaler constructor in this file (a local, or a `self.` attribute),
    or, as a hint, named like one (`OPTIMIZER_NAME_HINTS`)?"""
    text = facts.dotted(recv) or ""
    last = text.split(".")[-1]
    if last and OPTIMIZER_NAME_HINTS.search(last):
        return True
    origins = facts.memo("tensors.optimizers", lambda: _optimizer_targets(facts))
    return text in origins


def _optimizer_targets(facts) -> set[str]:
    out: set[str] = set()
    for n in facts.nodes(ast.Assign):
        if isinstance(n.value, ast.Call):
            q = facts.qualname(n.value.func) or ""
            if q.startswith(OPTIMIZER_QUALNAMES):
                for t in n.targets:
                    d = facts.dotted(t)
                    if d:
                        out.add(d)
    return out


def loop_trains(facts, loop: ast.AST) -> bool:
    """Does a loop train: `.backward()` in its body (or in a same-file function it
    calls), or an optimizer's `.step()`?"""
    for n in facts.walk(loop):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "step" \
                and is_optimizer(facts, n.func.value):
            return True
    return calls_backward(facts, loop)


# --- plain data: values that are Python numbers/strings, never tensors -----------------
#
# A value is a tensor only if it flows from a tensor-producing operation. These produce
# plain Python data instead (PyTorch docs, torch.Tensor: `shape`/`size()` return a
# `torch.Size` (a tuple of ints), `dim()`/`numel()`/`element_size()`/`stride()` ints,
# `item()` a Python number, `tolist()` nested Python lists; `dtype`/`device` are
# descriptors; the builtins `len`/`int`/`float`/`bool`/`round`/`str` return Python values).

#: Tensor attributes whose value is plain data (a `torch.Size`, a dtype/device, an int).
PLAIN_ATTRS = frozenset({"shape", "ndim", "dtype", "device", "is_cuda", "requires_grad", "layout"})
#: Tensor methods whose result is plain data.
PLAIN_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement", "item", "tolist",
                           "element_size", "stride", "data_ptr", "get_device", "is_contiguous",
                           "is_floating_point"})
#: Builtins whose result is a plain Python value (never a tensor).
PLAIN_BUILTINS = frozenset({"len", "int", "float", "bool", "round", "str", "repr", "hash", "id",
                            "isinstance", "type", "range", "math.ceil", "math.floor", "math.sqrt",
                            "math.prod", "math.log", "math.log2"})
#: Builtins whose result is built from their arguments only (Python docs, "Built-in
#: Functions": `max`/`min` return one of them, `abs`/`sum` compute from them, `sorted`,
#: `list`, `tuple`, `dict`, `set`, `frozenset` collect them): plain when every argument
#: is (`max(num_batches, 1)`); `max(t1, t2)` of tensors is a tensor. A `key=` function
#: does not contribute to the result.
PLAIN_PRESERVING_BUILTINS = frozenset({"max", "min", "abs", "sum", "sorted", "list", "tuple", "dict",
                                       "set", "frozenset"})
#: Methods that store their arguments as elements of the container they are called on
#: (list `append`/`extend`/`insert`, set `add`/`update`, dict `update`/`setdefault`,
#: deque `appendleft`/`extendleft`; Python docs, "Built-in Types").
ELEMENT_STORING_METHODS = frozenset({"append", "extend", "insert", "add", "update", "setdefault",
                                     "appendleft", "extendleft"})
#: Annotations that declare a plain value (`seq_len: int`).
PLAIN_ANNOTATIONS = frozenset({"int", "float", "bool", "str", "bytes"})


def is_plain_data(x: ast.AST, plain: set[str] | frozenset = frozenset(), facts=None, depth: int = 1) -> bool:
    """Is expression `x` plain Python data (never a tensor)?

    `plain` holds local names already known to be plain. Plain: constants, f-strings,
    `t.shape`/`t.dtype` (and subscripts of them: `t.shape[0]`), `t.size()`/`t.item()`/
    `t.tolist()`..., `len(...)`/`int(...)`/`float(...)`, `max`/`min`/`sum`/`dict(...)`...
    of plain arguments (`PLAIN_PRESERVING_BUILTINS`), arithmetic, and tuples, lists,
    sets and dicts (displays and comprehensions) of plain values (`{"loss": avg,
    "weight": w.detach().tolist()}`), and (with `facts`, `depth` levels deep) a call of
    same-file functions whose every return is plain. Never raises on odd input."""
    if isinstance(x, (ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(x, ast.Name):
        return x.id in plain
    if isinstance(x, ast.Attribute):
        return x.attr in PLAIN_ATTRS
    if isinstance(x, ast.Subscript):
        return is_plain_data(x.value, plain, facts, depth)
    if isinstance(x, ast.Starred):
        return is_plain_data(x.value, plain, facts, depth)
    if isinstance(x, ast.Call):
        f = x.func
        if isinstance(f, ast.Attribute) and f.attr in PLAIN_METHODS:
            return True
        dotted = ast.unparse(f) if isinstance(f, (ast.Name, ast.Attribute)) else ""
        if dotted in PLAIN_BUILTINS:
            return True
        if dotted in PLAIN_PRESERVING_BUILTINS:
            return all(is_plain_data(a, plain, facts, depth) for a in x.args) and all(
                is_plain_data(k.value, plain, facts, depth) for k in x.keywords if k.arg != "key")
        if facts is not None and depth > 0:
            return call_returns_plain(facts, x, None, depth - 1)
        return False
    if isinstance(x, ast.BinOp):
        return is_plain_data(x.left, plain, facts, depth) and is_plain_data(x.right, plain, facts, depth)
    if isinstance(x, ast.UnaryOp):
        return is_plain_data(x.operand, plain, facts, depth)
    if isinstance(x, ast.IfExp):
        return is_plain_data(x.body, plain, facts, depth) and is_plain_data(x.orelse, plain, facts, depth)
    if isinstance(x, (ast.Tuple, ast.List, ast.Set)):
        return all(is_plain_data(e, plain, facts, depth) for e in x.elts)
    if isinstance(x, ast.Dict):  # `{**other}` has a None key: its value must be plain
        return all(k is None or is_plain_data(k, plain, facts, depth) for k in x.keys) \
            and all(is_plain_data(v, plain, facts, depth) for v in x.values)
    if isinstance(x, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return is_plain_data(x.elt, plain, facts, depth)
    if isinstance(x, ast.DictComp):
        return is_plain_data(x.key, plain, facts, depth) and is_plain_data(x.value, plain, facts, depth)
    if isinstance(x, (ast.Compare, ast.BoolOp)):
        parts = [x.left, *x.comparators] if isinstance(x, ast.Compare) else x.values
        return all(is_plain_data(e, plain, facts, depth) for e in parts)
    return False


def _element_plain(value: ast.AST, index: int | None, plain, facts, depth: int) -> bool:
    """Is element `index` of `value` (the whole value when None) plain data? A tuple
    unpacked from `t.shape` / `t.size()` gives ints; from a literal tuple, its element."""
    if index is None:
        return is_plain_data(value, plain, facts, depth)
    if isinstance(value, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in value.elts) or index >= len(value.elts):
            return False
        return is_plain_data(value.elts[index], plain, facts, depth)
    if isinstance(value, ast.Call) and facts is not None and depth > 0 and not is_plain_data(value, plain):
        return call_returns_plain(facts, value, index, depth - 1)
    return is_plain_data(value, plain, facts, depth)


# --- graph-free tensors: tensors autograd never records -------------------------------
#
# Sources (PyTorch docs, "Autograd mechanics" and torch.Tensor): only floating-point and
# complex tensors can require gradients, so a comparison (a bool tensor), an integer or
# bool cast, and an index-valued result (argmax/argmin/argsort/nonzero/topk indices) carry
# no graph whatever their inputs; a tensor computed in a `torch.no_grad()` /
# `torch.inference_mode()` block has `requires_grad=False`; and an operation whose only
# tensor input is graph-free records nothing (`mask.sum()`, `mask.float()`).

#: Tensor methods whose result has an integer or bool dtype (no gradient possible).
INTEGER_RESULT_METHODS = frozenset({
    "long", "int", "short", "byte", "char", "bool", "argmax", "argmin", "argsort", "nonzero",
    "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf", "isfinite", "isclose", "logical_and",
    "logical_or", "logical_not", "logical_xor", "count_nonzero", "bincount"})
#: torch functions of the same kind (`torch.argmax(x)`, `torch.eq(a, b)`).
INTEGER_RESULT_FUNCS = frozenset({f"torch.{m}" for m in INTEGER_RESULT_METHODS if m not in (
    "long", "int", "short", "byte", "char", "bool")})
#: Integer/bool dtypes a `.to(dtype)` / `.type(dtype)` cast may name.
INTEGER_DTYPES = frozenset({"torch.long", "torch.int", "torch.int64", "torch.int32", "torch.int16",
                            "torch.int8", "torch.uint8", "torch.bool", "torch.short", "torch.byte"})
#: Tensor methods that build their result from the receiver alone (reductions, casts,
#: moves, reshapes): applied to a graph-free tensor, the result is graph-free.
RECEIVER_ONLY_METHODS = frozenset({
    "sum", "mean", "any", "all", "prod", "float", "double", "half", "bfloat16",
    "to", "cpu", "cuda", "contiguous", "clone", "view", "reshape", "flatten", "squeeze",
    "unsqueeze", "t", "abs", "cumsum", "type", "type_as", "expand", "expand_as", "repeat"})


def graph_free(facts, x: ast.AST, fn: ast.AST | None = None, free: set[str] | frozenset | None = None) -> bool:
    """Is expression `x` a tensor (or value) that autograd never records (see the section
    comment): a comparison; an integer/bool cast or index-valued call; a receiver-only
    method (`.sum()`, `.float()`, `.to(device)`) of a graph-free tensor; arithmetic of
    graph-free or plain values; or a local in `free` (default: `graph_free_locals(fn)`,
    the locals of `fn` every assignment of which is graph-free). Never raises on odd input."""
    if free is None:
        free = graph_free_locals(facts, fn) if fn is not None else frozenset()
    if isinstance(x, (ast.Compare, ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(x, ast.Name):
        return x.id in free
    if isinstance(x, ast.Subscript):
        return graph_free(facts, x.value, fn, free)
    if isinstance(x, ast.UnaryOp):
        return graph_free(facts, x.operand, fn, free)
    if isinstance(x, ast.BinOp):
        return all(graph_free(facts, v, fn, free) or is_plain_data(v) for v in (x.left, x.right))
    if not isinstance(x, ast.Call):
        return False
    f = x.func
    if (facts.qualname(f) or "") in INTEGER_RESULT_FUNCS:
        return True
    if not isinstance(f, ast.Attribute):
        return False
    if f.attr in INTEGER_RESULT_METHODS or f.attr in PLAIN_METHODS:
        return True
    if f.attr in ("to", "type") and any((facts.qualname(a) or "") in INTEGER_DTYPES
                                        for a in (*x.args, *(k.value for k in x.keywords))):
        return True
    return f.attr in RECEIVER_ONLY_METHODS and graph_free(facts, f.value, fn, free)


def graph_free_locals(facts, fn: ast.AST) -> frozenset:
    """Locals of `fn` every assignment of which is graph-free (`graph_free`), or is
    computed (not a bare alias of another name) inside a `with torch.no_grad():` /
    `torch.inference_mode()` block. Parameters and loop/with targets are not.
    Flow-insensitive, a least fixed point, memoised per function."""
    def build():
        assigns: dict[str, list] = {}
        for n in facts.walk(fn):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        if n.value is not None:
                            assigns.setdefault(t.id, []).append((n.value, in_no_grad(facts, n, fn)))
                    else:
                        for m in ast.walk(t):
                            if isinstance(m, ast.Name) and isinstance(m.ctx, ast.Store):
                                assigns.setdefault(m.id, []).append((None, False))
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)):
                for m in ast.walk(n.target):
                    if isinstance(m, ast.Name):
                        assigns.setdefault(m.id, []).append((None, False))
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for i in n.items:
                    for m in ast.walk(i.optional_vars) if i.optional_vars is not None else ():
                        if isinstance(m, ast.Name):
                            assigns.setdefault(m.id, []).append((None, False))
        args = getattr(fn, "args", None)
        if args is not None:
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if a is not None:
                    assigns.setdefault(a.arg, []).append((None, False))
        free: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, vals in assigns.items():
                if name in free or not vals:
                    continue
                if all(v is not None and (
                        (nograd and not isinstance(v, (ast.Name, ast.Attribute)))
                        or graph_free(facts, v, None, free)) for v, nograd in vals):
                    free.add(name)
                    changed = True
        return frozenset(free)
    return facts.memo(f"tensors.graph_free.{id(fn)}", build)


def in_no_grad(facts, node: ast.AST, fn: ast.AST | None) -> bool:
    """Does `node` run inside a `with torch.no_grad():` / `torch.inference_mode():` block
    (of `fn`, stopping at it)?"""
    for a in facts.ancestors(node):
        if a is fn:
            break
        if isinstance(a, (ast.With, ast.AsyncWith)):
            for item in a.items:
                e = item.context_expr
                q = facts.qualname(e.func if isinstance(e, ast.Call) else e) or ""
                if q.split(".")[-1] in ("no_grad", "inference_mode"):
                    return True
    return False


def plain_locals(facts, fn: ast.AST, depth: int = 1) -> frozenset:
    """Locals of `fn` every assignment of which is plain data (`b, c, h, w = x.shape`,
    `n = len(xs)`, `total = loss.item()`, `a, b = self.helper()` where the helper returns
    plain values in those positions), plus arguments annotated `int`/`float`/`bool`/`str`.
    A container counts its element stores as assignments: `row["loss"] = v`, `row[k] +=
    v`, `rows.append(v)` (any of `ELEMENT_STORING_METHODS`) make `row`/`rows` plain only
    when `v` is, so a dict built from `.item()`/`.tolist()` results is plain and one
    holding a tensor is not.
    Flow-insensitive: one tensor assignment anywhere makes the name not plain. Computed
    as a least fixed point; memoised per function."""
    def build():
        assigns: dict[str, list] = {}

        def add(target, value, index=None):
            if isinstance(target, ast.Name):
                assigns.setdefault(target.id, []).append((value, index))
            elif isinstance(target, (ast.Tuple, ast.List)):
                if any(isinstance(e, ast.Starred) for e in target.elts):
                    for e in target.elts:
                        for m in ast.walk(e):
                            if isinstance(m, ast.Name):
                                assigns.setdefault(m.id, []).append((None, None))
                    return
                for i, e in enumerate(target.elts):
                    if index is None:
                        add(e, value, i)
                    else:  # nested unpacking: give up on precision
                        for m in ast.walk(e):
                            if isinstance(m, ast.Name):
                                assigns.setdefault(m.id, []).append((None, None))

        fixed: set[str] = set()
        args = getattr(fn, "args", None)
        if args is not None:
            for a in args.posonlyargs + args.args + args.kwonlyargs:
                if a.annotation is not None and ast.unparse(a.annotation) in PLAIN_ANNOTATIONS:
                    fixed.add(a.arg)
                else:
                    assigns.setdefault(a.arg, []).append((None, None))
            for a in (args.vararg, args.kwarg):
                if a is not None:
                    assigns.setdefault(a.arg, []).append((None, None))
        for n in facts.walk(fn):
            stored = element_store(n)
            if stored is not None:
                name, values = stored
                for v in values:
                    assigns.setdefault(name, []).append((v, None))
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    add(t, n.value)
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                if ast.unparse(n.annotation) in PLAIN_ANNOTATIONS and n.value is not None \
                        and is_plain_data(n.value):
                    continue  # declared and initialised plain; other assignments still count
                if n.value is not None:
                    add(n.target, n.value)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                add(n.target, n.value)
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                it = n.iter
                rng = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                for m in ast.walk(n.target):
                    if isinstance(m, ast.Name):
                        assigns.setdefault(m.id, []).append((ast.Constant(0) if rng else None, None))
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for item in n.items:
                    if item.optional_vars is not None:
                        for m in ast.walk(item.optional_vars):
                            if isinstance(m, ast.Name):
                                assigns.setdefault(m.id, []).append((None, None))
            elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
                add(n.target, n.value)
        plain = set(fixed)
        changed = True
        while changed:
            changed = False
            for name, vals in assigns.items():
                if name in plain:
                    continue
                if vals and all(v is not None and _element_plain(v, i, plain, facts, depth) for v, i in vals):
                    plain.add(name)
                    changed = True
        return frozenset(plain)
    return facts.memo(f"tensors.plain.{id(fn)}.{depth}", build)


def element_store(n: ast.AST) -> tuple[str, list] | None:
    """(container name, stored values) when `n` stores elements into a local container
    or into one nested in it: `name[k] = v` / `name[k][j] += v` (v), `name.append(v)`,
    `name[k].append(v)`, `name.setdefault(k, []).append(v)` and the other
    `ELEMENT_STORING_METHODS` (their arguments and keyword values); None otherwise."""
    if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        for t in targets:
            if isinstance(t, ast.Subscript):
                root = _container_root(t.value)
                if root is not None:
                    return root, [n.value]
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ELEMENT_STORING_METHODS:
        root = _container_root(n.func.value)
        vals = [*n.args, *(k.value for k in n.keywords)]
        return (root, vals) if root is not None and vals else None
    return None


def _container_root(expr: ast.AST) -> str | None:
    """The local an element-holding expression comes from: `rows` for `rows`,
    `rows[k]`, `rows.setdefault(k, [])`, `rows.get(k)`."""
    while True:
        if isinstance(expr, ast.Subscript):
            expr = expr.value
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            expr = expr.func.value
        else:
            break
    return expr.id if isinstance(expr, ast.Name) else None


def call_returns_plain(facts, call: ast.Call, index: int | None = None, depth: int = 0) -> bool:
    """Does `call` reach only same-file functions whose every `return` is plain data (at
    tuple position `index` when given: `total, parts = self._train_step(b)` with
    `return loss.item(), parts`)? False when no same-file function is reached."""
    defs = same_file_callees(facts, call)
    if not defs:
        return False
    for d in defs:
        rets = [r.value for r in facts.walk(d)
                if isinstance(r, ast.Return) and r.value is not None and facts.enclosing_function(r) is d]
        if not rets:
            return False
        plain = plain_locals(facts, d, depth)
        if not all(_element_plain(v, index, plain, None, 0) for v in rets):
            return False
    return True


def _kept_container(facts, expr: ast.AST, fn, depth: int = 2) -> ast.AST | None:
    """The container an element-storing expression writes into when it outlives a call
    of `fn`: rooted at `fn`'s first parameter (`self.history`, `self.stats["train"]`) or
    at a module-level name `fn` does not bind (`HISTORY`), also through a local bound
    only to such a container (`series = METRICS[name]`); None for a local of its own."""
    expr = container_root(expr)
    root = expr
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    pos = [*fn.args.posonlyargs, *fn.args.args]
    if root is not expr and pos and pos[0].arg == root.id and facts.enclosing_class(fn) is not None:
        return expr
    if root is expr and root.id in facts.module_names and not _bound_in(facts, fn, root.id) \
            and root.id not in {a.arg for a in (*pos, *fn.args.kwonlyargs)}:
        return expr
    if root is expr and depth:
        vals = [n.value for n in facts.walk(fn) if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == root.id for t in n.targets)]
        kept = [_kept_container(facts, v, fn, depth - 1) for v in vals]
        if kept and all(k is not None for k in kept):
            return kept[0]
    return None


def param_accumulations(facts, fn, depth: int = 2) -> list[tuple[int, ast.AST]]:
    """(index of a positional parameter of `fn`, the container in `fn` it ends in) for
    each parameter that `fn` keeps in a container outliving the call (`_kept_container`:
    an attribute of its own object, a module global): `self.history.append(record)`,
    `self.rows[step] = record`, `HISTORY.append({"step": s, **record})`. The stored value
    may be the parameter, a display or call built from it, or a local built from it
    (`row = dict(record)`; `row["t"] = now`); a helper of this module that `fn` calls with
    it counts too, `depth` levels down (`self._log(r)` -> `self._store(r)`). `self` (index
    0 of a method) is never such a parameter. Memoized per def."""
    def compute():
        names = params_of_def(fn)
        index = {p: i for i, p in enumerate(names)}
        first = 1 if facts.enclosing_class(fn) is not None else 0
        # locals built from a parameter, to a fixed point (`row = dict(record)`)
        derived: dict[str, int] = {p: i for p, i in index.items() if i >= first}
        changed = True
        while changed:
            changed = False
            for n in facts.walk(fn):
                if isinstance(n, ast.Assign):
                    src = {derived[m.id] for m in _carried_names(n.value) if m.id in derived}
                    for t in n.targets:
                        if isinstance(t, ast.Name) and src and t.id not in derived:
                            derived[t.id] = min(src)
                            changed = True
        out: list[tuple[int, ast.AST]] = []
        for n in facts.walk(fn):
            stored: list[ast.AST] = []
            cont = None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ELEMENT_STORING_METHODS:
                cont, stored = _kept_container(facts, n.func.value, fn), [*n.args, *(k.value for k in n.keywords)]
            elif isinstance(n, (ast.Assign, ast.AugAssign)):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    if isinstance(t, ast.Subscript) or (isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add)):
                        cont = _kept_container(facts, t, fn) or cont
                stored = [n.value]
            if cont is None:
                continue
            for v in stored:
                for m in _carried_names(v):
                    if m.id in derived and (derived[m.id], cont) not in out:
                        out.append((derived[m.id], cont))
        if depth:
            from ctxlint.semantic.python.calls import call_graph
            graph = call_graph(facts)
            for call, target in graph.calls_in(fn):
                for i, inner in param_accumulations(facts, target, depth - 1):
                    arg = graph.arg_for(call, target, i)
                    cont = _kept_container(facts, _rooted_at(inner, graph.arg_for(call, target, 0)), fn) \
                        if facts.enclosing_class(target) is not None else inner
                    if arg is None or cont is None:
                        continue
                    for m in _carried_names(arg):
                        if m.id in derived and (derived[m.id], cont) not in out:
                            out.append((derived[m.id], cont))
        return out
    return facts.memo(f"tensors.param_acc.{id(fn)}.{depth}", compute)


def _carried_names(v: ast.AST):
    """The names whose values `v` may carry as they are: not those inside a part that
    reduces (`record.item()`, `float(x)`) or is plain data (`len(batch)`)."""
    todo = [v]
    while todo:
        n = todo.pop()
        if reduced(n) or (n is not v and isinstance(n, ast.expr) and not isinstance(n, ast.Name)
                          and is_plain_data(n)):
            continue
        if isinstance(n, ast.Name):
            yield n
        todo.extend(ast.iter_child_nodes(n))


def params_of_def(fn) -> list[str]:
    """Positional parameter names of a def (`self` included)."""
    return [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]


def _rooted_at(cont: ast.AST, recv: ast.AST | None) -> ast.AST | None:
    """`cont` (a container expression of a method, rooted at its `self`) with the root
    replaced by `recv`, the receiver a caller calls the method on (`self.history` called
    as `trainer._log(...)` -> `trainer.history`); a copy located at `cont`."""
    if recv is None:
        return None
    parts = []
    e = cont
    while isinstance(e, (ast.Attribute, ast.Subscript)):
        parts.append(e)
        e = e.value
    out = recv
    for p in reversed(parts):
        out = ast.copy_location(ast.Attribute(value=out, attr=p.attr, ctx=ast.Load()), p) \
            if isinstance(p, ast.Attribute) else ast.copy_location(
                ast.Subscript(value=out, slice=p.slice, ctx=ast.Load()), p)
    return out


def helper_accumulation(facts, call: ast.Call) -> tuple[ast.AST, ast.AST, ast.AST] | None:
    """(container in the caller's terms, the argument it keeps, the helper's def) when
    `call` runs a helper of this module that keeps that argument in a container outliving
    the call (`param_accumulations`): `self._log({"loss": loss})` where `_log` does
    `self.history.append(record)` gives (`self.history`, the dict display, `_log`). The
    container is rooted at the call's receiver (or is the helper's module global)."""
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return None
    from ctxlint.semantic.python.calls import call_graph
    graph = call_graph(facts)
    target = graph.resolve(call)
    if target is None and isinstance(call.func, ast.Attribute):
        # `self.recorder.log(loss)`: a method of the class of this module the receiver holds
        from ctxlint.semantic.python.values import module_values
        target = module_values(facts).callee(call)
    if not isinstance(target, _FUNCS):
        return None
    for i, cont in param_accumulations(facts, target):
        arg = graph.arg_for(call, target, i)
        if arg is None:
            continue
        if facts.enclosing_class(target) is not None and not isinstance(cont, ast.Name):
            cont = _rooted_at(cont, graph.arg_for(call, target, 0))
        if cont is not None:
            return cont, arg, target
    return None
