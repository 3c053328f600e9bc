"""Across the modules of one project: the defs a module-level pass cannot resolve.

The per-file layer (`calls.CallGraph`) resolves calls to defs of the same module.
Where a rule needs a fact about a def of *another* module of the same project —
the coroutine a task runs is `from .automations import execute_automation` — it
asks here, and only for that one value (the issue's "use a project-wide summary
index only for the values the module-level pass leaves unresolved, and only in
files where a rule asks").

How a name is found: the import-resolved dotted name (`PythonFacts.qualname`,
relative imports made absolute from the file's package) is split into a module
path and a top-level def name; the module file is looked up under the file's
project root (the directory above its outermost package, i.e. the first parent
without `__init__.py`) as `a/b/c.py` or `a/b/c/__init__.py`. Only top-level
`def`/`async def` statements of that module are returned; a name the module
re-exports from elsewhere is followed one more hop through its own imports.
Nothing is imported or executed.

Every module consulted, and every lookup that found nothing, is recorded
(`consulted(facts)`, `note_consulted`): findings that depend on another file are
not cached by the content hash of one file alone (the engine skips the cache for
such files).

Parsed modules are kept per process, keyed by path with size and mtime, bounded to
`_MAX_MODULES` entries, `_MAX_TOTAL_BYTES` of source, and files under `_MAX_BYTES`.
"""

from __future__ import annotations

import ast
import os
import re
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING

from ctxlint.semantic.python.syntax import FunctionNode

if TYPE_CHECKING:
    from ctxlint.semantic.python.facts import PythonFacts

_MAX_BYTES = 512_000
_MAX_MODULES = 256
#: Total source bytes behind the kept trees (a tree costs ~100x its source).
_MAX_TOTAL_BYTES = 8_000_000
#: path -> (size, mtime_ns, tree or None)
_TREES: "OrderedDict[str, tuple[int, int, ast.Module | None]]" = OrderedDict()


#: Every module consulted since the last `take_consulted()` (one file's lint in a worker).
_RUN_CONSULTED: set[str] = set()
_total_bytes = 0


def note_consulted(what: str) -> None:
    """Record that the current file's findings depend on `what` (another file's path, or
    a lookup that found nothing: a module created later changes the answer). The
    engine then does not cache the file by its own hash. Also called by other layers
    that read sibling files (`semantic.jinja.call_sites`)."""
    if len(_RUN_CONSULTED) > 4096:  # callers that never drain (LSP, flake8): stay bounded
        _RUN_CONSULTED.clear()
    _RUN_CONSULTED.add(what)


def consulted(facts: "PythonFacts") -> set[str]:
    """Paths of the other modules whose code a rule read while checking this file."""
    return facts.memo("project_index.consulted", set)


def take_consulted() -> set[str]:
    """The modules consulted since the last call, and reset (the engine asks around each
    file's lint: a file whose findings read another file is not cached by its hash)."""
    out = set(_RUN_CONSULTED)
    _RUN_CONSULTED.clear()
    return out


def _tree(path: Path) -> ast.Module | None:
    global _total_bytes
    key = str(path)
    try:
        st = path.stat()
    except OSError:
        return None
    got = _TREES.get(key)
    if got is not None and got[0] == st.st_size and got[1] == st.st_mtime_ns:
        _TREES.move_to_end(key)
        return got[2]
    if got is not None:
        _total_bytes -= got[0]
    tree = None
    if st.st_size <= _MAX_BYTES:
        from ctxlint.languages.python import parse
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            text = None
        if text is not None:
            try:
                tree, _ = parse(str(path), text)
            except MemoryError:
                tree = None
    _TREES[key] = (st.st_size, st.st_mtime_ns, tree)
    _total_bytes += st.st_size
    while _TREES and (len(_TREES) > _MAX_MODULES or _total_bytes > _MAX_TOTAL_BYTES):
        _, (size, _, _) = _TREES.popitem(last=False)
        _total_bytes -= size
    return tree


def _module_file(base: Path, parts: list[str]) -> Path | None:
    """`base/a/b.py` or `base/a/b/__init__.py` for parts [a, b]."""
    if not parts:
        return None
    cand = base.joinpath(*parts)
    f = cand.with_suffix(".py")
    if f.is_file():
        return f
    init = cand / "__init__.py"
    return init if init.is_file() else None


