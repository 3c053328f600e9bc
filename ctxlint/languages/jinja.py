"""Jinja2 templates: parse with jinja2's own parser, per-file facts, call-site facts.

Three parts, each in a marked section:

1. Template facts (`JinjaFacts`): a template file, or a literal template string
   found in Python code, parsed once with `Environment.parse` (the delimiters and
   extensions of the environment that renders it when a call site says so), with
   nodes mapped back to line and column. A `TemplateSyntaxError` is CTX000 at
   jinja2's line.
2. Call-site facts over `PythonFacts` (shared by the CTX3xx rules): compile sites
   (`jinja2.Template(src)`, `env.from_string(src)`, `render_template_string`,
   LangChain `PromptTemplate(..., template_format="jinja2")`), environments and
   their loaders/delimiters/autoescape, format sites, render sites, and the
   resolution of a source expression to literal strings.
3. The project pass (`project_findings`, called by the engine after the per-file
   pass): template directories named by `FileSystemLoader`/`PackageLoader`, CTX304
   linking a render call to its template file, re-parsing templates with a call
   site's delimiters. Plus `probe_main`, the `ctxlint template-probe` sub-command.

jinja2 is imported lazily (inside functions), so linting Python or Go code that
has no template never imports it.
"""

from __future__ import annotations

import ast
import os
import functools
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ctxlint.config import Config
from ctxlint.findings import Finding

SUFFIXES = (".j2", ".jinja", ".jinja2")
DELIMITER_KEYS = (
    "block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
    "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
)
#: Extensions enabled while parsing, so templates written for the common ones
#: (HF chat templates use loopcontrols; page templates use i18n/do) parse.
_PARSE_EXTENSIONS = ("jinja2.ext.loopcontrols", "jinja2.ext.do", "jinja2.ext.i18n")
#: Jinja globals that are gadgets for escaping the template (SSTI write-ups:
#: `lipsum.__globals__`, `cycler.__init__.__globals__`, `self._TemplateReference__context`).
GADGET_GLOBALS = frozenset({"lipsum", "cycler", "joiner", "namespace", "self", "range"})


# =================================================================== 1. template facts
_ENV_CACHE: dict[tuple, object] = {}


def _make_env(options: tuple, custom_tags: tuple = ()):
    """Build the parsing Environment; `custom_tags` are (tag, is_block) pairs of tags from
    extensions ctxlint cannot load (pdoc's `defaultmacro`), parsed generically."""
    import jinja2
    from jinja2.ext import Extension

    class GenerationTag(Extension):
        """`{% generation %}…{% endgeneration %}` (transformers' assistant-mask tag): a plain body."""

        tags = {"generation"}

        def parse(self, parser):
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return jinja2.nodes.Scope(body, lineno=lineno)

    exts: list = [*_PARSE_EXTENSIONS, GenerationTag]
    if custom_tags:
        blocks = {t for t, is_block in custom_tags if is_block}

        class UnknownTags(Extension):
            """Tags of an extension that is not loaded: arguments skipped, body (if any) kept."""

            tags = {t for t, _ in custom_tags}

            def parse(self, parser):
                tok = next(parser.stream)
                while parser.stream.current.type != "block_end":
                    next(parser.stream)
                if tok.value in blocks:
                    body = parser.parse_statements((f"name:end{tok.value}",), drop_needle=True)
                    return jinja2.nodes.Scope(body, lineno=tok.lineno)
                return jinja2.nodes.Output([], lineno=tok.lineno)

        exts.append(UnknownTags)
    try:
        return jinja2.Environment(extensions=exts, **dict(options))
    except Exception:  # bad delimiter settings from a call site: fall back to defaults
        return jinja2.Environment(extensions=exts)


def parse_template(text: str, options: tuple = ()):
    """Parse template text. Returns (jinja2.nodes.Template, None) or (None, (line, message)).

    Never raises: jinja2's TemplateSyntaxError (and anything odd the lexer raises on
    bad input) becomes the error tuple.
    """
    import jinja2
    tags: tuple = ()
    for _ in range(8):
        key = (options, tags)
        env = _ENV_CACHE.get(key) or _ENV_CACHE.setdefault(key, _make_env(options, tags))
        try:
            return env.parse(text), None
        except jinja2.TemplateSyntaxError as exc:
            m = _UNKNOWN_TAG.search(exc.message or "")
            if m and m.group(1) not in {t for t, _ in tags} and not m.group(1).startswith("end"):
                tag = m.group(1)
                # a tag from an extension that is not loaded here: parse it generically
                is_block = re.search(r"\bend" + re.escape(tag) + r"\b", text) is not None
                tags = (*tags, (tag, is_block))
                continue
            return None, (exc.lineno or 1, exc.message or str(exc))
        except (RecursionError, MemoryError, ValueError, TypeError) as exc:
            return None, (1, f"{type(exc).__name__}: {exc}")
    return None, (1, "too many unknown tags")


_UNKNOWN_TAG = re.compile(r"unknown tag '(\w+)'")


class _Locator:
    """Maps (template line, needle) to a column, looking only inside code regions.

    jinja2 nodes carry a line but no column; the needle (a name, an attribute, a
    string key) is searched for in the `{{ }}`/`{% %}` regions of that line, each
    successive lookup of the same needle on a line taking the next occurrence.
    """

    def __init__(self, text: str, options: dict):
        self.lines = text.split("\n")
        self._used: dict[tuple[int, str], int] = {}
        starts = [options.get("variable_start_string", "{{"), options.get("block_start_string", "{%")]
        ends = {starts[0]: options.get("variable_end_string", "}}"), starts[1]: options.get("block_end_string", "%}")}
        cstart = options.get("comment_start_string", "{#")
        cend = options.get("comment_end_string", "#}")
        self.spans: list[tuple[int, int]] = []
        pat = re.compile("|".join(re.escape(s) for s in sorted({*starts, cstart}, key=len, reverse=True)))
        pos = 0
        while True:
            m = pat.search(text, pos)
            if not m:
                break
            tok = m.group(0)
            end_tok = cend if tok == cstart and tok not in ends else ends.get(tok, cend)
            e = text.find(end_tok, m.end())
            e = len(text) if e < 0 else e + len(end_tok)
            if tok != cstart or tok in ends:
                self.spans.append((m.start(), e))
            pos = e
        lp = options.get("line_statement_prefix")
        if lp:
            off = 0
            for ln in self.lines:
                if ln.lstrip().startswith(lp):
                    self.spans.append((off, off + len(ln)))
                off += len(ln) + 1
        self.line_starts = [0]
        for ln in self.lines:
            self.line_starts.append(self.line_starts[-1] + len(ln) + 1)

    def column(self, line: int, needle: str) -> int:
        """0-based column of the next occurrence of `needle` on `line` inside code; 0 if none."""
        if line < 1 or line > len(self.lines):
            return 0
        src = self.lines[line - 1]
        base = self.line_starts[line - 1]
        ident = needle.isidentifier()
        hits = []
        for m in re.finditer(re.escape(needle), src):
            if ident and ((m.start() > 0 and (src[m.start() - 1].isalnum() or src[m.start() - 1] == "_"))
                          or (m.end() < len(src) and (src[m.end()].isalnum() or src[m.end()] == "_"))):
                continue
            a = base + m.start()
            if any(s <= a < e for s, e in self.spans):
                hits.append(m.start())
        if not hits:
            i = src.find(needle)
            return max(i, 0)
        k = self._used.get((line, needle), 0)
        self._used[(line, needle)] = k + 1
        return hits[min(k, len(hits) - 1)]


