"""The fix engine: apply the fixes rules attach to findings, safely (`ctxlint check --fix`).

A finding's `Fix` is data (the Fixit model): either byte-range `Edit`s the rule
computed (Go, Jinja) or the name of a libcst codemod in
`ctxlint.fixers.python_codemods` plus its parameters (Python). This module turns
those into new file text and writes it:

* Each fix is reduced to a list of text edits on the decoded, LF-normalised text
  the rules saw. A Python codemod runs on a *window* of the module (the import
  block and the one top-level statement it rewrites, `python_codemods.Window`):
  libcst parses, resolves positions and parents for, and prints only that, and
  the edits come from the window's own diff; a codemod that needs the whole
  module says so (`NeedFullModule`) and runs again on it.
* Only the findings of the first report are fixed. Fixes whose edits do not
  overlap (and at most one per function, as fixes bind new names) are applied
  together; the rest wait for the next round, in which the rewritten text is
  linted again in memory. Each first-report finding is followed through the
  edits (by line, or inside the lines a fix rewrote), so identical statements
  are told apart; a finding whose fix was applied or refused is never tried
  again, and one that a fix made appear is reported with a notice, never fixed
  unasked. The count of fixes is the number applied. At most `MAX_ROUNDS` rounds.
* A rewrite must re-parse (Python `ast.parse` of each window's result, and of
  the whole file for other edits; Go tree-sitter without ERROR nodes; Jinja
  `jinja2.Environment.parse`) when the original did, or it is dropped with a notice.
* The `--diff` output is built from the edits (`LineMap`), not by comparing
  whole files; cyclic GC is paused while fixing, as while linting.
* Writes go through `write_atomic` (shared with `--add-noqa`): a temporary file
  in the same directory, fsynced, then `os.replace` onto the symlink's target
  (never one outside the checked tree), keeping the file's mode; `encode_like`
  keeps its encoding (UTF-8, BOM, PEP 263 cookie) and each line's newline
  style; a file whose bytes changed since it was linted is refused.

libcst is imported only when a Python codemod runs, so `ctxlint check` without
`--fix` never pays for it.
"""

from __future__ import annotations

import ast
import bisect
import codecs
import contextlib
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ctxlint.fixers.base import FixNotApplicable, NeedFullModule, edits_between  # noqa: F401  (re-exported)
from ctxlint.findings import SAFE, Edit, Finding

#: At most this many lint-and-fix rounds per file (ruff uses 100; each round
#: re-lints the file; a function, or fixes whose edits touch, take one per round).
MAX_ROUNDS = 20


@dataclass
class FixOutcome:
    """What `run_fixes` did.

    remaining: the findings left after fixing (re-linted for rewritten files,
        with their new line numbers), sorted.
    fixed: number of fixes applied.
    diff: unified diff of every rewrite (empty when nothing changed).
    notices: one-line messages for stderr (fixes skipped and why).
    changed: display paths of the files rewritten (or that would be, with --diff).
    """

    remaining: list[Finding] = field(default_factory=list)
    fixed: int = 0
    diff: str = ""
    notices: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


def wanted(finding: Finding, unsafe: bool) -> bool:
    """Is `finding`'s fix applied at this safety level?"""
    return finding.fix is not None and (finding.fix.safety == SAFE or unsafe) and (
        bool(finding.fix.edits) or bool(finding.fix.codemod))


# ------------------------------------------------------------- parse checks
def parses(text: str, language: str) -> bool:
    """Does `text` parse as `language` ("python" | "go" | "jinja")? Never raises."""
    try:
        if language == "python":
            ast.parse(text)
            return True
        if language == "go":
            return not _go_tree(text).root_node.has_error
        if language == "jinja":
            import jinja2
            jinja2.Environment().parse(text)
            return True
    except ImportError:  # no parser installed: nothing to check against
        return True
    except Exception:  # SyntaxError, jinja2.TemplateSyntaxError, RecursionError, ...
        return False
    return True


def _go_tree(text: str):
    try:
        from ctxlint.languages import go as golang
        parse = getattr(golang, "parse_tree", None)
        if parse is not None:
            return parse(text)
    except ImportError:
        pass
    import tree_sitter
    import tree_sitter_go
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_go.language()))
    return parser.parse(text.encode("utf-8"))


