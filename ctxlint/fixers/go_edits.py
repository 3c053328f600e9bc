"""Go fix edits: character-range edits into the text a rule saw (the fix contract
in DESIGN.md), written so that the result stays gofmt-clean: whole lines are
inserted with the indentation of the line they follow, and a removed `defer`
takes its whole line.

- `end_of_scope_cancel_edits`: call `cancel()` wherever control leaves a
  statement list (CTX101 in a loop, CTX102);
- `free_name`, `insert_after_line`, `only_comment_after`, `ctx_type_prefix`,
  `def_data`: small helpers the CTX101/CTX102 fix hooks share.
"""

from __future__ import annotations

from ctxlint.findings import Edit
from ctxlint.languages.go import FUNC_TYPES, LOOP_TYPES, SWITCH_TYPES
from ctxlint.semantic.go.cancel import statement_of


def free_name(facts, fn, taken: set[str], base: str = "cancel") -> str:
    """A name not used anywhere in `fn` nor chosen by an earlier fix in it (`taken`)."""
    for cand in (base, *(f"{base}{i}" for i in range(2, 100))):
        if cand not in taken and not any(True for _ in facts.identifiers(fn, cand)):
            taken.add(cand)
            return cand
    return base + "_"


def _eol(facts, row: int) -> int:
    """Character offset of the end of 0-based line `row` (before its newline)."""
    return facts.line_start_char(row) + len(facts.line_text(row))


def insert_after_line(facts, stmt, text: str) -> Edit:
    """An Edit inserting `text` on a new line after `stmt`'s last line, with `stmt`'s indentation."""
    return Edit(_eol(facts, stmt.end_point[0]), _eol(facts, stmt.end_point[0]), "\n" + facts.indent_of(stmt) + text)


def _break_target(facts, node):
    """The statement a break/continue leaves: labelled, or the innermost for (continue)
    or for/switch/select (break)."""
    label = next((c for c in node.named_children if c.type == "label_name"), None)
    want = LOOP_TYPES if node.type == "continue_statement" else LOOP_TYPES + SWITCH_TYPES
    if label is not None:
        name = facts.text_of(label)
        for a in facts.ancestors(node):
            if a.type in FUNC_TYPES:
                return None
            if a.type == "labeled_statement":
                ln = a.child_by_field_name("label")
                if ln is not None and facts.text_of(ln) == name:
                    inner = [c for c in a.named_children if c.type not in ("label_name", "comment")]
                    return inner[0] if inner else None
        return None
    for a in facts.ancestors(node):
        if a.type in FUNC_TYPES:
            return None
        if a.type in want:
            return a
    return None


def _terminates(facts, stmt) -> bool:
    t = stmt.type
    if t in ("return_statement", "break_statement", "continue_statement", "goto_statement", "fallthrough_statement"):
        return True
    if t == "expression_statement" and stmt.named_children:
        return facts.is_noreturn_call(stmt.named_children[0])
    return False


def _assigned_names(facts, nodes) -> set[str]:
    out: set[str] = set()
    for top in nodes:
        for n in facts.walk(top, into_funcs=False):
            if n.type in ("short_var_declaration", "assignment_statement", "range_clause", "receive_statement"):
                left = n.child_by_field_name("left")
                if left is not None:
                    out.update(facts.text_of(c) for c in left.named_children if c.type == "identifier")
            elif n.type == "var_spec":
                out.update(facts.text_of(c) for c in n.children_by_field_name("name"))
    return out


def _return_is_safe(facts, ret, derived: set[str], ctx_name: str | None) -> bool:
    """May `cancel()` run before this return's expressions are evaluated?

    Yes when no call in them can reach the per-iteration context: a call that
    mentions a name assigned after the context was made (the context, a stream
    or request built from it) is unsafe, unless it is a package-level function
    (`fmt.Errorf("...: %w", err)`) whose arguments do not mention the context.
    """
    for n in facts.walk(ret, into_funcs=True):
        if n.type == "func_literal":
            return False
        if n.type != "call_expression":
            continue
        f = n.child_by_field_name("function")
        names = {facts.text_of(i) for i in facts.walk(n) if i.type == "identifier"}
        pkg_func = (f is not None and f.type == "selector_expression"
                    and (op := f.child_by_field_name("operand")) is not None and op.type == "identifier"
                    and facts.text_of(op) in facts.imports and facts.text_of(op) not in derived)
        if pkg_func:
            if ctx_name and ctx_name in names:
                return False
            continue
        if names & derived:
            return False
    return True