class JinjaFacts:
    """Per-template facts for Jinja rules.

    Args:
        path: the path to report (a template file, or the Python file holding a
            literal template).
        text: the template source.
        tree: the parsed `jinja2.nodes.Template`.
        config: the run's Config.
        options: delimiter settings ({key: value}, DELIMITER_KEYS) the template was parsed with.
        mapper: for a literal template inside Python, a callable
            (template_line, template_col0, needle) -> (file_line, file_col0); None for a file.
    """

    language = "jinja"

    def __init__(self, path: str, text: str, tree, config: Config, options: dict | None = None, mapper=None):
        self.path = path
        self.text = text
        self.tree = tree
        self.config = config
        self.options = dict(options or {})
        self.mapper = mapper
        self._memo: dict[str, object] = {}

    @property
    def is_literal(self) -> bool:
        return self.mapper is not None

    @cached_property
    def locator(self) -> _Locator:
        return _Locator(self.text, self.options)

    def nodes(self, *types) -> list:
        """All jinja2 nodes of the given classes (jinja2.nodes.X), in source order."""
        key = "nodes:" + ",".join(t.__name__ for t in types)
        if key not in self._memo:
            found = list(self.tree.find_all(types))
            found.sort(key=lambda n: getattr(n, "lineno", 0) or 0)
            self._memo[key] = found
        return self._memo[key]  # type: ignore[return-value]

    def position(self, lineno: int, needle: str) -> tuple[int, int]:
        """(line, 0-based column) in the reported file of `needle` on template line `lineno`."""
        col = self.locator.column(lineno, needle)
        if self.mapper is not None:
            return self.mapper(lineno, col, needle)
        return lineno, col

    def finding(self, rule, lineno: int, needle: str, message: str, fix=None) -> Finding:
        line, col = self.position(lineno, needle)
        return Finding(rule.code, rule.name, self.path, line, col + 1, line, col + 1 + len(needle), message, fix)

    # -------------------------------------------------------- variables
    @cached_property
    def undeclared(self) -> set[str]:
        """Variables the template reads from its render context (jinja2.meta.find_undeclared_variables)."""
        from jinja2 import meta
        try:
            return set(meta.find_undeclared_variables(self.tree))
        except Exception:  # the code generator rejects a few parseable trees
            return set()

    @cached_property
    def name_loads(self) -> dict[str, list]:
        """Name -> its `Name(ctx='load')` nodes, in source order."""
        from jinja2 import nodes
        out: dict[str, list] = {}
        for n in self.nodes(nodes.Name):
            if n.ctx == "load":
                out.setdefault(n.name, []).append(n)
        return out

    @cached_property
    def optional_names(self) -> set[str]:
        """Names the template treats as optional: tested with `is defined`/`is undefined`/
        `is none`, given a `default`/`d` filter, or used only as a bare `{% if %}` test."""
        from jinja2 import nodes
        out: set[str] = set()
        for t in self.nodes(nodes.Test):
            if t.name in ("defined", "undefined", "none") and isinstance(t.node, nodes.Name):
                out.add(t.node.name)
        for f in self.nodes(nodes.Filter):
            if f.name in ("default", "d") and isinstance(f.node, nodes.Name):
                out.add(f.node.name)
        covered: set[int] = set()  # Name loads that are a bare test, or inside the branch it guards

        def bare(expr):
            if isinstance(expr, nodes.Name):
                yield expr
            elif isinstance(expr, nodes.Not):
                yield from bare(expr.node)
            elif isinstance(expr, (nodes.And, nodes.Or)):
                yield from bare(expr.left)
                yield from bare(expr.right)

        for node in self.nodes(nodes.If, nodes.CondExpr):
            tested = list(bare(node.test))
            names = {n.name for n in tested}
            covered.update(id(n) for n in tested)
            positive = isinstance(node.test, (nodes.Name, nodes.And))
            if names and positive:
                body = node.body if isinstance(node, nodes.If) else [node.expr1]
                for b in body:
                    for n in ([b] if isinstance(b, nodes.Name) else []) + list(b.find_all(nodes.Name)):
                        if n.name in names and n.ctx == "load":
                            covered.add(id(n))
        for name, uses in self.name_loads.items():
            if uses and all(id(u) in covered for u in uses):
                out.add(name)
        return out

    def first_use(self, name: str):
        uses = self.name_loads.get(name)
        return uses[0] if uses else None


def lint(path: str, text: str, rules: list, config: Config, options: dict | None = None) -> list[Finding]:
    """Lint one template file with the given (prefiltered) rules.

    Args:
        options: delimiter settings of the environment rendering it (DELIMITER_KEYS),
            known only in the project pass; default delimiters otherwise.
    Returns findings before suppression; a template that does not parse is one CTX000
    finding at jinja2's line. Never raises on bad input.
    """
    opts = tuple(sorted((options or {}).items()))
    tree, err = parse_template(text, opts)
    if err is not None:
        line, msg = err
        nlines = text.count("\n") + 1
        line = min(max(line, 1), nlines)
        return [Finding("CTX000", "parse-error", path, line, 1, line, 1, f"cannot parse Jinja template: {msg}")]
    from ctxlint.rules import run_checks
    return run_checks(JinjaFacts(path, text, tree, config, dict(opts)), rules)


# =================================================================== 2. call-site facts (Python)
_TEMPLATE_QUALNAMES = {"jinja2.Template", "jinja2.environment.Template"}
_SANDBOX_NAMES = {"SandboxedEnvironment", "ImmutableSandboxedEnvironment"}
_ENV_NAMES = {"Environment", "NativeEnvironment", "Overlay"}
_LOADER_NAMES = {"FileSystemLoader", "PackageLoader", "ChoiceLoader"}
_LC_PROMPTS = {"PromptTemplate", "ChatPromptTemplate", "SystemMessagePromptTemplate",
               "HumanMessagePromptTemplate", "AIMessagePromptTemplate", "ChatMessagePromptTemplate"}
_RENDER_METHODS = {"render", "render_async", "stream", "generate", "generate_async"}
_STR_METHODS = {"read", "read_text", "decode", "strip", "lstrip", "rstrip", "replace", "join", "lower",
                "upper", "format", "getenv", "removeprefix", "removesuffix", "expandtabs", "title"}
_HTML_SUFFIXES = (".html", ".htm", ".xml", ".xhtml", ".svg")
_TEXT_SUFFIXES = (".j2", ".jinja", ".jinja2", ".txt", ".md", ".prompt", ".tmpl", ".yaml", ".yml", ".json", ".py")
_HTML_TAG = re.compile(r"<\s*(!doctype|html|head|body|div|table|tr|td|th|p|span|a|ul|ol|li|pre|code|script|style|form|input|h[1-6]|br|img|meta)\b", re.I)


@dataclass
class EnvInfo:
    """A jinja2 environment built in the checked file.

    kind: "sandbox" | "plain" | "native"; call: its constructor call (None when unknown);
    options: literal delimiter settings; autoescape: "on" | "off-explicit" | "off-default";
    loader_dirs: directories its FileSystemLoader/PackageLoader reads (resolved, may not exist);
    globals: names added through `env.globals[...]`/`.update(...)`; open_globals: a
    non-literal globals update (render checks then stay silent).
    """

    kind: str
    call: ast.Call | None = None
    options: dict = field(default_factory=dict)
    autoescape: str = "off-default"
    loader_dirs: list[Path] = field(default_factory=list)
    globals: set = field(default_factory=set)
    open_globals: bool = False
    binding: str | None = None


@dataclass
class CompileSite:
    """Where template source is compiled: `call` compiles `src` (an expression).

    kind: "Template" | "from_string" | "render_template_string" | "langchain";
    env: the EnvInfo compiling it, or None when it cannot be resolved.
    """

    call: ast.Call
    src: ast.AST
    kind: str
    env: EnvInfo | None


@dataclass
class LiteralTemplate:
    """A literal template string reaching a compile site: `node` is the string constant."""

    node: ast.Constant
    text: str
    options: dict
    site: ast.Call


@dataclass
class RenderSite:
    """A render call with the variables it passes.

    names: keyword names passed, or None when the call passes `**mapping` or a
    non-literal positional context (then no CTX304). template: literal template
    name for get_template/render_template; source: a LiteralTemplate for
    `Template(literal).render(...)`.
    """

    call: ast.Call
    names: set | None
    template: str | None = None
    env: EnvInfo | None = None
    source: LiteralTemplate | None = None
    flask: bool = False


def _last(q: str | None) -> str:
    return (q or "").rsplit(".", 1)[-1]


