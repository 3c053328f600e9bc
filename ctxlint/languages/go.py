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
    """Parse Go source bytes; returns the tree-sitter `Tree` (never raises on bad input).

    Go syntax newer than the grammar (`new(expr)` of Go 1.26, generic methods of Go
    1.27, a local variable named `make` called like a function) is parsed from a
    same-length repaired copy of `src` (`repair`): every node's offsets are offsets
    into `src`. The returned tree may still hold ERROR nodes (`recover` isolates them).
    """
    return _repaired(src)[1]


def _repaired(src: bytes):
    """(the bytes parsed, their tree): `src` itself when it parses cleanly, else the
    same-length `repair` of `src` limited to the places where the first parse failed."""
    tree = _parser().parse(src)
    if not tree.root_node.has_error:
        return src, tree
    fixed = repair(src, _error_spans(tree))
    return (fixed, _parser().parse(fixed)) if fixed != src else (src, tree)


def parse_tree(text: str):
    """Parse decoded Go source text; returns the tree-sitter `Tree` (never raises)."""
    return parse_bytes(text.encode("utf-8", "surrogatepass"))


# ------------------------------------------------------------------ newer Go, recovery
class _Lexer:
    """A minimal Go scanner over bytes: skips comments, strings, raw strings and
    runes, matches brackets. Used only for files the grammar did not parse cleanly."""

    def __init__(self, src: bytes):
        self.s = src
        self.n = len(src)

    def skip_literal(self, i: int) -> int:
        """If a comment or literal starts at `i`, the offset after it; else `i`."""
        s, n = self.s, self.n
        c = s[i]
        if c == 0x2F and i + 1 < n and s[i + 1] == 0x2F:  # //
            j = s.find(b"\n", i)
            return n if j < 0 else j
        if c == 0x2F and i + 1 < n and s[i + 1] == 0x2A:  # /*
            j = s.find(b"*/", i + 2)
            return n if j < 0 else j + 2
        if c == 0x60:  # `raw`
            j = s.find(b"`", i + 1)
            return n if j < 0 else j + 1
        if c in (0x22, 0x27):  # "..." or '.'
            j = i + 1
            while j < n and s[j] != c and s[j] != 0x0A:
                j += 2 if s[j] == 0x5C else 1
            return min(j + 1, n)
        return i

    def match(self, i: int) -> int:
        """The offset just after the bracket closing the one at `i` (`n + 1` if none)."""
        s, n = self.s, self.n
        depth = 0
        while i < n:
            j = self.skip_literal(i)
            if j != i:
                i = j
                continue
            c = s[i]
            if c in b"([{":
                depth += 1
            elif c in b")]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return n + 1

    def balanced(self, a: int, b: int) -> bool:
        """Do the brackets of `src[a:b]` (outside comments and literals) all close
        inside it, in order?"""
        s = self.s
        depth, i = 0, a
        while i < b:
            j = self.skip_literal(i)
            if j != i:
                if j > b:
                    return False  # a literal or comment running past the end
                i = j
                continue
            c = s[i]
            if c in b"([{":
                depth += 1
            elif c in b")]}":
                depth -= 1
                if depth < 0:
                    return False
            i += 1
        return depth == 0

    def ws(self, i: int) -> int:
        while i < self.n and self.s[i] in b" \t\r\n":
            i += 1
        return i

    def ident_end(self, i: int) -> int:
        s, n = self.s, self.n
        while i < n and (s[i] == 0x5F or s[i] >= 0x80 or chr(s[i]).isalnum()):
            i += 1
        return i

    def top_level(self) -> list[tuple[int, bytes]]:
        """(offset, keyword) of each top-level declaration: `package`, `import`,
        `func`, `type`, `var`, `const` at bracket depth 0 at the start of a line."""
        s, n = self.s, self.n
        out = []
        i, depth, bol = 0, 0, True
        while i < n:
            j = self.skip_literal(i)
            if j != i:
                i, bol = j, False
                continue
            c = s[i]
            if c == 0x0A:
                bol = True
                i += 1
                continue
            if depth == 0 and bol and (c == 0x5F or chr(c).isalpha()):
                e = self.ident_end(i)
                if s[i:e] in _DECL_KEYWORDS:
                    out.append((i, s[i:e]))
                i, bol = e, False
                continue
            if c in b"([{":
                depth += 1
            elif c in b")]}":
                depth = max(depth - 1, 0)
            if c not in b" \t\r":
                bol = False
            i += 1
        return out


