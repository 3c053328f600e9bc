"""Python: decode-independent parsing with stdlib `ast` (parsing only).

The per-file analyses, and `lint` (which builds the facts and runs the rules), live
in `ctxlint.semantic.python.facts`.
"""

from __future__ import annotations

import ast
import sys
import warnings

from ctxlint.findings import Finding

SUFFIXES = (".py", ".pyi")


def parse(path: str, text: str) -> tuple[ast.Module | None, Finding | None]:
    """Parse Python source; on failure return a CTX000 finding at the parser's location.

    The compiler's own warnings on the linted code (SyntaxWarning for `"\\d"` or
    `is` with a literal, DeprecationWarning) are the user's Python's business, not
    ctxlint's output: they are silenced here rather than printed to stderr.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, filename=path, type_comments=False), None
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = max(exc.offset or 1, 1)
        v = sys.version_info
        return None, Finding("CTX000", "parse-error", path, line, col, line, col + 1,
                             f"cannot parse Python: {exc.msg} (parsed with Python {v.major}.{v.minor}'s "
                             "grammar: code written for a newer Python needs ctxlint run on that Python)")
    except MemoryError:
        # The engine's worker memory guard (`engine.memory_guard`) stopped the parser.
        return None, Finding("CTX000", "parse-error", path, 1, 1, 1, 1,
                             "file too large to analyse: parsing it ran out of memory; not linted")
    except (ValueError, RecursionError) as exc:
        # ValueError: source contains null bytes; RecursionError: absurdly deep nesting.
        return None, Finding("CTX000", "parse-error", path, 1, 1, 1, 1,
                             f"cannot parse Python: {type(exc).__name__}: {exc}")