class CallSites:
    """Template-related call-site facts of one Python file (memoized on PythonFacts).

    Args:
        facts: the file's `PythonFacts`.
    """

    def __init__(self, facts):
        self.f = facts
        self.path = Path(facts.path)
        self._bindings: dict[int, dict[str, list]] = {}

    # ----------------------------------------------------------- bindings
    def _function_bindings(self, fn, name: str) -> list | None:
        """Values bound to `name` inside function `fn`: expressions, ("param", arg), or None if unbound."""
        table = self._bindings.get(id(fn))
        if table is None:
            table = self._bindings[id(fn)] = self._collect_bindings(fn)
        return table.get(name)

    def _collect_bindings(self, fn) -> dict[str, list]:
        """name -> bound values for every name bound in `fn`, in one walk: expressions,
        ("param", arg), ("annotation", ann), ("aug", node) or ("opaque", node)."""
        out: dict[str, list] = {}
        args = fn.args
        for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
            if a is not None:
                out.setdefault(a.arg, []).append(("param", a))
        for n in self.f.walk(fn):
            if n is fn:
                continue
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, []).append(n.value)
                    elif isinstance(t, (ast.Tuple, ast.List)):
                        for e in ast.walk(t):
                            if isinstance(e, ast.Name):
                                out.setdefault(e.id, []).append(("opaque", n))
            elif isinstance(n, (ast.AnnAssign, ast.AugAssign)) and isinstance(n.target, ast.Name):
                name = n.target.id
                if isinstance(n, ast.AugAssign):
                    out.setdefault(name, []).append(("aug", n))
                elif n.value is not None:
                    out.setdefault(name, []).append(n.value)
                else:
                    out.setdefault(name, []).append(("annotation", n.annotation))
            elif isinstance(n, ast.NamedExpr):
                out.setdefault(n.target.id, []).append(n.value)
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.comprehension)):
                tgt = [n.target] if hasattr(n, "target") else [i.optional_vars for i in n.items]
                for t in tgt:
                    for x in ast.walk(t) if t is not None else ():
                        if isinstance(x, ast.Name):
                            out.setdefault(x.id, []).append(("opaque", n))
        return out

    def values_of(self, expr: ast.AST) -> list | None:
        """The expressions a Name or `self.attr` may hold (flow-insensitive), or None if unknown."""
        if isinstance(expr, ast.Name):
            fn = self.f.enclosing_function(expr)
            while fn is not None:
                v = self._function_bindings(fn, expr.id)
                if v is not None:
                    return v
                fn = self.f.enclosing_function(fn)
            if expr.id in self.f.module_assignments:
                vals = list(self.f.module_assignments[expr.id])
                for n in self.f.nodes(ast.AugAssign):
                    if isinstance(n.target, ast.Name) and n.target.id == expr.id and self.f.enclosing_function(n) is None:
                        vals.append(("aug", n))
                return vals
            return None
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id in ("self", "cls"):
            cls = self.f.enclosing_class(expr)
            if cls is None:
                return None
            return self._class_attr_values(cls, expr.attr)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            for c in self.f.nodes(ast.ClassDef):
                if c.name == expr.value.id:
                    return self._class_attr_values(c, expr.attr)
        return None

    def _class_attr_values(self, cls: ast.ClassDef, attr: str) -> list | None:
        vals: list = []
        for s in cls.body:
            if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in s.targets):
                vals.append(s.value)
            elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.target.id == attr:
                vals.append(s.value if s.value is not None else ("annotation", s.annotation))
        for n in ast.walk(cls):
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    if (isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                            and t.value.id == "self"):
                        if isinstance(n, ast.AugAssign):
                            vals.append(("aug", n))
                        elif n.value is not None:
                            vals.append(n.value)
                        else:
                            vals.append(("annotation", n.annotation))
        return vals or None

    # ----------------------------------------------------------- literals
    def literal_values(self, expr: ast.AST, depth: int = 0) -> list[tuple[str, ast.Constant | None]] | None:
        """Every string `expr` can evaluate to, when all are literal in this file.

        Resolves module constants, class constants, local names, `+` of literals,
        `"".join([...])`, `textwrap.dedent`/`inspect.cleandoc`/`.strip()`, conditional
        expressions and subscripts of literal dicts. Returns (value, the Constant node
        when the value is one unmodified constant) pairs, or None when any part is not literal.
        """
        if depth > 6 or expr is None:
            return None
        if isinstance(expr, ast.Constant):
            return [(expr.value, expr)] if isinstance(expr.value, str) else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            a, b = self.literal_values(expr.left, depth + 1), self.literal_values(expr.right, depth + 1)
            if a is None or b is None or len(a) * len(b) > 16:
                return None
            return [(x + y, None) for x, _ in a for y, _ in b]
        if isinstance(expr, ast.IfExp):
            a, b = self.literal_values(expr.body, depth + 1), self.literal_values(expr.orelse, depth + 1)
            return None if a is None or b is None else a + b
        if isinstance(expr, ast.JoinedStr):
            # an f-string whose replacement fields are constants (module-level numbers or strings)
            out_s = ""
            for part in expr.values:
                if isinstance(part, ast.Constant):
                    out_s += str(part.value)
                    continue
                if not isinstance(part, ast.FormattedValue) or part.format_spec is not None or part.conversion != -1:
                    return None
                v = self._scalar(part.value, depth + 1)
                if v is None:
                    return None
                out_s += str(v)
            return [(out_s, None)]
        if isinstance(expr, ast.Call):
            q = self.f.qualname(expr.func) or ""
            if q in ("textwrap.dedent", "inspect.cleandoc") and len(expr.args) == 1:
                v = self.literal_values(expr.args[0], depth + 1)
                if v is None:
                    return None
                import inspect
                import textwrap
                fn = textwrap.dedent if q == "textwrap.dedent" else inspect.cleandoc
                return [(fn(s), None) for s, _ in v]
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("strip", "lstrip", "rstrip") and not expr.args:
                v = self.literal_values(expr.func.value, depth + 1)
                return None if v is None else [(getattr(s, expr.func.attr)(), None) for s, _ in v]
            if (isinstance(expr.func, ast.Attribute) and expr.func.attr == "join" and len(expr.args) == 1
                    and isinstance(expr.args[0], (ast.List, ast.Tuple))):
                sep = self.literal_values(expr.func.value, depth + 1)
                parts = [self.literal_values(e, depth + 1) for e in expr.args[0].elts]
                if sep is None or len(sep) != 1 or any(p is None or len(p) != 1 for p in parts):
                    return None
                return [(sep[0][0].join(p[0][0] for p in parts), None)]  # type: ignore[index]
            return None
        if isinstance(expr, ast.Subscript):
            base = self._dict_literal(expr.value, depth)
            if base is None:
                return None
            key = expr.slice
            if isinstance(key, ast.Constant):
                for k, v in zip(base.keys, base.values):
                    if isinstance(k, ast.Constant) and k.value == key.value:
                        return self.literal_values(v, depth + 1)
                return None
            out: list = []
            for v in base.values:
                lv = self.literal_values(v, depth + 1)
                if lv is None:
                    return None
                out.extend(lv)
            return out or None
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr)
            if not vals:
                return None
            out = []
            for v in vals:
                if isinstance(v, tuple):
                    return None
                lv = self.literal_values(v, depth + 1)
                if lv is None:
                    return None
                out.extend(lv)
            return out
        return None

    def _scalar(self, expr: ast.AST, depth: int):
        """A constant str/int/float value of `expr` (through one constant binding), else None."""
        if isinstance(expr, ast.Constant) and isinstance(expr.value, (str, int, float)) and not isinstance(expr.value, bool):
            return expr.value
        if isinstance(expr, (ast.Name, ast.Attribute)) and depth < 6:
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and not isinstance(vals[0], tuple):
                return self._scalar(vals[0], depth + 1)
        return None

    def _dict_literal(self, expr: ast.AST, depth: int) -> ast.Dict | None:
        if isinstance(expr, ast.Dict):
            return expr
        if isinstance(expr, (ast.Name, ast.Attribute)) and depth < 6:
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and isinstance(vals[0], ast.Dict):
                return vals[0]
        return None

    def is_trusted_source(self, expr: ast.AST, depth: int = 0) -> bool:
        """Template text the developers wrote: read from the package itself (a path built
        from `__file__`, importlib.resources, pkgutil.get_data), a module-level or imported
        UPPER_CASE constant (`DEFAULT_PROMPT_TMPL` from another module), a concatenation of
        such, or a parameter whose default is one (a setting, not data)."""
        if depth > 4 or expr is None:
            return False
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return all(self.is_trusted_source(x, depth + 1) or self.literal_values(x) is not None
                       for x in (expr.left, expr.right))
        if _is_constant_name(expr) and (
                (isinstance(expr, ast.Name) and self.f.enclosing_function(expr) is None)
                or self._module_or_imported(expr)):
            return True
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr)
            if vals and all(isinstance(v, tuple) and v[0] == "param" for v in vals):
                return all(self._literal_default(v[1]) for v in vals)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr)
            return bool(vals) and all(not isinstance(v, tuple) and self.is_trusted_source(v, depth + 1) for v in vals)
        if not isinstance(expr, ast.Call):
            return False
        q = self.f.qualname(expr.func) or ""
        if q.startswith(("importlib.resources", "importlib_resources", "pkgutil.get_data", "pkg_resources.resource_string")):
            return True
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("read_text", "read_bytes") and (
                self.path_value(expr.func.value) is not None or self._constant_paths(expr.func.value)):
            return True
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("read_text", "read", "read_bytes", "decode", "strip", "get_data"):
            for n in ast.walk(expr):
                if isinstance(n, ast.Name) and n.id in ("__file__", "__name__", "__package__"):
                    return True
                if isinstance(n, ast.Call) and (self.f.qualname(n.func) or "").startswith(("importlib.resources", "importlib_resources")):
                    return True
                if isinstance(n, ast.Name) and n is not expr and depth < 3:
                    vals = self.values_of(n)
                    if vals and all(not isinstance(v, tuple) and _mentions_file(v) for v in vals):
                        return True
        return False

    def _constant_paths(self, expr: ast.AST) -> bool:
        """`a, b = _TEMPLATE_PATHS` where `_TEMPLATE_PATHS` is a tuple of resolvable paths."""
        if not isinstance(expr, ast.Name):
            return False
        vals = self.values_of(expr) or []
        if not vals:
            return False
        for v in vals:
            if not (isinstance(v, tuple) and v[0] == "opaque" and isinstance(v[1], ast.Assign)):
                return False
            src = v[1].value
            if isinstance(src, ast.Name):
                sv = self.values_of(src) or []
                src = sv[0] if len(sv) == 1 and not isinstance(sv[0], tuple) else None
            if not isinstance(src, (ast.Tuple, ast.List)) or any(self.path_value(e) is None for e in src.elts):
                return False
        return True

    def _module_or_imported(self, expr: ast.AST) -> bool:
        base = expr
        while isinstance(base, ast.Attribute):
            base = base.value
        if not isinstance(base, ast.Name):
            return False
        if base.id in self.f.imports:
            return True
        fn = self.f.enclosing_function(expr)
        while fn is not None:
            if self._function_bindings(fn, base.id) is not None:
                return False
            fn = self.f.enclosing_function(fn)
        return base.id in self.f.module_assignments

    def _literal_default(self, arg: ast.arg) -> bool:
        """Does parameter `arg` have a default that is a literal or a constant?"""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        a = fn.args
        pos = [*a.posonlyargs, *a.args]
        default = None
        if arg in pos and pos.index(arg) >= len(pos) - len(a.defaults):
            default = a.defaults[pos.index(arg) - (len(pos) - len(a.defaults))]
        elif arg in a.kwonlyargs:
            default = a.kw_defaults[a.kwonlyargs.index(arg)]
        if default is None:
            return False
        return self.literal_values(default) is not None or (
            _is_constant_name(default) and self._module_or_imported(default))

    def str_evidence(self, expr: ast.AST, depth: int = 0) -> bool:
        """Is `expr` a string that comes from outside the code: read from a file, config,
        the environment or input, a config lookup with a string default
        (`cfg.get("llm", "prompt", fallback="...")`), a template-named parameter annotated
        `str` without a default, or a string built (methods, `+`, `%`, f-string) from one?
        Strings built only from literals and code are not evidence. Used to tell
        `fmt.format()` on such a string from `.format()` of other objects
        (logging.Formatter, PromptTemplate) and from developer-built format strings."""
        if depth > 5 or expr is None:
            return False
        if isinstance(expr, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self.str_evidence(v.value, depth + 1) for v in expr.values)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Mod)):
            return self.str_evidence(expr.left, depth + 1) or self.str_evidence(expr.right, depth + 1)
        if isinstance(expr, ast.Call):
            q = self.f.qualname(expr.func) or ""
            if q in ("input", "os.getenv", "os.environ.get"):
                return True
            if q == "str" and expr.args:
                return self.str_evidence(expr.args[0], depth + 1)
            if isinstance(expr.func, ast.Attribute):
                attr = expr.func.attr
                if attr in ("read", "read_text", "readline", "getenv"):
                    return not self.is_trusted_source(expr)
                if attr == "get":
                    dflt = [*expr.args[1:], *[k.value for k in expr.keywords if k.arg in ("fallback", "default")]]
                    return any(isinstance(d, ast.Constant) and isinstance(d.value, str) for d in dflt)
                if attr in _STR_METHODS:
                    return self.str_evidence(expr.func.value, depth + 1)
            return False
        if isinstance(expr, ast.Subscript):
            return (self.f.qualname(expr.value) or "") == "os.environ"
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr)
            if not vals:
                return False
            for v in vals:
                if isinstance(v, tuple):
                    if v[0] == "param" and _is_str_annotation(v[1].annotation) and self._template_param(v[1]):
                        return True
                    if v[0] == "annotation" and _is_str_annotation(v[1]) and len(vals) == 1:
                        return True  # a declared `str` field no code here assigns: set from outside
                    continue
                if self.str_evidence(v, depth + 1):
                    return True
        return False

    def _template_param(self, arg: ast.arg) -> bool:
        """A `str` parameter that carries a template: named like one (template, prompt, fmt,
        format, pattern) and without a default (a default makes it an optional setting of
        a library API, not data)."""
        low = arg.arg.lower()
        if not any(w in low for w in ("template", "prompt", "fmt", "format", "pattern")):
            return False
        return not self._has_default(arg) and not self._callers_pass_literals(arg)

    def _callers_pass_literals(self, arg: ast.arg) -> bool:
        """Every call of the parameter's function in this file passes a literal for it
        (a helper such as `_create_backend(..., error_template="unknown {backend_type}")`)."""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        method = bool(params) and params[0] in ("self", "cls")
        seen = False
        for call in self.f.nodes(ast.Call):
            f = call.func
            if isinstance(f, ast.Name) and f.id == fn.name:
                shift = 0
            elif (isinstance(f, ast.Attribute) and f.attr == fn.name and isinstance(f.value, ast.Name)
                  and f.value.id in ("self", "cls")):
                shift = 1 if method else 0
            else:
                continue
            val = _kw(call, arg.arg)
            if val is None and arg.arg in params:
                i = params.index(arg.arg) - shift
                val = call.args[i] if 0 <= i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: i + 1]) else None
            if val is None:
                return False
            if self.literal_values(val) is None and not self.is_trusted_source(val):
                return False
            seen = True
        return seen

    def _has_default(self, arg: ast.arg) -> bool:
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False
        a = fn.args
        pos = [*a.posonlyargs, *a.args]
        if arg in pos:
            return pos.index(arg) >= len(pos) - len(a.defaults)
        if arg in a.kwonlyargs:
            return a.kw_defaults[a.kwonlyargs.index(arg)] is not None
        return False

    def data_evidence(self, expr: ast.AST) -> bool:
        """Does `expr` carry data rather than a developer's text: `str_evidence`, a subscript
        (`row["template"]`, `cfg["prompt"]`), or an attribute of a non-`self` object
        (`row.template`, `settings.system_prompt`)?"""
        if self.str_evidence(expr):
            return True
        if isinstance(expr, ast.Subscript):
            return True
        if isinstance(expr, ast.Attribute):
            base = expr
            while isinstance(base, ast.Attribute):
                base = base.value
            return not (isinstance(base, ast.Name) and base.id in ("self", "cls")) and not self._module_or_imported(expr)
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr) or []
            return any(not isinstance(v, tuple) and isinstance(v, (ast.Subscript, ast.Attribute))
                       and self.data_evidence(v) for v in vals)
        return False

    # ----------------------------------------------------------- environments
    def _class_kind(self, name: str, depth: int = 0) -> str | None:
        """Kind of a class defined in this file by its bases (a local Environment subclass)."""
        for c in self.f.nodes(ast.ClassDef):
            if c.name == name and depth < 4:
                for b in c.bases:
                    k = self._callee_kind(b, depth + 1)
                    if k:
                        return k
        return None

    def _callee_kind(self, func: ast.AST, depth: int = 0) -> str | None:
        q = self.f.qualname(func) or ""
        last = _last(q)
        if last.endswith("SandboxedEnvironment"):
            return "sandbox"  # jinja2's, or a project's subclass imported from another module
        if last == "NativeEnvironment":
            return "native"
        if last in _ENV_NAMES and (q.startswith("jinja2") or (last in self.f.imports and self.f.imports[last].startswith("jinja2"))):
            return "plain"
        if isinstance(func, ast.Name) and func.id not in self.f.imports:
            return self._class_kind(func.id, depth)
        return None

    @cached_property
    def delimiter_sets(self) -> list[dict]:
        """Delimiter settings made in this file: Environment(...) keywords, and assignments
        such as `environment.block_start_string = "((*"` grouped by receiver."""
        out = [e.options for e in self.envs if e.options]
        by_recv: dict[str, dict] = {}
        for n in self.f.nodes(ast.Assign):
            for t in n.targets:
                if (isinstance(t, ast.Attribute) and t.attr in DELIMITER_KEYS and isinstance(n.value, ast.Constant)
                        and isinstance(n.value.value, str)):
                    by_recv.setdefault(self.f.dotted(t.value) or "?", {})[t.attr] = n.value.value
        out.extend(by_recv.values())
        return out

    @cached_property
    def envs(self) -> list[EnvInfo]:
        """Every jinja2 Environment (incl. sandboxes) constructed in this file."""
        out = []
        for call in self.f.nodes(ast.Call):
            kind = self._callee_kind(call.func)
            if kind is None:
                continue
            out.append(self._env_from_call(call, kind))
        return out

    def _env_from_call(self, call: ast.Call, kind: str) -> EnvInfo:
        info = EnvInfo(kind=kind, call=call)
        for kw in call.keywords:
            if kw.arg in DELIMITER_KEYS and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                info.options[kw.arg] = kw.value.value
            elif kw.arg == "autoescape":
                if isinstance(kw.value, ast.Constant) and kw.value.value in (False, None):
                    info.autoescape = "off-explicit"
                else:
                    info.autoescape = "on"
            elif kw.arg == "loader":
                info.loader_dirs = self.loader_dirs(kw.value)
        if kind == "sandbox":
            info.autoescape = "on" if info.autoescape == "on" else info.autoescape
        # the binding the env is stored in, for `env.globals[...]`, `env.loader = ...`
        parent = self.f.parents.get(call)
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            t = parent.targets[0] if isinstance(parent, ast.Assign) else parent.target
            info.binding = self.f.dotted(t)
        if info.binding:
            for n in self.f.nodes(ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Attribute) and t.attr == "loader" and self.f.dotted(t.value) == info.binding:
                        info.loader_dirs = info.loader_dirs + self.loader_dirs(n.value)
                    if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "globals"
                            and self.f.dotted(t.value.value) == info.binding):
                        if isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                            info.globals.add(t.slice.value)
                        else:
                            info.open_globals = True
            for c in self.f.nodes(ast.Call):
                fn = c.func
                if (isinstance(fn, ast.Attribute) and fn.attr == "update" and isinstance(fn.value, ast.Attribute)
                        and fn.value.attr == "globals" and self.f.dotted(fn.value.value) == info.binding):
                    for kw in c.keywords:
                        if kw.arg is None:
                            info.open_globals = True
                        else:
                            info.globals.add(kw.arg)
                    for a in c.args:
                        if isinstance(a, ast.Dict) and all(isinstance(k, ast.Constant) for k in a.keys):
                            info.globals.update(str(k.value) for k in a.keys)  # type: ignore[union-attr]
                        else:
                            info.open_globals = True
        return info

    def env_of(self, expr: ast.AST, depth: int = 0) -> EnvInfo | None:
        """The EnvInfo an expression (the receiver of from_string/get_template) refers to."""
        if depth > 5:
            return None
        if isinstance(expr, ast.Call):
            for e in self.envs:
                if e.call is expr:
                    return e
            if isinstance(expr.func, ast.Attribute) and expr.func.attr == "overlay":
                return self.env_of(expr.func.value, depth + 1)
            return None
        if isinstance(expr, ast.IfExp):
            # `NativeEnvironment() if unsafe else SandboxedEnvironment()`: the sandbox is the
            # default and the other branch an explicit opt-in, so the sandbox wins.
            found = [e for e in (self.env_of(expr.body, depth + 1), self.env_of(expr.orelse, depth + 1)) if e]
            return next((e for e in found if e.kind == "sandbox"), found[0] if found else None)
        if isinstance(expr, ast.Attribute) and expr.attr in ("jinja_env", "jinja_environment"):
            return EnvInfo(kind="plain")  # Flask/Quart app environments are not sandboxed
        if isinstance(expr, ast.Attribute) and expr.attr == "environment":
            return self.env_of(expr.value, depth + 1)
        vals = self.values_of(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        if vals:
            found = [self.env_of(v, depth + 1) for v in vals if not isinstance(v, tuple)]
            found = [e for e in found if e is not None]
            if found:
                for e in found:
                    if e.kind == "sandbox":
                        return e
                return found[0]
            for v in vals:
                if isinstance(v, tuple) and v[0] in ("param", "annotation"):
                    ann = v[1].annotation if v[0] == "param" else v[1]
                    if ann is not None:
                        k = self._callee_kind(ann.value if isinstance(ann, ast.Subscript) else ann)
                        if k:
                            return EnvInfo(kind=k)
        return None

    def loader_dirs(self, expr: ast.AST, depth: int = 0) -> list[Path]:
        """Directories a loader expression reads templates from (only literal, `__file__`-relative
        or package paths; unresolved paths are dropped)."""
        if depth > 4:
            return []
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr)
            out: list[Path] = []
            for v in vals or ():
                if not isinstance(v, tuple):
                    out.extend(self.loader_dirs(v, depth + 1))
            return out
        if not isinstance(expr, ast.Call):
            return []
        last = _last(self.f.qualname(expr.func))
        if last == "FileSystemLoader":
            arg = expr.args[0] if expr.args else next((k.value for k in expr.keywords if k.arg == "searchpath"), None)
            if arg is None:
                return []
            if isinstance(arg, (ast.Name, ast.Attribute)):
                vals = self.values_of(arg) or []
                if len(vals) == 1 and isinstance(vals[0], (ast.List, ast.Tuple)):
                    arg = vals[0]  # a module-level search path list
            elems = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
            out = []
            for e in elems:
                p = self.path_value(e)
                if p is not None:
                    out.append(p)
            return out
        if last == "PackageLoader":
            pkg = expr.args[0] if expr.args else next((k.value for k in expr.keywords if k.arg == "package_name"), None)
            sub = expr.args[1] if len(expr.args) > 1 else next((k.value for k in expr.keywords if k.arg == "package_path"), None)
            sub_s = sub.value if isinstance(sub, ast.Constant) and isinstance(sub.value, str) else ("templates" if sub is None else None)
            if sub_s is None:
                return []
            base = self._package_dir(pkg)
            return [base / sub_s] if base is not None else []
        if last == "ChoiceLoader" and expr.args and isinstance(expr.args[0], (ast.List, ast.Tuple)):
            return [d for e in expr.args[0].elts for d in self.loader_dirs(e, depth + 1)]
        return []

    def _package_dir(self, pkg: ast.AST | None) -> Path | None:
        here = self.path.resolve().parent
        if isinstance(pkg, ast.Name) and pkg.id in ("__name__", "__package__"):
            return here
        if not (isinstance(pkg, ast.Constant) and isinstance(pkg.value, str)):
            return None
        parts = pkg.value.split(".")
        for anc in (here, *here.parents[:6]):
            cand = anc.joinpath(*parts)
            if cand.is_dir():
                return cand
            if anc.name == parts[-1] and len(parts) == 1:
                return anc
        return None

    def path_value(self, expr: ast.AST, depth: int = 0) -> Path | None:
        """Statically evaluate a path expression: string literals, `Path(__file__).parent / "x"`,
        `os.path.join(os.path.dirname(__file__), "x")`, `.resolve()`/`.absolute()`, constants."""
        if depth > 16 or expr is None:
            return None
        here = self.path.resolve()
        if isinstance(expr, ast.Name) and expr.id == "__file__":
            return here
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            p = Path(expr.value)
            if p.is_absolute():
                return p
            cand = (here.parent / p)
            return cand if cand.exists() else (self.f.config.root / p)
        if isinstance(expr, (ast.Name, ast.Attribute)) and not (isinstance(expr, ast.Attribute) and expr.attr == "parent"):
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and not isinstance(vals[0], tuple):
                return self.path_value(vals[0], depth + 1)
            return None
        if isinstance(expr, ast.Attribute) and expr.attr == "parent":
            p = self.path_value(expr.value, depth + 1)
            return p.parent if p is not None else None
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
            a = self.path_value(expr.left, depth + 1)
            b = expr.right
            if a is not None and isinstance(b, ast.Constant) and isinstance(b.value, str):
                return a / b.value
            return None
        if isinstance(expr, ast.JoinedStr):
            return None
        if isinstance(expr, ast.Call):
            q = self.f.qualname(expr.func) or ""
            last = _last(q)
            if last in ("Path", "PurePath", "PosixPath") and len(expr.args) >= 1:
                ps = [self.path_value(a, depth + 1) if not (isinstance(a, ast.Constant)) else a.value for a in expr.args]
                if ps[0] is None or any(p is None for p in ps):
                    return None
                out = Path(ps[0])
                for p in ps[1:]:
                    out = out / p
                return out
            if q in ("os.path.dirname",) and expr.args:
                p = self.path_value(expr.args[0], depth + 1)
                return p.parent if p is not None else None
            if q in ("os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "os.fspath") and expr.args:
                return self.path_value(expr.args[0], depth + 1)
            if q == "os.path.join" and expr.args:
                first = self.path_value(expr.args[0], depth + 1)
                if first is None:
                    return None
                for a in expr.args[1:]:
                    if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                        return None
                    first = first / a.value
                return first
            if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("resolve", "absolute", "expanduser") and not expr.args:
                return self.path_value(expr.func.value, depth + 1)
            if isinstance(expr.func, ast.Attribute) and expr.func.attr == "joinpath":
                p = self.path_value(expr.func.value, depth + 1)
                for a in expr.args:
                    if p is None or not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
                        return None
                    p = p / a.value
                return p
        return None

    # ----------------------------------------------------------- compile sites
    @cached_property
    def compile_sites(self) -> list[CompileSite]:
        """Calls that compile template source (see CompileSite)."""
        out = []
        for call in self.f.nodes(ast.Call):
            q = self.f.qualname(call.func) or ""
            fn = call.func
            src = call.args[0] if call.args else None
            if q in _TEMPLATE_QUALNAMES:
                src = src or _kw(call, "source")
                if src is not None:
                    env = EnvInfo(kind="plain", call=call)
                    env.options = {k.arg: k.value.value for k in call.keywords
                                   if k.arg in DELIMITER_KEYS and isinstance(k.value, ast.Constant)}
                    ae = _kw(call, "autoescape")
                    if ae is not None:
                        env.autoescape = "off-explicit" if isinstance(ae, ast.Constant) and ae.value in (False, None) else "on"
                    out.append(CompileSite(call, src, "Template", env))
            elif isinstance(fn, ast.Attribute) and fn.attr == "from_string":
                src = src or _kw(call, "source")
                if src is None:
                    continue
                env = self.env_of(fn.value)
                if env is None and not self._looks_like_env(fn.value):
                    continue
                out.append(CompileSite(call, src, "from_string", env))
            elif _last(q) == "render_template_string" and ("flask" in q or "quart" in q):
                if src is not None:
                    out.append(CompileSite(call, src, "render_template_string", EnvInfo(kind="plain")))
            elif self._is_langchain(fn) and self._lc_format(call) == "jinja2":
                src = self._lc_source(call)
                if src is not None:
                    out.append(CompileSite(call, src, "langchain", EnvInfo(kind="sandbox")))
        return out

    def _looks_like_env(self, recv: ast.AST) -> bool:
        """Unresolved receiver of `.from_string`: a jinja environment by its name, in a file
        that imports jinja2 (`self.jinja_env`, `env`, `template_env`)."""
        if not self.f.imports_module("jinja2"):
            return False
        d = (self.f.dotted(recv) or "").rsplit(".", 1)[-1].lower()
        return "env" in d or "jinja" in d

    def _is_langchain(self, fn: ast.AST) -> bool:
        q = self.f.qualname(fn) or ""
        parts = q.split(".")
        if isinstance(fn, ast.Attribute) and fn.attr == "from_template":
            parts = parts[:-1]
        elif not isinstance(fn, (ast.Name, ast.Attribute)):
            return False
        if not parts or parts[-1] not in _LC_PROMPTS:
            return False
        return q.startswith(("langchain", "llama_index")) or any(
            v.startswith(("langchain", "llama_index")) for k, v in self.f.imports.items() if k == parts[0])

    @staticmethod
    def _lc_format(call: ast.Call) -> str | None:
        v = _kw(call, "template_format")
        if v is None:
            # `**kwargs` may carry template_format: unknown
            return None if any(k.arg is None for k in call.keywords) else "f-string"
        return v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None

    @staticmethod
    def _lc_source(call: ast.Call) -> ast.AST | None:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "from_template":
            return call.args[0] if call.args else _kw(call, "template")
        return _kw(call, "template") or (call.args[0] if call.args and isinstance(call.func, ast.Name) else None)

    @cached_property
    def source_params(self) -> dict[ast.AST, list[tuple[int, str]]]:
        """Functions of this file whose parameter is compiled as a template: fn -> [(position, name)]."""
        out: dict[ast.AST, list[tuple[int, str]]] = {}
        for site in self.compile_sites:
            if not isinstance(site.src, ast.Name):
                continue
            fn = self.f.enclosing_function(site.call)
            if fn is None:
                continue
            params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
            if site.src.id in params:
                out.setdefault(fn, []).append((params.index(site.src.id), site.src.id))
        return out

    @cached_property
    def literal_templates(self) -> list[LiteralTemplate]:
        """Literal template strings compiled in this file: direct arguments of compile sites
        (resolved through constants), and literals passed to a same-file function whose
        parameter is compiled (`render(PROBE_BODY, {})` with `Template(body)` inside)."""
        out: list[LiteralTemplate] = []
        seen: set[int] = set()

        def add(expr, options, site):
            for text, node in self.literal_values(expr) or ():
                if node is None:
                    node = expr if isinstance(expr, ast.Constant) else None
                if node is None or id(node) in seen or not _looks_templated(text, options):
                    continue
                seen.add(id(node))
                out.append(LiteralTemplate(node, text, options, site))

        for site in self.compile_sites:
            add(site.src, site.env.options if site.env else {}, site.call)
        if self.source_params:
            by_name = {fn.name: (fn, ps) for fn, ps in self.source_params.items()}
            for call in self.f.nodes(ast.Call):
                name = call.func.id if isinstance(call.func, ast.Name) else (
                    call.func.attr if isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                    and call.func.value.id in ("self", "cls") else None)
                if name not in by_name:
                    continue
                fn, ps = by_name[name]
                shift = 1 if fn.args.args and fn.args.args[0].arg in ("self", "cls") and isinstance(call.func, ast.Attribute) else 0
                for pos, pname in ps:
                    arg = _kw(call, pname)
                    if arg is None and 0 <= pos - shift < len(call.args):
                        arg = call.args[pos - shift]
                    if arg is not None and not isinstance(arg, ast.Starred):
                        add(arg, {}, call)
        return out

    # ----------------------------------------------------------- render sites
    @cached_property
    def render_sites(self) -> list[RenderSite]:
        """`x.render(...)` calls whose template is known (get_template name, Flask
        render_template name, or a literal Template/from_string source)."""
        out: list[RenderSite] = []
        lit_by_site = {id(lt.site): lt for lt in self.literal_templates}
        for call in self.f.nodes(ast.Call):
            fn = call.func
            q = self.f.qualname(fn) or ""
            if _last(q) == "render_template" and ("flask" in q or "quart" in q) and call.args:
                name = call.args[0]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    out.append(RenderSite(call, _passed_names(call.keywords, call.args[1:]), template=name.value, flask=True))
                continue
            if not (isinstance(fn, ast.Attribute) and fn.attr in _RENDER_METHODS):
                continue
            names = _passed_names(call.keywords, call.args)
            for origin in self._template_origins(fn.value):
                ofn = origin.func
                if isinstance(ofn, ast.Attribute) and ofn.attr == "get_template" and origin.args:
                    n = origin.args[0]
                    if isinstance(n, ast.Constant) and isinstance(n.value, str):
                        out.append(RenderSite(call, names, template=n.value, env=self.env_of(ofn.value)))
                elif id(origin) in lit_by_site:
                    env = self.env_of(ofn.value) if isinstance(ofn, ast.Attribute) else None
                    out.append(RenderSite(call, names, env=env, source=lit_by_site[id(origin)]))
        return out

    def _template_origins(self, expr: ast.AST) -> list:
        if isinstance(expr, ast.Call):
            return [expr]
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr) or []
            return [v for v in vals if isinstance(v, ast.Call)]
        return []

    # ----------------------------------------------------------- format sites
    def formatter_kind(self, expr: ast.AST, depth: int = 0) -> str | None:
        """'plain' for a `string.Formatter` (or subclass without `get_field`), 'hardened'
        for a subclass overriding `get_field`, None when `expr` is not a Formatter."""
        if depth > 4:
            return None
        if isinstance(expr, ast.Call):
            return self._formatter_class_kind(expr.func, depth)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            for v in self.values_of(expr) or ():
                if not isinstance(v, tuple):
                    k = self.formatter_kind(v, depth + 1)
                    if k:
                        return k
        return None

    def _formatter_class_kind(self, func: ast.AST, depth: int) -> str | None:
        q = self.f.qualname(func) or ""
        if q == "string.Formatter":
            return "plain"
        if isinstance(func, ast.Name):
            for c in self.f.nodes(ast.ClassDef):
                if c.name == func.id:
                    if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name in ("get_field", "get_value")
                           for s in c.body):
                        return "hardened"
                    for b in c.bases:
                        k = self._formatter_class_kind(b, depth + 1) if depth < 4 else None
                        if k:
                            return k
        return None