_DECL_KEYWORDS = frozenset({b"package", b"import", b"func", b"type", b"var", b"const"})
#: Spellings of the builtins `new` and `make` that the grammar reads as a plain call
#: (same length, so every offset stays put).
_PLAIN_CALLEE = {b"new": b"nEw", b"make": b"mAke"}


def _type_only_argument(lx: _Lexer, i: int, end: int) -> bool:
    """Is the argument text `src[i:end]` a type the grammar reads in `new(T)` /
    `make(T, ...)` (a slice, map, channel, func, struct or interface type), rather
    than an expression (Go 1.26 `new(expr)`, or a call of a local `make`)? A plain or
    qualified name is left as an expression too: as an argument of a plain call it
    parses either way."""
    arg = lx.s[i:end].strip()
    if arg.startswith((b"[", b"map[", b"map [", b"func")):
        # `[]int{1, 2}`, `map[K]V{}`, `func() {...}`: a value; `map[K]struct{}`: a type
        if not arg.endswith(b"}"):
            return True
        depth, k = 0, len(arg) - 1
        while k >= 0:
            if arg[k] == 0x7D:
                depth += 1
            elif arg[k] == 0x7B:
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        return arg[:max(k, 0)].rstrip().endswith((b"struct", b"interface"))
    if arg.startswith((b"struct", b"interface")):
        return b"}" not in arg[:-1] or not arg.endswith(b"}") or arg.count(b"{") < 2
    return arg.startswith((b"chan", b"<-chan", b"<- chan"))


def repair(src: bytes, spans=None) -> bytes:
    """A same-length copy of Go source `src` in which syntax newer than the grammar
    reads as syntax it knows, so the parsed tree keeps every other node in place:

    - `new(expr)` (Go 1.26) and a call of a local variable named `make` become a plain
      call (`nEw(expr)`): only where the argument is not a type the grammar expects;
    - a generic method's type parameter list (Go 1.27, `func (s *S) Map[T any](...)`)
      is blanked: the method parses as an ordinary one.

    `spans`: (start, end) byte ranges where a parse failed (`_error_spans`); a call is
    rewritten only when it overlaps one (None: everywhere). Comments and string
    literals are never touched. Never raises.
    """
    lx = _Lexer(src)
    buf = bytearray(src)
    s, n = src, len(src)
    changed = False
    for off, kw in lx.top_level():
        if kw != b"func":
            continue
        i = lx.ws(off + 4)
        if i < n and s[i] == 0x28:  # a receiver: a method
            i = lx.ws(lx.match(i))
            e = lx.ident_end(i)
            j = lx.ws(e)
            if e > i and j < n and s[j] == 0x5B:  # `Name[` : type parameters
                k = min(lx.match(j), n)
                for p in range(j, k):
                    if buf[p] != 0x0A:
                        buf[p] = 0x20
                changed = True
    i = 0
    prev = 0  # the last significant byte before `i`
    while i < n:
        j = lx.skip_literal(i)
        if j != i:
            i = j
            continue
        c = s[i]
        if c == 0x5F or chr(c).isalpha() or c >= 0x80:
            e = lx.ident_end(i)
            word = s[i:e]
            if word in _PLAIN_CALLEE and prev != 0x2E:
                p = lx.ws(e)
                if p < n and s[p] == 0x28:
                    close = min(lx.match(p), n)
                    # the first argument: up to a top-level comma or the closing paren
                    a, depth = p + 1, 0
                    while a < close - 1:
                        k = lx.skip_literal(a)
                        if k != a:
                            a = k
                            continue
                        if s[a] in b"([{":
                            depth += 1
                        elif s[a] in b")]}":
                            depth -= 1
                        elif s[a] == 0x2C and depth == 0:
                            break
                        a += 1
                    if lx.ws(p + 1) < close - 1 and not _type_only_argument(lx, p + 1, a) and (
                            spans is None or any(sa < close and i < sb for sa, sb in spans)):
                        buf[i:e] = _PLAIN_CALLEE[word]
                        changed = True
            prev = s[e - 1]
            i = e
            continue
        if c not in b" \t\r\n":
            prev = c
        i += 1
    return bytes(buf) if changed else src


