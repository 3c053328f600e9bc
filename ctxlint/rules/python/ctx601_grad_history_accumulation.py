"""CTX601 grad-history-accumulation: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.python.tensors import (
    LOSS_CALL_HINTS, LOSS_NAME_HINTS, backward_names, element_store, graph_free, graph_free_locals,
    helper_accumulation, in_no_grad,
    is_plain_data, loop_trains, plain_locals, reduced, returns_graph_tensor, returns_reduced,
    returns_reduced_entries,
)

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class GradHistoryAccumulation(Rule):
    code = "CTX601"
    name = "grad-history-accumulation"
    summary = "A loss/output tensor accumulated across iterations of a training loop without .item()/.detach()."
    tokens = ("backward", "step(")
    fix_safety = SAFE
    doc = """\
## What it does
In a loop that trains — it calls `.backward()` (itself, or through a same-file
function it calls) or an optimizer/scaler `step()` — or in a per-step method that
trains so (`def train_step(self, batch)`, each call one iteration) adding into an
attribute of its own object (`self.running_loss = self.running_loss + kl`), flags `acc += x`,
`acc = acc + x` and `acc.append(x)` where `x` carries an autograd graph: a value
`.backward()` is called on, the result of a same-file helper that returns such a
value (`loss.backward(); return loss`), or (a hint, for values from outside the
file) a loss, a criterion result or a model output, not reduced by `.item()`, `float()`,
`.detach()` or `.tolist()`, and `acc` lives across iterations (it is not reset
inside the loop, as gradient-accumulation code does before its `backward()`).
A call of a helper of this module that keeps its argument in a container outliving the
call is an accumulation too, reported at the call (`self._log({"loss": loss})` where
`_log` does `self.history.append(record)`; a module global, `METRICS[name].append(v)`
through a local alias; the stored value may be built from the argument, and a second
helper may do the store); a helper that stores `float(value)` keeps no graph. Only the
calls in a loop that trains, or in a method that trains, are resolved.
Nor does a loop keep what it bounds itself: one that iterates a literal
display (`for model, opt in ((ref, ref_opt), (fsdp, fsdp_opt))`), or one that
back-propagates in its body and re-binds the accumulator (or the dict holding
it) to a fresh value after the accumulation (`running_loss = 0` after each
optimizer step): each `backward()` frees the saved tensors of its graph and the
reset drops the rest every period. A reset without a `backward()` in the loop
still keeps every iteration's activations until the reset, and is reported.
A list the loop also takes entries out of (`output_tensors.append(t)` ...
`output_tensors.pop(0)` in a pipeline schedule) is a queue, not a history.
A value that is plain data is never reported: every assignment of it is a
`.item()`/`float()`/`.shape`/`len()` result, or it is unpacked from a same-file
helper whose returns hold plain data at that position
(`total, parts = self._train_step(b)` with `return loss.item(), parts`).
Plain data is followed through what is built from it: `max`/`min`/`sum` of plain
values (`running_loss / max(num_batches, 1)`), and dicts, lists, tuples and sets —
displays, comprehensions, or containers filled key by key (`row["loss"] = float(loss)`,
`rows.append(loss.item())`) — of `.item()`/`.tolist()`/`float()`/`int()` results, so a
report such as `{"loss": avg_loss, "weight": w.detach().tolist(), "step": step}` is not
reported. A NumPy array (`.cpu().numpy()`; `Tensor.numpy()` refuses a tensor that
requires grad) is reduced too. A container is judged by its elements, not by its
name: one that holds a graph tensor is still reported (`{"loss": loss.item(),
"logits": logits}`, `row["loss"] = loss` before `rows.append(row)`).
Nor is a graph-free tensor, followed through its assignments: a comparison
(`(labels != ignore_index).sum()`, a bool tensor), an integer/bool cast or
index-valued result (`.long()`, `.to(torch.long)`, `argmax`, `.ne()`), a value
computed (not merely re-bound) inside `torch.no_grad()`, and receiver-only
operations on such a tensor (`mask.float().sum()`, `n.to(device)`): only
floating-point tensors can require grad, and autograd records nothing in no_grad.
Nor a value detached right after each back-propagation of the loop (`if
with_backward: loss_mb.backward(); loss_mb = loss_mb.detach()` then
`losses.append(loss_mb)`): when the loop trains, what it appends holds no graph.
Names inside a graph-free part (`self._loss_fn.ignore_index` in the comparison)
are no hint of a loss.

