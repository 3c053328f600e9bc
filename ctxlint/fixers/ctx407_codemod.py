"""CTX407 codemod "actor_plain_state": give a class sent through Ray a
`__getstate__`/`__setstate__` pair that keeps only plain data.

Data (from `rules/python/ctx407_actor_state_not_picklable.py`):
    line, col: the `class` statement (1-based line, `ast` column).
    cls: the class name (must match the class at that line).
    drop: the instance attributes to leave out of the pickled state.
    recreate: attribute -> expression re-creating it on the receiving side (a fresh
        lock, an empty container); the other dropped attributes become `None`.

Unsafe (the reader no longer sees the dropped fields). Refused (FixNotApplicable)
when the class is not at the anchor, already defines a pickling dunder, uses
`__slots__`, or its body is on the `class` line.

Registered in `python_codemods.CODEMODS` when `ctxlint.fixers.codemods` imports it.
"""

from __future__ import annotations

import libcst as cst

from ctxlint.fixers.base import FixNotApplicable
from ctxlint.fixers.python_codemods import ModuleContext, codemod, names_in, stmt

_DUNDERS = ("__getstate__", "__setstate__", "__reduce__", "__reduce_ex__")


def _valid_attr(name: object) -> bool:
    return isinstance(name, str) and name.isidentifier()


@codemod("actor_plain_state")
def actor_plain_state(ctx: ModuleContext, data: dict) -> str:
    """Insert `__getstate__` (copy of `__dict__` minus `drop`) and `__setstate__`
    (restore, then re-create or `None` each dropped field) at the end of the class."""
    name = data.get("cls")
    drop = data.get("drop") or []
    recreate = data.get("recreate") or {}
    if not _valid_attr(name) or not drop or not all(_valid_attr(a) for a in drop):
        raise FixNotApplicable("no class or fields to drop")
    line = int(data["line"])
    cands = [n for n in ctx.positions if isinstance(n, cst.ClassDef) and n.name.value == name
             and ctx.positions[n.name].start.line == line]
    if len(cands) != 1:
        raise FixNotApplicable(f"no class `{name}` at line {line}")
    cls = cands[0]
    if not isinstance(cls.body, cst.IndentedBlock):
        raise FixNotApplicable("the class body is on the `class` line")
    for s in cls.body.body:
        if isinstance(s, cst.FunctionDef) and s.name.value in _DUNDERS:
            raise FixNotApplicable(f"the class already defines {s.name.value}")
        if "__slots__" in names_in(s) and not isinstance(s, cst.FunctionDef):
            raise FixNotApplicable("the class has __slots__")
    names = ", ".join(f'"{a}"' for a in drop) + ("," if len(drop) == 1 else "")
    getstate = (
        "def __getstate__(self) -> dict:\n"
        "    # plain data only (ctxlint CTX407): these fields cannot or must not be pickled\n"
        "    state = self.__dict__.copy()\n"
        f"    for dropped in ({names}):\n"
        "        state.pop(dropped, None)\n"
        "    return state\n")
    lines = ["def __setstate__(self, state: dict) -> None:\n", "    self.__dict__.update(state)\n"]
    for a in drop:
        value = recreate.get(a)
        if not isinstance(value, str) or not value.strip():
            value = "None"
        try:
            cst.parse_expression(value)
        except cst.ParserSyntaxError:
            value = "None"
        lines.append(f"    self.{a} = {value}\n")
    setstate = "".join(lines)
    module = ctx.module
    new_defs = [stmt(getstate, module), stmt(setstate, module)]
    new_defs = [d.with_changes(leading_lines=[cst.EmptyLine(indent=False)]) for d in new_defs]
    new_cls = cls.with_changes(body=cls.body.with_changes(body=[*cls.body.body, *new_defs]))
    return ctx.replace(cls, new_cls).code
