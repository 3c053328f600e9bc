"""Python codemods: libcst rewrites for the fixable Python findings.

Each codemod is registered by the name a rule puts in `Fix.codemod` (the fix
contract in DESIGN.md) and is called as `codemod(ctx, data) -> str` on a
`ModuleContext` (the file parsed once with libcst, with positions and parents
resolved). `data["line"]` (1-based) and `data["col"]` (0-based `ast` column, in
UTF-8 bytes) locate the anchor node; the other keys are codemod-specific.

The rules of the house (as in LibCST's own codemods and Fixit's autofixes):
only the edited node is rebuilt, so comments and formatting elsewhere survive;
an import is added once, in the file's style (`import m` is reused when present,
else `from m import name`); new names (tokens, handles, task sets) never clash
with a name the scope already uses; and a codemod that cannot rewrite the code
without changing what it means raises `FixNotApplicable` instead of guessing.

Imported only by `ctxlint.fixers` when `--fix`/`--diff` or an LSP code action
needs it, so plain `ctxlint check` never imports libcst.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Sequence

import libcst as cst
from libcst.metadata import PositionProvider

from ctxlint.fixers.base import FixNotApplicable, NeedFullModule

Codemod = Callable[["ModuleContext", dict], str]
CODEMODS: dict[str, Codemod] = {}


def codemod(name: str):
    """Register a codemod under the name rules use in `Fix.codemod`."""
    def deco(fn: Codemod) -> Codemod:
        CODEMODS[name] = fn
        return fn
    return deco


def apply(ctx: "ModuleContext", name: str | None, data: dict) -> str:
    """Run codemod `name` with `data` on `ctx`; returns the new source text.

    Raises:
        FixNotApplicable: unknown codemod, missing anchor, or code the codemod
            cannot rewrite safely.
    """
    fn = CODEMODS.get(name or "")
    if fn is None:
        raise FixNotApplicable(f"unknown codemod {name!r}")
    if "line" not in data or "col" not in data:
        raise FixNotApplicable("fix data has no anchor line/col")
    global _ACTIVE
    saved, _ACTIVE = _ACTIVE, ctx
    ctx.described = None  # a codemod that picks among rewrites says which one here
    try:
        return fn(ctx, data)
    finally:
        _ACTIVE = saved


#: The context of the codemod running now (`apply`): `add_import` and
#: `drop_unused_import` take only a module, and ask it about words outside a window.
_ACTIVE: "ModuleContext | None" = None
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _outside(name: str) -> bool:
    """Does `name` occur in the file outside the window being rewritten?"""
    return _ACTIVE is not None and _ACTIVE.outside is not None and name in _ACTIVE.outside


# ====================================================================== windows
#: The comment line a window puts between the import block and the statement it
#: rewrites, so the two parts of the codemod's output can be told apart.
_BOUNDARY = "# ctxlint: window boundary (not in the file)"


class Window:
    """A part of a module that libcst parses instead of the whole file: the
    module's leading import block (with its docstring) and the one top-level
    statement (with the comments and blank lines before it) that holds the
    anchor. Parsing, metadata and printing then cost what that statement costs,
    not what the file costs (the `--fix`/`--diff` speed target in issue 12).

    The codemod sees a `ModuleContext` of the window whose `outside` counts the
    words of the rest of the file, so new names never clash with them, an import
    used elsewhere is never dropped, and a codemod that looks for a module-level
    helper or name it cannot see raises `NeedFullModule` (the fixer then runs it
    on the whole file). Its output is split at the boundary line and each part is
    diffed against its own lines; the edits are offsets into the real text.
    """

    def __init__(self, rt, header: tuple[int, int] | None, chunk: tuple[int, int]):
        self.rt = rt
        self.header = header  # (1, H) real lines, or None
        self.chunk = chunk    # (first, last) real lines

    @classmethod
    def around(cls, rt, data: dict) -> "Window | None":
        """The window around `data["line"]` in the round's text `rt` (a
        `fixers._Text` with an `ast` tree), or None where the anchor is outside
        any top-level statement or shares its line with another one."""
        try:
            line = int(data["line"])
        except (KeyError, TypeError, ValueError):
            return None
        body = rt.tree.body
        cache = rt.__dict__.setdefault("_window_index", {})
        if not cache:
            header_end = 0
            for i, n in enumerate(body):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    break
                if isinstance(n, (ast.Import, ast.ImportFrom)) or (
                        i == 0 and isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
                        and isinstance(n.value.value, str)):
                    header_end = n.end_lineno or n.lineno
            cache["header_end"] = header_end
            cache["firsts"] = [min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", ())]) for n in body]
        header_end, firsts = cache["header_end"], cache["firsts"]
        i = bisect.bisect_right(firsts, line) - 1
        if i < 0:
            return None
        n = body[i]
        first, last = firsts[i], n.end_lineno or n.lineno
        if not first <= line <= last:
            return None
        if i + 1 < len(body) and body[i + 1].lineno == last:
            return None  # `a; b` on one line
        prev_end = (body[i - 1].end_lineno or body[i - 1].lineno) if i else 0
        if prev_end and prev_end == first:
            return None
        if first <= header_end + 1 or prev_end <= header_end:
            return cls(rt, None, (1, max(last, header_end)))
        return cls(rt, (1, header_end) if header_end else None, (prev_end + 1, last))

    def outside_match(self, pattern: str) -> bool:
        """Does `pattern` (re.M) match somewhere in the file outside the window?"""
        spans = [self._span(*self.chunk)] + ([self._span(*self.header)] if self.header else [])
        return any(not any(a <= pos < b for a, b in spans) for pos in self.rt.matches(pattern))

    def _lines(self, first: int, last: int) -> str:
        starts = self.rt.starts
        a = starts[first - 1]
        b = starts[last] if last < len(starts) else len(self.rt.text)
        out = self.rt.text[a:b]
        return out if out.endswith("\n") or not out else out + "\n"

    def _span(self, first: int, last: int) -> tuple[int, int]:
        starts = self.rt.starts
        return starts[first - 1], (starts[last] if last < len(starts) else len(self.rt.text))

    def run(self, name: str | None, data: dict, path: str | None = None) -> list:
        """Run codemod `name` on the window; returns `Edit`s on the real text.

        Raises FixNotApplicable (the codemod refuses, or its output does not
        parse) and NeedFullModule (the window is not enough)."""
        from ctxlint.findings import Edit
        from ctxlint.fixers.base import edits_between
        head = self._lines(*self.header) if self.header else ""
        body = self._lines(*self.chunk)
        if self.header:
            synth = head + _BOUNDARY + "\n" + body
            shift = self.chunk[0] - (self.header[1] + 2)  # real line = synthetic line + shift
        else:
            synth = body
            shift = self.chunk[0] - 1
        outside = _Outside(self.rt.words(), Counter(_WORD.findall(synth)))
        local = dict(data)
        for key, value in data.items():
            if key in ("line", "end_line") or key.endswith("_line"):
                try:
                    local[key] = int(value) - shift
                except (TypeError, ValueError):
                    pass
        if isinstance(data.get("_end"), (tuple, list)) and len(data["_end"]) == 2:
            local["_end"] = (int(data["_end"][0]) - shift, data["_end"][1])
        ctx = ModuleContext(synth, path=path, outside=outside)
        ctx.outside_match = self.outside_match
        new = apply(ctx, name, local)
        if new == synth:
            return []
        try:
            ast.parse(new)
        except (SyntaxError, ValueError, RecursionError):
            raise FixNotApplicable("the result does not parse") from None
        if not self.header:
            a, b = self._span(*self.chunk)
            out = WindowEdits(Edit(a + e.start, a + e.end, e.text) for e in edits_between(body, new))
            out.description = ctx.described
            return out
        marker = "\n" + _BOUNDARY + "\n"
        if new.count(marker) != 1 and not new.startswith(_BOUNDARY + "\n"):
            raise NeedFullModule("the window boundary moved")
        if new.startswith(_BOUNDARY + "\n"):
            new_head, new_body = "", new[len(_BOUNDARY) + 1:]
        else:
            new_head, new_body = new.split(marker)
            new_head += "\n"
        out: list = []
        ha, _ = self._span(*self.header)
        out += [Edit(ha + e.start, ha + e.end, e.text) for e in edits_between(head, new_head)]
        ba, _ = self._span(*self.chunk)
        for e in edits_between(body, new_body):
            if e.start == 0 and e.end == 0:
                # an insertion before the statement's leading lines belongs after the imports
                out.append(Edit(ba, ba, e.text))
            else:
                out.append(Edit(ba + e.start, ba + e.end, e.text))
        out = WindowEdits(out)
        out.description = ctx.described
        return out


class WindowEdits(list):
    """Edits made on a `Window` (already parse-checked with their whole statement);
    `description`: what the codemod said it wrote (`ModuleContext.described`), or None."""

    from_window = True
    description: str | None = None


class _Outside:
    """The words of a file outside a window, as a lazy `in` test (total count
    minus the count inside the window)."""

    def __init__(self, total, inside) -> None:
        self.total = total
        self.inside = inside

    def __contains__(self, word: object) -> bool:
        return self.total.get(word, 0) > self.inside.get(word, 0)


class _Names:
    """A set of names plus, in a window, the words outside it: supports `in` and `|`."""

    def __init__(self, names: set, outside=None) -> None:
        self.names = names
        self.outside = outside

    def __contains__(self, name: object) -> bool:
        return name in self.names or (self.outside is not None and name in self.outside)

    def __or__(self, other) -> "_Names":
        return _Names(self.names | set(other), self.outside)


def _metadata(module: cst.Module) -> tuple[dict, dict]:
    """(positions, parents) of every node of `module`: what libcst's
    `PositionProvider` and `ParentNodeProvider` compute, without a
    `MetadataWrapper` (whose batched visitor costs a reflective method scan per
    call: it dominated `--fix` on files with many fixes)."""
    from libcst.metadata.position_provider import PositionProvidingCodegenState
    provider = PositionProvider()
    state = PositionProvidingCodegenState(default_indent=module.default_indent,
                                          default_newline=module.default_newline, provider=provider)
    module._codegen(state)
    walker = _ParentWalker()
    module.visit(walker)
    return provider._computed, walker.parents


class _ParentWalker(cst.CSTVisitor):
    """Records each node's parent (overrides the dispatching hooks: no per-node lookups)."""

    def __init__(self) -> None:
        self.parents: dict = {}
        self.stack: list = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self.stack:
            self.parents[node] = self.stack[-1]
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()

    def on_visit_attribute(self, node, attribute) -> None:
        return None

    def on_leave_attribute(self, original_node, attribute) -> None:
        return None