def _is_constant_name(expr: ast.AST) -> bool:
    """`PROMPT_TMPL` or `prompts.PROMPT_TMPL`: an UPPER_CASE name (PEP 8 constant)."""
    name = expr.id if isinstance(expr, ast.Name) else expr.attr if isinstance(expr, ast.Attribute) else ""
    return len(name) > 1 and name.isupper() and any(c.isalpha() for c in name)


def _mentions_file(expr: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id in ("__file__", "__name__", "__package__") for n in ast.walk(expr))


def _is_str_annotation(ann: ast.AST | None) -> bool:
    if ann is None:
        return False
    if isinstance(ann, ast.Name):
        return ann.id == "str"
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return ann.value.replace(" ", "") in ("str", "str|None", "Optional[str]")
    if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
        return _is_str_annotation(ann.left) or _is_str_annotation(ann.right)
    if isinstance(ann, ast.Subscript) and isinstance(ann.value, (ast.Name, ast.Attribute)):
        if PyDotted(ann.value).endswith("Optional"):
            return _is_str_annotation(ann.slice)
    return False


def PyDotted(expr: ast.AST) -> str:  # noqa: N802 - tiny helper
    return ast.unparse(expr) if expr is not None else ""


def _kw(call: ast.Call, name: str) -> ast.AST | None:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def _passed_names(keywords: list, args: list) -> set | None:
    """Keyword names a render call passes; None when `**x` or a non-literal positional context."""
    names: set = set()
    for k in keywords:
        if k.arg is None:
            return None
        names.add(k.arg)
    for a in args:
        if isinstance(a, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in a.keys):
            names.update(k.value for k in a.keys)  # type: ignore[union-attr]
        elif isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "dict" and not a.args and all(k.arg for k in a.keywords):
            names.update(k.arg for k in a.keywords)
        else:
            return None
    return names