def locate_module(qual_module: str, here: Path) -> Path | None:
    """The file of module `qual_module` imported from a module in directory `here`,
    never outside the importing file's own package tree.

    Relative (`..utils.x`): from `here`, up one directory per dot after the first;
    every directory climbed into must be a package (`__init__.py`). Absolute
    (`pkg.utils.x`): only when `here` lies inside a directory named `pkg` (the file's
    own top package; packages may lack `__init__.py`: PEP 420), under that
    directory's parent. Sibling top-level packages and anything above are not read."""
    if qual_module.startswith("."):
        level = len(qual_module) - len(qual_module.lstrip("."))
        base = here
        for _ in range(level - 1):
            if not (base / "__init__.py").is_file():
                return None
            base = base.parent
        rest = qual_module[level:]
        return _module_file(base, rest.split(".")) if rest else _module_file(base, ["__init__"])
    parts = qual_module.split(".")
    d = here
    for _ in range(32):
        if d.name == parts[0]:
            return _module_file(d.parent, parts)
        if d.parent == d:
            break
        d = d.parent
    return None


def _imports_of(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for s in tree.body:
        if isinstance(s, ast.ImportFrom):
            mod = "." * s.level + (s.module or "")
            for a in s.names:
                out[a.asname or a.name] = f"{mod}.{a.name}" if mod and not mod.endswith(".") else mod + a.name
    return out


def _find(qual: str, here: Path, hops: int, facts: "PythonFacts") -> FunctionNode | None:
    """The top-level def named by `qual` (`module.path.name`) seen from directory `here`
    (the last binding of that name, as Python keeps it)."""
    module, _, name = qual.rpartition(".")
    if not module or not name:
        return None
    if set(module) == {"."}:  # `from . import name`: a module `name`, not a def
        return None
    note_consulted(f"lookup:{here}:{qual}")  # a module created later changes the answer
    mod = locate_module(module, here)
    if mod is None:
        return None
    tree = _tree(mod)
    consulted(facts).add(str(mod))
    note_consulted(str(mod))
    if tree is None:
        return None
    found = None
    for s in tree.body:
        if isinstance(s, FunctionNode) and s.name == name:
            found = s
        elif isinstance(s, (ast.ClassDef, ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)) and found is not None \
                and name in _bound_names(s):
            found = None  # rebound after the def
    if found is not None:
        return found
    if hops > 0:
        target = _imports_of(tree).get(name)
        if target is not None:
            return _find(target, mod.parent, hops - 1, facts)
    return None


def _bound_names(s: ast.stmt) -> set[str]:
    if isinstance(s, ast.ClassDef):
        return {s.name}
    if isinstance(s, (ast.Import, ast.ImportFrom)):
        return {a.asname or a.name.split(".")[0] for a in s.names}
    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def resolve_function(facts: "PythonFacts", callee: ast.AST) -> FunctionNode | None:
    """The def of another module of this project that `callee` (the `func` of a call:
    an imported name or `module.attr`) names, or None (not imported, rebound locally,
    outside the project, not a top-level def, unreadable). Never raises."""
    qual = facts.qualname(callee)
    if not qual or "." not in qual.lstrip("."):
        return None
    root_name = callee
    while isinstance(root_name, ast.Attribute):
        root_name = root_name.value
    if not isinstance(root_name, ast.Name) or root_name.id not in facts.imports:
        return None
    from ctxlint.semantic.python.calls import call_graph
    graph = call_graph(facts)
    scope = facts.enclosing_function(callee)
    while scope is not None:  # a parameter or local of that name shadows the import
        if root_name.id in graph.local_names(scope):
            return None
        scope = facts.enclosing_function(scope)
    if any(isinstance(n, (ast.Assign, ast.AnnAssign)) and root_name.id in _bound_names(n)
           for n in facts.tree.body):
        return None  # rebound at module level
    if not facts.path or not os.path.isfile(facts.path):
        return None
    try:
        here = Path(os.path.abspath(facts.path)).parent  # a symlink's own package, not its target's
        return _find(qual, here, 1, facts)
    except (OSError, RecursionError, ValueError):
        return None


# ------------------------------------------------------------------ importers that scope a var
#: At most this many `.py` files of one package tree are looked at for importers.
_MAX_SCAN_FILES = 3000
#: path -> (size, mtime_ns, words): the identifiers of a file that contains `.reset(`
#: (an empty set for a file without one), so a repeated question reads no file again.
_WORDS: "OrderedDict[str, tuple[int, int, frozenset[str]]]" = OrderedDict()
_MAX_WORD_FILES = 4096
_WORD = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")


def _words(path: str, size: int, mtime: int) -> frozenset[str]:
    got = _WORDS.get(path)
    if got is not None and got[0] == size and got[1] == mtime:
        return got[2]
    words: frozenset[str] = frozenset()
    try:
        data = Path(path).read_bytes() if size <= _MAX_BYTES else b""
    except OSError:
        data = b""
    if b".reset(" in data:
        words = frozenset(m.decode("ascii", "replace") for m in _WORD.findall(data))
    _WORDS[path] = (size, mtime, words)
    while len(_WORDS) > _MAX_WORD_FILES:
        _WORDS.popitem(last=False)
    return words


def _top_package(here: Path) -> Path | None:
    """The outermost directory above (and including) `here` that has an `__init__.py`."""
    top = None
    d = here
    for _ in range(32):
        if not (d / "__init__.py").is_file():
            break
        top = d
        if d.parent == d:
            break
        d = d.parent
    return top


def _same_file(a: Path | None, b: Path) -> bool:
    if a is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _scopes_in_finally(tree: ast.Module, alias: str) -> bool:
    """Does `tree` call `<alias>.reset(...)` inside the `finally` of a `try` (a module
    function, a method: anywhere)?"""
    for t in ast.walk(tree):
        if isinstance(t, ast.Try):
            for s in t.finalbody:
                for c in ast.walk(s):
                    if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "reset" \
                            and isinstance(c.func.value, ast.Name) and c.func.value.id == alias:
                        return True
    return False


def scoped_by_importer(facts: "PythonFacts", name: str) -> str | None:
    """The path of another module of this file's package tree that imports the
    module-level variable `name` of this file (`from pkg.primitives import name [as a]`,
    relative or absolute, at module level or inside a function) and calls
    `<name or a>.reset(...)` in a `finally` block; None when there is none.

    That module scopes the var (`tok = var.set(0)` ... `finally: var.reset(tok)`): a
    discarded `set()` of the var in this file that updates its current value runs inside
    that scope (upsonic's graph runner scopes the interrupt counter that `interrupt()`
    bumps). Only the package tree of this file is read (its outermost directory with an
    `__init__.py`; at most `_MAX_SCAN_FILES` files); a file is parsed only when its text
    holds both `.reset(` and `name`. Every file read is recorded (`note_consulted`), and
    the tree scanned, so the result is not cached by this file's hash. Asked once per
    file and name (`facts.memo`). Never raises."""
    return facts.memo(f"project_index.scoped_by_importer:{name}", lambda: _scan_importers(facts, name))


def _scan_importers(facts: "PythonFacts", name: str) -> str | None:
    if not facts.path or not os.path.isfile(facts.path):
        return None
    try:
        me = Path(os.path.abspath(facts.path))
        top = _top_package(me.parent)
        if top is None:
            return None
        note_consulted(f"importers:{top}:{name}")
        seen = 0
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
            for fname in sorted(filenames):
                if not fname.endswith(".py"):
                    continue
                seen += 1
                if seen > _MAX_SCAN_FILES:
                    return None
                path = Path(dirpath) / fname
                if path == me:
                    continue
                try:
                    st = path.stat()
                except OSError:
                    continue
                if name not in _words(str(path), st.st_size, st.st_mtime_ns):
                    continue
                tree = _tree(path)
                note_consulted(str(path))
                consulted(facts).add(str(path))
                if tree is None:
                    continue
                for s in ast.walk(tree):
                    if not isinstance(s, ast.ImportFrom):
                        continue
                    aliases = [a.asname or a.name for a in s.names if a.name == name]
                    if not aliases:
                        continue
                    mod = "." * s.level + (s.module or "")
                    if not _same_file(locate_module(mod, path.parent), me):
                        continue
                    if any(_scopes_in_finally(tree, a) for a in aliases):
                        return str(path)
    except (OSError, RecursionError, ValueError):
        return None
    return None