# ====================================================================== context
class ModuleContext:
    """A source file parsed once with libcst, with positions and parent links.

    Args:
        text: the decoded, LF-normalised source (the whole file, or a `Window` of it).
        path: the file's path (a codemod may read the project files beside it), or None.
        outside: for a window, word -> count of the words of the file outside it
            (None: `text` is the whole file).
    Raises:
        FixNotApplicable: libcst cannot parse the text.
    """

    def __init__(self, text: str, path: str | None = None, outside: dict | None = None):
        self.text = text
        self.path = path
        self.outside = outside
        #: What the last codemod run on this context wrote, when it chose among several
        #: rewrites (CTX401: a WeakValueDictionary, cachetools.LRUCache or a generated
        #: `_BoundedDict`): the fix's description in every report (`confirm_fixes`).
        self.described: str | None = None
        self.outside_match: Callable[[str], bool] = lambda pattern: False
        try:
            self.module = cst.parse_module(text)
        except (cst.ParserSyntaxError, RecursionError, ValueError) as exc:
            raise FixNotApplicable(f"libcst cannot parse the file ({type(exc).__name__})") from None
        self.positions, self.parents = _metadata(self.module)
        self.lines = text.split("\n")
        self._by_start: dict[tuple[int, int], list[cst.CSTNode]] | None = None

    # ---------------------------------------------------------------- lookup
    def char_col(self, line: int, byte_col: int) -> int:
        """`ast` columns count UTF-8 bytes; libcst columns count characters."""
        if not 0 < line <= len(self.lines):
            return byte_col
        return len(self.lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def find(self, data: dict, types: tuple[type, ...], what: str,
             pred: Callable[[cst.CSTNode], bool] | None = None) -> cst.CSTNode:
        """The node of one of `types` (and satisfying `pred`) starting at the anchor of `data`.

        `ast` puts a parenthesised node's column on its `(`, libcst after it, so
        opening parentheses at the anchor are skipped. Among nodes starting at
        the same place (`Template(s).render()` and `Template(s)`), one ending
        where the finding ends (`data["_end"]`, when given) wins, else the
        outermost. Raises FixNotApplicable when there is none (the file changed,
        or the anchor names another kind of node).
        """
        line = int(data["line"])
        col = self.char_col(line, int(data["col"]))
        if self._by_start is None:
            idx: dict[tuple[int, int], list[cst.CSTNode]] = {}
            for node, rng in self.positions.items():
                idx.setdefault((rng.start.line, rng.start.column), []).append(node)
            self._by_start = idx
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        cands: list[cst.CSTNode] = []
        c = col
        while True:
            cands = [n for n in self._by_start.get((line, c), ())
                     if isinstance(n, types) and (pred is None or pred(n))]
            if cands or c >= len(text) or text[c] not in "( \t":
                break
            c += 1
        if not cands:
            # `ast` starts a parenthesised node at its `(`; libcst after it.
            for lp in self._by_start.get((line, col), ()):
                owner = self.parents.get(lp) if isinstance(lp, cst.LeftParen) else None
                if owner is not None and isinstance(owner, types) and getattr(owner, "lpar", None) \
                        and owner.lpar[0] is lp and (pred is None or pred(owner)):
                    cands.append(owner)
        if not cands and pred is not None:
            return self.find(data, types, what)
        if not cands:
            raise FixNotApplicable(f"no {what} at {line}:{col + 1}")
        end = data.get("_end")
        if "end_line" in data and "end_col" in data:
            end = (int(data["end_line"]), self.char_col(int(data["end_line"]), int(data["end_col"])))
        if end:
            exact = [n for n in cands if (self.positions[n].end.line, self.positions[n].end.column) == tuple(end)]
            if exact:
                cands = exact
        # Outermost first: `a.b.c(x)` and its `a.b.c` start at the same place.
        cands.sort(key=lambda n: -self._size(n))
        return cands[0]

    def _size(self, node: cst.CSTNode) -> int:
        r = self.positions[node]
        return (r.end.line - r.start.line) * 10_000 + (r.end.column - r.start.column)

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The node's parent in the module's tree (None for the module itself)."""
        return self.parents.get(node)

    def ancestors(self, node: cst.CSTNode) -> Iterable[cst.CSTNode]:
        """The node's parents, innermost first, up to the module."""
        p = self.parents.get(node)
        while p is not None:
            yield p
            p = self.parents.get(p)

    def code(self, node: cst.CSTNode) -> str:
        """The node's source text as libcst renders it (`Module.code_for_node`)."""
        return self.module.code_for_node(node)

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        """The innermost def (sync or async) around `node`, or None at module level."""
        for a in self.ancestors(node):
            if isinstance(a, cst.FunctionDef):
                return a
        return None

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        """The innermost class around `node`, or None."""
        for a in self.ancestors(node):
            if isinstance(a, cst.ClassDef):
                return a
        return None

    def statement_line(self, node: cst.CSTNode) -> tuple[cst.BaseSmallStatement, cst.SimpleStatementLine]:
        """The small statement holding `node` and its line, which must hold only it.

        Raises FixNotApplicable for `a; b` lines and `if x: stmt` suites: the
        codemods rewrite whole lines.
        """
        small = None
        for a in [node, *self.ancestors(node)]:
            if isinstance(a, cst.BaseSmallStatement):
                small = a
                continue
            if small is not None:
                if isinstance(a, cst.SimpleStatementLine) and len(a.body) == 1:
                    return small, a
                raise FixNotApplicable("the statement shares its line with others")
            if isinstance(a, (cst.BaseCompoundStatement, cst.Lambda)):
                break
        raise FixNotApplicable("the anchor is not a simple statement")

    def block_of(self, stmt: cst.CSTNode) -> tuple[cst.CSTNode, int]:
        """(block, index) of a statement in its block (`Module` or `IndentedBlock`)."""
        blk = self.parent(stmt)
        if not isinstance(blk, (cst.Module, cst.IndentedBlock)):
            raise FixNotApplicable("the statement is not in an indented block")
        for i, s in enumerate(blk.body):
            if s is stmt:
                return blk, i
        raise FixNotApplicable("statement not found in its block")

    def statement_in_block(self, node: cst.CSTNode) -> cst.CSTNode:
        """The statement (line or compound) containing `node` whose parent is a block."""
        for a in [node, *self.ancestors(node)]:
            if isinstance(self.parent(a), (cst.Module, cst.IndentedBlock)) and isinstance(
                    a, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                return a
        raise FixNotApplicable("no enclosing statement")

    # ----------------------------------------------------------------- names
    def scope_names(self, node: cst.CSTNode) -> set[str]:
        """Names a new local next to `node` must not clash with: every name in
        the enclosing function (or the module) plus every module-level name."""
        scope = self.enclosing_function(node) or self.module
        return _Names(names_in(scope) | module_names(self.module), self.outside)

    def module_words(self) -> set[str]:
        """Every name of the module (a window's, plus the words of the file outside it)."""
        return _Names(names_in(self.module), self.outside)

    def need_full(self, what: str) -> None:
        """In a window, raise `NeedFullModule` when `what` occurs outside it."""
        if self.outside is not None and any(w in self.outside for w in _WORD.findall(what)):
            raise NeedFullModule(what)

    def replace(self, old: cst.CSTNode, new: cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel) -> cst.Module:
        """A new module with `old` (a node of this module, by identity) replaced
        by `new` (`deep_replace`; a sentinel removes or splices). `self` is unchanged."""
        if old is self.module:
            return new  # type: ignore[return-value]
        return self.module.deep_replace(old, new)  # type: ignore[return-value]


def names_in(node: cst.CSTNode) -> set[str]:
    """Every identifier (`cst.Name`) in a subtree."""
    out: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            out.add(n.value)

    node.visit(V())
    return out


def module_names(module: cst.Module) -> set[str]:
    """Names bound by top-level statements (assignments, defs, classes, imports)."""
    out: set[str] = set()
    for s in module.body:
        if isinstance(s, (cst.FunctionDef, cst.ClassDef)):
            out.add(s.name.value)
        elif isinstance(s, cst.SimpleStatementLine):
            for small in s.body:
                if isinstance(small, cst.Assign):
                    for t in small.targets:
                        out |= names_in(t.target)
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    out |= names_in(small.target)
                elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for a in small.names:
                        if a.asname is not None:
                            out |= names_in(a.asname)
                        else:
                            out.add(_dotted(a.name).split(".")[0])
        else:
            out |= names_in(s)
    return out


def free_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_1`, `base_2`, ... — the first one not in `taken`."""
    if base not in taken:
        return base
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def _dotted(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _attr_is(call: cst.Call, *names: str) -> bool:
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in names


def expr(code: str) -> cst.BaseExpression:
    """Parse one expression. Raises `libcst.ParserSyntaxError` on bad code."""
    return cst.parse_expression(code)


def stmt(code: str, module: cst.Module) -> cst.BaseStatement:
    """Parse one statement written with 4-space indents, re-indented in the file's style."""
    indent = module.default_indent
    if indent != "    ":
        code = re.sub(r"(?m)^((?:    )+)", lambda m: indent * (len(m.group(1)) // 4), code)
    return cst.parse_statement(code.rstrip("\n") + "\n", config=module.config_for_parsing)


# ====================================================================== imports
def _import_insert_index(module: cst.Module) -> int:
    """Index after the leading import block (after the docstring and __future__)."""
    idx = 0
    for i, s in enumerate(module.body):
        if isinstance(s, (cst.FunctionDef, cst.ClassDef)):
            break
        if isinstance(s, cst.SimpleStatementLine):
            if all(isinstance(b, (cst.Import, cst.ImportFrom)) for b in s.body):
                idx = i + 1
            elif i == 0 and len(s.body) == 1 and isinstance(s.body[0], cst.Expr) and isinstance(
                    s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)) and idx == 0:
                idx = 1
    return idx


def insert_top(module: cst.Module, new: Sequence[cst.BaseStatement], index: int | None = None,
               blank_before: int = 0) -> cst.Module:
    """Insert top-level statements at `index` (default: after the imports)."""
    i = _import_insert_index(module) if index is None else index
    body = list(module.body)
    new = list(new)
    if not new:
        return module
    if blank_before and i > 0:
        new[0] = new[0].with_changes(leading_lines=[cst.EmptyLine()] * blank_before)
    elif i == 0 and body and not module.header and body[0].leading_lines:
        new[0] = new[0].with_changes(leading_lines=body[0].leading_lines)
        body[0] = body[0].with_changes(leading_lines=())
    if i < len(body) and blank_before:
        # Blank lines go in front of the next statement's comments, never in their place.
        ll = list(body[i].leading_lines)
        k = 1 if ll and ll[0].comment is not None and ll[0].comment.value == _BOUNDARY else 0
        blanks = 0
        while k + blanks < len(ll) and ll[k + blanks].comment is None:
            blanks += 1
        if blanks < blank_before:
            ll[k:k] = [cst.EmptyLine()] * (blank_before - blanks)
            body[i] = body[i].with_changes(leading_lines=ll)
    body[i:i] = new
    return module.with_changes(body=body)


def insert_import(module: cst.Module, code: str, kind: str, modname: str) -> cst.Module:
    """Add the top-level import statement `code` where isort sorts it in the module's
    leading import block (`style.import_slot`, ruff's defaults), so the project's
    `ruff check --select I` stays clean; after the block (`insert_top`) when the module
    has no import block yet. kind: "import" | "from"; modname: the dotted module."""
    from ctxlint.fixers.style import import_slot
    body = list(module.body)
    idxs: list[int] = []
    entries: list[tuple[str, str, bool]] = []
    for i, s in enumerate(body):
        if i == 0 and isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(
                s.body[0], cst.Expr) and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
            continue
        if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                and isinstance(s.body[0], (cst.Import, cst.ImportFrom))):
            break
        small = s.body[0]
        if isinstance(small, cst.Import):
            k, m = "import", _dotted(small.names[0].name)
        else:
            k, m = "from", "." * len(small.relative) + (_dotted(small.module) if small.module is not None else "")
        starts = not idxs or bool(s.leading_lines)
        idxs.append(i)
        entries.append((k, m, starts))
    new = stmt(code, module)
    if not entries:
        return insert_top(module, [new])
    k, how = import_slot(entries, kind, modname)
    if k < len(idxs):
        pos = idxs[k]
        here = body[pos]
        if how == "new_before":
            new = new.with_changes(leading_lines=here.leading_lines)
            body[pos] = here.with_changes(leading_lines=[cst.EmptyLine()])
        elif entries[k][2]:  # first of its group: it takes the group's leading lines
            new = new.with_changes(leading_lines=here.leading_lines)
            body[pos] = here.with_changes(leading_lines=())
    else:
        pos = idxs[-1] + 1
        if how == "new_after":
            new = new.with_changes(leading_lines=[cst.EmptyLine()])
    body.insert(pos, new)
    return module.with_changes(body=body)


def add_import(module: cst.Module, modname: str, attr: str | None = None) -> tuple[cst.Module, str]:
    """Make `modname.attr` (or the module itself) importable once; return (module, reference text).

    Reuses `from modname import attr [as x]` and `import modname [as x]`; adds
    `attr` to an existing `from modname import ...`; widens the file's own
    `import pkg` to `import pkg.sub` for a submodule of an imported package
    (`modname.attr` is then used, as the file writes `pkg.X`); else adds
    `from modname import attr` (or `import modname` for a module reference, or
    when `attr` would clash with another top-level name).
    """
    existing_from = None
    bound = module_names(module)
    # In a window, an import or a name defined elsewhere in the file decides the answer.
    for word in {modname.split(".")[0], attr or ""} - {""}:
        if _outside(word):
            raise NeedFullModule(f"{word} occurs outside the window")
    for s in module.body:
        if not isinstance(s, cst.SimpleStatementLine):
            continue
        for small in s.body:
            if isinstance(small, cst.Import):
                for a in small.names:
                    if _dotted(a.name) == modname:
                        ref = a.asname.name.value if a.asname is not None else modname  # type: ignore[union-attr]
                        return module, f"{ref}.{attr}" if attr else ref
            elif isinstance(small, cst.ImportFrom) and small.relative == () and small.module is not None \
                    and _dotted(small.module) == modname:
                if isinstance(small.names, cst.ImportStar):
                    if attr:
                        return module, attr
                    continue
                for a in small.names:
                    if attr and _dotted(a.name) == attr:
                        return module, a.asname.name.value if a.asname is not None else attr  # type: ignore[union-attr]
                existing_from = (s, small)
    top = modname.split(".")[0]
    if "." in modname and existing_from is None:
        # `import jinja2` style: `import jinja2.sandbox` binds `jinja2` too, so the
        # file's own import line is widened in place (no new line, same style).
        for s in module.body:
            if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Import):
                names = list(s.body[0].names)
                for k, a in enumerate(names):
                    if a.asname is None and _dotted(a.name) == top:
                        names[k] = a.with_changes(name=expr(modname))
                        new_line = s.with_changes(body=[s.body[0].with_changes(names=names)])
                        module = module.with_changes(body=[new_line if b is s else b for b in module.body])
                        return module, f"{modname}.{attr}" if attr else modname
    if attr and attr not in bound:
        if existing_from is not None:
            line, small = existing_from
            names = list(small.names)  # type: ignore[arg-type]
            last = names[-1]
            before = names[-2].comma.whitespace_after if len(names) > 1 and isinstance(names[-2].comma, cst.Comma) \
                else cst.SimpleWhitespace(" ")
            sep = before if isinstance(before, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
            if isinstance(last.comma, cst.Comma):  # `from m import (\n    a,\n    b,\n)`
                mine, new_ws = _split_trailing(last.comma.whitespace_after, sep)
                names[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=mine))
                names.append(cst.ImportAlias(name=cst.Name(attr), comma=last.comma.with_changes(whitespace_after=new_ws)))
            else:
                names[-1] = last.with_changes(comma=cst.Comma(whitespace_after=sep))
                names.append(cst.ImportAlias(name=cst.Name(attr)))
            new_small = small.with_changes(names=names)
            new_line = line.with_changes(body=[new_small if b is small else b for b in line.body])
            return module.deep_replace(line, new_line), attr  # type: ignore[return-value]
        return insert_import(module, f"from {modname} import {attr}", "from", modname), attr
    if top in bound and not any(
            isinstance(s, cst.SimpleStatementLine) and any(isinstance(b, cst.Import) for b in s.body)
            and top in names_in(s) for s in module.body):
        raise FixNotApplicable(f"cannot import {modname}: the name {top!r} is taken")
    module = insert_import(module, f"import {modname}", "import", modname)
    return module, f"{modname}.{attr}" if attr else modname


def drop_unused_import(module: cst.Module, name: str) -> cst.Module:
    """Remove `name` from top-level `from m import ...` lines when a rewrite left it unused."""
    uses = 0

    class V(cst.CSTVisitor):
        def visit_ImportFrom(self, node) -> bool:
            return False

        def visit_Import(self, node) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal uses
            uses += node.value == name

    module.visit(V())
    code = module.code
    if uses or _outside(name) or f'"{name}"' in code or f"'{name}'" in code:  # still used, or re-exported by `__all__`
        return module
    body = list(module.body)
    for k, s in enumerate(body):
        if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.ImportFrom)
                and not isinstance(s.body[0].names, cst.ImportStar)):
            continue
        names = list(s.body[0].names)
        keep = [a for a in names if not (a.asname is None and _dotted(a.name) == name)]
        if len(keep) == len(names):
            continue
        if not keep:
            if s.leading_lines and any(line.comment for line in s.leading_lines):
                continue  # a commented import line stays; the linter of choice reports it
            if k + 1 < len(body) and s.leading_lines and not body[k + 1].leading_lines:
                body[k + 1] = body[k + 1].with_changes(leading_lines=s.leading_lines)
            del body[k]
            return module.with_changes(body=body)
        if names[-1] not in keep:
            keep[-1] = keep[-1].with_changes(comma=names[-1].comma)
        body[k] = s.with_changes(body=[s.body[0].with_changes(names=keep)])
        return module.with_changes(body=body)
    return module


# ====================================================================== blocks
def _strip_leading(s: cst.BaseStatement) -> cst.BaseStatement:
    return s.with_changes(leading_lines=()) if s.leading_lines else s


def _strip_blank_leading(s: cst.BaseStatement) -> cst.BaseStatement:
    """`s` without the blank lines before it; its comment lines (and blank lines
    between them) are kept: the author's notes on the cleanup move with it."""
    lines = list(s.leading_lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    return s.with_changes(leading_lines=lines) if len(lines) != len(s.leading_lines) else s


def _try_finally(body: Sequence[cst.BaseStatement], final: Sequence[cst.BaseStatement]) -> cst.Try:
    body = list(body)
    lead = body[0].leading_lines
    body[0] = _strip_leading(body[0])
    final = [_strip_blank_leading(final[0]), *final[1:]]
    return cst.Try(body=cst.IndentedBlock(body=body), finalbody=cst.Finally(body=cst.IndentedBlock(body=final)),
                   leading_lines=lead)


def _is_call_stmt(s: cst.BaseStatement, match: Callable[[cst.Call], bool]) -> bool:
    return (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr)
            and isinstance(s.body[0].value, cst.Call) and match(s.body[0].value))


class _RemoveStatements(cst.CSTTransformer):
    """Drop statement lines matching `pred` (not inside nested defs); empty blocks get `pass`."""

    def __init__(self, pred: Callable[[cst.BaseStatement], bool]):
        self.pred = pred
        self.removed = 0
        self.depth = 0

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False

    def leave_SimpleStatementLine(self, original, updated):
        if self.pred(original):
            self.removed += 1
            return cst.RemoveFromParent()
        return updated

    def leave_IndentedBlock(self, original, updated):
        if not updated.body:
            return updated.with_changes(body=[cst.SimpleStatementLine(body=[cst.Pass()])])
        return updated


#: The most lines `wrap_rest_in_finally` re-indents (issue 35: a fix that re-indented
#: 65-100 lines of a long function body is a diff nobody reviews in a pre-commit hook).
MAX_WRAPPED_LINES = 30


def wrap_rest_in_finally(ctx: ModuleContext, line: cst.SimpleStatementLine, new_line: cst.BaseStatement,
                         is_release: Callable[[cst.BaseStatement], bool], release_code: str,
                         what: str) -> cst.Module:
    """The CTX103/CTX104/CTX403 shape: `line` acquires; the rest of its block runs
    in `try:` and the release runs in `finally:`.

    If a release statement (`is_release`) follows in the same block, only the
    statements between are wrapped and that statement (with its comments) moves
    into the `finally`; other releases of the same token inside the wrapped
    statements are removed (a second reset would raise). `new_line` replaces
    `line` (it binds the token when the original discarded it).

    Raises FixNotApplicable when nothing follows the acquisition in its block
    (the code hands the token to someone else, or means to stay set), and when the
    wrapped statements span more than `MAX_WRAPPED_LINES` lines (the edit stays small
    or is not offered).
    """
    blk, i = ctx.block_of(line)
    rest = list(blk.body[i + 1:])
    j = next((k for k, s in enumerate(rest) if is_release(s)), None)
    if j is not None:
        wrapped, final, after = rest[:j], [rest[j]], rest[j + 1:]
    else:
        wrapped, final, after = rest, [stmt(release_code, ctx.module)], []
    if not wrapped:
        raise FixNotApplicable(f"no statement runs after the {what} in its block")
    # from the first wrapped statement's first line to the last one's last line (as the
    # rules count it on `ast` positions, `wrap_span`)
    lines = sum(ctx.module.code_for_node(s).rstrip("\n").count("\n") + 1 for s in wrapped) \
        - len(wrapped[0].leading_lines)
    if lines > MAX_WRAPPED_LINES:
        raise FixNotApplicable(f"the try would re-indent {lines} lines (more than {MAX_WRAPPED_LINES}): "
                               f"a fix that large is a review, not a codemod; put the {what}'s undo in a "
                               "`finally` by hand")
    remover = _RemoveStatements(is_release)
    wrapped = [s.visit(remover) for s in wrapped]
    wrapped = [s for s in wrapped if isinstance(s, cst.BaseStatement)]
    if not wrapped:
        wrapped = [cst.SimpleStatementLine(body=[cst.Pass()])]
    body = [*blk.body[:i], new_line, _try_finally(wrapped, final), *after]
    return ctx.replace(blk, blk.with_changes(body=body))


def _bind(small: cst.BaseSmallStatement, line: cst.SimpleStatementLine, call: cst.Call,
          name: str) -> cst.SimpleStatementLine:
    assign = cst.Assign(targets=[cst.AssignTarget(target=cst.Name(name))], value=call)
    return line.with_changes(body=[assign])


def _token_of(ctx: ModuleContext, small: cst.BaseSmallStatement, call: cst.Call, base: str) -> tuple[str, bool]:
    """(token expression text, newly bound?) for the value of `call` in `small`."""
    if isinstance(small, cst.Expr) and small.value is call:
        return free_name(base, ctx.scope_names(call)), True
    if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is call:
        targets = small.targets if isinstance(small, cst.Assign) else [cst.AssignTarget(small.target)]
        if len(targets) == 1 and isinstance(targets[0].target, (cst.Name, cst.Attribute)):
            return ctx.code(targets[0].target), False
    raise FixNotApplicable("the call's result is not a plain statement or a single-name assignment")


def _single_arg_is(call: cst.Call, code: str, ctx: ModuleContext) -> bool:
    return len(call.args) == 1 and ctx.code(call.args[0].value).strip() == code


# ====================================================================== CTX103
#: Methods of the context-manager protocol (Python data model): a value set in
#: `__enter__` is meant to outlive it, and a `set()` in `__exit__` is the cleanup.
_CM_METHODS = ("__enter__", "__aenter__", "__exit__", "__aexit__")


def _check_set_is_temporary(ctx: ModuleContext, call: cst.Call, var: str) -> None:
    """The CTX103 fix's preconditions: resetting at the end of the block keeps
    behaviour only for a value meant to hold while the block runs. Raises
    FixNotApplicable for a `set()` in a context manager's enter/exit method, and
    for a `set()` that restores a saved value (`prev = var.get()` ... `var.set(prev)`,
    or a value taken back from a stack with `.pop()`): that `set()` is the cleanup."""
    fn = ctx.enclosing_function(call)
    if fn is not None and fn.name.value in _CM_METHODS:
        raise FixNotApplicable(f"the set() is in {fn.name.value}: its value is meant to outlive the method")
    if len(call.args) != 1:
        return
    arg = call.args[0].value

    def restores(v: cst.BaseExpression) -> bool:
        if isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute):
            if v.func.attr.value == "get" and ctx.code(v.func.value) == var:
                return True
            if v.func.attr.value == "pop":
                return True
        return False

    if restores(arg):
        raise FixNotApplicable("the set() restores a saved value: it is the cleanup")
    if isinstance(arg, cst.Name) and fn is not None:
        found: list[cst.BaseExpression] = []

        class V(cst.CSTVisitor):
            def visit_FunctionDef(self, n) -> bool:
                return n is fn

            def visit_Assign(self, n: cst.Assign) -> None:
                if any(isinstance(t.target, cst.Name) and t.target.value == arg.value for t in n.targets):
                    found.append(n.value)

        fn.visit(V())
        if found and any(restores(v) for v in found):
            raise FixNotApplicable("the set() restores a saved value: it is the cleanup")


@codemod("contextvar_reset_finally")
def contextvar_reset_finally(ctx: ModuleContext, data: dict) -> str:
    """CTX103: `token = var.set(v)`, then the rest of the block in try/finally `var.reset(token)`.

    data: line/col of the `.set()` call; var (dotted receiver text, optional).
    A discarded token is bound to a free name (`token`, `<var>_token`, ...); a
    `var.reset(token)` already following in the block moves into the `finally`.
    """
    call = ctx.find(data, (cst.Call,), "ContextVar .set() call", lambda c: _attr_is(c, "set"))
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "set"):
        raise FixNotApplicable("the anchor is not a .set() call")
    var = ctx.code(call.func.value)
    _check_set_is_temporary(ctx, call, var)
    small, line = ctx.statement_line(call)
    taken = ctx.scope_names(call)
    base = "token" if "token" not in taken else free_name(var.split(".")[-1].strip("_") + "_token", taken)
    token, bound = _token_of(ctx, small, call, base)
    new_line = _bind(small, line, call, token) if bound else line

    def is_reset(s):
        return _is_call_stmt(s, lambda c: isinstance(c.func, cst.Attribute) and c.func.attr.value == "reset"
                             and ctx.code(c.func.value) == var and _single_arg_is(c, token, ctx))
    return wrap_rest_in_finally(ctx, line, new_line, is_reset, f"{var}.reset({token})", "set()").code


# ====================================================================== CTX104
@codemod("otel_detach_finally")
def otel_detach_finally(ctx: ModuleContext, data: dict) -> str:
    """CTX104: keep the `attach()` token; detach it in a `finally` around the rest of the block.

    data: line/col of the `attach()` call; detach (callable text, e.g.
    "context.detach"; default: the attach callable with `attach` -> `detach`).
    """
    call = ctx.find(data, (cst.Call,), "context.attach() call", lambda c: _dotted(c.func).endswith("attach"))
    fn = ctx.code(call.func)
    if not fn.endswith("attach"):
        raise FixNotApplicable("the anchor is not an attach() call")
    detach = data.get("detach") or fn[: -len("attach")] + "detach"
    small, line = ctx.statement_line(call)
    token, bound = _token_of(ctx, small, call, "token" if "token" not in ctx.scope_names(call)
                             else free_name("otel_token", ctx.scope_names(call)))
    new_line = _bind(small, line, call, token) if bound else line

    def is_detach(s):
        return _is_call_stmt(s, lambda c: ctx.code(c.func).split(".")[-1] == "detach"
                             and _single_arg_is(c, token, ctx))
    return wrap_rest_in_finally(ctx, line, new_line, is_detach, f"{detach}({token})", "attach()").code


# ====================================================================== CTX106
class _OwnScope(cst.CSTVisitor):
    """A visitor of one block's own statements (not nested defs, lambdas or classes) that
    sets `found` when a subclass sees what it looks for."""

    def __init__(self):
        self.found = False

    def visit_FunctionDef(self, node):
        return False

    def visit_Lambda(self, node):
        return False

    def visit_ClassDef(self, node):
        return False


class _Escapes(_OwnScope):
    """Finds return/yield (anywhere) and break/continue outside nested loops."""

    def __init__(self):
        super().__init__()
        self.loops = 0

    def visit_Return(self, node):
        self.found = True

    def visit_Yield(self, node):
        self.found = True

    def visit_For(self, node):
        self.loops += 1

    def leave_For(self, node):
        self.loops -= 1

    def visit_While(self, node):
        self.loops += 1

    def leave_While(self, node):
        self.loops -= 1

    def visit_Break(self, node):
        if not self.loops:
            self.found = True

    def visit_Continue(self, node):
        if not self.loops:
            self.found = True


class _Raises(_OwnScope):
    """Finds `assert` and `raise` statements (outside nested defs and classes): in a
    `finally` they would run while the with-body's exception propagates, and an
    `AssertionError` or the raised error would replace it (aiostream's cleanup asserts)."""

    def visit_Assert(self, node):
        self.found = True

    def visit_Raise(self, node):
        self.found = True


@codemod("yield_in_finally")
def yield_in_finally(ctx: ModuleContext, data: dict) -> str:
    """CTX106: `try: yield` / `finally: <the cleanup after it>` in a @contextmanager.

    The statement holding the `yield` (or the innermost enclosing statement that
    has statements after it in its block) becomes the `try` body; the statements
    after it become the `finally`. Refused when the cleanup returns, yields,
    breaks or continues (those would change meaning inside `finally`), or asserts
    or raises (that error would replace the with-body's exception).
    """
    y = ctx.find(data, (cst.Yield,), "yield")
    cur = ctx.statement_in_block(y)
    while True:
        blk, i = ctx.block_of(cur)
        rest = list(blk.body[i + 1:])
        if rest:
            break
        owner = ctx.parent(blk)
        if owner is None or isinstance(owner, (cst.FunctionDef, cst.Module)) or isinstance(blk, cst.Module):
            raise FixNotApplicable("nothing follows the yield: there is no cleanup to protect")
        cur = ctx.statement_in_block(owner)
    for s in rest:
        v = _Escapes()
        s.visit(v)
        if v.found:
            raise FixNotApplicable("the cleanup after the yield returns, yields, breaks or continues")
        r = _Raises()
        s.visit(r)
        if r.found:
            raise FixNotApplicable("the cleanup after the yield asserts or raises: in `finally` that error would "
                                   "replace the with-body's exception")
    body = [*blk.body[:i], _try_finally([cur], rest)]
    return ctx.replace(blk, blk.with_changes(body=body)).code


# ====================================================================== CTX107
def _module_set(module: cst.Module) -> str | None:
    for s in module.body:
        if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1:
            small = s.body[0]
            target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else (
                small.target if isinstance(small, cst.AnnAssign) else None)
            value = getattr(small, "value", None)
            if isinstance(target, cst.Name) and "task" in target.value.lower() and isinstance(value, cst.Call) \
                    and isinstance(value.func, cst.Name) and value.func.value == "set" and not value.args:
                return target.value
    return None


@codemod("keep_task_reference")
def keep_task_reference(ctx: ModuleContext, data: dict) -> str:
    """CTX107: `task = create_task(...)`; keep it in a module-level set until done.

    Adds `_background_tasks: set = set()` after the imports (or reuses a
    module-level `set()` whose name mentions tasks), then
    `_background_tasks.add(task)` and `task.add_done_callback(_background_tasks.discard)`.
    """
    call = ctx.find(data, (cst.Call,), "create_task call")
    small, line = ctx.statement_line(call)
    if not (isinstance(small, cst.Expr) and small.value is call):
        raise FixNotApplicable("the task is not discarded")
    existing = _module_set(ctx.module)
    if existing is None and ctx.outside_match(r"^\w*[Tt][Aa][Ss][Kk]\w*\s*(?::[^=\n]*)?=\s*set\(\)"):
        raise NeedFullModule("a module-level task set outside the window")
    set_name = existing or free_name("_background_tasks", ctx.module_words())
    task = free_name("task", ctx.scope_names(call) | {set_name})
    blk, i = ctx.block_of(line)
    new = [
        _bind(small, line, call, task),
        stmt(f"{set_name}.add({task})", ctx.module),
        stmt(f"{task}.add_done_callback({set_name}.discard)", ctx.module),
    ]
    module = ctx.replace(blk, blk.with_changes(body=[*blk.body[:i], *new, *blk.body[i + 1:]]))
    if existing is None:
        module = insert_top(module, [stmt(f"{set_name}: set = set()", module)], blank_before=1)
    return module.code


# ====================================================================== CTX301
_PLAIN_ENVS = ("Environment", "Template")


def _callee(call: cst.Call) -> str:
    return _dotted(call.func).split(".")[-1]


def _find_env_creation(ctx: ModuleContext, recv: cst.BaseExpression) -> cst.Call | None:
    """The `Environment(...)` call that `recv` (`env`, `self.env`, `_ENV`) was assigned from."""
    target = ctx.code(recv)
    scopes: list[cst.CSTNode] = []
    fn = ctx.enclosing_function(recv)
    if fn is not None and not target.startswith("self."):
        scopes.append(fn)
    cls = ctx.enclosing_class(recv)
    if target.startswith(("self.", "cls.")) and cls is not None:
        scopes.append(cls)
    scopes.append(ctx.module)
    found: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def __init__(self, scope: cst.CSTNode):
            self.scope = scope

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            # another function's local `env` is not this one
            return node is self.scope or self.scope is not ctx.module and isinstance(self.scope, cst.ClassDef)

        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and _callee(node.value) == "Environment" and any(
                    ctx.code(t.target) == target for t in node.targets):
                found.append(node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.value, cst.Call) and _callee(node.value) == "Environment" \
                    and ctx.code(node.target) == target:
                found.append(node.value)

    for scope in scopes:
        scope.visit(V(scope))
        if found:
            return found[0] if len(found) == 1 else None
    ctx.need_full(target)
    return None


@codemod("sandboxed_environment")
def sandboxed_environment(ctx: ModuleContext, data: dict) -> str:
    """CTX301: compile the template in `jinja2.sandbox.ImmutableSandboxedEnvironment`.

    `Template(src, **opts)` -> `ImmutableSandboxedEnvironment(**opts).from_string(src)`;
    `Environment(...)` -> `ImmutableSandboxedEnvironment(...)`; for
    `env.from_string(src)` the `Environment(...)` that `env` was assigned from
    (in the function, the class or the module) is swapped; Flask's
    `render_template_string(src, **ctx)` ->
    `ImmutableSandboxedEnvironment().from_string(src).render(**ctx)` (the
    template no longer sees Flask's globals: request, config, url_for, g).
    """
    call = ctx.find(data, (cst.Call,), "template call",
                    lambda c: _callee(c) in ("Template", "Environment", "from_string", "render_template_string"))
    name = _callee(call)
    if name == "from_string" and isinstance(call.func, cst.Attribute):
        recv = call.func.value
        target = recv if isinstance(recv, cst.Call) and _callee(recv) == "Environment" else _find_env_creation(ctx, recv)
        if target is None and "env_line" in data:
            # the rule resolved the environment's creation by value (`env = Environment()`
            # in a branch, then `self.env = env`): swap the call it names
            try:
                target = ctx.find({"line": data["env_line"], "col": data["env_col"]}, (cst.Call,),
                                  "environment", lambda c: _callee(c) == "Environment")
            except FixNotApplicable:
                target = None
        if target is None:
            raise FixNotApplicable("cannot find where the environment is created")
        call, name = target, "Environment"
    _, ref = add_import(ctx.module, "jinja2.sandbox", "ImmutableSandboxedEnvironment")
    if name == "Template":
        if not call.args or call.args[0].keyword is not None or call.args[0].star or any(
                a.keyword is None for a in call.args[1:]):
            raise FixNotApplicable("Template() with positional environment options")
        opts = list(call.args[1:])
        if opts:
            opts[-1] = opts[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        src = call.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        new = cst.Call(func=cst.Attribute(value=cst.Call(func=expr(ref), args=opts), attr=cst.Name("from_string")),
                       args=[src], lpar=call.lpar, rpar=call.rpar)
    elif name == "Environment":
        new = call.with_changes(func=expr(ref))
    elif name == "render_template_string":
        # Flask: the template then renders without Flask's globals (request,
        # config, url_for, g) — exactly the objects SSTI payloads reach for.
        if not call.args or call.args[0].keyword is not None or call.args[0].star or any(
                a.keyword is None and not a.star for a in call.args[1:]):
            raise FixNotApplicable("render_template_string() with positional context")
        ctx_args = list(call.args[1:])
        if ctx_args:
            ctx_args[-1] = ctx_args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        src = call.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        compiled = cst.Call(func=cst.Attribute(value=cst.Call(func=expr(ref)), attr=cst.Name("from_string")), args=[src])
        new = cst.Call(func=cst.Attribute(value=compiled, attr=cst.Name("render")), args=ctx_args,
                       lpar=call.lpar, rpar=call.rpar)
    else:
        raise FixNotApplicable(f"{name}() is not a jinja2 Template/Environment call")
    # Edit first, import second: libcst rebuilds the tree, so anchors die on any edit.
    module = ctx.replace(call, new)
    module = add_import(module, "jinja2.sandbox", "ImmutableSandboxedEnvironment")[0]
    if isinstance(call.func, cst.Name):  # `from jinja2 import Template` may be unused now
        module = drop_unused_import(module, call.func.value)
    return module.code


# ====================================================================== CTX303
_FORMATTER = '''\
class {name}({base}):
    """str.format that refuses attribute and index access in fields ({{x.attr}}, {{x[0]}}).

    Added by ctxlint (CTX303): the format string is not a literal.
    """

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise ValueError(f"attribute and index access is not allowed in format fields: {{field_name!r}}")
        return super().get_field(field_name, args, kwargs)
'''


def _existing_formatter(module: cst.Module) -> str | None:
    for s in module.body:
        if isinstance(s, cst.ClassDef) and "get_field" in names_in(s) and s.name.value.startswith("_SafeFormatter"):
            return s.name.value
    return None


def _is_own_literal(ctx: ModuleContext, recv: cst.BaseExpression) -> bool:
    """Is the format string written in the program: a string literal, or a name
    every assignment of which (in its function, else at module level) is one?"""
    lit = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
    if isinstance(recv, lit):
        return True
    if not isinstance(recv, cst.Name):
        return False
    values: list[cst.BaseExpression] = []
    scope = ctx.enclosing_function(recv) or ctx.module

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, n) -> bool:
            return n is scope

        def visit_Assign(self, n: cst.Assign) -> None:
            if any(isinstance(t.target, cst.Name) and t.target.value == recv.value for t in n.targets):
                values.append(n.value)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            if isinstance(n.target, cst.Name) and n.target.value == recv.value and n.value is not None:
                values.append(n.value)

    scope.visit(V())
    if not values and scope is not ctx.module:
        ctx.need_full(recv.value)
        scope = ctx.module
        scope.visit(V())
    return bool(values) and all(isinstance(v, lit) for v in values)


@codemod("safe_format")
def safe_format(ctx: ModuleContext, data: dict) -> str:
    """CTX303 (unsafe): route `.format`/`.format_map` through a generated safe `string.Formatter`.

    `tmpl.format(*a, **k)` -> `_SafeFormatter().format(tmpl, *a, **k)`;
    `tmpl.format_map(m)` -> `_SafeFormatter().vformat(tmpl, (), m)`. The class
    (a `string.Formatter` whose `get_field` rejects `.` and `[` in field names)
    is added once after the imports. Unsafe: templates that relied on attribute
    access now raise ValueError.
    """
    call = ctx.find(data, (cst.Call,), ".format() call", lambda c: _attr_is(c, "format", "format_map"))
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in ("format", "format_map")):
        raise FixNotApplicable("the anchor is not a .format()/.format_map() call")
    recv = call.func.value
    if _is_own_literal(ctx, recv):
        raise FixNotApplicable("the format string is the author's own literal: its fields are the program's")
    existing = _existing_formatter(ctx.module)
    if existing is None and ctx.outside_match(r"^class _SafeFormatter"):
        raise NeedFullModule("the safe formatter is defined outside the window")
    fmt = existing or free_name("_SafeFormatter", ctx.module_words())
    tmpl_arg = cst.Arg(value=recv.with_changes(lpar=(), rpar=()) if isinstance(recv, _ATOMIC) else recv)
    if call.func.attr.value == "format_map":
        if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
            raise FixNotApplicable("format_map() with unusual arguments")
        no_args = cst.Arg(value=cst.Tuple(elements=[]))
        new = cst.Call(func=expr(f"{fmt}().vformat"), args=[tmpl_arg, no_args, *call.args],
                       lpar=call.lpar, rpar=call.rpar)
    else:
        new = cst.Call(func=expr(f"{fmt}().format"), args=[tmpl_arg, *call.args], lpar=call.lpar, rpar=call.rpar)
    module = ctx.module.deep_replace(call, new)
    if existing is None:
        module, base = add_import(module, "string", "Formatter")  # type: ignore[arg-type]
        cls = stmt(_FORMATTER.format(name=fmt, base=base), module)
        module = insert_top(module, [cls], blank_before=2)
    return module.code  # type: ignore[union-attr]


# ====================================================================== CTX305
def _split_trailing(after_last, sep):
    """Whitespace after the old last item's comma and after the new item's comma,
    when an item is appended behind a trailing comma: the old item keeps its own
    end-of-line comment, the new item takes the line break before the bracket."""
    if isinstance(after_last, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
        mine = after_last.with_changes(indent=sep.indent, last_line=sep.last_line, empty_lines=())
        new_ws = after_last.with_changes(first_line=cst.TrailingWhitespace())
        return mine, new_ws
    return sep, after_last


def _with_kwarg(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    """`call` with keyword `name=value` set (replacing an existing one, else appended)."""
    args = list(call.args)
    for k, a in enumerate(args):
        if a.keyword is not None and a.keyword.value == name:
            args[k] = a.with_changes(value=value)
            return call.with_changes(args=args)
    new = cst.Arg(value=value, keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")))
    if args:
        last = args[-1]
        # The separator that precedes the last argument (a newline and indent in a
        # one-argument-per-line call) precedes the new one too.
        before = args[-2].comma.whitespace_after if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) \
            else call.whitespace_before_args
        sep = before if isinstance(before, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
        if isinstance(last.comma, cst.Comma):  # trailing comma: the new argument gets one too
            mine, new_ws = _split_trailing(last.comma.whitespace_after, sep)
            new = new.with_changes(comma=last.comma.with_changes(whitespace_after=new_ws))
            args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=mine))
        else:
            new = new.with_changes(whitespace_after_arg=last.whitespace_after_arg)
            args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=sep),
                                         whitespace_after_arg=cst.SimpleWhitespace(""))
    args.append(new)
    return call.with_changes(args=args)


@codemod("select_autoescape")
def select_autoescape(ctx: ModuleContext, data: dict) -> str:
    """CTX305: `Environment(..., autoescape=select_autoescape())` (also `Template(...)`).

    An `autoescape=False` argument is replaced; `select_autoescape` is imported
    from jinja2 once, in the file's style.
    """
    call = ctx.find(data, (cst.Call,), "Environment() call",
                    lambda c: _callee(c) in ("Environment", "Template", "Overlay", "overlay"))
    if _callee(call) not in ("Environment", "Template", "Overlay", "overlay"):
        raise FixNotApplicable("the anchor is not an Environment()/Template() call")
    _, ref = add_import(ctx.module, "jinja2", "select_autoescape")
    module = ctx.replace(call, _with_kwarg(call, "autoescape", expr(f"{ref}()")))
    return add_import(module, "jinja2", "select_autoescape")[0].code


# ====================================================================== CTX401
_BOUNDED_DICT = '''\
class {name}({base}):
    """A dict that keeps at most `maxsize` entries: storing a key makes it the newest,
    and the oldest entry goes when the bound is passed (added by ctxlint, CTX401)."""

    def __init__(self, *args, maxsize={maxsize}, **kwargs):
        self.maxsize = maxsize
        super().__init__(*args, **kwargs)

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        if len(self) > self.maxsize:
            self.popitem(last=False)
'''

_DEP_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def project_depends_on(path: str | None, dist: str) -> bool:
    """Does the project holding `path` declare a runtime dependency on the
    distribution `dist`? Reads the nearest directory upwards that has a
    pyproject.toml, setup.cfg, setup.py or requirements*.txt: PEP 621
    `[project] dependencies`, Poetry's `[tool.poetry.dependencies]`, setup.cfg
    `install_requires`, a setup.py that names it, and requirements files (not the
    test/dev/doc ones). Optional extras and test requirements do not count.
    Never raises (unreadable files count as no dependency)."""
    if not path:
        return False
    want = dist.lower().replace("_", "-")

    def names(reqs) -> set[str]:
        out = set()
        for r in reqs or ():
            m = _DEP_WORD.match(str(r).strip())
            if m:
                out.add(m.group(0).lower().replace("_", "-"))
        return out

    try:
        here = Path(path).resolve().parent
    except (OSError, RuntimeError):
        return False
    for d in [here, *here.parents]:
        files = [d / n for n in ("pyproject.toml", "setup.cfg", "setup.py")] + sorted(d.glob("requirements*.txt"))
        files = [f for f in files if f.is_file()]
        if not files:
            continue
        found: set[str] = set()
        for f in files:
            try:
                text = f.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if f.name == "pyproject.toml":
                try:
                    import tomllib
                    doc = tomllib.loads(text)
                except Exception:
                    continue
                found |= names(doc.get("project", {}).get("dependencies"))
                found |= names(doc.get("tool", {}).get("poetry", {}).get("dependencies", {}).keys())
            elif f.name == "setup.cfg":
                m = re.search(r"install_requires\s*=\s*((?:.*\n(?:[ \t]+.*\n)*))", text)
                if m:
                    found |= names(m.group(1).replace("=", " ").split("\n"))
            elif f.name == "setup.py":
                m = re.search(r"install_requires\s*=\s*\[([^\]]*)\]", text)
                if m:
                    found |= names(re.findall(r"[\"']([^\"']+)[\"']", m.group(1)))
            elif not re.search(r"test|dev|doc|lint", f.name):
                found |= names(ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(("#", "-")))
        return want in found
    return False


def _container_uses(ctx: ModuleContext, target: cst.BaseExpression) -> list[cst.CSTNode]:
    """Every expression in the module that denotes the container `target` (a
    module name, or `self.X` read through the first parameter of a method of the
    same class)."""
    out: list[cst.CSTNode] = []
    if isinstance(target, cst.Name):
        name = target.value

        class V(cst.CSTVisitor):
            def visit_Name(self, n: cst.Name) -> None:
                if n.value == name and n is not target:
                    out.append(n)

        ctx.module.visit(V())
    elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
        cls = ctx.enclosing_class(target)
        attr = target.attr.value
        if cls is None:
            return out

        class W(cst.CSTVisitor):
            def visit_Attribute(self, n: cst.Attribute) -> None:
                if n is target or n.attr.value != attr or not isinstance(n.value, cst.Name):
                    return
                fn = ctx.enclosing_function(n)
                if fn is not None and fn.params.params and fn.params.params[0].name.value == n.value.value:
                    out.append(n)

        cls.visit(W())
    return out


_NOT_WEAKREFABLE = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float,
                    cst.Imaginary, cst.Tuple, cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp,
                    cst.SetComp, cst.BinaryOperation, cst.Comparison, cst.BooleanOperation, cst.UnaryOperation)


def _held_elsewhere(ctx: ModuleContext, value: cst.BaseExpression, store: cst.CSTNode) -> bool:
    """Is the stored value an object something besides the container keeps: an
    attribute of another object (`request.group`), or the same object also stored on
    another attribute or container by the storing function?

    A parameter of the storing function or a value it returns is not enough: the
    caller may drop it as soon as the call returns (mcp-agent's `get_logger(name,
    session_id=...)` configures a logger, returns it, and `app_server.py` drops it: a
    WeakValueDictionary would lose the configuration with the object)."""
    if isinstance(value, _NOT_WEAKREFABLE):
        return False
    fn = ctx.enclosing_function(store)
    if isinstance(value, cst.Attribute):
        return True
    if fn is None:
        return False
    stmt_ = next((a for a in ctx.ancestors(store) if isinstance(a, (cst.Assign, cst.Expr))), None)
    if isinstance(value, cst.Name):
        # The same object also stored on another attribute or container of the
        # function (`self.adapters[name] = adapter`): that one holds it.
        name = value.value
        found = []

        class V(cst.CSTVisitor):
            def visit_Assign(self, n: cst.Assign) -> None:
                if n is not stmt_ and isinstance(n.value, cst.Name) and n.value.value == name and any(
                        isinstance(t.target, (cst.Attribute, cst.Subscript)) for t in n.targets):
                    found.append(n)

        fn.visit(V())
        return bool(found)
    return False


@codemod("bounded_registry")
def bounded_registry(ctx: ModuleContext, data: dict) -> str:
    """CTX401 (unsafe): replace the unbounded `{}`/`dict()` with a weak or bounded mapping.

    Preconditions, checked on the module (never guessed):
    - `weakref.WeakValueDictionary()` (data kind "weak") only where every stored
      value can be weakly referenced (not a str, number, tuple, list or dict
      display) and something else keeps it (another object's attribute, or another
      attribute or container the storing function also puts it in: `_held_elsewhere`;
      a parameter or a returned value is not enough, its caller may drop it): else
      the entries, and what was configured on them, would vanish;
    - otherwise a bound, only where the container is used as a cache (a
      membership test, `.get()` or `.setdefault()` gives lookups a miss path), so
      an evicted entry is recomputed rather than lost: `cachetools.LRUCache` when
      the project already depends on cachetools (its pyproject/setup/requirements),
      else a small generated `OrderedDict` subclass (`_BoundedDict`, standard
      library only). data maxsize (default 1024).
    A `dict[...]` annotation on the container becomes the new type's (a
    `_BoundedDict` is a dict and keeps it). Unsafe: entries disappear when
    nothing else holds the value (weak) or when the bound is reached.
    """
    if ctx.outside is not None:
        raise NeedFullModule("the container's uses may lie anywhere in the module")
    node = ctx.find(data, (cst.Dict, cst.Call), "container creation")
    kind = data.get("kind", "weak")
    if kind not in ("weak", "lru"):
        raise FixNotApplicable(f"unknown kind {kind!r}")
    if isinstance(node, cst.Call) and _callee(node) not in ("dict", "OrderedDict"):
        raise FixNotApplicable(f"{_callee(node)}() is not a plain dict")
    empty = (isinstance(node, cst.Dict) and not node.elements) or (isinstance(node, cst.Call) and not node.args)
    owner = ctx.parent(node)
    target = None
    if isinstance(owner, cst.Assign) and len(owner.targets) == 1:
        target = owner.targets[0].target
    elif isinstance(owner, cst.AnnAssign):
        target = owner.target
    if not isinstance(target, (cst.Name, cst.Attribute)):
        raise FixNotApplicable("the container is not assigned to one name or attribute")
    uses = _container_uses(ctx, target)
    stores: list[tuple[cst.CSTNode, cst.BaseExpression | None]] = []
    miss_path = False
    for u in uses:
        par = ctx.parent(u)
        gp = ctx.parent(par) if par is not None else None
        if isinstance(par, cst.Subscript) and par.value is u and isinstance(gp, cst.AssignTarget):
            stores.append((par, ctx.parent(gp).value))  # type: ignore[union-attr]
        elif isinstance(par, cst.Attribute) and par.value is u and isinstance(gp, cst.Call):
            meth = par.attr.value
            if meth == "setdefault":
                miss_path = True
                stores.append((gp, gp.args[1].value if len(gp.args) > 1 else None))
            elif meth == "get":
                miss_path = True
            elif meth in ("update", "__setitem__"):
                stores.append((gp, None))
        elif isinstance(par, cst.ComparisonTarget) and isinstance(par.operator, (cst.In, cst.NotIn)):
            miss_path = True
    use_weak = kind == "weak" and stores and all(v is not None and _held_elsewhere(ctx, v, st) for st, v in stores)
    maxsize = int(data.get("maxsize", 1024))
    module = ctx.module
    if use_weak:
        ctx.described = "use a weakref.WeakValueDictionary (an entry lives as long as its value is held elsewhere)"
        _, ref = add_import(module, "weakref", "WeakValueDictionary")
        new = expr(f"{ref}({'' if empty else ctx.code(node)})")
        imports = [("weakref", "WeakValueDictionary")]
        head = ref
    else:
        if not miss_path:
            raise FixNotApplicable("no lookup of the container has a miss path (a membership test or .get()): "
                                   "a bound would lose entries that are never recomputed, and the values "
                                   "cannot be held weakly")
        if not empty:
            raise FixNotApplicable("a bounded cache cannot start from these entries")
        if project_depends_on(ctx.path, "cachetools"):
            ctx.described = f"bound it with cachetools.LRUCache(maxsize={maxsize})"
            _, ref = add_import(module, "cachetools", "LRUCache")
            imports = [("cachetools", "LRUCache")]
            head = ref
            new = expr(f"{ref}(maxsize={maxsize})")
        else:
            existing = next((s.name.value for s in module.body if isinstance(s, cst.ClassDef)
                             and s.name.value.startswith("_BoundedDict")), None)
            name = existing or free_name("_BoundedDict", ctx.module_words())
            ctx.described = (f"bound it with `{name}(maxsize={maxsize})`, a least-recently-used dict "
                             "(collections.OrderedDict)" + ("" if existing else " generated in this module"))
            imports = [("collections", "OrderedDict")]
            head = None  # a dict subclass: a dict annotation stays true
            new = expr(f"{name}(maxsize={maxsize})")
    new = new.with_changes(lpar=node.lpar, rpar=node.rpar)
    if isinstance(owner, cst.AnnAssign) and head is not None:
        ann = owner.annotation.annotation
        base = ann.value if isinstance(ann, cst.Subscript) else ann
        if _dotted(base).split(".")[-1] in ("dict", "Dict"):
            new_ann = ann.with_changes(value=expr(head)) if isinstance(ann, cst.Subscript) else expr(head)
            new_owner = owner.with_changes(value=new, annotation=owner.annotation.with_changes(annotation=new_ann))
            module = ctx.replace(owner, new_owner)
        else:
            module = ctx.replace(node, new)
    else:
        module = ctx.replace(node, new)
    for modname, attr in imports:
        module, base_ref = add_import(module, modname, attr)
    if not use_weak and head is None and existing is None:
        cls = stmt(_BOUNDED_DICT.format(name=name, base=base_ref, maxsize=1024), module)
        module = insert_top(module, [cls], blank_before=2)
    return module.code


# ====================================================================== CTX402
def _is_init_call(s: cst.BaseStatement) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and any(
        isinstance(b, cst.Expr) and isinstance(b.value, cst.Call) and isinstance(b.value.func, cst.Attribute)
        and b.value.func.attr.value in ("__init__", "__post_init__") for b in s.body)


def _is_docstring(s: cst.BaseStatement) -> bool:
    return isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Expr) \
        and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _with_comment(line: cst.BaseStatement, dec: cst.Decorator) -> cst.BaseStatement:
    """`line` carrying the end-of-line comment of the decorator it replaces (a
    `# keep: ...` note or a `# noqa` stays with the cache it is about)."""
    comment = dec.trailing_whitespace.comment
    if comment is None or not isinstance(line, cst.SimpleStatementLine):
        return line
    return line.with_changes(trailing_whitespace=dec.trailing_whitespace)


@codemod("per_instance_cache")
def per_instance_cache(ctx: ModuleContext, data: dict) -> str:
    """CTX402: move `@lru_cache`/`@cache` off the method and into `__init__`.

    `self.method = functools.lru_cache(maxsize=N)(self.method)` right after the
    base-class `__init__` call: the cache is an attribute of the instance and
    dies with it, call sites and subclass overrides keep working. A class without
    `__init__` gets one that forwards to `super().__init__`; a dataclass gets
    `__post_init__` (refused for frozen dataclasses and `__slots__` classes).
    """
    node = ctx.find(data, (cst.BaseExpression,), "decorator", lambda n: isinstance(ctx.parent(n), cst.Decorator))
    dec = ctx.parent(node)
    if not isinstance(dec, cst.Decorator):
        dec = next((a for a in ctx.ancestors(node) if isinstance(a, cst.Decorator)), None)
    if dec is None:
        raise FixNotApplicable("the anchor is not a decorator")
    fn = ctx.parent(dec)
    cls_block = ctx.parent(fn) if fn is not None else None
    cls = ctx.parent(cls_block) if cls_block is not None else None
    if not (isinstance(fn, cst.FunctionDef) and isinstance(cls_block, cst.IndentedBlock) and isinstance(cls, cst.ClassDef)):
        raise FixNotApplicable("the decorated function is not a method")
    if not fn.params.params:
        raise FixNotApplicable("the method has no self parameter")
    if "__slots__" in {n for s in cls.body.body for n in names_in(s) if not isinstance(s, cst.FunctionDef)}:
        raise FixNotApplicable("the class has __slots__")
    method = fn.name.value
    dec_code = ctx.code(dec.decorator)
    new_fn = fn.with_changes(decorators=[d for d in fn.decorators if d is not dec],
                             leading_lines=fn.leading_lines if fn.decorators[0] is not dec else (
                                 *fn.leading_lines, *dec.leading_lines))
    body = [new_fn if s is fn else s for s in cls_block.body]
    dataclass_dec = next((d for d in cls.decorators if _dotted(d.decorator.func if isinstance(d.decorator, cst.Call)
                                                                  else d.decorator).split(".")[-1] == "dataclass"), None)
    if dataclass_dec is not None and "frozen" in ctx.code(dataclass_dec) and "True" in ctx.code(dataclass_dec):
        raise FixNotApplicable("frozen dataclass: attributes cannot be set")
    init_name = "__post_init__" if dataclass_dec is not None else "__init__"
    init = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == init_name), None)
    if init is not None:
        if not init.params.params or not isinstance(init.body, cst.IndentedBlock):
            raise FixNotApplicable(f"{init_name} has no self parameter or a one-line body")
        me = init.params.params[0].name.value
        line = _with_comment(stmt(f"{me}.{method} = {dec_code}({me}.{method})", ctx.module), dec)
        ib = list(init.body.body)
        at = 0
        for k, s in enumerate(ib):
            if (k == 0 and _is_docstring(s)) or _is_init_call(s):
                at = k + 1
        ib.insert(at, line)
        new_init = init.with_changes(body=init.body.with_changes(body=ib))
        body = [new_init if s is init else s for s in body]
    else:
        me = fn.params.params[0].name.value
        defines_new = any(isinstance(s_, cst.FunctionDef) and s_.name.value == "__new__" for s_ in body)
        if init_name == "__init__" and not cls.bases and not defines_new:
            # No base class and no __init__: instances are built with no arguments
            # (object.__init__ takes none), so the new __init__ takes none either.
            src = f"def __init__({me}):\n    {me}.{method} = {dec_code}({me}.{method})\n"
        elif init_name == "__init__":
            src = (f"def __init__({me}, *args, **kwargs):\n    super().__init__(*args, **kwargs)\n"
                   f"    {me}.{method} = {dec_code}({me}.{method})\n")
        else:
            src = f"def __post_init__({me}):\n    {me}.{method} = {dec_code}({me}.{method})\n"
        new_init = stmt(src, ctx.module)
        last = new_init.body.body[-1]
        new_init = new_init.with_changes(body=new_init.body.with_changes(
            body=[*new_init.body.body[:-1], _with_comment(last, dec)]))
        at = next((k for k, s in enumerate(body) if isinstance(s, cst.FunctionDef)), len(body))
        if at < len(body):
            new_init = new_init.with_changes(leading_lines=body[at].leading_lines if not isinstance(
                body[at], cst.FunctionDef) or not body[at].decorators else body[at].leading_lines)
            if not new_init.leading_lines and at > 0:
                new_init = new_init.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
            if not body[at].leading_lines:
                body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        elif at > 0:
            new_init = new_init.with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        body.insert(at, new_init)
    return ctx.replace(cls_block, cls_block.with_changes(body=body)).code


# ====================================================================== CTX403
@codemod("keep_hook_handle")
def keep_hook_handle(ctx: ModuleContext, data: dict) -> str:
    """CTX403: keep the `register_*_hook` handle and `remove()` it.

    - `self._h = m.register_forward_hook(f)` (overwritten per call): remove the
      previous handle first (`if self._h is not None: self._h.remove()`).
    - a discarded handle: bind it (`handle = ...`) and remove it in a `finally`
      around the rest of the block (refused when nothing follows: the hook is
      meant to stay, and the fix needs an owner that knows when to remove it).
    """
    call = ctx.find(data, (cst.Call,), "register_*_hook call",
                    lambda c: isinstance(c.func, cst.Attribute) and c.func.attr.value.startswith("register_"))
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value.startswith("register_")):
        raise FixNotApplicable("the anchor is not a register_*_hook() call")
    small, line = ctx.statement_line(call)
    if isinstance(small, cst.Assign) and small.value is call and len(small.targets) == 1 \
            and isinstance(small.targets[0].target, cst.Attribute):
        target = ctx.code(small.targets[0].target)
        blk, i = ctx.block_of(line)
        prev = blk.body[i - 1] if i > 0 else None
        if prev is not None and f"{target}.remove()" in ctx.code(prev):
            raise FixNotApplicable("the previous handle is already removed")
        cls = ctx.enclosing_class(call)
        initialised = cls is not None and any(
            isinstance(s, cst.FunctionDef) and s.name.value == "__init__" and f"{target} =" in ctx.code(s)
            for s in cls.body.body)
        head = f"if {target} is not None:" if initialised else \
            f"if getattr({target.rsplit('.', 1)[0]}, {target.rsplit('.', 1)[1]!r}, None) is not None:"
        guard = stmt(f"{head}\n    {target}.remove()", ctx.module)
        guard = guard.with_changes(leading_lines=line.leading_lines)
        new_line = line.with_changes(leading_lines=())
        return ctx.replace(blk, blk.with_changes(body=[*blk.body[:i], guard, new_line, *blk.body[i + 1:]])).code
    taken = ctx.scope_names(call)
    handle, bound = _token_of(ctx, small, call, free_name("handle", taken))
    new_line = _bind(small, line, call, handle) if bound else line

    def is_remove(s):
        return _is_call_stmt(s, lambda c: isinstance(c.func, cst.Attribute) and c.func.attr.value == "remove"
                             and ctx.code(c.func.value) == handle and not c.args)
    return wrap_rest_in_finally(ctx, line, new_line, is_remove, f"{handle}.remove()", "hook registration").code