def _looks_templated(text: str, options: dict) -> bool:
    starts = (options.get("variable_start_string", "{{"), options.get("block_start_string", "{%"))
    return any(s in text for s in starts) or bool(options.get("line_statement_prefix"))


def call_sites(facts) -> CallSites:
    """The memoized CallSites of a PythonFacts (shared by the CTX3xx rules)."""
    return facts.memo("jinja.call_sites", lambda: CallSites(facts))


def literal_facts(pyfacts, lt: LiteralTemplate) -> JinjaFacts | None:
    """JinjaFacts for a literal template string in Python, positions mapped into the .py file.

    Returns None when the literal does not parse as a template (not every string passed
    to a compile site is one; a broken literal is reported by the render call at runtime).
    """
    opts = tuple(sorted(lt.options.items()))
    tree, err = parse_template(lt.text, opts)
    if err is not None:
        return None
    node = lt.node
    seg = pyfacts.segment(node)
    lines = pyfacts.lines
    simple = seg.count("\n") == lt.text.count("\n")
    m = re.match(r"[rRbBuUfF]*('''|\"\"\"|'|\")", seg)
    prefix = len(m.group(0)) if m else 1

    def mapper(tline: int, tcol: int, needle: str) -> tuple[int, int]:
        if simple:
            line = node.lineno + tline - 1
            col = node.col_offset + prefix + tcol if tline == 1 else tcol
            src = lines[line - 1] if 0 < line <= len(lines) else ""
            if src[col:col + len(needle)] != needle:
                i = src.find(needle)
                col = i if i >= 0 else node.col_offset
            return line, col
        for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            src = lines[ln - 1] if 0 < ln <= len(lines) else ""
            i = src.find(needle)
            if i >= 0:
                return ln, i
        return node.lineno, node.col_offset

    return JinjaFacts(pyfacts.path, lt.text, tree, pyfacts.config, dict(opts), mapper=mapper)