Not reported: a result a helper hands back `.detach()`ed, also through
receiver-only methods (`update(batch).clone()`) and a dispatcher that returns other
such helpers; and an accumulator back-propagated after the loop (`loss += part` ...
`self.manual_backward(loss)`): the combined loss keeps its parts' graphs on purpose.

## Why is this bad
A tensor that requires grad carries its autograd graph. Summing it into a
running total (or keeping it in a list) makes every step's graph — with the
activations it saved — reachable from the accumulator, so memory grows with
every step until the epoch ends or the process is killed.

## Example
```python
for batch in loader:
    loss = model(**batch).loss
    loss.backward()
    optimizer.step()
    total_loss += loss
```

## Use instead
```python
    total_loss += loss.item()        # or loss.detach() to stay on the device
```

## Fix safety
Safe: the codemod appends `.item()` (scalars) or `.detach()` (outputs); the
accumulated values are the same numbers without history.

## Source
ray-project/ray#40940; PyTorch FAQ "My model reports cuda runtime error(2): out
of memory" (accumulating history across your training loop); PyTorch "Autograd
mechanics" (only floating-point and complex tensors require grad; no_grad records nothing).
"""

    def check(self, facts):
        train_loops = [lp for lp in facts.nodes(*_LOOPS) if loop_trains(facts, lp)]
        train_ids = {id(lp) for lp in train_loops}
        for node in facts.nodes(ast.AugAssign, ast.Assign, ast.Call):
            acc, x = _accumulation(node)
            helper = None
            if acc is None and isinstance(node, ast.Call) and _in_training_code(facts, node, train_ids):
                # a helper of this module keeps its argument in a container that outlives
                # the call (`self._log({"loss": loss})` -> `self.history.append(record)`):
                # the accumulation is the call
                got = helper_accumulation(facts, node)
                if got is not None:
                    acc, x, helper = got
            if acc is None or x is None:
                continue
            fn = facts.enclosing_function(node)
            stmt = facts.enclosing_statement(node)
            loops = _enclosing_loops(facts, stmt, fn)
            if not loops:
                # a per-step method (`train_step(self, batch)`: it back-propagates or steps an
                # optimizer) adding into an attribute of its own object: each call is one
                # iteration, and the object keeps the total across calls
                if not _per_step_method_store(facts, fn, acc):
                    continue
                loops = [fn]
                train_ids = train_ids | {id(fn)}
            init = _init_line_inside(facts, acc, loops, stmt)
            persistent = [lp for lp in loops if lp not in init and not _bounded_by_loop(facts, lp, acc, stmt)]
            if not any(id(lp) in train_ids for lp in persistent):
                continue
            if _under_no_grad(facts, stmt, fn):
                continue
            if any(_detached_after_each_backward(facts, lp, x, stmt) for lp in persistent if id(lp) in train_ids):
                continue
            acc_text = facts.dotted(acc)
            if acc_text and any(facts.dotted(n) == acc_text for n in ast.walk(x)):
                continue  # `acc += acc / n` rescales, it adds no new step's graph
            if isinstance(node, ast.AugAssign) and _integer_tensor(facts, acc, fn, stmt):
                continue  # `+=` into an integer tensor: it holds no graph (a float one would not cast)
            val = _tensor_value(facts, x, fn, stmt)
            if val is None:
                continue
            if fn is not None and isinstance(acc, ast.Name) and _backpropagated_after(facts, fn, persistent, acc.id):
                continue  # `loss += part` ... `self.manual_backward(loss)` after the loop: a combined loss
            method = "item" if "loss" in val.lower() and not isinstance(node, ast.Call) else "detach"
            target = _fix_target(facts, x, fn, stmt)
            fix = None if target is None else Fix(
                description=f"accumulate `.{method}()` of the value", safety=SAFE,
                codemod="detach_accumulation",
                data={"line": target.lineno, "col": target.col_offset, "method": method})
            where = (f"across calls of the per-step method `{fn.name}()`" if loops == [fn]
                     else "across iterations of a training loop")
            trace = ()
            if helper is not None:
                where += f" (kept there by `{helper.name}()`)"
                trace = ((helper, f"`{helper.name}()` keeps what it is given in "
                                  f"`{facts.dotted(acc) or facts.segment(acc)}`, which outlives the call"),)
            yield facts.finding(self, stmt,
                                f"`{facts.dotted(acc) or facts.segment(acc) or 'accumulator'}` accumulates `{val}` {where} "
                                "without `.item()`/`.detach()`: every step's autograd graph stays "
                                "reachable", fix=fix, trace=trace)



#: Calls that back-propagate their first argument: `Tensor.backward` aside, a
#: LightningModule's `manual_backward(loss)` and accelerate's / a strategy's
#: `backward(loss)` (Lightning and accelerate docs).
_BACKPROP_CALLS = frozenset({"backward", "manual_backward"})


def _per_step_method_store(facts, fn, acc) -> bool:
    """Is `acc` an attribute of the method's own object (`self.running_loss`, also
    `self.losses` appended to) in a method that trains by itself (`.backward()` or an
    optimizer `step()` in its body: `loop_trains` over the def), outside any loop? Then
    every call of the method adds one step's value to state the object keeps (a trainer's
    `train_step`, called once per batch). `__init__` never qualifies."""
    if fn is None or isinstance(fn, ast.Lambda) or fn.name == "__init__":
        return False
    args = fn.args.posonlyargs + fn.args.args
    if not args or facts.enclosing_class(fn) is None:
        return False
    root = acc
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if not (isinstance(root, ast.Name) and root.id == args[0].arg and root is not acc):
        return False
    return _trains(facts, fn)


def _in_training_code(facts, node, train_ids: set) -> bool:
    """Is `node` inside a loop that trains, or in a method that trains by itself (a
    per-step method)? Only there is a helper's store an accumulation across steps, so
    only there are the calls resolved (the call graph is not asked about every call)."""
    for a in facts.ancestors(node):
        if isinstance(a, _DEFS):
            fn = a
            break
        if isinstance(a, _LOOPS) and id(a) in train_ids:
            return True
    else:
        return False
    if isinstance(fn, ast.Lambda) or facts.enclosing_class(fn) is None:
        return False
    return _trains(facts, fn)


def _trains(facts, fn) -> bool:
    """`loop_trains` over a method's body, once per method (not per accumulation)."""
    trains = facts.memo("ctx601.method_trains", dict)
    if id(fn) not in trains:
        trains[id(fn)] = loop_trains(facts, fn)
    return trains[id(fn)]