# ------------------------------------------------------------- edits
def _conflict(a: Edit, b: Edit, line_of=None) -> bool:
    """Do two edits (of different fixes) overlap, touch or come within a line of
    each other? Near counts: two fixes that each insert a block at neighbouring
    lines (two `__init__`s, a blank line apart) must see each other's result, so
    the second waits a round. `line_of(offset)` maps offsets to line numbers."""
    if a == b:
        return False
    if a.start <= b.end and b.start <= a.end:
        return True
    if line_of is None:
        return False
    return line_of(a.start) <= line_of(b.end) + 1 and line_of(b.start) <= line_of(a.end) + 1


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (offsets into `text`); identical duplicates count once."""
    out, pos = [], 0
    for e in sorted(set(edits), key=lambda e: (e.start, e.end)):
        if e.start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


class _Text:
    """One round's text with its line starts and (Python) its `ast` tree, computed once."""

    def __init__(self, text: str, language: str):
        self.text = text
        self.language = language
        starts = [0]
        pos = 0
        for ln in text.split("\n")[:-1]:
            pos += len(ln) + 1
            starts.append(pos)
        self.starts = starts
        self._tree: object = _MISSING
        self._parsable: bool | None = None
        self._words = None

    @property
    def tree(self):
        """The `ast.Module` of a Python text, or None when it does not parse."""
        if self._tree is _MISSING:
            self._tree = None
            if self.language == "python":
                try:
                    self._tree = ast.parse(self.text)
                except Exception:  # SyntaxError, ValueError, RecursionError
                    self._tree = None
        return self._tree

    @property
    def parsable(self) -> bool:
        if self._parsable is None:
            self._parsable = self.tree is not None if self.language == "python" else parses(self.text, self.language)
        return self._parsable

    def words(self):
        """Counter of every identifier-like word in the text (a superset of its names)."""
        if self._words is None:
            from collections import Counter
            self._words = Counter(_WORD.findall(self.text))
        return self._words

    def matches(self, pattern: str) -> list[int]:
        """Start offsets of the matches of `pattern` (re.M) in the text, computed once per text."""
        cache = self.__dict__.setdefault("_matches", {})
        if pattern not in cache:
            cache[pattern] = [m.start() for m in re.finditer(pattern, self.text, re.M)]
        return cache[pattern]

    def line_of(self, offset: int) -> int:
        """The 1-based line of a character offset."""
        return bisect.bisect_right(self.starts, offset)

    def line_text(self, line: int) -> str:
        if not 0 < line <= len(self.starts):
            return ""
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[self.starts[line - 1]:end]

    def region_of(self, line: int) -> tuple[int, int] | None:
        """The innermost function (first line, last line) around `line`, or None.
        Python: only the top-level statement holding the line is walked."""
        if self.language != "python":
            if not hasattr(self, "_regions"):
                self._regions = _regions(self.text, self.language)
            return _region_of(self._regions, line)
        tree = self.tree
        if tree is None:
            return None
        if not hasattr(self, "_tops"):
            self._tops = [(min([n.lineno] + [d.lineno for d in getattr(n, "decorator_list", ())]),
                           n.end_lineno or n.lineno, n) for n in tree.body]
            self._top_starts = [t[0] for t in self._tops]
        k = bisect.bisect_right(self._top_starts, line) - 1
        if k < 0 or self._tops[k][1] < line:
            return None
        inside = [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(self._tops[k][2])
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.lineno <= line <= (n.end_lineno or n.lineno)]
        return min(inside, key=lambda r: r[1] - r[0]) if inside else None

    def regions(self) -> list[tuple[int, int]]:
        """(first line, last line) of every function (Python: any def; Go: top-level
        func and method declarations)."""
        if self.language == "python":
            tree = self.tree
            if tree is None:
                return []
            return [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree)
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        return _regions(self.text, self.language)


_MISSING = object()
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _fix_edits(rt: "_Text", finding: Finding, path: str, full_ctx) -> list[Edit]:
    """The edits of one finding's fix on the round's text `rt`. Raises FixNotApplicable.

    A Python codemod first runs on a window of the module (see
    `python_codemods.Window`): libcst parses, resolves metadata for and prints only
    the top-level statement being rewritten and the import block, and the edits
    come from that window's own diff. A codemod that needs the whole module
    (`NeedFullModule`) runs again on `full_ctx()`.
    """
    fix = finding.fix
    text = rt.text
    if fix.edits:
        for e in fix.edits:
            if not (0 <= e.start <= e.end <= len(text)):
                raise FixNotApplicable("edit out of range")
        return list(fix.edits)
    if rt.language != "python":
        raise FixNotApplicable(f"no codemod for {rt.language}")
    from ctxlint.fixers import codemods as python_codemods
    data = dict(fix.data)
    # The finding's end disambiguates anchors that start at the same place
    # (`Template(s).render()`); libcst columns are 0-based, findings' 1-based.
    data.setdefault("_end", (finding.end_line, finding.end_col - 1))
    if rt.tree is not None:
        window = python_codemods.Window.around(rt, data)
        if window is not None:
            try:
                return window.run(fix.codemod, data, path)
            except NeedFullModule:
                pass
    new = python_codemods.apply(full_ctx(), fix.codemod, data)
    return edits_between(text, new)


def _regions(text: str, language: str) -> list[tuple[int, int]]:
    """(first line, last line) of every function in `text` (Python: any def,
    innermost wins; Go: top-level func and method declarations)."""
    out: list[tuple[int, int]] = []
    try:
        if language == "python":
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.append((node.lineno, node.end_lineno or node.lineno))
        elif language == "go":
            for child in _go_tree(text).root_node.children:
                if child.type in ("function_declaration", "method_declaration"):
                    out.append((child.start_point[0] + 1, child.end_point[0] + 1))
    except Exception:  # unparsable text: no isolation, the parse check guards the result
        return []
    return out