# =================================================================== 3. project pass
_RENDER_HINTS = (b"get_template", b"render_template", b"FileSystemLoader", b"PackageLoader", b"select_template",
                 b"_start_string")


@dataclass
class ProjectResult:
    """What the project pass adds to a run.

    findings: new findings (suppressions and per-file ignores applied);
    replace: display paths whose per-file findings are superseded (re-parsed with a
    call site's delimiters; their new findings are in `findings`);
    files: template files linted that discovery had not listed; notices: for stderr.
    """

    findings: list[Finding] = field(default_factory=list)
    replace: set = field(default_factory=set)
    files: int = 0
    notices: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def _resolve_dir(d: str) -> str:
    return os.path.realpath(d)


def _resolve_fast(p: Path) -> Path:
    """`p.resolve()` with the directory part resolved once per directory (a run
    has thousands of files in few directories: one lstat per file, not per component)."""
    s = os.fspath(p)
    if os.path.islink(s):
        return p.resolve()
    return Path(os.path.join(_resolve_dir(os.path.dirname(os.path.abspath(s))), os.path.basename(s)))


def project_findings(paths: list[str], files: list, config: Config, rules: list) -> ProjectResult:
    """Cross-file template analysis for one run (called by `engine.lint_paths`).

    1. Re-reads only the Python files of the run that mention a loader or render call,
       and resolves their environments' template directories.
    2. Lints template files under those directories that discovery did not list
       (`.html`, `.txt`, `.md`, ... — TEMPLATE_DIR_SUFFIXES) when the directory lies
       under a directory named on the command line.
    3. Re-lints templates whose environment sets custom delimiters (replacing the
       per-file findings made with the default ones).
    4. CTX304: links each render call with literal keyword names to its template file
       and reports, in the template, the first use of each variable the call never passes.

    Nothing here is cached: the findings depend on more than one file.
    Never raises on bad input.
    """
    from ctxlint import engine
    from ctxlint.languages.python import parse as py_parse
    from ctxlint.semantic.python.facts import PythonFacts

    res = ProjectResult()
    jinja_rules = engine.rules_for("jinja", rules)
    if not jinja_rules:
        return res
    want304 = any(r.code == "CTX304" for r in jinja_rules)
    run_files = {_resolve_fast(sf.path): sf for sf in files}
    dir_roots = [Path(p).resolve() for p in paths if Path(p).is_dir()]

    # template path -> (options, [(site, py display)]) ; loader dirs -> options
    dir_options: dict[Path, dict] = {}
    alt_delimiters: list[dict] = []
    flask_extra_context = False
    sites: list[tuple[RenderSite, str, list[Path]]] = []
    for sf in files:
        if sf.language != "python":
            continue
        try:
            raw = sf.path.read_bytes()
        except OSError:
            continue
        if b"context_processor" in raw:
            flask_extra_context = True  # Flask context processors add variables no call site shows
        if not any(h in raw for h in _RENDER_HINTS) or len(raw) > config.max_file_size:
            continue
        text, err = engine.decode(raw, "python", sf.display)
        if text is None:
            continue
        tree, err = py_parse(sf.display, text)
        if tree is None:
            continue
        try:
            cs = call_sites(PythonFacts(sf.display, text, tree, config))
            alt_delimiters.extend(d for d in cs.delimiter_sets if d not in alt_delimiters)
            for env in cs.envs:
                for d in env.loader_dirs:
                    dir_options.setdefault(d.resolve(), {}).update(env.options)
            for rs in cs.render_sites:
                if rs.template is None:
                    continue
                if rs.flask:
                    here = sf.path.resolve().parent
                    dirs = [a / "templates" for a in (here, *here.parents[:3])]
                    for d in dirs:  # Flask's template folder is a template directory too
                        if (d / rs.template).is_file():
                            dir_options.setdefault(d.resolve(), {})
                            break
                else:
                    env = rs.env
                    dirs = list(env.loader_dirs) if env is not None else [d for e in cs.envs for d in e.loader_dirs]
                sites.append((rs, f"{sf.display}:{rs.call.lineno}", dirs))
        except RecursionError:
            continue

    # 2 + 3: template files to (re-)lint
    targets: dict[Path, tuple[str, dict, bool]] = {}
    for d, opts in dir_options.items():
        if not d.is_dir():
            continue
        in_run = [p for p in run_files if p.is_relative_to(d)]
        for p in in_run:
            if run_files[p].language == "jinja" and opts:
                targets[p] = (run_files[p].display, opts, False)
        if not any(d.is_relative_to(r) for r in dir_roots):
            continue
        count = 0
        for p in sorted(d.rglob("*")):
            if count > 2000:
                break
            if not p.is_file() or p.suffix.lower() not in engine.TEMPLATE_DIR_SUFFIXES:
                continue
            if any(part in engine.DEFAULT_EXCLUDES for part in p.relative_to(d).parts):
                continue
            rp = p.resolve()
            if rp in run_files:
                continue
            count += 1
            targets[rp] = (_display_for(rp, paths), opts, True)
    if alt_delimiters:
        # Templates no loader links to: one that does not parse with the default
        # delimiters but does with a set the run's code configures is re-linted with it.
        for rp, sf in run_files.items():
            if sf.language != "jinja" or rp in targets:
                continue
            text = _read_text(rp, config)
            if text is None or parse_template(text)[1] is None:
                continue
            for opts in alt_delimiters:
                if parse_template(text, tuple(sorted(opts.items())))[1] is None:
                    targets[rp] = (sf.display, opts, False)
                    break
    texts: dict[Path, str] = {}
    for rp, (display, opts, added) in targets.items():
        text = _read_text(rp, config)
        if text is None:
            continue
        texts[rp] = text
        res.findings.extend(_lint_template(display, text, jinja_rules, config, opts))
        if added:
            res.files += 1
        else:
            res.replace.add(display)

    # 4: CTX304
    if want304:
        rule = next(r for r in jinja_rules if r.code == "CTX304")
        linked: dict[Path, list] = {}
        for rs, where, dirs in sites:
            if rs.names is None or (rs.flask and flask_extra_context):
                continue
            if rs.env is not None and rs.env.open_globals:
                continue
            for d in dirs:
                cand = (d / rs.template).resolve()
                if cand.is_file():
                    if cand in run_files or cand in targets:
                        linked.setdefault(cand, []).append((rs, where, dir_options.get(d.resolve(), {})))
                    break
        for tp, links in linked.items():
            display = run_files[tp].display if tp in run_files else targets[tp][0]
            text = texts.get(tp) or _read_text(tp, config)
            if text is None:
                continue
            opts = links[0][2]
            tree, err = parse_template(text, tuple(sorted(opts.items())))
            if err is not None:
                continue
            facts = JinjaFacts(display, text, tree, config, opts)
            found = []
            for f in rule.check_links(facts, [(rs.names | (rs.env.globals if rs.env else set()), where, rs.flask)
                                              for rs, where, _ in links]):
                found.append(f)
            res.findings.extend(_post(found, display, text, config))
    return res


