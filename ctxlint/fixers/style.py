"""The checked project's own style, as far as a fix's text depends on it: its line length.

A fix that lengthens a line (CTX206 inserts `contextvars.copy_context().run, ` into a
call) must not break the project's own limit: its `ruff check` or `flake8` run
would then fail on ctxlint's edit (aiomisc: 80 columns, a 103-character line).
"""

from __future__ import annotations

import configparser
import functools
from pathlib import Path

#: ruff's and black's default line length (used when the project sets none).
DEFAULT_LINE_LENGTH = 88


def line_length(path: str | Path | None) -> int:
    """The line length of the project `path` (a file) belongs to.

    Looks in the file's directory and each parent for, in order: `ruff.toml` /
    `.ruff.toml` (`line-length`), `pyproject.toml` (`[tool.ruff] line-length`, then
    `[tool.black] line-length`), `setup.cfg` / `tox.ini` / `.flake8`
    (`[flake8] max-line-length`); the first file that sets one wins. A
    `pyproject.toml` that sets none ends the walk (the project's root) with
    `DEFAULT_LINE_LENGTH`. Never raises: an unreadable or malformed file is skipped.
    """
    if path is None:
        return DEFAULT_LINE_LENGTH
    try:
        start = Path(path).resolve().parent
    except (OSError, RuntimeError, ValueError):
        return DEFAULT_LINE_LENGTH
    return _line_length_in(start)


@functools.lru_cache(maxsize=256)
def _line_length_in(directory: Path) -> int:
    for d in (directory, *directory.parents):
        found, root = _configured(d)
        if found is not None:
            return found
        if root:
            return DEFAULT_LINE_LENGTH
    return DEFAULT_LINE_LENGTH


def _configured(d: Path) -> tuple[int | None, bool]:
    """(the line length `d`'s config files set or None, whether `d` holds a pyproject.toml)."""
    import tomllib
    for name in ("ruff.toml", ".ruff.toml"):
        data = _toml(d / name, tomllib)
        if data is not None:
            n = _int(data.get("line-length"))
            if n is not None:
                return n, True
    root = False
    data = _toml(d / "pyproject.toml", tomllib)
    if data is not None:
        root = True
        tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
        for key in ("ruff", "black"):
            table = tool.get(key)
            if isinstance(table, dict):
                n = _int(table.get("line-length"))
                if n is not None:
                    return n, True
    for name in ("setup.cfg", "tox.ini", ".flake8"):
        p = d / name
        if not p.is_file():
            continue
        cp = configparser.ConfigParser(interpolation=None)
        try:
            cp.read(p, encoding="utf-8")
            n = _int(cp.get("flake8", "max-line-length", fallback=None))
        except (configparser.Error, OSError, UnicodeDecodeError):
            continue
        if n is not None:
            return n, True
    return None, root


def _toml(p: Path, tomllib) -> dict | None:
    if not p.is_file():
        return None
    try:
        return tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None


def _int(v) -> int | None:
    try:
        n = int(v)
    except (TypeError, ValueError):
        return None
    return n if 20 <= n <= 1000 else None


# ------------------------------------------------------------- where a new import goes
def import_section(module: str) -> int:
    """isort's section of an import of `module` (dotted; a relative one starts with
    "."): 0 `__future__`, 1 the standard library (`sys.stdlib_module_names`), 2 third
    party or first party (not told apart here: both sort after the standard library),
    3 a relative (local folder) import."""
    import sys
    if module == "__future__":
        return 0
    if module.startswith("."):
        return 3
    return 1 if module.split(".")[0] in sys.stdlib_module_names else 2


def _sort_key(kind: str, module: str) -> tuple:
    # ruff's isort defaults (force-sort-within-sections = false): within a section
    # every `import x` comes before every `from x import y`, each by module name.
    return (0 if kind == "import" else 1, module.lower())


