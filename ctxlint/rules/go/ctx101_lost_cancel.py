"""CTX101 lost-cancel (Go): a cancel func discarded, or not called on every path."""

from __future__ import annotations

from ctxlint.findings import SAFE, Edit, Fix
from ctxlint.fixers.go_edits import (
    ctx_name,
    ctx_type_prefix,
    def_data,
    end_of_scope_cancel_edits,
    free_name,
    insert_after_line,
    only_comment_after,
)
from ctxlint.languages.go import LOOP_TYPES
from ctxlint.rules import Rule
from ctxlint.semantic.go.cancel import (
    deferred_call_of,
    ident_role,
    in_loop,
    lost_cancel_path,
    statement_of,
    stopped_handles,
)
from ctxlint.semantic.go.cfg import END
from ctxlint.semantic.go.ctx import CANCEL_TOKENS, never_done
from ctxlint.semantic.go.escape import ctx_escapes, loop_escape


class LostCancel(Rule):
    code = "CTX101"
    name = "lost-cancel"
    language = "go"
    summary = "Cancel func of context.WithCancel/WithTimeout/WithDeadline discarded or not called on every path."
    tokens = CANCEL_TOKENS
    fix_safety = SAFE
    doc = """\
## What it does
Finds the cancel func returned by `context.WithCancel`, `WithTimeout`,
`WithDeadline` and their `...Cause` variants (the `:=`, `=` and `var` forms,
renamed imports of "context" included) that is discarded with `_`, or that some
path through the function's control-flow graph carries to a return (or the end
of the function) without using it. A path through `panic`, `os.Exit`,
`log.Fatal*`, `t.FailNow`/`Fatal*` or `runtime.Goexit`, or into an infinite
loop, never returns and is not reported. Any escape of the cancel func counts as
a use (returned, stored, passed to a call, captured by a closure), as in go vet.
Unlike go vet, `_ = cancel` is not a use; a cancel func handed to `time.AfterFunc`
or `context.AfterFunc` whose timer the function stops (`t.Stop()`, `stop()`) is
used only on the paths where the timer still runs, so a return after the stop
without another call loses it; and a cancel func overwritten (by a
later assignment, or by the next iteration of a loop) before it was called is
reported. Function literals are analysed as their own functions; `main.main` is
exempt from the path check (returning from it ends the process).

Not reported, because nothing leaks (go vet reports them):
- a `WithCancel` (or `WithCancelCause`) child of a parent whose `Done()` is nil —
  `context.Background()`, `TODO()`, `WithoutCancel(x)` or a `WithValue` of one — when
  the child context is not referenced before the cancel func is lost (the path to the
  return, or to the overwrite, is clean of it). Such a child is registered nowhere and
  has no timer (`propagateCancel` in the `context` package), so no goroutine waits on
  it and the collector frees it;
- test code (`_test.go` files, fuzz harnesses, helpers that import a test driver such as
  "testing" or testify: `GoFacts.is_test_code`): the leak lasts one test run at most.

## Why is this bad
Until it is cancelled, a derived context stays registered with its parent and a
`WithTimeout`/`WithDeadline` context keeps its timer. In a gateway, router or
KV-cache sync loop every request leaks one context (and its goroutines waiting on
`Done()`) until the parent — often `context.Background()` — ends, which is never.

## Example
```go
func (r *Router) Route(parent context.Context, prompt string) (string, error) {
	ctx, _ := context.WithTimeout(parent, r.budget)
	return r.forward(ctx, prompt)
}
```

## Use instead
```go
func (r *Router) Route(parent context.Context, prompt string) (string, error) {
	ctx, cancel := context.WithTimeout(parent, r.budget)
	defer cancel()
	return r.forward(ctx, prompt)
}
```

## Fix safety
Safe. The fix renames `_` to `cancel` (or a free name) and inserts
`defer cancel()` on the next line; when the cancel func exists but is missed on
some path, it inserts `defer cancel()` after the assignment — only when every
other reference is a direct call (a cancel func handed to a goroutine, a struct
or a caller is an ownership transfer that a defer would break). Inside a loop
the fix calls `cancel()` wherever the iteration's block is left instead of
deferring (see CTX102). Calling a cancel func twice is harmless.

## Source
go vet's `lostcancel` analyzer (golang.org/x/tools/go/analysis/passes/lostcancel);
the `context` package docs ("Failing to call the CancelFunc leaks the child and its
children until the parent is canceled"); ollama/ollama#9431, grpc/grpc-go#2985.
"""

    def check(self, facts):
        if facts.is_test_code:
            return
        taken: dict[int, set[str]] = {}
        for d in facts.cancel_defs:
            if d.fn is None or d.cancel.type != "identifier":
                continue
            name = facts.text_of(d.cancel)
            if name == "_":
                if _costs_nothing(facts, d, None):
                    continue
                yield facts.finding(self, d.call, (
                    f"the cancel function returned by context.{d.func} is discarded with `_`; "
                    f"{_what_leaks(facts, d)} (context leak)"),
                    fix=self._fix_discarded(facts, d, taken.setdefault(d.fn.id, set())))
                continue
            if facts.is_main_main(d.fn):
                continue
            if d.form == "=" and not facts.declares(d.fn, name):
                continue  # a package var or a variable captured from an outer function
            cfg = facts.cfg(d.fn)
            if cfg is None:
                continue
            res = lost_cancel_path(facts, cfg, d, name)
            if res is None:
                continue
            kind, node = res
            stopped = None
            if kind == "stopped":
                kind, (node, stopped) = "return", node
            if not (kind != "return" and facts.is_inside(node, d.stmt)) and _costs_nothing(facts, d, node):
                continue
            if stopped is not None:
                where = (f"the end of the function on line {cfg.body.end_point[0] + 1}" if node == END
                         else f"the return on line {node.start_point[0] + 1}")
                handle = stopped_handles(facts, d, name).get(facts.text_of(stopped))
                via = f"`{facts.text_of(handle[0].child_by_field_name('function'))}`" if handle else "a timer"
                stop = stopped.parent.parent if stopped.parent.type == "selector_expression" else stopped.parent
                msg = (f"the cancel function `{name}` returned by context.{d.func} is handed only to {via}, and "
                       f"`{facts.text_of(stop)}` on line {stopped.start_point[0] + 1} stops it: {where} is then "
                       "reached without calling it (context leak)")
            elif kind == "return":
                if node == END:
                    where = f"the end of the function on line {cfg.body.end_point[0] + 1}"
                else:
                    where = f"the return on line {node.start_point[0] + 1}"
                msg = (f"the cancel function `{name}` returned by context.{d.func} is not called on every path: "
                       f"{where} can be reached without calling it (possible context leak)")
            elif facts.is_inside(node, d.stmt):
                msg = (f"the cancel function `{name}` returned by context.{d.func} is overwritten by the next "
                       "iteration of the loop before it is called (context leak)")
            else:
                msg = (f"the cancel function `{name}` returned by context.{d.func} is overwritten on line "
                       f"{node.start_point[0] + 1} before it is called (context leak)")
            yield facts.finding(self, d.call, msg, fix=self._fix_missed(facts, d, name))

    # fixes ------------------------------------------------------------------
    def _fix_discarded(self, facts, d, taken: set[str]) -> Fix | None:
        stmt = statement_of(d)
        if stmt is None or stmt.parent is None or stmt.parent.type != "statement_list":
            return None
        if d.stmt.type == "var_spec" and d.stmt.parent.type != "var_declaration":
            return None
        if not facts.starts_line(stmt) or not (facts.ends_line(stmt) or only_comment_after(facts, stmt)):
            return None
        if ctx_escapes(facts, d, include_go=True):
            return None  # the context outlives the call: its owner must get the cancel func
        name = free_name(facts, d.fn, taken)
        edits = [Edit(facts.char_offset(d.cancel.start_byte), facts.char_offset(d.cancel.end_byte), name)]
        if d.form == "=":
            functype = "CancelCauseFunc" if d.func.endswith("Cause") else "CancelFunc"
            start = facts.line_start_char(stmt.start_point[0])
            edits.append(Edit(start, start, facts.indent_of(stmt) + f"var {name} {ctx_type_prefix(facts)}{functype}\n"))
        call = f"{name}(nil)" if d.func == "WithCancelCause" else f"{name}()"
        if in_loop(facts, stmt, d.fn):
            if _escapes_its_loop(facts, d, stmt):
                return None  # per-iteration cancel would end a context kept past its iteration
            more = end_of_scope_cancel_edits(facts, stmt, name, ctx_name(facts, d), d.fn)
            if more is None or d.func == "WithCancelCause":
                return None
            edits.extend(more)
            desc = f"name the cancel func `{name}` and call it wherever the loop iteration's block is left"
        else:
            edits.append(insert_after_line(facts, stmt, f"defer {call}"))
            desc = f"name the cancel func `{name}` and `defer {call}`"
        return Fix(description=desc, safety=SAFE, edits=tuple(edits),
                   data=def_data(facts, d))

    def _fix_missed(self, facts, d, name: str) -> Fix | None:
        stmt = statement_of(d)
        if stmt is None or stmt.parent is None or stmt.parent.type != "statement_list":
            return None
        if not facts.starts_line(stmt) or not (facts.ends_line(stmt) or only_comment_after(facts, stmt)):
            return None
        if d.func == "WithCancelCause" or ctx_escapes(facts, d, include_go=False):
            return None
        # Every other reference must be a plain call in this very function: a cancel
        # func that escapes has an owner, and deferring it would cut that owner short.
        # A timer the function stops itself (`stopped_handles`) is no owner.
        timers = {v[0].id for v in stopped_handles(facts, d, name).values()}
        for ident in facts.identifiers(d.fn, name):
            if facts.is_inside(ident, d.stmt):
                continue
            call = deferred_call_of(facts, ident) if timers else None
            if call is not None and call[0].id in timers:
                continue
            p = ident.parent
            if p is not None and p.type == "var_spec":
                continue  # its declaration
            if p is not None and p.type == "expression_list" and ident_role(facts, ident, p, None) == "none":
                continue  # `_ = cancel`
            if p is None or p.type != "call_expression" or p.child_by_field_name("function") != ident:
                return None
            if facts.enclosing_function(ident).id != d.fn.id:
                return None
            gp = p.parent
            if gp is None or gp.type not in ("expression_statement", "defer_statement"):
                return None
        if in_loop(facts, stmt, d.fn):
            if _escapes_its_loop(facts, d, stmt):
                return None  # per-iteration cancel would end a context kept past its iteration
            edits = end_of_scope_cancel_edits(facts, stmt, name, ctx_name(facts, d), d.fn)
            if edits is None:
                return None
            desc = f"call `{name}()` wherever the loop iteration's block is left"
        else:
            edits = [insert_after_line(facts, stmt, f"defer {name}()")]
            desc = f"`defer {name}()` right after the context is created"
        return Fix(description=desc, safety=SAFE, edits=tuple(edits),
                   data=def_data(facts, d))


