"""CTX102 defer-cancel-in-loop (Go): `defer cancel()` of a per-iteration context inside a loop."""

from __future__ import annotations

from ctxlint.findings import SAFE, Edit, Fix
from ctxlint.fixers.go_edits import ctx_name, end_of_scope_cancel_edits, free_name
from ctxlint.languages.go import LOOP_TYPES
from ctxlint.rules import Rule
from ctxlint.semantic.go.cancel import ident_role, statement_of
from ctxlint.semantic.go.ctx import CANCEL_TOKENS
from ctxlint.semantic.go.escape import loop_escape, static_iterations


class DeferCancelInLoop(Rule):
    code = "CTX102"
    name = "defer-cancel-in-loop"
    language = "go"
    summary = "`defer cancel()` of a per-iteration context inside a loop: contexts pile up until the function returns."
    tokens = CANCEL_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Finds `defer cancel()` (or a deferred func literal that calls it) directly inside
a `for`/`range` body — not inside a func literal in it — where `cancel` comes
from a `context.WithX` call made in the same loop. It stays silent when the
per-iteration context must outlive its iteration: the context, or a value that
keeps a reference to it (a stream, a connection, a child context, a struct built
from it), is stored in a field, map or slice element, appended to a slice, kept in
a variable that is used after the loop, sent on a channel, handed to a goroutine
or captured by a callback. Then the contexts pile up on purpose, and the defer is
what cancels them. An `error` or plain data a call returned does not count. The
message says how many contexts are at stake when the loop's bound is a literal
(or a local given one literal, or a table literal). Loops in test code
(`_test.go` files, fuzz harnesses, helpers that import a test driver such as
"testing" or testify: `GoFacts.is_test_code`) are not reported: their contexts pile
up for one test run at most.

## Why is this bad
A deferred call runs when the *function* returns, not at the end of the
iteration. A retry loop, a stream pump or a per-peer broadcast therefore keeps
every iteration's context, its timer and its goroutines alive until the whole
function ends: a long-lived loop leaks without bound, and a retry loop with a
zero backoff exhausts memory.

## Example
```go
for attempt := 0; attempt < s.MaxRetries; attempt++ {
	tryCtx, cancel := context.WithTimeout(ctx, s.PerTry)
	defer cancel()
	if err := p.PushBlocks(tryCtx, blocks); err == nil {
		return nil
	}
}
```

## Use instead
```go
for attempt := 0; attempt < s.MaxRetries; attempt++ {
	tryCtx, cancel := context.WithTimeout(ctx, s.PerTry)
	err := p.PushBlocks(tryCtx, blocks)
	cancel()
	if err == nil {
		return nil
	}
}
```
or move the body into a function (or func literal) whose `defer` runs per iteration.

## Fix safety
Safe. The fix removes the `defer` and calls `cancel()` at the end of the block
and before every return, break, continue or fallthrough that leaves it. It is
offered only when no return expression can still use the per-iteration context
(a call mentioning it, or a value built after it), there is no goto, and the
context does not escape the iteration (then the rule is silent anyway). When one
cancel variable is reused by a later `context.WithX` in the same iteration, the
fix renames this context's cancel func (`cancel2`) so that each `cancel()` ends
its own context; it declines where renaming is not possible (a `=` assignment, or
another use of the variable than a plain call).