def _display_for(p: Path, paths: list[str]) -> str:
    for raw in paths:
        base = Path(raw)
        try:
            rel = p.relative_to(base.resolve())
        except ValueError:
            continue
        return str(base / rel) if raw not in (".", "./") else str(rel)
    return str(p)


def _read_text(p: Path, config: Config) -> str | None:
    from ctxlint import engine
    try:
        if p.stat().st_size > config.max_file_size:
            return None
        raw = p.read_bytes()
    except OSError:
        return None
    text, err = engine.decode(raw, "jinja", str(p))
    return text


def _post(findings: list[Finding], display: str, text: str, config: Config) -> list[Finding]:
    from ctxlint import engine
    from ctxlint.suppress import apply_suppressions, file_ignored
    if file_ignored(text):
        return []
    findings = engine._per_file_ignores(findings, display, config)
    kept, _ = apply_suppressions(findings, text, "jinja")
    return kept


def _lint_template(display: str, text: str, rules: list, config: Config, options: dict) -> list[Finding]:
    """Per-file template lint with a call site's delimiters (prefilter off, suppressions applied)."""
    if file_ignored_text(text):
        return []
    wanted = [r for r in rules if r.code not in ("CTX000", "CTX001")]
    return _post(lint(display, text, wanted, config, options), display, text, config)