# ====================================================================== CTX501 / CTX504
def _not_a_test(node: cst.CSTNode) -> bool:
    """Key and accumulated-value anchors are values, never the test that starts with them
    (`key not in cache` starts where `key` does)."""
    return not isinstance(node, (cst.Comparison, cst.BooleanOperation, cst.NamedExpr, cst.IfExp))


def _first_tuple(node: cst.CSTNode) -> cst.Tuple | None:
    found: list[cst.Tuple] = []

    class V(cst.CSTVisitor):
        def visit_Tuple(self, n: cst.Tuple) -> bool:
            if not found:
                found.append(n)
            return False

        def visit_Lambda(self, n) -> bool:
            return False

        def visit_ListComp(self, n) -> bool:
            return False

        def visit_GeneratorExp(self, n) -> bool:
            return False

    node.visit(V())
    return found[0] if found else None


def _key_assignment(ctx: ModuleContext, name: cst.Name) -> cst.Assign | None:
    """The single assignment `name = ...` in the function holding `name` (before it)."""
    fn = ctx.enclosing_function(name)
    if fn is None:
        return None
    found: list[cst.Assign] = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, n) -> bool:
            return n is fn

        def visit_Assign(self, n: cst.Assign) -> None:
            if len(n.targets) == 1 and isinstance(n.targets[0].target, cst.Name) \
                    and n.targets[0].target.value == name.value:
                found.append(n)

    fn.visit(V())
    if len(found) != 1:
        return None
    if ctx.positions[found[0]].start.line > ctx.positions[name].start.line:
        return None
    return found[0]


