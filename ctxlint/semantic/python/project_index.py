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
cached with a stamp of each thing they read (`dependency_stamps`: a module's size
and mtime, a lookup's answer, a package tree's listing), and served from the cache
only while every stamp still holds, as a build system keys a target on its inputs.

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

from ctxlint.semantic.python.syntax import FunctionNode, add_import_names

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


#: Recorded when the consulted set overflowed: no stamp matches it (`dependency_stamps`).
_OVERFLOW = "?overflow\0\0"


def note_consulted(what: str) -> None:
    """Record that the current file's findings depend on `what` (another file's path, or
    a lookup that found nothing: a module created later changes the answer, or a
    `question`). The engine then caches the file's findings with a stamp of each
    (`dependency_stamps`). Also called by other layers that read sibling files
    (`semantic.jinja.call_sites`)."""
    if len(_RUN_CONSULTED) > 4096:  # callers that never drain (LSP, flake8): stay bounded
        _RUN_CONSULTED.clear()
        _RUN_CONSULTED.add(_OVERFLOW)  # what was dropped cannot be stamped: never cached
    _RUN_CONSULTED.add(what)


def question(kind: str, where: "Path | str", what: str) -> str:
    """The record of a question about the project (for `note_consulted`): `kind` is
    "lookup" (which file is module `what` imported from directory `where`?) or a
    question about every `.py` file of the package tree `where` ("importers",
    "names", "mentions"). NUL-separated: no path or name holds a NUL."""
    return f"?{kind}\0{where}\0{what}"


def _tree_stamp(top: str) -> str:
    """Digest of the `.py` listing under `top` (relative path, size, mtime_ns of each
    file, walked as `_package_files` walks): any file added, removed or edited changes it."""
    from hashlib import blake2b
    h = blake2b(digest_size=12)
    try:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
            for fname in sorted(filenames):
                if fname.endswith(".py"):
                    full = os.path.join(dirpath, fname)
                    try:
                        st = os.stat(full)
                    except OSError:
                        continue
                    h.update(f"{os.path.relpath(full, top)}:{st.st_size}:{st.st_mtime_ns}\n".encode(
                        "utf-8", "surrogateescape"))
    except (OSError, ValueError):
        return "unreadable"
    return h.hexdigest()


