"""What every codemod module shares: the two exceptions and `edits_between` (kept
apart so codemod modules import them without importing the fixer driver: no
import cycle)."""

from __future__ import annotations

import difflib

from ctxlint.findings import Edit


class FixNotApplicable(Exception):
    """A codemod cannot rewrite this code safely (the message says why)."""


class NeedFullModule(Exception):
    """A codemod run on a window of a module (the enclosing top-level statement and
    the import block) needs the whole module: a name, helper or definition it looks
    for may lie outside the window. The fixer runs it again on the whole file."""


def edits_between(old: str, new: str) -> list[Edit]:
    """Line-wise edits that turn `old` into `new` (offsets into `old`).

    The common leading and trailing lines are cut off first, so only the changed
    middle is compared (`difflib` is quadratic in the worst case)."""
    a = old.split("\n")
    b = new.split("\n")
    a = [ln + "\n" for ln in a[:-1]] + ([a[-1]] if a[-1] else [])
    b = [ln + "\n" for ln in b[:-1]] + ([b[-1]] if b[-1] else [])
    lo = 0
    while lo < len(a) and lo < len(b) and a[lo] == b[lo]:
        lo += 1
    hi_a, hi_b = len(a), len(b)
    while hi_a > lo and hi_b > lo and a[hi_a - 1] == b[hi_b - 1]:
        hi_a -= 1
        hi_b -= 1
    starts = [0]
    for ln in a:
        starts.append(starts[-1] + len(ln))
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a[lo:hi_a], b[lo:hi_b], autojunk=False).get_opcodes():
        if op != "equal":
            out.append(Edit(starts[lo + i1], starts[lo + i2], "".join(b[lo + j1:lo + j2])))
    return out