def _region_of(regions: list[tuple[int, int]], line: int) -> tuple[int, int] | None:
    inside = [r for r in regions if r[0] <= line <= r[1]]
    return min(inside, key=lambda r: r[1] - r[0]) if inside else None


#: Outcomes of one finding in a round.
APPLIED, REFUSED, DEFERRED = "applied", "refused", "deferred"


@dataclass
class RoundResult:
    """What one round did: the new text, the fixes applied, each finding's
    outcome (by index into the round's findings: APPLIED, REFUSED or DEFERRED
    to a later round) and the edits applied (offsets into the round's text)."""

    text: str
    applied: int
    status: dict[int, str]
    edits: list[Edit]


def run_round(path: str, text: str, language: str, findings: list[Finding], unsafe: bool,
              notices: list[str], only: set[int] | None = None, rt: "_Text | None" = None) -> RoundResult:
    """Apply every non-conflicting fix of `findings` (those whose index is in
    `only`, when given) to `text` once. A fix whose codemod refuses, or whose
    result does not parse, is REFUSED with a notice; one that conflicts with a fix
    chosen this round (overlapping edits, or a second fix in one function, since
    fixes bind new names chosen on this round's text) is DEFERRED. Never raises."""
    rt = rt or _Text(text, language)
    status: dict[int, str] = {}
    todo = [(k, f) for k, f in enumerate(findings)
            if wanted(f, unsafe) and (only is None or k in only)]
    if not todo:
        return RoundResult(text, 0, status, [])
    ctx_cache: dict = {}

    def full_ctx():
        if "ctx" not in ctx_cache:
            from ctxlint.fixers.python_codemods import ModuleContext
            ctx_cache["ctx"] = ModuleContext(text, path=path)
        return ctx_cache["ctx"]

    chosen: list[Edit] = []
    applied = 0
    unchecked = False  # a fix whose edits no window parse-checked
    was_parsable = rt.parsable
    used_regions: set = set()
    for k, f in sorted(todo, key=lambda kf: (kf[1].line, kf[1].col)):
        region = rt.region_of(f.line)
        if region is not None and region in used_regions:
            status[k] = DEFERRED
            continue
        try:
            edits = _fix_edits(rt, f, path, full_ctx)
        except FixNotApplicable as exc:
            status[k] = REFUSED
            notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: {exc}")
            continue
        except Exception as exc:  # a codemod bug must never lose the user's file or the run
            status[k] = REFUSED
            notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: internal error "
                           f"({type(exc).__name__}: {exc})")
            continue
        if not edits:
            status[k] = REFUSED
            continue
        if any(_conflict(e, c, rt.line_of) for e in edits for c in chosen):
            status[k] = DEFERRED  # overlaps a fix chosen this round: next round
            continue
        if not getattr(edits, "from_window", False):
            unchecked = True
        if was_parsable and not (language == "python" and f.fix.codemod):
            # codemod edits were parse-checked on their window; byte edits here
            if not parses(apply_edits(text, edits), language):
                status[k] = REFUSED
                notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: the result does not parse")
                continue
        status[k] = APPLIED
        chosen.extend(edits)
        applied += 1
        if region is not None:
            used_regions.add(region)
    if not chosen:
        return RoundResult(text, 0, status, [])
    try:
        new = apply_edits(text, chosen)
    except ValueError:
        notices.append(f"{path}: fixes not applied: their edits overlap")
        return RoundResult(text, 0, {k: REFUSED for k in status}, [])
    # Window edits were parse-checked with their whole top-level statement and the
    # import block; other edits get the whole-file check here.
    if was_parsable and unchecked and not parses(new, language):
        notices.append(f"{path}: fixes not applied: together they do not parse")
        return RoundResult(text, 0, {k: REFUSED for k in status}, [])
    return RoundResult(new, applied, status, chosen)


def fix_round(path: str, text: str, language: str, findings: list[Finding], unsafe: bool,
              notices: list[str], skip: set | None = None) -> tuple[str, int, list[int]]:
    """`run_round` on every wanted finding (except the indexes in `skip`).

    Returns (new text, fixes applied, indexes of the findings tried: applied or refused).
    """
    only = None if skip is None else {k for k in range(len(findings)) if k not in skip}
    r = run_round(path, text, language, findings, unsafe, notices, only=only)
    return r.text, r.applied, [k for k, s in r.status.items() if s != DEFERRED]


@dataclass
class _Tracked:
    """A finding of the first report, followed through the rounds' edits: its code,
    its line in the current text, or (`lo`, `hi`) the lines an edit that rewrote
    it now covers, and the stripped text of its line (to recognise it there)."""

    code: str
    line: int
    col: int
    lo: int
    hi: int
    text: str
    wanted: bool
    done: bool = False


