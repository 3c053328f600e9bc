"""Python: decode-independent parsing with stdlib `ast` (parsing only).

The per-file analyses, and `lint` (which builds the facts and runs the rules), live
in `ctxlint.semantic.python.facts`.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings

from ctxlint.findings import Finding

SUFFIXES = (".py", ".pyi")


#: What only a newer grammar accepts: PEP 695 `type` aliases and type parameters
#: (3.12), PEP 701 f-strings (3.12: their errors start "f-string").
_NEWER_SYNTAX = re.compile(r"^\s*type\s+\w+\s*(\[[^\]]*\])?\s*=|\b(def|class)\s+\w+\s*\[", re.M)


#: Jinja delimiters as a project generator writes them into a `.py` template
#: (cookiecutter's `{{cookiecutter.x}}`, copier's `{% if %}`), and jinja2's line
#: statements behind a Python comment (`# % block import`, crawlee's templates).
_TEMPLATE_MARK = re.compile(r"\{\{.*?\}\}|\{%-?\s*\w+.*?-?%\}|^\s*#\s?%\s*(?:block|endblock|extends|if|elif|else|endif|for|endfor|include|macro|endmacro|set)\b")


def _generator_template(text: str, line: int) -> bool:
    """Is the line Python rejects (or one of the three lines before it) Jinja template
    syntax (`{{ ... }}`, `{% ... %}`, a `# % block` line statement)? Such a file is the
    template a project generator renders into Python, not Python: reporting its syntax
    as CTX000 would only tell the user that a template is not yet rendered."""
    lines = text.split("\n")
    lo, hi = max(line - 4, 0), min(line, len(lines))
    return any(_TEMPLATE_MARK.search(lines[i]) for i in range(lo, hi))


def _newer_grammar(text: str, exc: SyntaxError | None = None) -> bool:
    """Does libcst's parser (the newest grammar it knows) accept `text`? Called only for a
    file this interpreter rejected, and only when the line the error is on holds a newer
    construct (`_NEWER_SYNTAX`), or the error is an f-string one other than "nested too
    deeply" (invalid in every Python), and the file nests brackets less than 100 deep: the
    native parser can overflow its stack on pathological input, which no `try` catches.
    libcst loads only then."""
    if len(text) > 2_000_000:
        return False  # the native parser's memory on a huge file is not worth a notice
    msg = (exc.msg or "") if exc is not None else ""
    lines = text.splitlines()
    at = lines[exc.lineno - 1] if exc is not None and exc.lineno and 0 < exc.lineno <= len(lines) else ""
    if not (_NEWER_SYNTAX.search(at) or (msg.startswith("f-string") and "nested too deeply" not in msg)):
        return False  # the error must sit on the newer construct itself, not elsewhere in the file
    depth = deepest = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    if deepest >= 100:
        return False
    try:
        import libcst
        libcst.parse_module(text)
    except Exception:  # ParserSyntaxError, or anything libcst's parser raises on odd input
        return False
    return True


def _may_be_refused(tree: ast.Module) -> bool:
    """Does the tree hold something the parser accepts but the compiler refuses, at
    module or class level: `return`, `yield`, `await`, `nonlocal`, `async for`/`with`
    or an async comprehension outside a function, `break`/`continue` outside a loop,
    or a `from __future__` import of an unknown feature or after other code? Over-
    inclusive (the compiler decides, `refused`); function bodies are not walked, so
    the cost is the module's top-level code only."""
    import __future__
    docstring = bool(tree.body) and isinstance(tree.body[0], ast.Expr) and \
        isinstance(tree.body[0].value, ast.Constant) and isinstance(tree.body[0].value.value, str)
    other = False
    for i, st in enumerate(tree.body):
        if isinstance(st, ast.ImportFrom) and st.module == "__future__" and not st.level:
            if other or any(a.name not in __future__.all_feature_names for a in st.names):
                return True
        elif not (i == 0 and docstring):
            other = True
    todo: list[tuple[ast.AST, bool]] = [(st, False) for st in tree.body]
    while todo:
        node, in_loop = todo.pop()
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Nonlocal,
                             ast.AsyncFor, ast.AsyncWith)):
            return True
        if isinstance(node, (ast.Break, ast.Continue)):
            if not in_loop:
                return True
            continue
        if isinstance(node, ast.comprehension) and node.is_async:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # its own scope: the compiler's business, not refused at this level
        if isinstance(node, ast.ClassDef):
            todo.extend((st, False) for st in node.body)
            continue
        if isinstance(node, (ast.For, ast.While)):
            todo.extend((st, True) for st in node.body)
            todo.extend((st, in_loop) for st in node.orelse)
            todo.append((node.iter if isinstance(node, ast.For) else node.test, in_loop))
            continue
        todo.extend((child, in_loop) for child in ast.iter_child_nodes(node))
    return False