def end_of_scope_cancel_edits(facts, anchor, name: str, ctx_name: str | None, fn) -> list[Edit] | None:
    """Edits that call `name()` wherever control leaves the statement list of
    `anchor` after it: before each return, before each break/continue/fallthrough
    that leaves the list, and after its last statement.

    Returns None (no safe fix) when the list is not a plain statement list, holds a
    goto, or a return whose expressions may still use the context (see
    `_return_is_safe`), or when an exit does not start its own line.
    """
    region = anchor.parent
    if region is None or region.type != "statement_list":
        return None
    stmts = [c for c in region.named_children if c.type != "comment"]
    try:
        i = next(k for k, s in enumerate(stmts) if s.id == anchor.id)
    except StopIteration:
        return None
    after = stmts[i + 1:]
    derived = _assigned_names(facts, stmts[: i + 1]) | _assigned_names(facts, after)
    derived.discard("_")
    exits = []
    for top in after:
        for n in facts.walk(top, into_funcs=False):
            t = n.type
            if t == "goto_statement":
                return None
            if t == "return_statement":
                if not _return_is_safe(facts, n, derived, ctx_name):
                    return None
                exits.append(n)
            elif t in ("break_statement", "continue_statement"):
                target = _break_target(facts, n)
                if target is None:
                    return None
                if not facts.is_inside(target, region):
                    exits.append(n)
            elif t == "fallthrough_statement":
                case = n.parent.parent if n.parent is not None else None
                if n.parent is not None and n.parent.id == region.id or case is not None and not facts.is_inside(case, region):
                    exits.append(n)
    def calls_it(st) -> bool:
        return st is not None and st.type == "expression_statement" and facts.text_of(st).replace(" ", "") == f"{name}()"

    edits = []
    for x in exits:
        if not facts.starts_line(x) or x.parent is None or x.parent.type != "statement_list":
            return None
        prev = x.prev_named_sibling
        while prev is not None and prev.type == "comment":
            prev = prev.prev_named_sibling
        if calls_it(prev):
            continue  # already cancelled right before leaving
        start = facts.line_start_char(x.start_point[0])
        edits.append(Edit(start, start, facts.indent_of(x) + f"{name}()\n"))
    last = stmts[-1]
    if not _terminates(facts, last) and not calls_it(last):
        if not facts.ends_line(last) and facts.text_of(last).count("\n") == 0 and not only_comment_after(facts, last):
            return None
        edits.append(Edit(_eol(facts, last.end_point[0]), _eol(facts, last.end_point[0]),
                          "\n" + facts.indent_of(anchor) + f"{name}()"))
    return edits


def only_comment_after(facts, node) -> bool:
    """Is there only a `//` comment after `node` on its last line?"""
    rest = facts.line_text(node.end_point[0])[facts.char_col(node.end_point):].strip()
    return rest.startswith("//")


def ctx_type_prefix(facts) -> str:
    """The local qualifier of package context (`context.`, `stdctx.`), or '' for a dot import."""
    names = sorted(facts.context_names)
    return f"{names[0]}." if names else ""


def def_data(facts, d) -> dict:
    """What a fixer needs beyond the edits: the WithX call, the assignment and the
    cancel target (`_` or the name), 1-based lines and 0-based character columns."""
    stmt = statement_of(d) or d.stmt
    return {"line": d.call.start_point[0] + 1, "col": facts.char_col(d.call.start_point),
            "stmt_line": stmt.start_point[0] + 1, "stmt_col": facts.char_col(stmt.start_point),
            "cancel_line": d.cancel.start_point[0] + 1, "cancel_col": facts.char_col(d.cancel.start_point),
            "cancel": facts.text_of(d.cancel), "form": d.form, "func": d.func}


def ctx_name(facts, d) -> str | None:
    """The name the context of cancel def `d` is bound to, or None (`_`, a field)."""
    return facts.text_of(d.ctx) if d.ctx.type == "identifier" and facts.text_of(d.ctx) != "_" else None