def _costs_nothing(facts, d, lost_at) -> bool:
    """Is the lost cancel func of `d` free of cost: a `WithCancel`/`WithCancelCause` of a
    never-done parent (`never_done`) whose context is not referenced between its
    creation and `lost_at` (the return or overwrite node; None or `END`: the end of the
    function)?"""
    if d.func not in ("WithCancel", "WithCancelCause"):
        return False  # a timer runs until the deadline
    args = d.call.child_by_field_name("arguments")
    if args is None or not args.named_children or not never_done(facts, args.named_children[0]):
        return False
    if d.ctx.type != "identifier":
        return False  # stored in a field or element: referenced by construction
    ctx = facts.text_of(d.ctx)
    if ctx == "_":
        return True
    end = d.fn.end_byte if lost_at is None or lost_at == END else lost_at.start_byte
    if end < d.stmt.end_byte:
        end = d.fn.end_byte  # reached round a loop: any later reference may lie on the path
    for ident in facts.identifiers(d.fn, ctx):
        if d.stmt.end_byte <= ident.start_byte < end and not _is_assigned(ident):
            return False
    return True


def _what_leaks(facts, d) -> str:
    """What a discarded cancel func of `d` keeps alive, in words for the message."""
    if "Timeout" in d.func or "Deadline" in d.func:
        return "the context and its timer live until the deadline passes or the parent is cancelled"
    args = d.call.child_by_field_name("arguments")
    if args is not None and args.named_children and never_done(facts, args.named_children[0]):
        return "nothing can ever cancel the context, so whatever waits on its Done() waits forever"
    return "the context stays registered with its parent until the parent is cancelled"


def _is_assigned(ident) -> bool:
    """Is `ident` a target of a plain `=` assignment (a write, not a reference)?"""
    lst = ident.parent
    stmt = lst.parent if lst is not None and lst.type == "expression_list" else None
    return stmt is not None and stmt.type == "assignment_statement" \
        and stmt.child_by_field_name("left") == lst \
        and any(c.type == "=" for c in stmt.children)


def _escapes_its_loop(facts, d, stmt) -> bool:
    """Does the context of `d` (made inside a loop) outlive its iteration (`loop_escape`)?"""
    for a in facts.ancestors(stmt):
        if a.id == d.fn.id:
            return False
        if a.type in LOOP_TYPES:
            return loop_escape(facts, d, a, strict=True) is not None
    return False
