"""Registry facts shared by the retention rules (CTX401, CTX403, CTX404).

Helpers over the long-lived container fact (`containers.py`): the local sources of a
name, whether a key reaches a scope id, the sibling functions of a container's owner
and the call closure between them.
"""

from __future__ import annotations

import ast
import re

# ----------------------------------------------------------------- helpers

# Name hints. The rules decide by value facts first (what a key reaches, what a method
# removes or marks, which methods index a container by per-call keys); these tables are
# consulted only where those facts say nothing, and each says where its words come from.

#: Hint: leading verbs of terminal-path method names (the end of a request's life), from
#: vLLM's `finish_requests`/`abort_request`, sglang's `abort_request`/`handle_timeout`,
#: and asyncio's `cancel`. CTX404 also finds terminal paths by value (`_marks`).
TERMINAL_VERBS = ("finish", "abort", "cancel", "timeout", "evict", "close", "expire", "fail", "reject")
TERMINAL_PREFIXES = ("on", "handle", "do", "process", "try", "maybe")

#: Hint: functions whose body runs once per object (setup) rather than once per request
#: (Python's `__init__`/`__post_init__`, transformers' `from_pretrained`/`post_init`,
#: the set-up vocabulary of torch/peft model wrappers: build/install/attach/patch/wrap).
SETUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                         r"_?build\w*|_?register\w*|_?install\w*|_?attach\w*|_?enable\w*|_?add_\w*hook\w*|"
                         r"_?prepare\w*|_?apply\w*|_?wrap\w*|_?patch\w*|_?hook\w*|_?instrument\w*|"
                         r"_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Functions that run once at start-up whatever their key (a subset of `SETUP_NAME`).
STARTUP_NAME = re.compile(r"^(__init__|__post_init__|__new__|__init_subclass__|_?init\w*|_?setup\w*|"
                           r"_?build\w*|_?load\w*|_?from_pretrained|_?post_init\w*|_?configure\w*|main)$")


#: Words of a `load_*` name that make it a request-time load of one scope's object
#: (`load_adapter`, `load_lora`, `_load_tenant_config`) rather than start-up code
#: (`load_model`, `load_weights`): vLLM's LoRA manager loads an adapter when the
#: first request naming it arrives, and keeps it in a registry keyed by adapter.
PER_SCOPE_LOAD_WORDS = frozenset({"adapter", "adapters", "lora", "loras", "peft", "tenant", "user",
                                   "session", "request", "req", "conversation"})


def runs_once(name: str, pattern: re.Pattern) -> bool:
    """Does function `name` run once at set-up (`pattern` is `SETUP_NAME` or
    `STARTUP_NAME`)? A `load_*` of a per-scope object (`load_adapter`) does not."""
    if not pattern.match(name):
        return False
    words = name_words(name)
    return not (words and words[0] == "load" and PER_SCOPE_LOAD_WORDS.intersection(words[1:]))


def names_in(expr: ast.AST | None) -> list[str]:
    """Dotted texts of every Name/Attribute chain inside `expr` (outermost chains only)."""
    out: list[str] = []
    if expr is None:
        return out
    stack = [expr]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Name, ast.Attribute)):
            parts = []
            cur = n
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                parts.append(cur.id)
                out.append(".".join(reversed(parts)))
                continue
            stack.append(cur)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return out


def local_sources(facts, fn: ast.AST | None, name: str, before: ast.AST) -> list[ast.AST]:
    """Values assigned to local `name` in `fn` before `before` (loop targets give their iterable)."""
    if fn is None:
        return []
    index = facts.memo(f"retention.assigns.{id(fn)}", lambda: assign_index(facts, fn))
    line = getattr(before, "lineno", 10**9)
    return [v for (ln, v) in index.get(name, ()) if ln <= line]


def assign_index(facts, fn) -> dict[str, list[tuple[int, ast.AST]]]:
    out: dict[str, list[tuple[int, ast.AST]]] = {}
    for n in facts.walk(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Name):
                        out.setdefault(el.id, []).append((n.lineno, n.value))
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)) and isinstance(n.target, ast.Name) and n.value is not None:
            out.setdefault(n.target.id, []).append((n.lineno, n.value))
        elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
            for el in (n.target.elts if isinstance(n.target, ast.Tuple) else [n.target]):
                if isinstance(el, ast.Name):
                    out.setdefault(el.id, []).append((getattr(n, "lineno", getattr(n.iter, "lineno", 0)), n.iter))
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append((n.lineno, n.value))
    return out


def reaches_scope_id(facts, expr: ast.AST | None, fn, depth: int = 3) -> str | None:
    """The scope id `expr` reaches, following local assignments up to `depth` levels."""
    for name in names_in(expr):
        sid = facts.scope_id_in(name)
        if sid:
            return sid
        if depth and "." not in name:
            for src in local_sources(facts, fn, name, expr):
                sid = reaches_scope_id(facts, src, fn, depth - 1)
                if sid:
                    return sid
    return None


def key_text(expr: ast.AST | None) -> str | None:
    if expr is None:
        return None
    try:
        return ast.unparse(expr)
    except Exception:  # pragma: no cover - unparse of odd trees
        return None


def name_words(name: str) -> list[str]:
    return [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name.lower()) if w]


def is_terminal(name: str) -> bool:
    """`finish_request`, `abort`, `_on_cancel`, `handle_timeout`: the name starts with a
    terminal verb (after an optional on/handle/do prefix)."""
    words = name_words(name)
    while words and words[0] in TERMINAL_PREFIXES:
        words = words[1:]
    return bool(words) and any(words[0].startswith(v) for v in TERMINAL_VERBS)


def owner_functions(facts, c) -> dict[str, ast.AST]:
    """Methods of the container's class, or module-level functions for module containers."""
    body = c.owner.body if c.owner is not None else facts.tree.body
    return {s.name: s for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}


def callees(facts, fn: ast.AST, module: bool) -> set[str]:
    """Names of sibling methods (`self.m(...)`) or module functions (`m(...)`) `fn` calls."""
    out = set()
    for n in facts.walk(fn, into_defs=True):
        if isinstance(n, ast.Call):
            f = n.func
            if module and isinstance(f, ast.Name):
                out.add(f.id)
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
                out.add(f.attr)
    return out


def closure(facts, funcs: dict[str, ast.AST], module: bool) -> dict[str, set[str]]:
    """Method name -> every sibling method it reaches through calls (itself included)."""
    direct = {name: callees(facts, fn, module) & funcs.keys() for name, fn in funcs.items()}
    out: dict[str, set[str]] = {}
    for name in funcs:
        seen = {name}
        todo = [name]
        while todo:
            for nxt in direct.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[name] = seen
    return out