def file_ignored_text(text: str) -> bool:
    from ctxlint.suppress import file_ignored
    return file_ignored(text)


# =================================================================== template-probe
class StandIn:
    """A permissive stand-in value for an undeclared template variable.

    Supports attribute and item access, calls, iteration (two stand-ins), `len`,
    arithmetic and string concatenation, so that a template renders far enough for
    the sandbox to see every attribute and call it makes. Names starting with `_`
    raise AttributeError (so the sandbox's own checks, not this class, decide).
    """

    unsafe_callable = False
    alters_data = False

    def __init__(self, name: str, depth: int = 0):
        self._name = name
        self._depth = depth

    def __getattr__(self, attr):
        if attr.startswith("_"):
            raise AttributeError(attr)
        return StandIn(f"{self._name}.{attr}", self._depth + 1)

    def __getitem__(self, key):
        return StandIn(f"{self._name}[{key!r}]", self._depth + 1)

    def __call__(self, *a, **k):
        return StandIn(f"{self._name}()", self._depth + 1)

    def __iter__(self):
        if self._depth > 3:
            return iter(())
        return iter([StandIn(f"{self._name}[0]", self._depth + 1), StandIn(f"{self._name}[1]", self._depth + 1)])

    def __len__(self):
        return 2

    def __bool__(self):
        return True

    def __str__(self):
        return f"<{self._name}>"

    __repr__ = __str__

    def __add__(self, other):
        return str(self) + str(other)

    def __radd__(self, other):
        return str(other) + str(self)

    def __contains__(self, item):
        return False

    def __int__(self):
        return 1

    def __float__(self):
        return 1.0

    def __lt__(self, other):
        return False

    __gt__ = __le__ = __ge__ = __lt__

    def __sub__(self, other):
        return 1

    __mul__ = __rmul__ = __rsub__ = __mod__ = __truediv__ = __floordiv__ = __sub__

    def keys(self):
        return []

    def items(self):
        return []


def probe(text: str, name: str = "<template>") -> tuple[list[dict], list[str]]:
    """Render `text` in jinja2's ImmutableSandboxedEnvironment with stand-ins for every
    undeclared variable; collect every SecurityError the sandbox raises.

    The sandbox raises at the use of an unsafe attribute, an unsafe call, or an unsafe
    format string; the probe records each (with the template line) and lets rendering go
    on, rendering twice (stand-ins truthy, then a falsy variant of each top-level test)
    to cover both branches of `{% if %}`.

    Returns:
        (security errors as {"line", "message"}, other notes such as render errors).
    Raises:
        jinja2.TemplateSyntaxError: the template does not parse.
    """
    import jinja2
    from jinja2 import meta
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    errors: list[dict] = []
    notes: list[str] = []

    def here() -> int:
        f = sys._getframe(1)
        while f is not None:
            tmpl = f.f_globals.get("__jinja_template__")
            if tmpl is not None:
                try:
                    return tmpl.get_corresponding_lineno(f.f_lineno)
                except Exception:
                    return 0
            f = f.f_back
        return 0

    def record(exc: Exception) -> None:
        item = {"line": here(), "message": str(exc)}
        if item not in errors:
            errors.append(item)

    class ProbeEnvironment(ImmutableSandboxedEnvironment):
        def unsafe_undefined(self, obj, attribute):
            u = super().unsafe_undefined(obj, attribute)
            try:
                # The sandbox hands back an Undefined that raises SecurityError on use
                # (printing it gives ""): raise it now so that it is seen.
                u._fail_with_undefined_error()
            except SecurityError as exc:
                record(exc)
            return StandIn(f"unsafe.{attribute}")

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja2's signature
            try:
                return super().call(__context, __obj, *args, **kwargs)
            except SecurityError as exc:
                record(exc)
                return StandIn("unsafe-call")

    env = ProbeEnvironment(extensions=list(_PARSE_EXTENSIONS))
    tree = env.parse(text)
    names = sorted(meta.find_undeclared_variables(tree))
    tmpl = env.from_string(text)
    for variant in ("truthy", "falsy"):
        ctx = {n: StandIn(n) for n in names}
        if variant == "falsy":
            ctx = {n: "" for n in names}
        try:
            tmpl.render(**ctx)
        except SecurityError as exc:
            record(exc)
        except (jinja2.TemplateError, TypeError, ValueError, AttributeError, KeyError, IndexError,
                ZeroDivisionError, OverflowError, RecursionError) as exc:
            notes.append(f"render ({variant} stand-ins) stopped: {type(exc).__name__}: {exc}")
    return errors, notes


def probe_main(args) -> int:
    """`ctxlint template-probe FILE [--json]`: exit 1 when the sandbox raised a SecurityError,
    0 when the template renders clean, 2 when it cannot be read or parsed."""
    import json

    import jinja2
    path = Path(args.file)
    try:
        text, err = __import__("ctxlint.engine", fromlist=["decode"]).decode(path.read_bytes(), "jinja", args.file)
    except OSError as exc:
        sys.stderr.write(f"ctxlint: error: cannot read {args.file}: {exc.strerror or exc}\n")
        return 2
    if text is None:
        sys.stderr.write(f"ctxlint: error: {err.message}\n")
        return 2
    try:
        errors, notes = probe(text, args.file)
    except jinja2.TemplateSyntaxError as exc:
        sys.stderr.write(f"ctxlint: error: {args.file}:{exc.lineno}: cannot parse Jinja template: {exc.message}\n")
        return 2
    if getattr(args, "json", False):
        print(json.dumps({"path": args.file, "security_errors": [{"path": args.file, **e} for e in errors],
                          "notes": notes}, indent=2))
    else:
        for e in errors:
            print(f"{args.file}:{e['line']}: SecurityError: {e['message']}")
        for n in notes:
            sys.stderr.write(f"ctxlint: {args.file}: {n}\n")
        print(f"{len(errors)} SecurityError{'s' if len(errors) != 1 else ''} in the sandbox"
              if errors else "renders clean in ImmutableSandboxedEnvironment")
    return 1 if errors else 0