def _error_spans(tree) -> list[tuple[int, int]]:
    """(start byte, end byte) of every ERROR or MISSING node of `tree`."""
    out = []
    stack = [tree.root_node]
    while stack:
        nd = stack.pop()
        if nd.type == "ERROR" or nd.is_missing:
            out.append((nd.start_byte, max(nd.end_byte, nd.start_byte + 1)))
            continue
        stack.extend(c for c in nd.children if c.has_error or c.is_missing or c.type == "ERROR")
    return out


class Recovered:
    """The outcome of `recover`.

    tree: the tree to lint (no ERROR node unless `error` is set and the isolation failed).
    skipped: (start byte, end byte, start row, label) of each top-level declaration left
    out because its text does not parse although its brackets balance (syntax the
    grammar does not know, such as a type checker's test data): rules see whitespace
    there. The label says what it is ("function `f`", "const `x`").
    error: when an ERROR/MISSING node of the original parse is not confined to a
    function's body (an unbalanced bracket, a broken package or import clause), the
    file's first such node in document order: what CTX000 reports; None when every
    error was isolated.
    clean: False when the isolation could not remove every error: lint nothing.
    """

    __slots__ = ("clean", "error", "skipped", "tree")

    def __init__(self, tree, skipped, error, clean):
        self.tree, self.skipped, self.error, self.clean = tree, skipped, error, clean


def recover(src: bytes) -> Recovered:
    """Parse `src` (through `_repaired`) and isolate what does not parse.

    Where the tree has ERROR nodes, each top-level declaration (found by a scan of
    the text, so declarations that tree-sitter's recovery swallowed are found too)
    that holds one is blanked in a same-length copy, and the copy is parsed again:
    the other declarations are then read exactly as written. A declaration whose
    brackets balance is an isolated skip (it may be valid Go the grammar does not
    know); any other error (an unbalanced bracket, a broken package clause) is also
    reported (`error`). Never raises.
    """
    base, tree = _repaired(src)
    if not tree.root_node.has_error:
        return Recovered(tree, [], None, True)
    lx = _Lexer(base)
    decls = lx.top_level()
    bounds = [off for off, _ in decls] + [len(base)]
    spans = _error_spans(tree)
    buf = bytearray(base)
    skipped = []
    broken = False
    before = [(0, bounds[0])] if bounds[0] > 0 else []
    chunks = before + [(bounds[k], bounds[k + 1]) for k in range(len(decls))]
    kinds = ([b""] if before else []) + [kw for _, kw in decls]
    head = next((base[a:b] for (a, b), kw in zip(chunks, kinds) if kw == b"package"), b"")
    for (a, b), kw in zip(chunks, kinds):
        if not any(sa < b and a < sb for sa, sb in spans):
            continue
        if kw != b"package":
            # Re-parse the declaration on its own (after the package clause): recovery
            # from an earlier error may have swallowed it although it parses.
            if not _parser().parse(head + b"\n" + base[a:b]).root_node.has_error:
                continue
        # A declaration whose brackets balance is isolated: its text may be valid Go
        # that the grammar does not know (gofmt accepts it); it is left out, not CTX000.
        isolated = kw not in (b"", b"package") and lx.balanced(a, b)
        name = ""
        if isolated:
            i = lx.ws(a + len(kw))
            if kw == b"func" and i < b and base[i] == 0x28:
                i = lx.ws(min(lx.match(i), b))
            ident = base[i:lx.ident_end(i)].decode("utf-8", "replace")
            name = (f"function `{ident}`" if kw == b"func" else
                    f"{kw.decode()} `{ident}`" if ident else f"a `{kw.decode()}` declaration")
        broken = broken or not isolated
        for p in range(a, b):
            if buf[p] not in (0x0A, 0x0D):
                buf[p] = 0x20
        skipped.append((a, b, base.count(b"\n", 0, a), name if isolated else ""))
    if not skipped:
        return Recovered(tree, [], first_error(tree), False)
    again = _parser().parse(bytes(buf))
    if again.root_node.has_error:
        return Recovered(tree, [], first_error(tree), False)
    error = first_error(tree) if broken else None  # a broken file: its first error
    return Recovered(again, [s for s in skipped if s[3]], error, True)


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