def _map_through(tracked: list[_Tracked], old: "_Text", new: "_Text", edits: list[Edit]) -> None:
    """Move each tracked finding to its line in `new` (the text `edits` made of `old`):
    a line no edit touches keeps its place (shifted by the edits before it); a
    line an edit rewrote is now somewhere in the lines that edit wrote."""
    edits = sorted(set(edits), key=lambda e: (e.start, e.end))
    ends = [e.end for e in edits]
    prefix = [0]
    for e in edits:
        prefix.append(prefix[-1] + len(e.text) - (e.end - e.start))

    def moved(x: int) -> int:
        return x + prefix[bisect.bisect_right(ends, x)]

    for t in tracked:
        if t.done:
            continue
        if not (0 < t.lo <= len(old.starts)):
            t.done = True
            continue
        a = old.starts[t.lo - 1]
        hi = min(t.hi, len(old.starts))
        b = old.starts[hi] - 1 if hi < len(old.starts) else len(old.text)
        touching = [e for e in edits if (e.start < b and e.end > a) or (e.start == e.end and a < e.start <= b)]
        if touching:
            lo_off = min(a, touching[0].start)
            hi_off = max(b, touching[-1].end)
            t.lo = new.line_of(moved(lo_off) if lo_off < touching[0].start else lo_off + prefix[edits.index(touching[0])])
            t.hi = max(t.lo, new.line_of(max(moved(hi_off) - 1, 0)))
            t.line = t.lo
        else:
            t.lo = t.hi = t.line = new.line_of(moved(a))


def _match(tracked: list[_Tracked], findings: list[Finding], rt: "_Text") -> dict[int, _Tracked]:
    """Pair the findings of a round's text with tracked first-report findings: the
    same code on the same line (nearest column), or, where a fix rewrote the
    finding's line, the same code and line text inside the rewritten lines."""
    out: dict[int, _Tracked] = {}
    free = [t for t in tracked]
    by_line: dict[tuple[str, int], list[_Tracked]] = {}
    for t in free:
        if t.lo == t.hi:
            by_line.setdefault((t.code, t.lo), []).append(t)
    used: set[int] = set()
    fuzzy = []
    for k, f in enumerate(findings):
        cands = [t for t in by_line.get((f.code, f.line), ()) if id(t) not in used]
        if cands:
            t = min(cands, key=lambda t: abs(t.col - f.col))
            used.add(id(t))
            out[k] = t
        else:
            fuzzy.append(k)
    for k in fuzzy:
        f = findings[k]
        line = rt.line_text(f.line).strip()
        cands = [t for t in free if id(t) not in used and t.code == f.code and t.lo <= f.line <= t.hi
                 and t.text == line]
        if cands:
            used.add(id(cands[0]))
            out[k] = cands[0]
    return out


def fix_source(path: str, text: str, language: str, findings: list[Finding], rules: list, config,
               unsafe: bool, need_remaining: bool = True,
               lines: "LineMap | None" = None) -> tuple[str, int, list[Finding], list[str]]:
    """Apply fixes in rounds (re-linting in memory between rounds).

    Only the findings of this first report are fixed: each is followed through
    the rounds' edits, and a later round fixes it when it is still reported
    there (its fix was deferred by a conflict). A finding that a later round
    reports for the first time (a fix made it appear) is reported, never fixed,
    and a notice names it. A finding whose fix was applied or refused is never
    tried again, so the rounds end.

    Args:
        path: display path (used for re-linting and notices).
        text: the decoded, LF-normalised source the findings were computed on.
        findings: that source's findings (for this file only).
        rules: the selected rules, to re-lint with.
        need_remaining: False (`--diff`) skips the re-lint after the last
            round; the findings returned are then those of the last linted text.
        lines: a `LineMap` of `text` that follows every round's edits (for the diff).
    Returns:
        (new text, fixes applied, the findings of the new text, notices).
    """
    import gc
    paused = gc.isenabled()
    gc.disable()  # as the engine: parse trees hold no cycles, generation scans find nothing
    try:
        return _fix_source(path, text, language, findings, rules, config, unsafe, need_remaining, lines)
    finally:
        if paused:
            gc.enable()