def _backpropagated_after(facts, fn, loops: list, name: str) -> bool:
    """Is the local accumulator `name` back-propagated in `fn` after the outermost of
    `loops` ends (`loss.backward()`, `(loss / n).backward()`, `self.manual_backward(loss)`,
    `accelerator.backward(loss)`), outside nested defs? Then the graphs it sums are kept on
    purpose until that one backward (nemo's combined SSL loss, summed over a batch's
    parts): the harm the rule names is the point, and detaching would break training."""
    if not loops:
        return False
    end = max(getattr(lp, "end_lineno", lp.lineno) for lp in loops)
    for n in facts.walk(fn):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _BACKPROP_CALLS):
            continue
        if n.lineno <= end:
            continue
        subjects = [n.func.value, *n.args[:1]]  # `loss.backward(g)`, `self.manual_backward(loss)`
        if any(isinstance(m, ast.Name) and m.id == name for sub in subjects for m in ast.walk(sub)):
            return True
    return False


def _accumulation(node) -> tuple[ast.AST | None, ast.AST | None]:
    """(accumulator, accumulated value) of `acc += x`, `acc = acc + x`, `acc.append(x)`."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
        return node.target, node.value
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.BinOp) \
            and isinstance(node.value.op, ast.Add):
        t = ast.dump(node.targets[0]).replace("Store()", "Load()")
        if ast.dump(node.value.left) == t:
            return node.targets[0], node.value.right
        if ast.dump(node.value.right) == t:
            return node.targets[0], node.value.left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
            and len(node.args) == 1:
        return node.func.value, node.args[0]
    return None, None


def _detached_after_each_backward(facts, loop, x: ast.AST, acc_stmt: ast.AST) -> bool:
    """Is every `.backward()` of the training loop `loop` called on the accumulated name
    `x` and followed, in the same block, by `x = x.detach()` (or `.item()`/`float(x)`)?
    (`if with_backward: loss_mb.backward(); loss_mb = loss_mb.detach()` then
    `losses.append(loss_mb)`.) Then on every pass that back-propagates, what is appended
    holds no graph; a pass that does not back-propagate trains nothing, and the graph it
    appends is the one its caller will back-propagate once (sentence-transformers'
    cached losses). The accumulation `acc_stmt` must come after each such rebinding in
    the loop body (an `append`/`+=` before the `backward()`, the PyTorch FAQ's "total_loss
    += loss" bug, keeps every graph). A `.backward()` on anything else keeps the rule's
    verdict."""
    if not isinstance(x, ast.Name):
        return False
    seen = False
    for n in facts.walk(loop):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"):
            continue
        if not (isinstance(n.func.value, ast.Name) and n.func.value.id == x.id):
            return False
        stmt = facts.enclosing_statement(n)
        block = next((getattr(p, f) for p in [facts.parents.get(stmt)] for f in ("body", "orelse", "finalbody")
                      if stmt in getattr(p, f, ())), None)
        if block is None:
            return False
        after = block[block.index(stmt) + 1:block.index(stmt) + 2]
        if not (after and isinstance(after[0], ast.Assign) and len(after[0].targets) == 1
                and isinstance(after[0].targets[0], ast.Name) and after[0].targets[0].id == x.id
                and reduced(after[0].value)):
            return False
        if (after[0].lineno, after[0].col_offset) >= (acc_stmt.lineno, acc_stmt.col_offset):
            return False  # accumulated before it was detached
        seen = True
    return seen


_INT_DTYPES = frozenset({"int", "int8", "int16", "int32", "int64", "long", "short", "uint8", "bool"})


def _integer_tensor(facts, acc, fn, stmt) -> bool:
    """Is the local accumulator `acc` bound, before `stmt`, only to tensors built with an
    integer or bool dtype (`torch.tensor(0, dtype=torch.int).cuda()`, `torch.zeros([],
    dtype=torch.long)`)? Such a tensor cannot require grad (PyTorch "Autograd mechanics":
    only floating-point and complex tensors can), and an in-place `+=` of a float tensor into
    it raises rather than casting, so it never holds a graph. Only `+=` is exempt: `acc =
    acc + loss` promotes to a float tensor with a `grad_fn`; `.to(torch.float32)` changes
    the dtype."""
    if not isinstance(acc, ast.Name) or fn is None:
        return False
    vals = [v for v in _assigned_values(facts, fn, acc.id, stmt) if not (
        isinstance(v, ast.BinOp) and any(isinstance(m, ast.Name) and m.id == acc.id for m in ast.walk(v)))]
    if not vals:
        return False
    for v in vals:
        call = v
        while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr in ("cuda", "cpu", "to") and not any(k.arg == "dtype" for k in call.keywords) \
                and not any((facts.dotted(a) or "").startswith("torch.") for a in call.args):
            call = call.func.value  # `.cuda()` / `.to(device)` keep the dtype
        if not isinstance(call, ast.Call):
            return False
        dtype = next((k.value for k in call.keywords if k.arg == "dtype"), None)
        text = (facts.dotted(dtype) or "") if dtype is not None else ""
        if text.split(".")[-1] not in _INT_DTYPES:
            return False
    return True


def _acc_root(facts, acc) -> str | None:
    """Dotted name of the accumulator, or of the container whose element it is
    (`running_metrics["loss"]` -> `running_metrics`: re-binding the container resets every key)."""
    name = facts.dotted(acc)
    if name is None and isinstance(acc, ast.Subscript):
        name = facts.dotted(acc.value)
    return name


def _bounded_by_loop(facts, loop, acc, stmt) -> bool:
    """Does `loop` itself bound what `acc` can hold across its iterations?

    * It iterates a display (`for model, optim in ((ref, ref_opt), (fsdp, fsdp_opt))`):
      a fixed, literal number of iterations, written out in the source.
    * It also takes entries out of the front of the accumulating container (`pop(0)`,
      `popleft()`, `clear()`, `del acc[0]`; for a table's element, of the same key): a
      queue whose entries leave, not a history. `pop()` from the end undoes one append.
    * `acc` (or the container holding it) is re-bound to a fresh value inside the loop
      after the accumulation (`running_loss = 0` after each optimizer step, the
      gradient-accumulation pattern), and the loop back-propagates (`.backward()` in its
      body): each pass frees the saved tensors of the graph it built (PyTorch "Autograd
      mechanics": buffers are freed after backward unless `retain_graph`), and the reset
      drops what remains at every period. Not a reset only in an `except` handler, nor a
      `backward(retain_graph=True)`, which frees nothing.
    A reset before the accumulation is `_init_line_inside`'s business."""
    local_acc = isinstance(acc.value if isinstance(acc, ast.Subscript) else acc, ast.Name)
    if local_acc and isinstance(loop, (ast.For, ast.AsyncFor)) and isinstance(loop.iter, (ast.Tuple, ast.List)) \
            and not any(isinstance(e, ast.Starred) for e in loop.iter.elts):
        return True  # (an attribute outlives the def: the loop that matters is its caller's)
    name = _acc_root(facts, acc)
    if name is None:
        return False
    for n in facts.walk(loop):
        # a queue, not a history: the loop also takes entries out of the same container
        # (`output_tensors.append(t)` ... `output_tensors.pop(0)` of a 1F1B pipeline schedule)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _fifo_take(n) \
                and isinstance(n.func.value, (ast.Name, ast.Attribute, ast.Subscript)) \
                and _same_container(facts, n.func.value, acc):
            return True
        if isinstance(n, ast.Delete) and any(isinstance(t, ast.Subscript) and _zero(t.slice)
                                             and _same_container(facts, t.value, acc) for t in n.targets):
            return True
    reset = backward = False
    for n in facts.walk(loop):
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n is not stmt and n.lineno > stmt.lineno \
                and _accumulation(n)[0] is None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(facts.dotted(t) == name for t in targets) and \
                    not any(isinstance(m, ast.Name) and m.id == name for m in ast.walk(n.value)
                            if not isinstance(n.value, ast.DictComp)) \
                    and not any(isinstance(a, ast.ExceptHandler) for a in facts.ancestors_until(n, loop)):
                reset = True  # (a reset only in an `except` handler runs after the harm)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "backward" \
                and not any(isinstance(a, _DEFS) for a in facts.ancestors_until(n, loop)) \
                and not any(k.arg == "retain_graph" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                            for k in n.keywords):
            backward = True  # (`retain_graph=True` keeps the saved tensors: nothing is freed)
    return reset and backward


def _zero(e) -> bool:
    return isinstance(e, ast.Constant) and e.value == 0 and not isinstance(e.value, bool)


def _fifo_take(call: ast.Call) -> bool:
    """`q.popleft()`, `q.pop(0)`, `q.clear()`: entries leave from the front (or all of them);
    `q.pop()` from the end undoes the last append and bounds nothing."""
    a = call.func.attr
    return a in ("popleft", "clear") or (a == "pop" and len(call.args) == 1 and _zero(call.args[0]))


def _same_container(facts, e: ast.AST, acc: ast.AST) -> bool:
    """Is `e` the container `acc` appends to: the same name or attribute, or for an element
    of a table (`input_tensors[chunk]`) an element of the same table by any index (a
    per-chunk queue); a string key must be the same key (`history["loss"]`, not
    `history["eval_loss"]`)."""
    if isinstance(acc, ast.Subscript) and isinstance(e, ast.Subscript):
        if facts.dotted(acc.value) != facts.dotted(e.value) or facts.dotted(acc.value) is None:
            return False
        keys = (acc.slice, e.slice)
        if any(isinstance(k, ast.Constant) for k in keys):
            return ast.dump(keys[0]) == ast.dump(keys[1])
        return True
    return facts.dotted(e) is not None and facts.dotted(e) == facts.dotted(acc)


def _enclosing_loops(facts, stmt, fn) -> list:
    out = []
    for a in facts.ancestors(stmt):
        if a is fn or isinstance(a, _DEFS):
            break
        if isinstance(a, _LOOPS):
            out.append(a)
    return out


def _init_line_inside(facts, acc, loops, stmt) -> set:
    """Loops (of `loops`) inside which `acc` is re-initialised by a plain assignment before `stmt`."""
    name = facts.dotted(acc)
    out = set()
    if name is None:
        return out
    for lp in loops:
        for n in facts.walk(lp):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and n is not stmt and n.lineno <= stmt.lineno:
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(facts.dotted(t) == name for t in targets):
                    if _accumulation(n)[0] is None:
                        out.add(lp)
                        break
    return out


def _under_no_grad(facts, stmt, fn) -> bool:
    return in_no_grad(facts, stmt, fn)


def _walk_graph_parts(facts, x: ast.AST, fn, free):
    """`ast.walk(x)` without descending into graph-free parts (`(labels != ignore).sum()`):
    the names inside a comparison or an integer cast say nothing about a graph."""
    todo = [x]
    while todo:
        n = todo.pop(0)
        if n is not x and isinstance(n, ast.expr) and graph_free(facts, n, fn, free):
            continue
        yield n
        todo.extend(ast.iter_child_nodes(n))



def _tensor_value(facts, x: ast.AST, fn, stmt, depth: int = 2) -> str | None:
    """Text of the loss/output tensor inside `x` that is accumulated unreduced, else None.
    A dict/list/tuple/set display is judged element by element (`{"loss": loss.item(),
    "logits": logits}` keeps `logits`' graph); a local is followed through its last
    assignment and the elements stored into it before `stmt` (`row["loss"] = loss`)."""
    if isinstance(x, _DISPLAYS):
        parts = [v for v in (x.values if isinstance(x, ast.Dict) else x.elts)]
        return next((got for e in parts if (got := _tensor_value(facts, e, fn, stmt, depth)) is not None), None)
    if reduced(x) or isinstance(x, ast.Constant):
        return None
    plain = plain_locals(facts, fn) if fn is not None else frozenset()
    if is_plain_data(x, plain, facts):
        return None  # Python data (`loss.item()`, a dict of `.tolist()` results) holds no graph
    free = graph_free_locals(facts, fn) if fn is not None else frozenset()
    if graph_free(facts, x, fn, free):
        return None  # a comparison, an integer cast, a no_grad result: autograd recorded nothing
    graph = backward_names(facts, fn) if fn is not None else set()
    for n in _walk_graph_parts(facts, x, fn, free):
        if isinstance(n, ast.Call):
            if returns_graph_tensor(facts, n):
                return ast.unparse(n)  # a same-file helper hands back its back-propagated loss
            name = facts.dotted(n.func) or ""
            if LOSS_CALL_HINTS.search(name.split(".")[-1]) and not returns_reduced(facts, n):
                return ast.unparse(n)
        elif isinstance(n, (ast.Name, ast.Attribute)):
            text = facts.dotted(n)
            if text is None:
                continue
            last = text.split(".")[-1]
            if isinstance(n, ast.Name):
                if n.id in graph:
                    return text  # `.backward()` is called on it: it carries the graph
                if n.id in plain:
                    continue  # every assignment of it is plain data
                if _walks_reduced_entries(facts, fn, n.id, stmt):
                    continue  # `for k, v in self._step().items()` over entries the helper reduced
                srcs = _assigned_values(facts, fn, n.id, stmt)
                if srcs:
                    src = srcs[-1]
                    if not (reduced(src) or isinstance(src, ast.Constant) or returns_reduced(facts, src)):
                        if LOSS_NAME_HINTS.search(last) and not isinstance(src, _DISPLAYS):
                            return text
                        if depth and _tensor_value(facts, src, fn, stmt, depth - 1):
                            return text
                    if depth and any(_tensor_value(facts, e, fn, stmt, depth - 1)
                                     for e in _stored_elements(facts, fn, n.id, stmt)):
                        return text  # `row["loss"] = loss` ... `history.append(row)`
                    continue
            if LOSS_NAME_HINTS.search(last) and not last.lower().startswith(("num", "n_")):
                return text
    return None


_DISPLAYS = (ast.Dict, ast.List, ast.Tuple, ast.Set)


def _fix_target(facts, x: ast.AST, fn, stmt) -> ast.AST | None:
    """The expression to detach: `x` itself, or inside a display the element that carries
    the graph (`{"loss": loss, "lr": lr}` -> `loss`); None when the graph is in a local
    container built elsewhere (`record = {"loss": loss}` ... `keep(record)`): detaching the
    container is no fix."""
    if isinstance(x, _DISPLAYS):
        for e in (x.values if isinstance(x, ast.Dict) else x.elts):
            if _tensor_value(facts, e, fn, stmt) is not None:
                return _fix_target(facts, e, fn, stmt)
        return None
    if isinstance(x, ast.Name):
        srcs = _assigned_values(facts, fn, x.id, stmt)
        if (srcs and isinstance(srcs[-1], _DISPLAYS)) or _stored_elements(facts, fn, x.id, stmt):
            return None
    return x


def _walks_reduced_entries(facts, fn, name: str, stmt) -> bool:
    """Is `name` the value target of the loop around `stmt` over a mapping (`.items()`,
    `.values()`) or list that a local holds, bound only to the result of a same-file helper
    whose returned entries are all reduced (`tensors.returns_reduced_entries`)?"""
    if fn is None:
        return False
    for loop in facts.ancestors(stmt):
        if loop is fn:
            return False
        if not isinstance(loop, ast.For):
            continue
        t = loop.target
        val = t.elts[-1] if isinstance(t, ast.Tuple) and t.elts else t
        if not (isinstance(val, ast.Name) and val.id == name):
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in ("items", "values") \
                and not it.args:
            it = it.func.value
        if isinstance(it, ast.Call):
            return returns_reduced_entries(facts, it)
        if isinstance(it, ast.Name):
            srcs = _assigned_values(facts, fn, it.id, loop)
            return bool(srcs) and all(returns_reduced_entries(facts, s) for s in srcs)
        return False
    return False


def _stored_elements(facts, fn, name: str, before) -> list[ast.AST]:
    """Values stored as elements of the local `name` in `fn` before the statement
    `before` (`tensors.element_store`: `name[k] = v`, `name.append(v)`)."""
    if fn is None:
        return []
    out = []
    for n in facts.walk(fn):
        if getattr(n, "lineno", before.lineno + 1) <= before.lineno and n is not before:
            got = element_store(n)
            if got is not None and got[0] == name:
                out.extend(got[1])
    return out


def _assigned_values(facts, fn, name: str, before) -> list[ast.AST]:
    if fn is None:
        return []
    out = []
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign) and n.lineno <= before.lineno and n is not before:
            for t in n.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    out.append(n.value)
                elif isinstance(t, ast.Tuple) and any(isinstance(e, ast.Name) and e.id == name for e in t.elts):
                    out.append(n.value)
    out.sort(key=lambda v: v.lineno)
    return out
