"""Go: parse with tree-sitter (parsing only).

This module turns Go source into a tree-sitter `Tree` and reports where a file
does not parse (CTX000). Everything derived from the tree — the node-type index,
imports, the control-flow graph, escape and ctx-in-scope facts — lives in
`ctxlint.semantic.go` (`facts_for` and `lint` are in `ctxlint.semantic.go.facts`).

`tree_sitter` and `tree_sitter_go` are imported inside functions only, so linting
a Python file never imports them.
"""

from __future__ import annotations


from ctxlint.findings import Finding

SUFFIXES = (".go",)

#: tree-sitter-go node types (grammar facts every Go analysis shares).
FUNC_TYPES = ("function_declaration", "method_declaration", "func_literal")
LOOP_TYPES = ("for_statement",)
SWITCH_TYPES = ("expression_switch_statement", "type_switch_statement", "select_statement")
CASE_TYPES = ("expression_case", "default_case", "type_case", "communication_case")

#: Node types indexed in the first (and usually only) query over a file.
INDEXED_TYPES = frozenset({
    "package_clause", "import_spec", "call_expression", "defer_statement", "field_declaration",
    "assignment_statement", "function_declaration", "method_declaration", "func_literal",
})

_PARSER = None
_QUERIES: dict[tuple[str, ...], object] = {}


def _parser():
    """The tree-sitter parser for Go, created on first use (imports tree_sitter lazily)."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter_go
        from tree_sitter import Language, Parser

        _PARSER = Parser(Language(tree_sitter_go.language()))
    return _PARSER


def query(types: tuple[str, ...]):
    """A tree-sitter QueryCursor capturing every node of `types` (each under its own name)."""
    if types not in _QUERIES:
        from tree_sitter import Query

        _QUERIES[types] = Query(_parser().language, " ".join(f"({t}) @{t}" for t in types))
    from tree_sitter import QueryCursor

    return QueryCursor(_QUERIES[types])


def parse_bytes(src: bytes):
    """Parse Go source bytes; returns the tree-sitter `Tree` (never raises on bad input)."""
    return _parser().parse(src)


def parse_tree(text: str):
    """Parse decoded Go source text; returns the tree-sitter `Tree` (never raises)."""
    return parse_bytes(text.encode("utf-8", "surrogatepass"))


def first_error(tree):
    """The first ERROR or MISSING node of `tree` in document order, or None."""
    root = tree.root_node
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            return n
        if n.has_error:
            stack.extend(reversed(n.children))
    return None


def parse_error(facts) -> Finding | None:
    """CTX000 at the first ERROR or MISSING node, or None when the tree is clean.

    `facts` is a `semantic.go.facts.GoFacts` (its `first_error`, `text_of`,
    `char_col` and `path` are used)."""
    n = facts.first_error
    if n is None:
        return None
    line = n.start_point[0] + 1
    col = facts.char_col(n.start_point) + 1
    if n.is_missing:
        msg = f"cannot parse Go: missing `{n.type}`"
    else:
        snippet = facts.text_of(n).strip().splitlines()
        first = snippet[0][:40] if snippet else ""
        msg = f"cannot parse Go: unexpected `{first}`" if first else "cannot parse Go: syntax error"
    end_line = n.end_point[0] + 1
    end_col = facts.char_col(n.end_point) + 1
    if (end_line, end_col) == (line, col):
        end_col = col + 1
    return Finding("CTX000", "parse-error", facts.path, line, col, end_line, end_col, msg)

