"""Attribute flags on objects: `O.flag`, `getattr(O, NAME)`, `hasattr(O, NAME)`,
`O.__dict__.get(NAME)` — what a test reads, what a block sets or clears.

Shared by the once-per-object guards of CTX403 (`hooks.once_guard`: `if getattr(module,
ATTR, None) is not None: return`) and the per-thread caches of CTX204 (`if not
hasattr(tl, "pool"): tl.pool = ...`). A flag is the pair (`ast.dump` of the object,
the flag's name: a literal's repr, or the dump of a module constant naming it).
`flags_unset_by`/`flags_set_by` also follow a local bound from a flag read
(`pool = getattr(tl, "pool", None)` ... `if pool is None:`) when given `locals_`, the
def's `name -> assigned values` (`requests.local_assignments`).
"""

from __future__ import annotations

import ast


def flags_cleared_in(stmts: list) -> set:
    """Flags that `stmts` set to a falsy constant or delete (`self.busy = False`, `delattr(m, A)`)."""
    out = set()
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, (ast.Assign, ast.AnnAssign)) and isinstance(n.value, ast.Constant) \
                    and n.value.value in (None, False, 0):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    k = flag_key(t)
                    if k:
                        out.add(k)
            elif isinstance(n, ast.Delete):
                for t in n.targets:
                    k = flag_key(t)
                    if k:
                        out.add(k)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") \
                    and len(n.args) >= 2 and (n.func.id == "delattr" or (
                        len(n.args) == 3 and isinstance(n.args[2], ast.Constant) and n.args[2].value in (None, False, 0))):
                k = flag_key(ast.Call(func=ast.Name(id="getattr", ctx=ast.Load()), args=n.args[:2], keywords=[]))
                if k:
                    out.add(k)
    return out


def _name_key(e: ast.AST) -> str | None:
    if isinstance(e, ast.Constant) and isinstance(e.value, str):
        return repr(e.value)
    if isinstance(e, (ast.Name, ast.Attribute, ast.BinOp, ast.JoinedStr)):
        return ast.dump(e)
    return None


def flag_key(e: ast.AST) -> tuple[str, str] | None:
    """(object, flag name) of a flag read: `O.flag`, `getattr(O, N[, d])`, `hasattr(O, N)`,
    `O.__dict__.get(N[, d])`, `O.__dict__[N]`; None for anything else."""
    if isinstance(e, ast.Attribute) and e.attr != "__dict__":
        return ast.dump(e.value), repr(e.attr)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("getattr", "hasattr") \
            and len(e.args) >= 2:
        if isinstance(e.args[1], ast.Constant) and isinstance(e.args[1].value, str):
            return ast.dump(e.args[0]), repr(e.args[1].value)
        k = _name_key(e.args[1])
        return (ast.dump(e.args[0]), k) if k else None
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "get" and e.args \
            and isinstance(e.func.value, ast.Attribute) and e.func.value.attr == "__dict__":
        k = _name_key(e.args[0])
        return (ast.dump(e.func.value.value), k) if k else None
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and e.value.attr == "__dict__":
        k = _name_key(e.slice)
        return (ast.dump(e.value.value), k) if k else None
    return None


def _read(target: ast.AST | None, locals_: dict | None) -> set:
    """The flags `target` reads: itself, or a local bound from flag reads."""
    if target is None:
        return set()
    k = flag_key(target)
    if k:
        return {k}
    if locals_ and isinstance(target, ast.Name):
        return {k for v in locals_.get(target.id, ()) if (k := flag_key(v))}
    return set()


def flags_unset_by(test: ast.AST, locals_: dict | None = None) -> set:
    """Flags whose being set makes `test` false: `not F`, `F is None`, `F == False`, and
    any of these inside an `and`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return set().union(*(flags_unset_by(v, locals_) for v in test.values))
    target = None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        target = test.operand
    elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (None, False):
        target = test.left
    return _read(target, locals_)


def flags_set_by(test: ast.AST, locals_: dict | None = None) -> set:
    """Flags whose being set makes `test` true: `F`, `F is not None`, `F == True`, and any
    of these inside an `or`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return set().union(*(flags_set_by(v, locals_) for v in test.values))
    target = test
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        c = test.comparators[0]
        if isinstance(test.ops[0], ast.IsNot) and isinstance(c, ast.Constant) and c.value is None:
            target = test.left
        elif isinstance(test.ops[0], (ast.Is, ast.Eq)) and isinstance(c, ast.Constant) and c.value is True:
            target = test.left
        else:
            return set()
    return _read(target, locals_)


def flags_set_in(stmts: list) -> set:
    """Flags that `stmts` set to something other than a falsy constant: `O.flag = v`,
    `setattr(O, N, v)`, `O.__dict__[N] = v`."""
    out = set()
    for st in stmts:
        for n in ast.walk(st):
            if isinstance(n, (ast.Assign, ast.AnnAssign)):
                v = n.value
                if isinstance(v, ast.Constant) and v.value in (None, False, 0):
                    continue
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    k = flag_key(t)
                    if k:
                        out.add(k)
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr" \
                    and len(n.args) == 3:
                v = n.args[2]
                if isinstance(v, ast.Constant) and v.value in (None, False, 0):
                    continue
                k = flag_key(ast.Call(func=ast.Name(id="getattr", ctx=ast.Load()), args=n.args[:2], keywords=[]))
                if k:
                    out.add(k)
    return out


