"""Small syntax helpers every Python semantic module shares (no facts, no state):
the function node types and the dotted text of a Name/Attribute chain. Kept apart
from `facts` so the modules `facts` builds on can import them without a cycle."""

from __future__ import annotations

import ast

#: The ast classes of a `def` / `async def`.
FunctionNode = (ast.FunctionDef, ast.AsyncFunctionDef)
#: The ast classes that open a scope.
ScopeNode = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def dotted(expr: ast.AST) -> str | None:
    """Unresolved dotted text of a Name/Attribute chain (`self.cache.get`); None for
    anything else (a call, a subscript)."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if isinstance(expr, ast.Name):
        parts.append(expr.id)
        return ".".join(reversed(parts))
    return None


def add_import_names(node: ast.Import, out: dict[str, str]) -> None:
    """Record the local names an `import` statement binds into `out` (local -> module):
    `import a.b as c` binds c -> "a.b"; `import a.b` binds a -> "a" (the top package),
    unless an earlier binding of that name is already there (Python reference,
    "The import statement")."""
    for a in node.names:
        if a.asname:
            out[a.asname] = a.name
        else:
            top = a.name.split(".")[0]
            out.setdefault(top, top)


def container_root(container: ast.AST) -> ast.AST:
    """The variable a container expression lives in: `reg[k]` -> `reg`,
    `reg.setdefault(k, [])` / `reg.get(k)` -> `reg` (the node, unchanged otherwise)."""
    node = container
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("setdefault", "get", "__getitem__"):
            node = node.func.value
        else:
            return node