def import_slot(entries: list[tuple[str, str, bool]], kind: str, module: str) -> tuple[int, str]:
    """Where a new top-level import goes so that the import block stays isort-sorted
    (as `ruff check --select I` sorts it with its defaults).

    Args:
        entries: the file's leading top-level import statements in order, each
            (kind "import" | "from", dotted module, starts a group): a statement
            after a blank line or a comment line starts a new group (isort's sections
            are separated so).
        kind, module: the new statement (`import contextvars` is ("import",
            "contextvars"); `from jinja2.sandbox import X` is ("from", "jinja2.sandbox")).
    Returns:
        (index in `entries` to insert before (len(entries): after the last), how):
        "join" - inside a group (the new line takes the place's leading lines when
        it goes first in its group); "new_before" - a new group before the entry at
        index (a blank line must follow the new line); "new_after" - a new group
        after the entry before index (a blank line must precede the new line).
    """
    if not entries:
        return 0, "new_before"
    section = import_section(module)
    groups: list[list[int]] = []
    for i, (_, _, starts) in enumerate(entries):
        if starts or not groups:
            groups.append([i])
        else:
            groups[-1].append(i)

    def gsec(g: list[int]) -> int:
        secs = [import_section(entries[i][1]) for i in g]
        return max(set(secs), key=secs.count)

    root = module.split(".")[0]
    same = [g for g in groups if gsec(g) == section]
    if section == 2:
        owning = [g for g in same if any(entries[i][1].split(".")[0] == root for i in g)]
        same = owning or same
    if same:
        g = same[0]
        # a group where a `from` line comes before an `import` line is sorted by module
        # alone (isort's force-sort-within-sections, as mcp-agent writes it)
        by_module = any(entries[a][0] == "from" and entries[b][0] == "import" for a, b in zip(g, g[1:]))

        def key_of(k: str, m: str) -> tuple:
            return (m.lower(),) if by_module else _sort_key(k, m)
        key = key_of(kind, module)
        for i in g:
            if key_of(entries[i][0], entries[i][1]) > key:
                return i, "join"
        return g[-1] + 1, "join"
    for g in groups:
        if gsec(g) > section:
            return g[0], "new_before"
    return len(entries), "new_after"


def import_insertion(tree, lines: list[str], code: str, kind: str, module: str) -> tuple[int, str] | None:
    """(1-based line to insert before, the text to insert there) that adds the
    import statement `code` (one line, no newline) to a module's leading import block,
    isort-sorted (`import_slot`). None when the module has no leading import block at
    column 0 to join (the caller then offers no fix or places it itself).

    Args:
        tree: the module's `ast.Module`; lines: its source lines (no newlines).
        code: the statement, e.g. "import contextvars"; kind, module: as `import_slot`.
    """
    import ast
    stmts = []
    body = tree.body
    start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
        and isinstance(body[0].value.value, str) else 0
    for s in body[start:]:
        if not isinstance(s, (ast.Import, ast.ImportFrom)) or s.col_offset != 0:
            break
        if stmts and s.lineno != (stmts[-1].end_lineno or stmts[-1].lineno) + 1 and not _only_blank_or_comments(
                lines, (stmts[-1].end_lineno or stmts[-1].lineno), s.lineno - 1):
            break
        stmts.append(s)
    if not stmts:
        return None
    entries = []
    for k, s in enumerate(stmts):
        if isinstance(s, ast.Import):
            kind_s, mod = "import", s.names[0].name
        else:
            kind_s, mod = "from", "." * s.level + (s.module or "")
        prev = lines[s.lineno - 2].strip() if s.lineno >= 2 else ""
        starts = k == 0 or prev == "" or prev.startswith("#")
        entries.append((kind_s, mod, starts))
    idx, how = import_slot(entries, kind, module)
    if idx < len(stmts):
        s = stmts[idx]
        # right above the statement (a comment above its group stays above the group)
        return s.lineno, code + "\n" + ("\n" if how == "new_before" else "")
    last = stmts[-1]
    return (last.end_lineno or last.lineno) + 1, ("\n" if how == "new_after" else "") + code + "\n"


def _only_blank_or_comments(lines: list[str], after: int, upto: int) -> bool:
    """Are lines after..upto (1-based, exclusive of `after`, inclusive of `upto`) blank or comments?"""
    return all(not ln.strip() or ln.strip().startswith("#") for ln in lines[after:upto])