def _fix_source(path, text, language, findings, rules, config, unsafe, need_remaining, lines):
    from ctxlint import engine
    notices: list[str] = []
    rt = _Text(text, language)
    tracked = [_Tracked(f.code, f.line, f.col, f.line, f.line, rt.line_text(f.line).strip(), wanted(f, unsafe))
               for f in findings]
    pairing = {k: tracked[k] for k in range(len(findings))}
    current_findings, fixed = findings, 0
    for _ in range(MAX_ROUNDS):
        only = {k for k, t in pairing.items() if t.wanted and not t.done}
        if not only:
            break
        r = run_round(path, rt.text, language, current_findings, unsafe, notices, only=only, rt=rt)
        for k, st in r.status.items():
            if st != DEFERRED:
                pairing[k].done = True
        if r.text == rt.text:
            break
        fixed += r.applied
        new_rt = _Text(r.text, language)
        _map_through(tracked, rt, new_rt, r.edits)
        if lines is not None:
            lines.apply(rt, r.edits)
        rt = new_rt
        if not need_remaining and not any(t.wanted and not t.done for t in pairing.values()):
            break
        try:
            current_findings = engine.lint_text(path, rt.text, language, rules, config)
        except Exception as exc:  # a rule crash on the rewritten text: stop here, keep the text
            notices.append(f"{path}: re-lint after fixing failed ({type(exc).__name__}: {exc})")
            current_findings = []
            break
        pairing = _match(tracked, current_findings, rt)
    if rt.text != text:
        for k, f in enumerate(current_findings):
            if k not in pairing:
                notices.append(f"{path}:{f.line}:{f.col}: {f.code} appeared after fixing; not fixed "
                               "(review it, then run --fix again)")
    return rt.text, fixed, current_findings, notices


def fix_text(path: str, text: str, language: str, findings: list[Finding], unsafe: bool,
             rules: list | None = None, config=None) -> str:
    """Fixed text of one in-memory source (no disk I/O): the LSP code actions use it.

    Args:
        path: display path of the buffer; text: its decoded text (LF newlines).
        language: "python" | "go" | "jinja".
        findings: the findings to fix (others in the file are left alone in the
            first round; later rounds fix what the re-lint still offers).
        unsafe: also apply unsafe fixes.
        rules, config: for the re-lint between rounds (default: every default
            rule, the default configuration).
    Returns the new text (`text` itself when nothing applies). Never raises on bad input.
    """
    if rules is None:
        from ctxlint.rules import select_rules
        rules = select_rules([], [])
    if config is None:
        from ctxlint.config import Config
        config = Config()
    norm = text.replace("\r\n", "\n").replace("\r", "\n")
    new, _, _, _ = fix_source(path, norm, language, findings, rules, config, unsafe)
    if new == norm:
        return text
    return _restore_newlines(new, text)


# ------------------------------------------------------------- disk
_LINE_END = re.compile(r"\r\n|\r|\n")


def _newline_of(text: str) -> str:
    """The most common line ending of `text` ("\n" when it has none)."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    best = max((crlf, "\r\n"), (lf, "\n"), (cr, "\r"))
    return best[1] if best[0] else "\n"


def _split_ends(text: str) -> tuple[list[str], list[str]]:
    """`text` as (line bodies, line endings); len(endings) == len(bodies) - 1."""
    return _LINE_END.split(text), _LINE_END.findall(text)


def restore_newlines(new: str, original: str) -> str:
    """`new` (LF-normalised text derived from `original`) with `original`'s line endings.

    A file with one newline style (LF, CRLF or CR) gets it everywhere. A file
    with mixed endings keeps each unchanged line's own ending: lines are matched
    with `difflib` on their text, and lines a fix inserted or replaced take the
    ending of the original line they replace (or of the line before them).
    """
    if "\r" not in original:
        return new
    crlf = original.count("\r\n")
    cr = original.count("\r") - crlf
    lf = original.count("\n") - crlf
    if sum(1 for n in (crlf, cr, lf) if n) <= 1:
        nl = _newline_of(original)
        return new if nl == "\n" else new.replace("\n", nl)
    old_bodies, old_ends = _split_ends(original)
    new_bodies = new.split("\n")
    default = _newline_of(original)

    def end_at(i: int) -> str:
        return old_ends[i] if 0 <= i < len(old_ends) else default

    ends: list[str] = [default] * (len(new_bodies) - 1)
    matcher = difflib.SequenceMatcher(None, old_bodies, new_bodies, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        for k, j in enumerate(range(j1, min(j2, len(ends)))):
            if op == "equal" or (op == "replace" and i1 + k < i2):
                ends[j] = end_at(i1 + k)
            elif op == "replace":
                ends[j] = end_at(i2 - 1)
            else:  # inserted lines: the ending of the line before them
                ends[j] = end_at(i1 - 1 if i1 > 0 else i1)
    out = []
    for body, end in zip(new_bodies, ends):
        out.append(body)
        out.append(end)
    out.append(new_bodies[-1])
    return "".join(out)


_restore_newlines = restore_newlines


def _encoding_of(raw: bytes, language: str) -> str:
    """The codec `engine.decode` used for `raw`: UTF-8 (with BOM: "utf-8-sig"),
    else for Python the PEP 263 coding cookie's, else "utf-8"."""
    if raw.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    try:
        raw.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        if language == "python":
            import io
            import tokenize
            try:
                return tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
            except (SyntaxError, LookupError):
                pass
    return "utf-8"


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) for r in roots)


class OutsideTree(OSError):
    """A write was refused: the path is a symlink whose target lies outside the checked tree."""