def _append_element(t: cst.Tuple, value: cst.BaseExpression) -> cst.Tuple:
    elts = list(t.elements)
    last = elts[-1]
    trailing = isinstance(last.comma, cst.Comma)
    if trailing and len(elts) > 1:
        elts.append(cst.Element(value=value, comma=last.comma))
    else:
        elts[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        elts.append(cst.Element(value=value))
    new = t.with_changes(elements=elts)
    if not new.lpar:
        new = new.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return new


#: Methods of a hash object that return its digest (hashlib, xxhash, blake3).
_DIGEST_METHODS = ("hexdigest", "digest", "intdigest", "intdigest128", "hexdigest128")
#: Calls whose result is bytes (the input a digest may be extended with `+ b"..."`).
_BYTES_CALLS = ("encode", "tobytes", "dumps", "digest", "to_bytes")


def _digest_input(node: cst.CSTNode) -> cst.Arg | None:
    """For `H(data).hexdigest()` (any digest method of a hash object built from a call
    with the data as its last positional argument), that argument; else None."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in _DIGEST_METHODS and isinstance(node.func.value, cst.Call)):
        return None
    ctor = node.func.value
    pos = [a for a in ctor.args if a.keyword is None and not a.star]
    if not pos or any(a.star for a in ctor.args):
        return None
    return pos[-1]


def _is_bytes(node: cst.BaseExpression) -> bool:
    """Is the value bytes by its own spelling (`x.encode()`, `b"..."`, `bytes(...)`,
    `a.tobytes()`, `pickle.dumps(...)`, or a `+` of such)?"""
    if isinstance(node, cst.SimpleString):
        return node.prefix.lower().startswith("b") or node.prefix.lower() in ("rb", "br")
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _is_bytes(node.left) or _is_bytes(node.right)
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Name) and node.func.value == "bytes":
            return True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in _BYTES_CALLS:
            return node.func.attr.value != "dumps" or _dotted(node.func.value) == "pickle"
    return False


def _key_only_used_as_key(ctx: ModuleContext, fn: cst.FunctionDef, name: str, assign: cst.CSTNode) -> bool:
    """Is every read of local `name` in `fn` a use as a mapping key (`c[name]`,
    `name in c`, `c.get(name)`, `c.pop(name)`, `c.setdefault(name, ...)`, `s.add(name)`)?
    Then a key that becomes a tuple keeps working; any other read (`name + x`,
    `name.encode()`, `parent = name`, a call argument, a return) may need its type."""
    ok = True

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, n) -> bool:
            return n is fn

        def visit_Lambda(self, n) -> bool:
            return True

        def visit_Name(self, n: cst.Name) -> None:
            nonlocal ok
            if n.value != name or not ok:
                return
            par = ctx.parent(n)
            if isinstance(par, cst.AssignTarget) and ctx.parent(par) is assign:
                return
            if isinstance(par, cst.Index) and isinstance(ctx.parent(ctx.parent(par)), cst.Subscript):
                return
            if isinstance(par, cst.Comparison) and par.left is n and all(
                    isinstance(c.operator, (cst.In, cst.NotIn)) for c in par.comparisons):
                return
            if isinstance(par, cst.Arg) and par.keyword is None:
                call = ctx.parent(par)
                if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.args \
                        and call.args[0] is par and call.func.attr.value in (
                            "get", "pop", "setdefault", "add", "discard", "remove", "__contains__", "__getitem__"):
                    return
            ok = False

    fn.visit(V())
    return ok


@codemod("add_scope_id_to_key")
def add_scope_id_to_key(ctx: ModuleContext, data: dict) -> str:
    """CTX501 (unsafe): add the in-scope id (`data["scope_expr"]`) to the cache key,
    keeping the key's type.

    - a digest key (`hashlib.sha256(data).hexdigest()`, also behind a local name
      assigned once): the id goes into the hashed bytes, `data + repr(<id>).encode()`,
      so the key stays the str/bytes/int it was (a chained block hash still
      chains); refused when the data is not bytes by its spelling;
    - a key holding a tuple: the first tuple gains the id as its last element
      (`hash((parent, chunk))` -> `hash((parent, chunk, req.adapter_id))`);
    - any other key `k` becomes `(k, <id>)` only where every use of it is as a
      mapping key (a local name assigned once, read only as `c[k]`, `k in c`,
      `c.get(k)`...), or where it is written inline as the key itself; otherwise
      the key's type may matter and no fix is offered.
    data["mode"] "inside" wraps the anchor itself (the argument of the `repr()` a
    digest's bytes come from) without following local names; "bytes" (a digest's
    bytes argument) makes `k` `k + repr(<id>).encode()`. Unsafe: every existing
    cache entry misses once.
    """
    scope = data.get("scope_expr")
    if not scope:
        raise FixNotApplicable("no scope_expr in the fix data")
    scope_node = expr(scope)
    mode = data.get("mode")
    node = ctx.find(data, (cst.BaseExpression,), "key expression", _not_a_test)
    if mode == "bytes":
        if scope in ctx.code(node):
            raise FixNotApplicable(f"{scope} is already in the key")
        if not _is_bytes(node) and not isinstance(ctx.parent(node), cst.Arg):
            raise FixNotApplicable("the digest's input is not bytes by its spelling")
        code = ctx.code(node) if isinstance(node, _ATOMIC) and not node.lpar else f"({ctx.code(node)})"
        return ctx.module.deep_replace(node, expr(f"{code} + repr({scope}).encode()")).code  # type: ignore[union-attr]
    anchor = node
    assign = None
    if isinstance(node, cst.Name) and mode != "inside":
        assign = _key_assignment(ctx, node)
        if assign is not None:
            node = assign.value
    if scope in ctx.code(node):
        raise FixNotApplicable(f"{scope} is already in the key")
    if mode != "inside":
        data_arg = _digest_input(node)
        if data_arg is not None:
            if not _is_bytes(data_arg.value):
                raise FixNotApplicable("the digest's input is not bytes by its spelling")
            v = data_arg.value
            code = ctx.code(v) if isinstance(v, _ATOMIC) and not v.lpar else f"({ctx.code(v)})"
            return ctx.module.deep_replace(v, expr(f"{code} + repr({scope}).encode()")).code  # type: ignore[union-attr]
    t = node if isinstance(node, cst.Tuple) else _first_tuple(node)
    if t is not None and t.elements:
        return ctx.module.deep_replace(t, _append_element(t, scope_node)).code  # type: ignore[union-attr]
    if mode != "inside":
        fn = ctx.enclosing_function(anchor)
        if assign is not None:
            if fn is None or not _key_only_used_as_key(ctx, fn, anchor.value, assign):  # type: ignore[attr-defined]
                raise FixNotApplicable("the key is used as a value too: a tuple key would change its type")
        elif isinstance(anchor, cst.Name):
            raise FixNotApplicable("the key name is not assigned once in this function")
        elif isinstance(ctx.parent(anchor), cst.Assign) and len(ctx.parent(anchor).targets) == 1 \
                and isinstance(ctx.parent(anchor).targets[0].target, cst.Name):
            owner = ctx.parent(anchor)
            if fn is None or not _key_only_used_as_key(ctx, fn, owner.targets[0].target.value, owner):
                raise FixNotApplicable("the key is used as a value too: a tuple key would change its type")
        else:
            par = ctx.parent(anchor)
            as_key = (isinstance(par, cst.Index) and isinstance(ctx.parent(ctx.parent(par)), cst.Subscript)) or (
                isinstance(par, cst.Comparison) and par.left is anchor) or (
                isinstance(par, cst.Arg) and isinstance(ctx.parent(par), cst.Call)
                and isinstance(ctx.parent(par).func, cst.Attribute) and ctx.parent(par).args[0] is par
                and ctx.parent(par).func.attr.value in ("get", "pop", "setdefault", "add", "discard"))
            if not as_key:
                raise FixNotApplicable("the key is not only used as a mapping key: a tuple would change its type")
    inner = node.with_changes(lpar=(), rpar=()) if isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)) else node
    new = cst.Tuple(elements=[cst.Element(value=inner, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                              cst.Element(value=scope_node)])
    return ctx.module.deep_replace(node, new).code  # type: ignore[union-attr]


_KEY_PART = '''\
def {name}(kind, part):
    """`part` labelled with its kind, keeping its type: `[(kind, tuple(part))]` for a list,
    the same as a tuple for a tuple, `repr((kind, part))` for a str; an empty part stays
    empty, so a key with no scope part is what it was (added by ctxlint, CTX504)."""
    if not part:
        return part
    if isinstance(part, str):
        return repr((kind, part))
    return type(part)([(kind, tuple(part))])
'''


class _ReplaceNodes(cst.CSTTransformer):
    """Replace several nodes of one tree at once (by identity)."""

    def __init__(self, mapping: dict):
        self.mapping = mapping

    def on_leave(self, original, updated):
        return self.mapping.get(original, updated)


def _tag_pair(tag: str, value: cst.BaseExpression) -> cst.Tuple:
    return cst.Tuple(elements=[
        cst.Element(value=cst.SimpleString(_quote(tag)), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
        cst.Element(value=value.with_changes(lpar=(), rpar=()) if isinstance(value, _ATOMIC) else value)])


def _concat_parts(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add) and not node.lpar:
        return [*_concat_parts(node.left), *_concat_parts(node.right)]
    return [node]


def _str_evidence(ctx: ModuleContext, node: cst.CSTNode, parts: list[cst.BaseExpression]) -> bool:
    """Are the concatenated parts strings? A string literal or f-string part, a
    `str()`/`repr()`/`.hexdigest()` part, or a parameter annotated `str`."""
    fn = ctx.enclosing_function(node)
    annotations: dict[str, str] = {}
    if fn is not None:
        for prm in [*fn.params.params, *fn.params.kwonly_params, *fn.params.posonly_params]:
            if prm.annotation is not None:
                annotations[prm.name.value] = ctx.code(prm.annotation.annotation)
    for p in parts:
        if isinstance(p, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return True
        if isinstance(p, cst.Call) and _dotted(p.func).split(".")[-1] in ("str", "repr", "hexdigest", "format", "join"):
            return True
        if isinstance(p, cst.Name) and annotations.get(p.value, "").replace("Optional[", "").rstrip("]") == "str":
            return True
    return False


def _tag_appended(ctx: ModuleContext, name: cst.Name, tags: list[str]) -> str:
    """`parts = []` then `parts.append(x)` per scope kind: tag each appended value
    (`("tenant", x)`, or `f"tenant={x!r}"` when the values are strings)."""
    fn = ctx.enclosing_function(name)
    if fn is None:
        raise FixNotApplicable("the key list is not built in a function")
    appends: list[cst.Call] = []

    class V(cst.CSTVisitor):
        def visit_FunctionDef(self, n) -> bool:
            return n is fn

        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "append" and \
                    isinstance(n.func.value, cst.Name) and n.func.value.value == name.value and len(n.args) == 1:
                appends.append(n)

    fn.visit(V())
    if len(appends) != len(tags):
        raise FixNotApplicable(f"{len(tags)} tags for {len(appends)} appended key parts")
    values = [c.args[0].value for c in appends]
    strings = _str_evidence(ctx, name, values)
    mapping = {}
    for v, t in zip(values, tags):
        if not t:
            continue
        if strings:
            new = cst.FormattedString(parts=[cst.FormattedStringText(f"{t}="), cst.FormattedStringExpression(
                expression=v.with_changes(lpar=(), rpar=()), conversion="r")])
        else:
            new = _tag_pair(t, v)
        mapping[v] = new
    return ctx.module.visit(_ReplaceNodes(mapping)).code


@codemod("tag_key_parts")
def tag_key_parts(ctx: ModuleContext, data: dict) -> str:
    """CTX504: label each scope part of a composite key with its kind.

    - a tuple key `(a, s)` -> `(("lora", a), ("cache_salt", s))`;
    - a display with starred parts `(*t, *a, *toks)` -> `(("tenant", tuple(t)), ("lora", tuple(a)), *toks)`;
    - a concatenation `a + m + s` -> `_key_part("lora", a) + m + _key_part("cache_salt", s)`,
      with a generated `_key_part` that keeps each part's type (list, tuple or str);
    - an f-string `f"{a}:{s}"` -> `f"lora={a}:cache_salt={s}"`.
    data: tags, one per part in order ("" leaves a part alone).
    """
    tags = [t or "" for t in (data.get("tags") or [])]
    node = ctx.find(data, (cst.BaseExpression,), "key expression", _not_a_test)
    name = node
    if isinstance(node, cst.Name):
        assign = _key_assignment(ctx, node)
        if assign is not None:
            node = assign.value
    if not any(tags):
        raise FixNotApplicable("no part to tag")
    if isinstance(name, cst.Name) and isinstance(node, (cst.List, cst.Tuple)) and not node.elements:
        return _tag_appended(ctx, name, tags)
    if isinstance(node, cst.FormattedString):
        parts = [p for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
        if len(parts) != len(tags):
            raise FixNotApplicable(f"{len(tags)} tags for {len(parts)} key parts")
        if any(node.end in t or "{" in t or "}" in t or "\\" in t for t in tags):
            raise FixNotApplicable("a tag cannot be written inside this string")
        new_parts: list = []
        for p in node.parts:
            if isinstance(p, cst.FormattedStringExpression) and tags[parts.index(p)]:
                new_parts.append(cst.FormattedStringText(f"{tags[parts.index(p)]}="))
            new_parts.append(p)
        return ctx.replace(node, node.with_changes(parts=new_parts)).code
    if isinstance(node, cst.BinaryOperation):
        parts = _concat_parts(node)
        if len(parts) != len(tags):
            raise FixNotApplicable(f"{len(tags)} tags for {len(parts)} key parts")
        if _str_evidence(ctx, node, parts):
            # String keys: `f"tenant={t!r}" + f"lora={a!r}"`; repr quotes each value,
            # so "ab"+"c" and "a"+"bc" no longer meet.
            mapping = {p: cst.FormattedString(parts=[
                cst.FormattedStringText(f"{t}="),
                cst.FormattedStringExpression(expression=p.with_changes(lpar=(), rpar=()), conversion="r")])
                for p, t in zip(parts, tags) if t}
            if any("{" in t or "}" in t or '"' in t or "\\" in t for t in tags if t):
                raise FixNotApplicable("a tag cannot be written inside an f-string")
            return ctx.module.visit(_ReplaceNodes(mapping)).code
        existing = next((s.name.value for s in ctx.module.body if isinstance(s, cst.FunctionDef)
                         and s.name.value.startswith("_key_part") and "kind" in names_in(s.params)), None)
        if existing is None and ctx.outside_match(r"^def _key_part"):
            raise NeedFullModule("the key-part helper is defined outside the window")
        helper = existing or free_name("_key_part", ctx.module_words())
        mapping = {p: cst.Call(func=cst.Name(helper), args=[
            cst.Arg(value=cst.SimpleString(_quote(t)), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Arg(value=p.with_changes(lpar=(), rpar=()) if isinstance(p, _ATOMIC) else p)])
            for p, t in zip(parts, tags) if t and not (isinstance(p, cst.Call) and _dotted(p.func) == helper)}
        if not mapping:
            raise FixNotApplicable("the parts are already tagged")
        module = ctx.module.visit(_ReplaceNodes(mapping))
        if existing is None:
            module = insert_top(module, [stmt(_KEY_PART.format(name=helper), module)], blank_before=2)
        return module.code
    t = node if isinstance(node, (cst.Tuple, cst.List)) else _first_tuple(node)
    if t is None:
        raise FixNotApplicable("the key is not a tuple, a concatenation or an f-string")
    if len(t.elements) != len(tags):
        raise FixNotApplicable(f"{len(tags)} tags for {len(t.elements)} key parts")
    elts = []
    for e, tag in zip(t.elements, tags):
        v = e.value
        already = isinstance(v, cst.Tuple) and len(v.elements) == 2 and isinstance(v.elements[0].value, cst.SimpleString)
        if tag and isinstance(e, cst.StarredElement):
            seq = cst.Call(func=cst.Name("tuple"), args=[cst.Arg(value=v)])
            e = cst.Element(value=_tag_pair(tag, seq), comma=e.comma)
        elif tag and not already:
            e = e.with_changes(value=_tag_pair(tag, v))
        elts.append(e)
    return ctx.replace(t, t.with_changes(elements=elts)).code


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ====================================================================== CTX601
_ATOMIC = (cst.Name, cst.Attribute, cst.Call, cst.Subscript)


@codemod("detach_accumulation")
def detach_accumulation(ctx: ModuleContext, data: dict) -> str:
    """CTX601: accumulate `loss.item()` (a Python float) or `loss.detach()` (no graph).

    data: method "item" (default) or "detach". The accumulated expression is
    parenthesised when it is not atomic (`(a * b).item()`).
    """
    method = data.get("method", "item")
    if method not in ("item", "detach"):
        raise FixNotApplicable(f"unknown method {method!r}")
    node = ctx.find(data, (cst.BaseExpression,), "accumulated expression", _not_a_test)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in (
            "item", "detach", "tolist", "cpu"):
        raise FixNotApplicable("the value is already detached")
    inner = node.with_changes(lpar=(), rpar=()) if isinstance(node, _ATOMIC) else (
        node if node.lpar else node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]))
    new = cst.Call(func=cst.Attribute(value=inner, attr=cst.Name(method)), lpar=node.lpar if isinstance(node, _ATOMIC) else (),
                   rpar=node.rpar if isinstance(node, _ATOMIC) else ())
    return ctx.module.deep_replace(node, new).code  # type: ignore[union-attr]