def refused(path: str, text: str, tree: ast.Module) -> SyntaxError | None:
    """The interpreter's SyntaxError for a file its parser accepts but its compiler
    refuses (`return` outside a function, an unknown `__future__` feature, ...), or
    None. The compiler is asked only when `_may_be_refused` finds a candidate, so a
    valid file is never reported and costs one walk of its top-level code."""
    if not _may_be_refused(tree):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except Exception:  # ValueError, RecursionError, MemoryError: not a verdict on the code
        return None
    return None


def compiles(path: str, text: str) -> bool:
    """Does `text` compile to bytecode? True means `parse` would return a tree (the
    compiler parses first); False means nothing (the compiler also rejects some code the
    parser accepts, e.g. `return` outside a function): ask `parse` then.

    For a file no rule wants, the syntax check alone: compiling builds no Python AST
    objects to allocate and free, about 8% cheaper than `ast.parse` on the benchmark
    corpus. Never raises."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(text, path, "exec", dont_inherit=True)
        return True
    except Exception:  # SyntaxError, ValueError (NUL), RecursionError, MemoryError, ...
        return False


def parse(path: str, text: str, quiet: bool = False) -> tuple[ast.Module | None, Finding | None]:
    """Parse Python source; on failure return a CTX000 finding at the parser's location.

    The compiler's own warnings on the linted code (SyntaxWarning for `"\\d"` or
    `is` with a literal, DeprecationWarning) are the user's Python's business, not
    ctxlint's output: they are silenced here rather than printed to stderr.

    A file the parser accepts but the compiler refuses (`return` outside a function,
    `from __future__ import annota`: `refused`) is a CTX000 finding with the
    compiler's message, as Python itself would not run it.

    A file that this interpreter's grammar rejects but a newer Python's accepts
    (PEP 695 `type X = ...` or `def f[T]()`, PEP 701 f-strings, judged by libcst's
    parser, which follows the newest grammar) is valid code, not a CTX000 finding: it
    is returned as (None, None) with a notice (`findings.note`, unless `quiet`) that
    it was not analysed. Ruff likewise parses the newest syntax and never calls it an
    error. Returns (tree, None), (None, CTX000 finding) or (None, None).
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, filename=path, type_comments=False)
        exc = refused(path, text, tree)
        if exc is None:
            return tree, None
        line = exc.lineno or 1
        col = max(exc.offset or 1, 1)
        return None, Finding("CTX000", "parse-error", path, line, col, line, col + 1,
                             f"Python refuses this file: {exc.msg}")
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = max(exc.offset or 1, 1)
        v = sys.version_info
        if _newer_grammar(text, exc):
            if not quiet:
                from ctxlint.findings import note
                note(f"line {line}: syntax of a Python newer than {v.major}.{v.minor} ({exc.msg}); "
                     f"not analysed: run ctxlint on that Python to lint this file")
            return None, None
        if _generator_template(text, line):
            if not quiet:
                from ctxlint.findings import note
                note(f"line {line}: Jinja template syntax of a project generator (cookiecutter, copier) "
                     f"where Python does not parse ({exc.msg}); not analysed")
            return None, None
        return None, Finding("CTX000", "parse-error", path, line, col, line, col + 1,
                             f"cannot parse Python: {exc.msg} (no Python grammar up to the newest accepts it)")
    except MemoryError:
        # The engine's worker memory guard (`engine.memory_guard`) stopped the parser.
        return None, Finding("CTX000", "parse-error", path, 1, 1, 1, 1,
                             "file too large to analyse: parsing it ran out of memory; not linted")
    except (ValueError, RecursionError) as exc:
        # ValueError: source contains null bytes; RecursionError: absurdly deep nesting.
        return None, Finding("CTX000", "parse-error", path, 1, 1, 1, 1,
                             f"cannot parse Python: {type(exc).__name__}: {exc}")


