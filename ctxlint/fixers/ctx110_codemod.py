"""CTX110 codemod: move a stream's release into `finally` around its loop.

Registered as `stream_release_finally` in `python_codemods.CODEMODS` (this module
is imported by `ctxlint.fixers.codemods`).

data:
    line, col        the acquiring call (`await pool.acquire()`, `client.send(req, stream=True)`),
                     or the subscript of a registry insertion (`self.streams[rid] = q`).
    release          the source text of the release statement (`pool.release()`,
                     `await upstream.aclose()`), a single statement after the loop in
                     the acquisition's block.
    release_line     its 1-based line.

The statements between the acquisition and the release become the `try:` body and
the release moves, with its comments, into `finally:`; the normal path runs the
same statements in the same order. The rule offers the fix only where the release
is that one statement and no `return` lies between (checked again here); anything
else raises `FixNotApplicable`.
"""

from __future__ import annotations

import libcst as cst

from ctxlint.fixers.base import FixNotApplicable
from ctxlint.fixers.python_codemods import ModuleContext, codemod


class _HasReturn(cst.CSTVisitor):
    def __init__(self):
        self.found = False

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def visit_Return(self, node) -> None:
        self.found = True


def _no_return(stmts, between: str) -> None:
    """Refuse when a `return` lies in `stmts` (outside nested scopes)."""
    for s in stmts:
        v = _HasReturn()
        s.visit(v)
        if v.found:
            raise FixNotApplicable(f"a `return` between {between}")


def _release_index(ctx: ModuleContext, rest: list, release: str, rel_line: int) -> int | None:
    """Index in `rest` of the one-statement line `release` spanning `rel_line`, else None."""
    return next((k for k, s in enumerate(rest) if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                 and ctx.code(s.body[0]).strip() == release
                 and ctx.positions[s].start.line <= rel_line <= ctx.positions[s].end.line), None)


@codemod("stream_release_finally")
def stream_release_finally(ctx: ModuleContext, data: dict) -> str:
    """Wrap the stream's loop in try/finally with the release (see the module docstring).

    Raises:
        FixNotApplicable: no acquiring call at the anchor, the release statement is
            not in the same block after it, or a `return` lies between.
    """
    release = str(data.get("release") or "").strip()
    rel_line = int(data.get("release_line") or 0)
    if not release or not rel_line:
        raise FixNotApplicable("fix data names no release statement")
    # the acquiring call, or the subscript a registry entry is stored through
    node = ctx.find(data, (cst.Call, cst.Subscript), "acquisition")
    _small, line = ctx.statement_line(node)
    blk, i = ctx.block_of(line)
    rest = list(blk.body[i + 1:])
    j = _release_index(ctx, rest, release, rel_line)
    if j is None:
        raise FixNotApplicable("the release is not a statement after the acquisition in its block")
    if j == 0:
        raise FixNotApplicable("nothing runs between the acquisition and the release")
    _no_return(rest[:j], "the acquisition and the release")
    wrapped, rel, after = rest[:j], rest[j], rest[j + 1:]
    # the release keeps its own comment lines (not blank ones) inside `finally:`
    comments = [ln for ln in rel.leading_lines if ln.comment is not None]
    rel = rel.with_changes(leading_lines=comments)
    first = wrapped[0]
    try_node = cst.Try(
        body=cst.IndentedBlock(body=[first.with_changes(leading_lines=()), *wrapped[1:]]),
        finalbody=cst.Finally(body=cst.IndentedBlock(body=[rel])),
        leading_lines=first.leading_lines,
    )
    body = [*blk.body[:i + 1], try_node, *after]
    return ctx.replace(blk, blk.with_changes(body=body)).code


class _Names(cst.CSTVisitor):
    def __init__(self, name: str):
        self.name = name
        self.count = 0

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name:
            self.count += 1


@codemod("stream_async_with")
def stream_async_with(ctx: ModuleContext, data: dict) -> str:
    """CTX110: `up = await c.send(c.build_request(ARGS), stream=True)` ... `await up.aclose()`
    becomes `async with c.stream(ARGS) as up:` around the statements between.

    httpx's `AsyncClient.stream(ARGS)` is `send(build_request(ARGS), stream=True)`
    with `aclose()` on exit, so the normal path is unchanged. The request may be
    built inline or in a statement just for it (`req = c.build_request(...)`, used
    nowhere else; that statement is dropped). data: as `stream_release_finally`.

    Raises:
        FixNotApplicable: another shape (extra `send` arguments, a request used
            elsewhere, a release that is not `await <name>.aclose()` in the block).
    """
    release = str(data.get("release") or "").strip()
    rel_line = int(data.get("release_line") or 0)
    call = ctx.find(data, (cst.Call,), "send(..., stream=True) call")
    small, line = ctx.statement_line(call)
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name) and isinstance(small.value, cst.Await)
            and small.value.expression is call):
        raise FixNotApplicable("the response is not bound by `name = await client.send(...)`")
    name = small.targets[0].target.value
    if release != f"await {name}.aclose()":
        raise FixNotApplicable("the release is not `await <response>.aclose()`")
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "send"):
        raise FixNotApplicable("not a client.send() call")
    client = ctx.code(call.func.value)
    pos_args = [a for a in call.args if a.keyword is None]
    kw = [a for a in call.args if a.keyword is not None]
    if len(pos_args) != 1 or pos_args[0].star or [ctx.code(a.keyword) for a in kw] != ["stream"] \
            or ctx.code(kw[0].value).strip() != "True":
        raise FixNotApplicable("send() takes arguments besides the request and stream=True")
    blk, i = ctx.block_of(line)
    drop = None
    req = pos_args[0].value
    if isinstance(req, cst.Name):
        fn = ctx.enclosing_function(call)
        counter = _Names(req.value)
        (fn or ctx.module).visit(counter)
        for k in range(i - 1, -1, -1):
            s = blk.body[k]
            if (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign)
                    and len(s.body[0].targets) == 1 and isinstance(s.body[0].targets[0].target, cst.Name)
                    and s.body[0].targets[0].target.value == req.value):
                drop, req = k, s.body[0].value
                break
        if drop is None or counter.count != 2:
            raise FixNotApplicable("the request is built elsewhere or used again")
    if not (isinstance(req, cst.Call) and isinstance(req.func, cst.Attribute)
            and req.func.attr.value == "build_request" and ctx.code(req.func.value) == client):
        raise FixNotApplicable("the request is not built by the same client's build_request()")
    rest = list(blk.body[i + 1:])
    j = _release_index(ctx, rest, release, rel_line)
    if not j:
        raise FixNotApplicable("no statement between the send and the release, or no release in the block")
    _no_return(rest[:j], "the send and the release")
    inner = [rest[0].with_changes(leading_lines=()), *rest[1:j]]
    new_with = cst.With(
        asynchronous=cst.Asynchronous(),
        items=[cst.WithItem(item=cst.Call(func=cst.Attribute(value=call.func.value, attr=cst.Name("stream")),
                                          args=req.args),
                            asname=cst.AsName(name=cst.Name(name)))],
        body=cst.IndentedBlock(body=inner),
        leading_lines=line.leading_lines,
    )
    head = [s for k, s in enumerate(blk.body[:i]) if k != drop]
    body = [*head, new_with, *rest[j + 1:]]
    return ctx.replace(blk, blk.with_changes(body=body)).code