def write_target(path: str | os.PathLike, roots: Iterable[Path] | None = None) -> Path:
    """The real file a write to `path` lands on: symlinks resolved.

    Args:
        path: the file as the user named it (may be, or pass through, symlinks).
        roots: resolved directories of the checked tree; a symlinked `path`
            whose target is outside all of them is refused. None: no check.
    Raises:
        OutsideTree: symlink target outside `roots`.
        OSError, RuntimeError: the path cannot be resolved (RuntimeError: a symlink loop).
    """
    p = Path(path)
    real = p.resolve()
    if roots is not None and str(real) != os.path.abspath(p) and not _inside(real, list(roots)):
        raise OutsideTree(f"it is a symlink to {real}, outside the checked tree")
    return real


def _default_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: str | os.PathLike, data: bytes, roots: Iterable[Path] | None = None,
                 expect: bytes | None = None, keep_read_only: bool = True) -> Path:
    """Replace the file at `path` with `data`, atomically; the writer shared by
    `--fix` and `--add-noqa`/`--write-baseline`.

    A symlink is written through: its target is replaced and the link stays a
    link (a target outside `roots` is refused). The data goes to a temporary
    file in the target's directory, is fsynced, gets the old file's permission
    bits (a new file: 0o666 less the umask) and is renamed over the target with
    `os.replace`; the directory is fsynced where the platform allows. A file
    with several hard links gets a new inode: its other names (possibly outside
    the tree) keep the old contents, as with ruff and black. Owner and group are
    not copied (a file owned by another user is rewritten as the current one).

    Args:
        path: the file to write (it need not exist).
        data: the complete new contents (already encoded).
        roots: see `write_target`.
        expect: the bytes the file must still hold; a file changed since is
            refused (raises `FileChangedError`).
        keep_read_only: refuse to replace a read-only file (`ReadOnlyFile`).
    Returns the real path written.
    Raises:
        OutsideTree, FileChangedError, ReadOnlyFile (an existing file without any
        write permission bit, or one this user may not write), OSError.
    """
    target = write_target(path, roots)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = _default_mode()
    else:
        # A rename needs only the directory's write permission: without this check a
        # `chmod 444` file (or one this user may not write) would be replaced.
        if keep_read_only and (not mode & 0o222 or not os.access(target, os.W_OK)):
            raise ReadOnlyFile("the file is read-only; left alone")
    if expect is not None and target.read_bytes() != expect:
        raise FileChangedError("it changed on disk while fixing")
    from ctxlint.processes import TEMP_SUFFIX, remove_if_stale, temp_prefix
    with contextlib.suppress(OSError):  # what a `kill -9` of an earlier run left here
        for entry in os.scandir(target.parent):
            if entry.name.startswith(f".{target.name}.") and entry.name.endswith(TEMP_SUFFIX):
                remove_if_stale(entry.path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return target
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
    return target


class ReadOnlyFile(OSError):
    """A write was refused: the file is read-only (`write_atomic`)."""


class FileChangedError(OSError):
    """A write was refused: the file's bytes differ from those that were linted."""


class LineMap:
    """Which line of the original text each line of the current text is (None for
    a line a fix wrote), kept through every round's edits: the unified diff is
    then built from the edits themselves (`unified`), never by comparing whole
    files (difflib is quadratic in the worst case). Lines are the `split("\\n")`
    slots of the LF-normalised text."""

    def __init__(self, text: str):
        self.original = text
        self.origin: list[int | None] = list(range(text.count("\n") + 1))

    def apply(self, rt: "_Text", edits: list[Edit]) -> None:
        """Follow `edits` (offsets into `rt.text`, the current text) to the new text."""
        text, starts = rt.text, rt.starts
        spans: list[list] = []  # [first slot, end slot (exclusive), [edits]]
        for e in sorted(set(edits), key=lambda e: (e.start, e.end)):
            first = rt.line_of(e.start) - 1
            if e.start == e.end == starts[first] and e.text.endswith("\n"):
                last = first  # a pure insertion before the line
            else:
                last = rt.line_of(max(e.end - 1, e.start))
            if spans and first < spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], last)
                spans[-1][2].append(e)
            else:
                spans.append([first, last, [e]])
        out: list[int | None] = []
        pos = 0
        for first, last, group in spans:
            a = starts[first]
            b = starts[last] if last < len(starts) else len(text)
            new = apply_edits(text[a:b], [Edit(x.start - a, x.end - a, x.text) for x in group])
            n = new.count("\n") + (1 if last >= len(starts) else 0)
            out.extend(self.origin[pos:first])
            out.extend([None] * n)
            pos = last
        out.extend(self.origin[pos:])
        self.origin = out

    def unified(self, display: str, new: str) -> str:
        """The unified diff from the original text to `new` (the text the edits made)."""
        def slots(t: str) -> list[str]:
            parts = t.split("\n")
            return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        a, b = slots(self.original), slots(new)
        origin = self.origin[:len(b)]
        if len(self.origin) != new.count("\n") + 1:
            return _unified(display, self.original, new)  # the map lost track: compare
        ops = []
        i = j = 0
        while j < len(b) or i < len(a):
            if j < len(b) and i < len(a) and origin[j] == i:
                k = 0
                while j + k < len(b) and i + k < len(a) and origin[j + k] == i + k:
                    k += 1
                ops.append(("equal", i, i + k, j, j + k))
                i, j = i + k, j + k
                continue
            j2 = j
            while j2 < len(b) and origin[j2] is None:
                j2 += 1
            i2 = origin[j2] if j2 < len(b) else len(a)
            if i2 is None or i2 < i or (i2 == i and j2 == j):
                return _unified(display, self.original, new)
            tag = "replace" if i2 > i and j2 > j else ("delete" if i2 > i else "insert")
            ops.append((tag, i, i2, j, j2))
            i, j = i2, j2
        if any(op[0] == "equal" and a[op[1]:op[2]] != b[op[3]:op[4]] for op in ops):
            return _unified(display, self.original, new)
        return _format_unified(display, a, b, ops)