def _file_stamp(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return f"{st.st_size}:{st.st_mtime_ns}"


def dependency_stamps(consulted_items, memo: dict) -> "dict[str, str] | None":
    """The current stamp of each thing a file's findings were computed from.

    Args:
        consulted_items: strings recorded by `note_consulted` during one file's lint:
            absolute file paths, and questions made by `question`.
        memo: one dict per run, shared by every call (a package tree is listed once
            per run, however many files asked about it).
    Returns:
        {item: stamp}: a file's size and mtime_ns ("missing" when gone), a lookup's
        answer (the module file it finds now, or "none"), a package-tree question's
        listing digest (`_tree_stamp`). A file inside a tree already stamped is left
        out (the tree's digest covers it). None when an item is of no known form: the
        caller must then not cache. Never raises.
    """
    out: dict[str, str] = {}
    trees: list[str] = []
    for item in consulted_items:
        if not item.startswith("?"):
            continue
        parts = item[1:].split("\0")
        if len(parts) != 3:
            return None
        kind, where, what = parts
        if kind == "lookup":
            key = ("lookup", where, what)
            if key not in memo:
                module = what.rpartition(".")[0]
                try:
                    found = locate_module(module, Path(where)) if module else None
                except (OSError, ValueError):
                    found = None
                memo[key] = str(found) if found is not None else "none"
            out[item] = memo[key]
        elif kind in ("importers", "names", "mentions"):
            key = ("tree", where)
            if key not in memo:
                memo[key] = _tree_stamp(where)
            out[item] = memo[key]
            trees.append(where.rstrip(os.sep) + os.sep)
        else:
            return None
    for item in consulted_items:
        if item.startswith("?"):
            continue
        if any(item.startswith(t) for t in trees):
            continue
        key = ("file", item)
        if key not in memo:
            memo[key] = _file_stamp(item)
        out[item] = memo[key]
    return out


def stamps_hold(stamps: dict, memo: dict) -> bool:
    """Do the recorded `stamps` (from `dependency_stamps`) all still hold? Never raises."""
    if not isinstance(stamps, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                               for k, v in stamps.items()):
        return False
    return dependency_stamps(list(stamps), memo) == stamps


def consulted(facts: "PythonFacts") -> set[str]:
    """Paths of the other modules whose code a rule read while checking this file."""
    return facts.memo("project_index.consulted", set)


def take_consulted() -> set[str]:
    """What was consulted since the last call, and reset (the engine asks around each
    file's lint: a file whose findings read another file is cached with their stamps)."""
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
                tree, _ = parse(str(path), text, quiet=True)
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


def _module_of(qual: str, here: Path, facts: "PythonFacts"):
    """(module path, its parsed tree, the top-level name) for `qual`
    (`module.path.Name`) seen from directory `here`, recording the lookup and the module
    as consulted (a module created later changes the answer); None when `qual` names no
    module of the project, or only a package-relative module (`from . import name`)."""
    module, _, name = qual.rpartition(".")
    if not module or not name or set(module) == {"."}:
        return None
    note_consulted(question("lookup", here, qual))
    mod = locate_module(module, here)
    if mod is None:
        return None
    tree = _tree(mod)
    consulted(facts).add(str(mod))
    note_consulted(str(mod))
    if tree is None:
        return None
    return mod, tree, name


#: PythonFacts of other modules of the project, built on demand: (path) -> (tree, facts).
_MODULE_FACTS: "dict[str, tuple[ast.Module, PythonFacts]]" = {}


def module_facts(facts: "PythonFacts", mod: Path, tree: ast.Module) -> "PythonFacts":
    """The `PythonFacts` of another module of the project (`mod`, parsed as `tree` by
    `_tree`), built once per module tree and shared by every file that asks (so the
    semantic layer memoizes its analyses there once). Raises OSError/UnicodeDecodeError
    when the file cannot be read again."""
    cached = _MODULE_FACTS.get(str(mod))
    if cached is None or cached[0] is not tree:
        from ctxlint.semantic.python.facts import PythonFacts
        if len(_MODULE_FACTS) > 256:
            _MODULE_FACTS.clear()
        cached = _MODULE_FACTS[str(mod)] = (tree, PythonFacts(str(mod), mod.read_text(encoding="utf-8"), tree,
                                                              facts.config))
    return cached[1]


def _imported_module(facts: "PythonFacts", name: ast.AST):
    """(module path, tree, top-level name) of the project module the Name `name` is
    imported from (`from .ctxvars import current_tenant`), else None."""
    qual = facts.qualname(name)
    if not isinstance(name, ast.Name) or not qual or "." not in qual.lstrip(".") \
            or name.id not in facts.imports or not facts.path or not os.path.isfile(facts.path):
        return None
    return _module_of(qual, Path(os.path.abspath(facts.path)).parent, facts)


def imported_def(facts: "PythonFacts", callee: ast.AST, any_def: bool = False):
    """(PythonFacts of the other module, its top-level def) for `callee`, a name imported
    from another module of the project that binds it once, to a plain `def`
    (`set_active_generate_config` of inspect-ai's `_generate_config.py`; with `any_def`
    also an `async def`), so that the semantic layer can judge that def with the
    analyses it runs here; None for anything else. The facts are built once per module
    tree and shared. Never raises."""
    try:
        got = _imported_module(facts, callee)
        if got is None:
            return None
        mod, tree, name = got
        defs = [st for st in tree.body if isinstance(st, FunctionNode) and st.name == name]
        if len(defs) != 1 or not (any_def or isinstance(defs[0], ast.FunctionDef)):
            return None
        return module_facts(facts, mod, tree), defs[0]
    except (OSError, RecursionError, ValueError, UnicodeDecodeError):
        return None


def imported_value(facts: "PythonFacts", name: ast.AST):
    """(PythonFacts of the other module, the expression) for `name`, a Name imported
    from another module of the project whose top level binds it exactly once, by a
    plain assignment (`current_tenant: ContextVar[str] = ContextVar("current_tenant")`),
    so that the value layer can say what it holds there; None for anything else (a
    def, a class, a re-export, several bindings, a module outside the project).
    Never raises."""
    try:
        got = _imported_module(facts, name)
        if got is None:
            return None
        mod, tree, ident = got
        found = []
        for st in tree.body:
            if isinstance(st, (ast.ClassDef, *FunctionNode)):
                bound = {st.name}
            elif isinstance(st, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
                bound = _bound_names(st)
            elif isinstance(st, ast.AugAssign):
                bound = {n.id for n in ast.walk(st.target) if isinstance(n, ast.Name)}
            else:
                continue
            if ident in bound:
                found.append(st)
        if len(found) != 1 or not isinstance(found[0], (ast.Assign, ast.AnnAssign)) or found[0].value is None:
            return None
        st = found[0]
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name):
            return None
        return module_facts(facts, mod, tree), st.value
    except (OSError, RecursionError, ValueError, UnicodeDecodeError):
        return None


def _find(qual: str, here: Path, hops: int, facts: "PythonFacts") -> FunctionNode | None:
    """The top-level def named by `qual` (`module.path.name`) seen from directory `here`
    (the last binding of that name, as Python keeps it)."""
    got = _module_of(qual, here, facts)
    if got is None:
        return None
    mod, tree, name = got
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


def import_targets(facts: "PythonFacts", qual: str) -> list[str]:
    """What a name imported from another module of the project is an alias of: for
    `qual` = `pkg.compat.pkg_resources.path` where `pkg/compat.py` binds `pkg_resources`
    only by `import importlib.resources as pkg_resources` (under any top-level
    `if`/`try`, as version shims do), the targets with the rest of `qual` appended
    (`["importlib.resources.path"]`, one per import; a shim importing a backport under
    one branch gives two). [] when the module is not the project's, or when the name is
    bound there by anything other than an import. Records what it reads. Never raises."""
    try:
        parts = qual.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module, name, rest = ".".join(parts[:i]), parts[i], parts[i + 1:]
            if not facts.path:
                return []
            got = _module_of(f"{module}.{name}", Path(os.path.abspath(facts.path)).parent, facts)
            if got is None:
                continue
            _, tree, _ = got
            targets: list[str] = []
            stmts = list(tree.body)
            while stmts:
                st = stmts.pop(0)
                if isinstance(st, (ast.If, ast.Try)):
                    stmts += [*st.body, *getattr(st, "orelse", []), *[x for h in getattr(st, "handlers", []) for x in h.body],
                              *getattr(st, "finalbody", [])]
                elif isinstance(st, ast.Import):
                    targets += [a.name for a in st.names if (a.asname or a.name.split(".")[0]) == name]
                elif isinstance(st, ast.ImportFrom) and st.level == 0 and st.module:
                    targets += [f"{st.module}.{a.name}" for a in st.names if (a.asname or a.name) == name]
                elif (isinstance(st, (ast.Assign, ast.AnnAssign, ast.ClassDef)) and name in _bound_names(st)) \
                        or (isinstance(st, FunctionNode) and st.name == name):
                    return []  # bound by code, not only by imports
            return [".".join([t, *rest]) for t in targets]
    except (OSError, RecursionError, ValueError):
        return []
    return []


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
        note_consulted(question("importers", top, name))
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


def named_elsewhere(facts: "PythonFacts", name: str) -> bool:
    """Could another module of this file's project use the top-level def `name` of this
    file? True when any other `.py` file of the package tree (the outermost directory with
    an `__init__.py` above this file, else this file's directory) has `name` among its
    words, when the tree is larger than `_MAX_SCAN_FILES`, or when the file cannot be
    read; a file with no path (stdin, the LSP's unsaved buffer) is treated as imported.
    Conservative on purpose: a rule that relies on "only this module calls it" must not
    assume it for a name another file spells. Every file looked at is recorded
    (`note_consulted`). Asked once per file and name (`facts.memo`). Never raises."""
    return facts.memo(f"project_index.named_elsewhere:{name}", lambda: _scan_named(facts, name))


def _scan_named(facts: "PythonFacts", name: str) -> bool:
    return _scan_package(facts, ("names", name), _word_search(name), include_self=False)


def _word_search(name: str):
    """A test of bytes for the word `name` (`\bname\b`): a substring search first (fast),
    the regex only where the name occurs (a pattern that starts with `\b` has no literal
    prefix for `re` to skip ahead with: it tries every position)."""
    raw = name.encode()
    word = re.compile(rb"\b" + re.escape(raw) + rb"\b")
    return lambda data: raw in data and word.search(data) is not None


def files_naming(facts: "PythonFacts", name: str) -> list[Path] | None:
    """The other `.py` files of this file's package tree that spell the word `name`
    (sorted), or None when that cannot be known (no path, a tree over `_MAX_SCAN_FILES`
    files, a file over `_MAX_BYTES` or unreadable). Every file looked at is recorded
    (`note_consulted`). Memoised per file and name. Never raises."""
    def compute():
        has_word = _word_search(name)
        files = _package_files(facts, ("names", name), include_self=False)
        if files is None:
            return None
        try:
            return [p for p in files if has_word(p.read_bytes())]
        except OSError:
            return None
    return facts.memo(f"project_index.files_naming:{name}", compute)


def _package_files(facts: "PythonFacts", tag: tuple[str, str], include_self: bool) -> list[Path] | None:
    """The `.py` files of this file's package tree (this file itself only with
    `include_self`), in walk order; None when the file has no path, the tree holds more
    than `_MAX_SCAN_FILES` files or one is bigger than `_MAX_BYTES` (a question about
    them cannot be answered). The question (`tag`: what is asked, of what, recorded as
    "what:root:of") and every file listed are recorded with `note_consulted`, so a cached
    result is dropped when they change."""
    if not facts.path or not os.path.isfile(facts.path):
        return None
    try:
        me = Path(os.path.abspath(facts.path))
        top = _top_package(me.parent) or me.parent
        note_consulted(question(tag[0], top, tag[1]))
        out: list[Path] = []
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
            for fname in sorted(filenames):
                if not fname.endswith(".py"):
                    continue
                path = Path(dirpath) / fname
                if len(out) >= _MAX_SCAN_FILES or path.stat().st_size > _MAX_BYTES:
                    return None
                if path == me and not include_self:
                    continue
                note_consulted(str(path))
                out.append(path)
        return out
    except (OSError, RecursionError, ValueError):
        return None


def _scan_package(facts: "PythonFacts", tag: tuple[str, str], matches, include_self: bool) -> bool:
    """Does `matches(bytes)` hold for a file `_package_files` lists? Conservatively True
    when the files cannot be listed or one cannot be read."""
    files = _package_files(facts, tag, include_self)
    if files is None:
        return True
    try:
        return any(matches(p.read_bytes()) for p in files)
    except (OSError, re.error):
        return True


# ------------------------------------------------------------------ methods through base classes
#: Bases from outside the project known to define no public method of their own (only
#: dunders): `object`, `abc.ABC` (Python docs, abc), `typing.Generic` and
#: `typing.Protocol` (Python docs, typing). Looking a non-dunder method up past them is
#: safe; past any other base from outside the project it is not (that base may define it).
_METHODLESS_BASES = frozenset({
    "object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol",
})
#: At most this many classes are linearised for one method look-up.
_MAX_MRO = 24


class ClassScope:
    """A class statement and the names its module binds (to resolve its bases):
    `node` (the `ast.ClassDef`), `classes` (name -> top-level class of that module),
    `imports` (local name -> qualified name), `here` (the module's directory)."""

    __slots__ = ("node", "classes", "imports", "here")

    def __init__(self, node: ast.ClassDef, classes: dict, imports: dict, here: Path | None):
        self.node = node
        self.classes = classes  # name -> ClassDef of that module
        self.imports = imports  # local name -> qualified name (relative ones keep their dots)
        self.here = here  # the module's directory (None: cannot look further)


def project_mentions(facts: "PythonFacts", pattern: bytes) -> bool:
    """Does any `.py` file of this file's project (the package tree `named_elsewhere`
    scans, this file included) match the bytes regex `pattern`? True, conservatively,
    when the tree is larger than `_MAX_SCAN_FILES`, a file is too big or unreadable, or
    the file has no path. Every file looked at is recorded (`note_consulted`). Memoised
    per file and pattern. Never raises. Used to ask whether a project uses a facility
    at all (CTX206: does any module set a ContextVar or open a span?)."""
    return facts.memo(f"project_index.mentions:{pattern!r}", lambda: _scan_mentions(facts, pattern))


def _scan_mentions(facts: "PythonFacts", pattern: bytes) -> bool:
    try:
        rx = re.compile(pattern)
    except re.error:
        return True
    return _scan_package(facts, ("mentions", repr(pattern)), rx.search, include_self=True)


def _all_imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> qualified name for the module-level imports of `tree` (`import a.b
    as c`, `from .x import Y as Z`)."""
    out = _imports_of(tree)
    for s in tree.body:
        if isinstance(s, ast.Import):
            add_import_names(s, out)
    return out


def _qual_in(expr: ast.AST, imports: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    parts.append(imports.get(expr.id, expr.id))
    return ".".join(reversed(parts))


def _find_class(qual: str, here: Path, hops: int, facts: "PythonFacts") -> ClassScope | None:
    """The top-level class named by `qual` (`module.path.Name`) seen from directory `here`,
    with its module's bindings; a name the module re-exports is followed `hops` more hops."""
    got = _module_of(qual, here, facts)
    if got is None:
        return None
    mod, tree, name = got
    classes = {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}
    if name in classes:
        return ClassScope(classes[name], classes, _all_imports(tree), mod.parent)
    if hops > 0:
        target = _imports_of(tree).get(name)
        if target is not None:
            return _find_class(target, mod.parent, hops - 1, facts)
    return None


def _base_scopes(scope: ClassScope, facts: "PythonFacts") -> list:
    """The bases of `scope.node`, in order: a `ClassScope` for each base defined in the
    project, the qualified name (str) of any other."""
    out: list = []
    for b in scope.node.bases:
        if isinstance(b, ast.Subscript):  # Generic[T], Base[int]
            b = b.value
        if isinstance(b, ast.Name) and b.id in scope.classes and scope.classes[b.id] is not scope.node:
            out.append(ClassScope(scope.classes[b.id], scope.classes, scope.imports, scope.here))
            continue
        qual = _qual_in(b, scope.imports)
        found = None
        if qual and "." in qual.lstrip(".") and scope.here is not None:
            try:
                found = _find_class(qual, scope.here, 1, facts)
            except (OSError, RecursionError, ValueError):
                found = None
        out.append(found if found is not None else (qual or "?"))
    return out


def _linearise(scope: ClassScope, facts: "PythonFacts", seen: dict, budget: list) -> list | None:
    """C3 linearisation (Python's MRO) of `scope`'s class over what the project defines;
    a base from outside it is one opaque entry (its qualified name). None when it is
    inconsistent, cyclic or too large."""
    key = id(scope.node)
    if key in seen:
        return seen[key]
    seen[key] = None  # a cycle reads as unknown
    budget[0] -= 1
    if budget[0] < 0:
        return None
    bases = _base_scopes(scope, facts)
    tails = []
    for b in bases:
        if isinstance(b, ClassScope):
            lin = _linearise(b, facts, seen, budget)
            if lin is None:
                return None
            tails.append(list(lin))
        else:
            tails.append([b])
    heads = [b.node if isinstance(b, ClassScope) else b for b in bases]
    nodes = {id(scope.node): scope}
    for t in tails:
        for e in t:
            if isinstance(e, ClassScope):
                nodes[id(e.node)] = e
    def ident(e):
        return id(e.node) if isinstance(e, ClassScope) else e
    seqs = [[ident(e) for e in t] for t in tails] + [[id(h) if isinstance(h, ast.ClassDef) else h for h in heads]]
    out = [scope]
    while any(seqs):
        for s in seqs:
            if not s:
                continue
            cand = s[0]
            if not any(cand in other[1:] for other in seqs):
                break
        else:
            return None  # no consistent order
        out.append(nodes.get(cand, cand) if not isinstance(cand, str) else cand)
        seqs = [x[1:] if x and x[0] == cand else x for x in seqs]
    seen[key] = out
    return out


def resolve_method(facts: "PythonFacts", cls: "ast.ClassDef | ClassScope", name: str,
                   skip_self: bool = False) -> FunctionNode | None:
    """The def Python runs for `<instance of cls>.name(...)` (or `super().name(...)`
    inside `cls` with `skip_self`), following the bases of `cls` into the other modules
    of this project they are imported from (`class W(ModuleWatchdog)` with `from
    pkg.internal.module import ModuleWatchdog`), in C3 method-resolution order.

    Args:
        facts: the facts of the file being checked.
        cls: a class statement of that file, or a `ClassScope` from `resolve_class`.
        name: the method name.
        skip_self: start after `cls` itself (what `super()` does).
    Returns the method's def (possibly from another module's tree) or None: not defined
    in the project, or a base from outside the project (other than the methodless ones
    of `_METHODLESS_BASES`) comes first in the order and may define it. Every module
    read is recorded (`note_consulted`). Never raises."""
    scope = cls if isinstance(cls, ClassScope) else _local_scope(facts, cls)
    mro = facts.memo(f"project_index.mro:{id(scope.node)}", lambda: _safe_linearise(scope, facts))
    if not mro:
        return None
    for entry in mro[1:] if skip_self else mro:
        if isinstance(entry, str):
            if entry in _METHODLESS_BASES and not (name.startswith("__") and name.endswith("__")):
                continue
            return None  # a base from outside the project may define it
        for s in entry.node.body:
            if isinstance(s, FunctionNode) and s.name == name:
                return s
    return None


def _local_scope(facts: "PythonFacts", cls: ast.ClassDef) -> ClassScope:
    local: dict[str, ast.ClassDef] = {}
    for c in facts.nodes(ast.ClassDef):
        local.setdefault(c.name, c)
    here = None
    if facts.path and os.path.isfile(facts.path):
        here = Path(os.path.abspath(facts.path)).parent  # a symlink's own package
    return ClassScope(cls, local, dict(facts.imports), here)


def _safe_linearise(scope: ClassScope, facts: "PythonFacts") -> list | None:
    try:
        return _linearise(scope, facts, {}, [_MAX_MRO])
    except (OSError, RecursionError, ValueError):
        return None


def resolve_class(facts: "PythonFacts", expr: ast.AST) -> ClassScope | None:
    """The class (of this file, or of another module of the project it is imported
    from) that the Name/Attribute `expr` names, with its module's bindings; None when
    it names no class of the project or the name is rebound where `expr` is. Never
    raises."""
    root = expr
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return None
    from ctxlint.semantic.python.calls import call_graph
    scope = facts.enclosing_function(expr)
    while scope is not None:  # a parameter or local of that name shadows the class
        if root.id in call_graph(facts).local_names(scope):
            return None
        scope = facts.enclosing_function(scope)
    if isinstance(expr, ast.Name):
        local = [c for c in facts.nodes(ast.ClassDef) if c.name == expr.id]
        if local:
            return _local_scope(facts, local[0])
    qual = facts.qualname(expr)
    if not qual or "." not in qual.lstrip(".") or root.id not in facts.imports:
        return None
    if any(isinstance(n, (ast.Assign, ast.AnnAssign)) and root.id in _bound_names(n) for n in facts.tree.body):
        return None  # rebound at module level
    if not facts.path or not os.path.isfile(facts.path):
        return None
    try:
        return _find_class(qual, Path(os.path.abspath(facts.path)).parent, 1, facts)
    except (OSError, RecursionError, ValueError):
        return None


def resolve_instance_class(facts: "PythonFacts", expr: ast.AST) -> ClassScope | None:
    """The class of a module-level singleton imported from another module of the
    project: for `from pkg.bus import event_bus` where `pkg/bus.py` binds `event_bus`
    once, at top level, to `EventBus(...)` (a class of that module or one it imports),
    that class. None for anything else (a name bound twice or by other code, a local
    that shadows the import, a module outside the project). Never raises."""
    if not isinstance(expr, ast.Name) or expr.id not in facts.imports:
        return None
    from ctxlint.semantic.python.calls import call_graph
    scope = facts.enclosing_function(expr)
    while scope is not None:
        if expr.id in call_graph(facts).local_names(scope):
            return None
        scope = facts.enclosing_function(scope)
    if any(isinstance(n, (ast.Assign, ast.AnnAssign)) and expr.id in _bound_names(n) for n in facts.tree.body):
        return None
    qual = facts.qualname(expr)
    if not qual or "." not in qual.lstrip(".") or not facts.path or not os.path.isfile(facts.path):
        return None
    try:
        got = _module_of(qual, Path(os.path.abspath(facts.path)).parent, facts)
        if got is None:
            return None
        mod, tree, name = got
        binds = [st for st in tree.body if isinstance(st, (ast.Assign, ast.AnnAssign, ast.ClassDef, ast.Import,
                                                            ast.ImportFrom, *FunctionNode))
                 and (name in _bound_names(st) if not isinstance(st, FunctionNode) else st.name == name)]
        if len(binds) != 1 or not isinstance(binds[0], (ast.Assign, ast.AnnAssign)):
            return None
        value = binds[0].value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return None
        classes = {st.name: st for st in tree.body if isinstance(st, ast.ClassDef)}
        if value.func.id in classes:
            return ClassScope(classes[value.func.id], classes, _all_imports(tree), mod.parent)
        target = _imports_of(tree).get(value.func.id)
        return _find_class(target, mod.parent, 1, facts) if target else None
    except (OSError, RecursionError, ValueError):
        return None


def annotated_param_class(facts: "PythonFacts", expr: ast.AST) -> ClassScope | None:
    """The project class that the parameter `expr` (a Name) is annotated with, in the
    function it is read in or one enclosing it (`manager: StreamManager`, also
    `Optional[StreamManager]`, `StreamManager | None` and the string form), when nothing
    in that function rebinds the parameter. The annotation is the declared type of the
    value, as a type checker takes it (PEP 484); a subclass the caller passes may override
    the method, which the declared type does not show. None for anything else. Never
    raises."""
    if not isinstance(expr, ast.Name):
        return None
    fn = facts.enclosing_function(expr)
    while fn is not None:
        a = fn.args
        for p in (*a.posonlyargs, *a.args, *a.kwonlyargs):
            if p.arg != expr.id:
                continue
            if any(isinstance(n, ast.Name) and n.id == expr.id and isinstance(n.ctx, ast.Store)
                   for n in facts.walk(fn)):
                return None
            ann = _declared_class_expr(p.annotation)
            return resolve_class(facts, ann) if ann is not None else None
        fn = facts.enclosing_function(fn)
    return None


def _declared_class_expr(ann: ast.AST | None) -> ast.AST | None:
    """The Name/Attribute naming one class in the annotation `ann`: `X`, `mod.X`,
    `Optional[X]`, `X | None`, `"X"`. None for anything else (a union of two classes, a
    generic container)."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
        return ann if isinstance(ann, ast.Name) else None
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        parts = [x for x in (ann.left, ann.right) if not (isinstance(x, ast.Constant) and x.value is None)]
        return _declared_class_expr(parts[0]) if len(parts) == 1 else None
    if isinstance(ann, ast.Subscript) and isinstance(ann.value, (ast.Name, ast.Attribute)) \
            and (ann.value.attr if isinstance(ann.value, ast.Attribute) else ann.value.id) == "Optional":
        return _declared_class_expr(ann.slice)
    return ann if isinstance(ann, (ast.Name, ast.Attribute)) else None


def resolve_call(facts: "PythonFacts", call: ast.Call) -> FunctionNode | None:
    """The def of this project that `call` runs, also when it lives in another module:
    `super().m()` and `self.m()`/`cls.m()` through the class's bases (`resolve_method`,
    in method-resolution order, into the modules they are imported from), `Class.m()`
    for a class of this file or an imported one (`resolve_class`), and otherwise what
    the module's call graph resolves (`calls.CallGraph.resolve`) or an imported
    top-level function (`resolve_function`). None when it cannot be known: an unknown
    receiver, a base from outside the project that may define the method. Never raises."""
    from ctxlint.semantic.python.calls import call_graph
    f = call.func
    if isinstance(f, ast.Attribute):
        recv = f.value
        cls = facts.enclosing_class(call)
        if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "super" \
                and not recv.args:
            return resolve_method(facts, cls, f.attr, skip_self=True) if cls is not None else None
        if isinstance(recv, ast.Name) and cls is not None:
            outer = None  # the method of `cls` the call is in (also from a closure inside it)
            for a in facts.ancestors(call):
                if a is cls:
                    break
                if isinstance(a, FunctionNode):
                    outer = a
            if outer is not None and facts.receiver_param(outer) == recv.id:
                return resolve_method(facts, cls, f.attr)
        if isinstance(recv, (ast.Name, ast.Attribute)):
            scope = resolve_class(facts, recv)
            if scope is not None:
                return resolve_method(facts, scope, f.attr)
            scope = resolve_instance_class(facts, recv)
            if scope is not None:
                return resolve_method(facts, scope, f.attr)
            scope = annotated_param_class(facts, recv)
            if scope is not None:
                return resolve_method(facts, scope, f.attr)
    got = call_graph(facts).resolve(call)
    if got is not None:
        return got
    return resolve_function(facts, f)