## Source
staticcheck SA9001 (defers in range loops may not run when you expect them to);
grpc-ecosystem/go-grpc-middleware#748; the Go spec on defer statements.
"""

    def check(self, facts):
        if not facts.cancel_defs:
            return
        for defer in facts.nodes("defer_statement"):
            call = next((c for c in defer.named_children if c.type == "call_expression"), None)
            if call is None:
                continue
            name = self._cancel_name(facts, call)
            if name is None:
                continue
            fn = facts.enclosing_function(defer)
            loop = None
            for a in facts.ancestors(defer):
                if fn is not None and a.id == fn.id:
                    break
                if a.type in LOOP_TYPES:
                    loop = a
                    break
            if loop is None:
                continue
            body = loop.child_by_field_name("body")
            if body is None or fn is None:
                continue
            # the def this defer follows (a reused variable holds the latest): the last
            # def of the name in this function before the defer, if it is in the loop
            d = _last_def_before(facts, fn, name, defer.start_byte)
            if d is None or not facts.is_inside(d.stmt, body):
                continue
            if not _def_reachable_after(facts, d, defer):
                continue  # the defer's path always leaves the function: no context piles up
            if loop_escape(facts, d, loop) is not None:
                continue  # the contexts outlive their iteration on purpose
            if facts.is_test_code:
                continue  # a test's loop: its contexts pile up for one test run at most
            n = static_iterations(facts, loop)
            if n is not None:
                stake = (f"the {n} context.{d.func} contexts of this loop's {n} iterations all stay alive "
                         "(with their timers and goroutines) until then")
            else:
                stake = (f"a context.{d.func} context per iteration stays alive until then, and the loop's "
                         "iteration count is not bounded in the source")
            where = f"; the context is made on line {d.call.start_point[0] + 1}"
            yield facts.finding(self, defer, (
                f"`defer {name}()` inside a loop runs only when the function returns: {stake}{where}; "
                f"call {name}() at the end of the iteration"),
                fix=self._fix(facts, defer, call, d, name, loop))

    def _cancel_name(self, facts, call) -> str | None:
        f = call.child_by_field_name("function")
        if f is None:
            return None
        if f.type == "identifier":
            return facts.text_of(f)
        if f.type == "func_literal":
            body = f.child_by_field_name("body")
            names = set()
            for n in facts.walk(body, into_funcs=False) if body is not None else ():
                if n.type == "call_expression":
                    g = n.child_by_field_name("function")
                    if g is not None and g.type == "identifier":
                        names.add(facts.text_of(g))
            for d in facts.cancel_defs:
                if d.cancel.type == "identifier" and facts.text_of(d.cancel) in names:
                    return facts.text_of(d.cancel)
        return None

    def _fix(self, facts, defer, call, d, name: str, loop) -> Fix | None:
        f = call.child_by_field_name("function")
        if f is None or d.func == "WithCancelCause":
            return None
        if f.type == "func_literal":
            # `defer func() { cancel() }()` is `defer cancel()` spelled long.
            body = f.child_by_field_name("body")
            stmts = [n for n in facts.walk(body) if n.type.endswith("_statement") or n.type == "short_var_declaration"] \
                if body is not None else []
            if len(stmts) != 1 or facts.text_of(stmts[0]).replace(" ", "") != f"{name}()":
                return None
        elif f.type != "identifier":
            return None
        stmt = statement_of(d)
        if stmt is None or defer.parent is None or stmt.parent is None or stmt.parent.id != defer.parent.id:
            return None
        if not facts.starts_line(defer) or not facts.ends_line(defer):
            return None
        if loop_escape(facts, d, loop, strict=True) is not None:
            return None  # precondition: nothing keeps the context past its iteration
        row, end_row = defer.start_point[0], defer.end_point[0]
        edits = [Edit(facts.line_start_char(row), facts.line_start_char(end_row + 1), "")]
        renames = self._rename_reused(facts, defer, d, name, loop)
        if renames is None:
            return None
        if renames:
            name = renames[0].text
            edits.extend(renames)
        more = end_of_scope_cancel_edits(facts, defer, name, ctx_name(facts, d), d.fn)
        if more is None:
            return None
        edits.extend(more)
        return Fix(description=f"call `{name}()` at the end of each iteration instead of deferring it",
                   safety=SAFE, edits=tuple(edits),
                   data={"line": defer.start_point[0] + 1, "col": facts.char_col(defer.start_point)})

    def _rename_reused(self, facts, defer, d, name: str, loop) -> list | None:
        """Edits that give `d`'s cancel func a name of its own when a later
        `context.WithX` in the same iteration reuses the variable (else the
        end-of-iteration `cancel()` would cancel the later context and leak this
        one): [] when the variable is not reused, None when renaming is not safe
        (a `=` def, a later `=` reassignment, or a use other than a plain call)."""
        body = loop.child_by_field_name("body")
        decl = facts.visible_decl(d.cancel)
        later = []
        for ident in facts.identifiers(body, name):
            if ident.start_byte < d.stmt.end_byte or facts.is_inside(ident, defer):
                continue
            if facts.enclosing_function(ident).id != d.fn.id:
                return None
            role = ident_role(facts, ident, ident.parent or ident, None)
            if role == "write":
                later.append(ident)
        if not later:
            return []
        if d.form != ":=":
            return None
        nxt = min(later, key=lambda i: i.start_byte)
        stmt2 = nxt.parent.parent if nxt.parent is not None else None
        if stmt2 is None or stmt2.type != "short_var_declaration":
            return None  # `ctx2, cancel = ...` needs the old declaration
        new = free_name(facts, d.fn, set(), base=name)
        edits = [Edit(facts.char_offset(d.cancel.start_byte), facts.char_offset(d.cancel.end_byte), new)]
        for ident in facts.identifiers(body, name):
            if not (d.stmt.end_byte <= ident.start_byte < nxt.start_byte) or facts.is_inside(ident, defer):
                continue
            v = facts.visible_decl(ident)
            if (v.id if v is not None else None) != (decl.id if decl is not None else None):
                continue
            p = ident.parent
            if p is None or p.type != "call_expression" or p.child_by_field_name("function") != ident:
                return None
            edits.append(Edit(facts.char_offset(ident.start_byte), facts.char_offset(ident.end_byte), new))
        return edits


def _defs_by_name(facts) -> dict:
    """(function id, cancel name) -> that function's cancel defs binding the name, in
    document order with their start offsets (one pass over `cancel_defs`, cached)."""
    def build():
        out: dict = {}
        for d in facts.cancel_defs:
            if d.fn is None or d.cancel.type != "identifier":
                continue
            starts, defs = out.setdefault((d.fn.id, facts.text_of(d.cancel)), ([], []))
            starts.append(d.stmt.start_byte)
            defs.append(d)
        return out
    return facts.memo("ctx102:defs-by-name", build)


def _last_def_before(facts, fn, name: str, offset: int):
    """The last cancel def of `name` in function `fn` that starts before `offset` (a
    binary search: the rule's cost stays linear in the defers and defs of a file)."""
    import bisect
    found = _defs_by_name(facts).get((fn.id, name))
    if found is None:
        return None
    i = bisect.bisect_left(found[0], offset)
    return found[1][i - 1] if i else None


def _def_reachable_after(facts, d, defer) -> bool:
    """Can control reach the def `d` again after the `defer` (round the loop)? The def
    precedes the defer in the loop's body, so it can when both lie on one cycle of the
    control-flow graph (one strongly connected component). When every path from the
    defer leaves the function first (a `select` arm or an `if` that always returns),
    each deferred cancel follows one context only."""
    cfg = facts.cfg(d.fn)
    at, goal = (cfg.locate(defer), cfg.locate(d.stmt)) if cfg is not None else (None, None)
    if at is None or goal is None:
        return True
    comp = cfg.cyclic_component(at[0])
    return comp is not None and comp == cfg.cyclic_component(goal[0])