def _format_unified(display: str, a: list[str], b: list[str], ops: list[tuple]) -> str:
    """`difflib.unified_diff`'s output for precomputed opcodes (git-style headers as `_unified`)."""
    sm = difflib.SequenceMatcher(None, [], [])
    sm.a, sm.b = a, b
    sm.opcodes = ops
    name = display.replace(os.sep, "/").lstrip("/")
    out: list[str] = []
    for group in sm.get_grouped_opcodes(3):
        if not out:
            out += [f"--- a/{name}\n", f"+++ b/{name}\n"]
        first, last = group[0], group[-1]
        out.append(f"@@ -{difflib._format_range_unified(first[1], last[2])} "
                   f"+{difflib._format_range_unified(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + ln for ln in a[i1:i2]]
                continue
            if tag in ("replace", "delete"):
                out += ["-" + ln for ln in a[i1:i2]]
            if tag in ("replace", "insert"):
                out += ["+" + ln for ln in b[j1:j2]]
    diff = "".join(out)
    if diff and not diff.endswith("\n"):
        diff += "\n\\ No newline at end of file\n"
    return diff


def _unified(display: str, old: str, new: str) -> str:
    """A unified diff of `old` -> `new` with git-style headers: `a/<path>` and
    `b/<path>`, an absolute path's leading slash dropped (`a/tmp/x.py`, as
    `git diff --no-index` writes it), so `patch -p1` applies it from `/`."""
    name = display.replace(os.sep, "/").lstrip("/")
    diff = "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"a/{name}", tofile=f"b/{name}"))
    if diff and not diff.endswith("\n"):
        diff += "\n\\ No newline at end of file\n"
    return diff


def encode_like(new: str, raw: bytes, language: str) -> bytes:
    """`new` (LF text derived from `raw` as `engine.decode` gave it) in the
    encoding (UTF-8, its BOM, or a PEP 263 coding cookie's), and the line
    endings (per line when mixed, see `restore_newlines`) of the original bytes `raw`.

    Raises:
        UnicodeEncodeError: `new` has a character the file's encoding cannot hold.
    """
    enc = _encoding_of(raw, language)
    original = raw.decode(enc, errors="surrogateescape")
    return restore_newlines(new, original).encode(enc, errors="surrogateescape")


_encode_like = encode_like


def fix_bytes(display: str, raw: bytes, language: str, findings: list[Finding], rules: list, config,
              unsafe: bool) -> tuple[bytes, str, list[str]]:
    """Fix one in-memory file given as bytes (`--stdin-filename` with `--fix`/`--diff`).

    Returns (new bytes — `raw` itself when nothing applies —, unified diff, notices).
    """
    from ctxlint import engine
    text, err = engine.decode(raw, language, display)
    if err is not None or text is None:
        return raw, "", []
    new, _, _, notices = fix_source(display, text, language, findings, rules, config, unsafe)
    if new == text:
        return raw, "", notices
    return _encode_like(new, raw, language), _unified(display, text, new), notices


def _key(f: Finding) -> tuple:
    return (f.code, f.line, f.col)


def run_fixes(result, config, rules: list, unsafe: bool, write: bool,
              roots: Iterable[str] | None = None) -> FixOutcome:
    """Fix the findings of a lint run on disk (or only diff them).

    Args:
        result: the engine's `RunResult` (its findings, per display path).
        config: the run's `Config`; rules: the selected rules (re-lint between rounds).
        unsafe: also apply fixes whose `safety` is "unsafe" (`--unsafe-fixes`).
        write: rewrite the files; False computes the diff only (`--diff`).
        roots: the checked paths; a symlinked file is fixed only when its target
            lies under one of them (default: the config root and the cwd).
    Returns a `FixOutcome`. Never raises for a file it cannot fix: the notice says why.
    """
    from ctxlint import engine
    out = FixOutcome()
    root_paths = [Path(r).resolve() for r in (roots or ())]
    root_paths = [r if r.is_dir() else r.parent for r in root_paths] or [Path(config.root).resolve(), Path.cwd().resolve()]
    by_path: dict[str, list[Finding]] = {}
    for f in result.findings:
        by_path.setdefault(f.path, []).append(f)
    diffs: list[str] = []
    for display, findings in by_path.items():
        if not any(wanted(f, unsafe) for f in findings):
            out.remaining.extend(findings)
            continue
        new_findings, n, note, diff = _fix_file(display, findings, config, rules, unsafe, write, root_paths, engine,
                                                computed=display not in getattr(result, "from_cache", ()))
        out.remaining.extend(new_findings)
        out.fixed += n
        out.notices.extend(note)
        if diff:
            diffs.append(diff)
            out.changed.append(display)
    out.remaining.sort(key=Finding.sort_key)
    out.diff = "".join(diffs)
    return out


def _process_start() -> float | None:
    """This process's start time (seconds since the epoch), from Linux's /proc
    (`starttime` of /proc/self/stat plus `btime` of /proc/stat); None elsewhere."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of stat(5), counted after the ")" of comm
        with open("/proc/stat", "rb") as fh:
            btime = next(int(ln.split()[1]) for ln in fh if ln.startswith(b"btime"))
        return btime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, StopIteration, IndexError):
        return None


#: Seconds of slack for coarse file timestamps and the 1-second `btime`.
_MTIME_SLACK = 3.0


def _unchanged_since_start(path: Path) -> bool:
    """Was `path` last modified (and its inode changed) well before this process
    started? Then the bytes this process linted are the bytes on disk now."""
    start = _process_start()
    if start is None:
        return False
    try:
        st = path.stat()
    except OSError:
        return False
    return max(st.st_mtime, st.st_ctime) < start - _MTIME_SLACK


def _fix_file(display, findings, config, rules, unsafe, write, roots, engine, computed=True):
    """Fix one file; returns (findings left, fixes applied, notices, diff text).

    `computed`: the findings were computed by this process (not read from the
    cache); a cached finding's edits are never applied — the file is linted again
    and the fixes come from that lint, on the file's current bytes."""
    path = Path(display)
    notices: list[str] = []
    try:
        real = write_target(path, roots)
        raw = real.read_bytes()
    except OutsideTree as exc:
        return findings, 0, [f"{display}: not fixed: {exc}"], ""
    except RuntimeError as exc:  # a symlink loop
        return findings, 0, [f"{display}: not fixed: cannot resolve path ({exc})"], ""
    except OSError as exc:
        return findings, 0, [f"{display}: not fixed: cannot read ({exc.strerror or exc})"], ""
    try:
        language = engine.discover([str(path)], config)[0].language
    except Exception:
        language = engine.language_of(path) or "python"
    text, err = engine.decode(raw, language, display)
    if err is not None or text is None:
        return findings, 0, [], ""
    # The findings must be those of these bytes: a file edited since it was
    # linted (or a stale cache entry) is refused rather than mis-edited. A file
    # last modified before this process started was linted as it is now (by this
    # process): no second lint. Findings read from the cache are linted again: a
    # cache entry is keyed by the file's digest, but its edits are only data on
    # disk (a corrupted offset would write code before the name it needs).
    if computed and _unchanged_since_start(real):
        fresh = findings
    elif not computed:
        try:
            fresh = engine.lint_text(display, text, language, rules, config)
        except Exception as exc:  # a rule crash: report it, leave the file alone
            return findings, 0, [f"{display}: not fixed: linting it again failed ({type(exc).__name__}: {exc})"], ""
    else:
        try:
            fresh = engine.lint_text(display, text, language, rules, config)
        except Exception as exc:  # a rule crash: report it, leave the file alone
            return findings, 0, [f"{display}: not fixed: linting it again failed ({type(exc).__name__}: {exc})"], ""
        if sorted(map(_key, fresh)) != sorted(map(_key, findings)):
            return findings, 0, [f"{display}: not fixed: it changed on disk since it was checked"], ""
    lines = LineMap(text)
    new, fixed, remaining, notices = fix_source(display, text, language, fresh, rules, config, unsafe,
                                                need_remaining=write, lines=lines)
    if new == text:
        return findings, 0, notices, ""
    diff = lines.unified(display, new)
    if not write:
        return findings, fixed, notices, diff
    try:
        data = _encode_like(new, raw, language)
    except (UnicodeEncodeError, LookupError) as exc:
        return findings, 0, [*notices, f"{display}: not fixed: cannot encode the result ({exc})"], ""
    try:
        write_atomic(path, data, roots, expect=raw)
    except (OutsideTree, FileChangedError, ReadOnlyFile) as exc:
        return findings, 0, [*notices, f"{display}: not fixed: {exc}"], ""
    except OSError as exc:
        return findings, 0, [*notices, f"{display}: not fixed: cannot write ({exc.strerror or exc})"], ""
    return remaining, fixed, notices, diff
