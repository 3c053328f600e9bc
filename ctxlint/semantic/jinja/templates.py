"""Template facts: what a parsed Jinja template holds (shared by the CTX3xx rules).

`JinjaFacts` wraps one template — a template file, or a literal template string
found in Python code — parsed once by `ctxlint.languages.jinja.parse_template`,
with its nodes mapped back to line and column in the reported file. Facts
(computed lazily, once per template):

- `nodes(*types)`: every jinja2 node of those classes, in source order;
- `undeclared`: the variables the template reads from its render context
  (`jinja2.meta.find_undeclared_variables`: `{% set %}`, loops, macros and
  imports already accounted for), less the names whose every read the template
  binds itself first on every path (`self_bound_loads`, `_BindingFlow`: a
  `{% set %}` in every branch of an `{% if %}/{% else %}`, which jinja2 still reports);
- `open_loads(name)`: the reads of a variable that reach the render context;
- `optional_names`: variables the template itself treats as optional
  (`is defined`, `| default`, a bare `{% if x %}` guarding every use);
- `first_use(name)`: the first node reading a variable from the render context;
- `constant_names` / `const_value(node)`: names bound once by `{% set %}` to a value
  known without rendering, and an expression's folded value (`"__cla" ~ "ss__"`);
- `position(line, needle)`: where an expression is in the reported file.

`lint` is the per-file entry the engine calls for a template file; `literal_facts`
builds the facts of a literal template inside a Python file.
"""

from __future__ import annotations

import bisect
import re
from functools import cached_property

from ctxlint.config import Config
from ctxlint.findings import Finding
from ctxlint.languages.jinja import parse_template

#: Jinja globals that are gadgets for escaping the template (SSTI write-ups:
#: `lipsum.__globals__`, `cycler.__init__.__globals__`, `self._TemplateReference__context`;
#: PayloadsAllTheThings "Server Side Template Injection / Jinja2").
GADGET_GLOBALS = frozenset({"lipsum", "cycler", "joiner", "namespace", "self", "range"})


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
        # "Is offset a inside a span?" by bisection: the spans sorted by start, with the
        # running maximum of their ends (line-statement spans may overlap the others).
        self.spans.sort()
        self._span_starts = [s for s, _ in self.spans]
        self._max_end: list[int] = []
        top = -1
        for _, e in self.spans:
            top = max(top, e)
            self._max_end.append(top)

    def in_code(self, offset: int) -> bool:
        """Is text offset `offset` inside a `{{ }}`/`{% %}` region (or a line statement)?
        O(log spans): a template with 20,000 expressions is not searched once per needle."""
        i = bisect.bisect_right(self._span_starts, offset) - 1
        return i >= 0 and self._max_end[i] > offset

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
            if self.in_code(a):
                hits.append(m.start())
        if not hits:
            i = src.find(needle)
            return max(i, 0)
        k = self._used.get((line, needle), 0)
        self._used[(line, needle)] = k + 1
        return hits[min(k, len(hits) - 1)]



def find_all(node, types):
    """The descendants of a jinja2 node that are instances of `types` (a class or a
    tuple), in the pre-order of jinja2's `Node.find_all`, without its recursion: a
    chain of 1,000 filters nests 1,000 deep and would raise RecursionError."""
    stack = [node.iter_child_nodes()]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if isinstance(child, types):
            yield child
        stack.append(child.iter_child_nodes())


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
            found = list(find_all(self.tree, types))
            found.sort(key=lambda n: getattr(n, "lineno", 0) or 0)
            self._memo[key] = found
        return self._memo[key]  # type: ignore[return-value]

    def position(self, lineno: int, needle: str) -> tuple[int, int]:
        """(line, 0-based column) in the reported file of `needle` on template line `lineno`."""
        col = self.locator.column(lineno, needle)
        if self.mapper is not None:
            return self.mapper(lineno, col, needle)
        return lineno, col

    def finding(self, rule, lineno: int, needle: str, message: str, fix=None,
                confidence: str = "high", trace=()) -> Finding:
        """A Finding for `rule` at the first `needle` on template line `lineno`.

        Args:
            confidence: "high" (manifest) or "low" (latent), see `ctxlint.findings.HIGH`.
            trace: `TraceStep`s (the evidence).
        """
        line, col = self.position(lineno, needle)
        return Finding(rule.code, rule.name, self.path, line, col + 1, line, col + 1 + len(needle), message, fix,
                       confidence=confidence, trace=tuple(trace))

    # -------------------------------------------------------- variables
    @cached_property
    def undeclared(self) -> set[str]:
        """Variables the template reads from its render context: the names
        `jinja2.meta.find_undeclared_variables` reports, less those whose every read the
        template binds itself first on every path (`self_bound_loads`), and those never
        read as a name (only stored, or an `ns.x` target). jinja2 reports a
        name set in every branch of an `{% if %}/{% else %}` too (its code generator
        emits a fallback lookup for any name a branch sets, idtracking's `branch_update`
        counting the empty `elif_` list as a branch), though the render context is never
        read for it."""
        from jinja2 import meta
        try:
            names = set(meta.find_undeclared_variables(self.tree))
        except Exception:  # the code generator rejects a few parseable trees
            return set()
        return {n for n in names if self.open_loads(n)}

    @cached_property
    def self_bound_loads(self) -> set[int]:
        """ids of `Name(ctx='load')` nodes the template itself has bound on every path
        reaching them (`_BindingFlow`): a `{% set %}` (plain or block) before the read in
        the same scope or in every branch of an `{% if %}` around it, the branch an
        `{% if not x %}`/`{% if x is undefined %}` takes when `x` is missing, `{% for %}`
        targets, `{% with %}` names, macro and call-block parameters, imports."""
        flow = _BindingFlow()
        try:
            flow.statements(self.tree.body, frozenset())
        except RecursionError:
            return set()
        return flow.bound

    def open_loads(self, name: str) -> list:
        """The reads of `name` that reach the render context (not `self_bound_loads`), in source order."""
        bound = self.self_bound_loads
        return [u for u in self.name_loads.get(name, ()) if id(u) not in bound]

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
                    for n in ([b] if isinstance(b, nodes.Name) else []) + list(find_all(b, nodes.Name)):
                        if n.name in names and n.ctx == "load":
                            covered.add(id(n))
        for name in self.name_loads:
            uses = self.open_loads(name)  # reads the template binds itself need no guard
            if uses and all(id(u) in covered for u in uses):
                out.add(name)
        return out

    def first_use(self, name: str):
        """The first read of `name` that reaches the render context (else its first read; None if never read)."""
        uses = self.open_loads(name) or self.name_loads.get(name)
        return uses[0] if uses else None

    # -------------------------------------------------------- constants
    @cached_property
    def constant_names(self) -> dict[str, object]:
        """Names the template binds once, to a value known without rendering:
        `{% set a = "__cla" ~ "ss__" %}` -> {"a": "__class__"}, chains of such sets
        (`{% set b = a ~ "x" %}`) and a `{% set a %}text{% endset %}` block of plain
        text. A name bound anywhere else too (a second set, a loop target, a macro
        parameter, `{% with %}`, an import) is left out: its value depends on the path."""
        from jinja2 import nodes
        binds: dict[str, int] = {}
        for n in self.nodes(nodes.Name):
            if n.ctx in ("store", "param"):
                binds[n.name] = binds.get(n.name, 0) + 1
        out: dict[str, object] = {}
        for a in self.nodes(nodes.Assign, nodes.AssignBlock):
            t = a.target
            if not isinstance(t, nodes.Name) or binds.get(t.name) != 1:
                continue
            if isinstance(a, nodes.Assign):
                v = self.const_value(a.node, out)
            elif a.filter is None and all(isinstance(b, nodes.Output) and all(
                    isinstance(x, nodes.TemplateData) for x in b.nodes) for b in a.body):
                v = "".join(x.data for b in a.body for x in b.nodes)
            else:
                v = None
            if isinstance(v, (str, int, float, bool, tuple)):
                out[t.name] = v
        return out

    def const_value(self, node, names: dict | None = None):
        """The value of expression `node` when it folds to a constant (jinja2's own
        `as_const`: literals, `~`/`+` concatenation, `|join`, ...), with names bound by
        `constant_names` (or the given `names`) replaced by their values. None when it
        does not fold."""
        import copy
        from jinja2 import nodes
        env = self.constant_names if names is None else names
        if isinstance(node, nodes.Name):
            return env.get(node.name) if node.ctx == "load" else None
        if env and any(n.name in env and n.ctx == "load" for n in find_all(node, nodes.Name)):
            try:
                node = copy.deepcopy(node)
            except Exception:
                return None
            _substitute(node, env)
        try:
            return node.as_const()
        except Exception:  # jinja2.nodes.Impossible and anything a folded filter raises
            return None


class _BindingFlow:
    """Which name reads a template binds itself before they run, on every path.

    A forward walk over the statement lists of a parsed template carrying the set of
    names definitely bound at each point, with Jinja's scoping rules (Jinja docs,
    "Assignments" and "Block Assignments": a `{% set %}` inside a loop, `{% with %}`,
    macro, call block, filter block or `{% block %}` does not leave it; one inside an
    `{% if %}` branch does). After an `{% if %}`, a name is bound when every branch
    binds it (an `{% if %}` without `{% else %}` has the fall-through path as a branch),
    or when the branch taken while the name is missing binds it (`{% if not x %}{% set
    x = d %}{% endif %}`: `x` is then either the context's value or the default).
    Bodies that run apart from the surrounding flow (macros, call blocks, `{% block %}`,
    which a child template may render in its parent) start from their own parameters
    only. `bound` collects the ids of the `Name(ctx='load')` nodes read while bound.
    """

    def __init__(self):
        self.bound: set[int] = set()

    def expr(self, node, bound: frozenset) -> None:
        from jinja2 import nodes
        if node is None:
            return
        found = [node] if isinstance(node, nodes.Name) else list(find_all(node, nodes.Name))
        for n in found:
            if n.ctx == "load" and n.name in bound:
                self.bound.add(id(n))

    @staticmethod
    def targets(node) -> set[str]:
        from jinja2 import nodes
        if isinstance(node, nodes.Name):
            return {node.name}
        if isinstance(node, nodes.Tuple):
            return {n.name for n in node.items if isinstance(n, nodes.Name)}
        return set()  # `ns.attr` (NSRef) binds no name

    def statements(self, body, bound: frozenset) -> frozenset:
        """Walk a statement list entered with `bound`; the names bound after it."""
        for node in body:
            bound = self.statement(node, bound)
        return bound

    def statement(self, node, bound: frozenset) -> frozenset:
        from jinja2 import nodes
        if isinstance(node, nodes.Assign):
            self.expr(node.node, bound)
            return bound | self.targets(node.target)
        if isinstance(node, nodes.AssignBlock):
            self.statements(node.body, bound)
            self.expr(node.filter, bound)
            return bound | self.targets(node.target)
        if isinstance(node, nodes.If):
            return self.branches(node, bound)
        if isinstance(node, nodes.For):
            self.expr(node.iter, bound)
            inner = bound | self.targets(node.target) | {"loop"}
            self.expr(node.test, inner)
            self.statements(node.body, inner)
            self.statements(node.else_, bound)
            return bound
        if isinstance(node, nodes.With):
            for v in node.values:
                self.expr(v, bound)
            self.statements(node.body, bound | {n for t in node.targets for n in self.targets(t)})
            return bound
        if isinstance(node, (nodes.Macro, nodes.CallBlock)):
            if isinstance(node, nodes.CallBlock):
                self.expr(node.call, bound)
            params = frozenset({a.name for a in node.args} | {"caller", "varargs", "kwargs"})
            for d in node.defaults:
                self.expr(d, params)
            self.statements(node.body, params)
            return bound | {node.name} if isinstance(node, nodes.Macro) else bound
        if isinstance(node, nodes.Block):
            self.statements(node.body, frozenset())
            return bound
        if isinstance(node, nodes.FilterBlock):
            self.expr(node.filter, bound)
            self.statements(node.body, bound)
            return bound
        if isinstance(node, (nodes.Scope, nodes.OverlayScope, nodes.ScopedEvalContextModifier)):
            if isinstance(node, nodes.OverlayScope):
                self.expr(node.context, bound)
            self.statements(node.body, bound)
            return bound
        if isinstance(node, nodes.Import):
            self.expr(node.template, bound)
            return bound | {node.target}
        if isinstance(node, nodes.FromImport):
            self.expr(node.template, bound)
            return bound | {n[1] if isinstance(n, tuple) else n for n in node.names}
        if isinstance(node, (nodes.Output, nodes.ExprStmt, nodes.Include, nodes.Extends)):
            for child in node.iter_child_nodes():
                self.expr(child, bound)
            return bound
        # anything else (an extension's node): its expressions read in this scope, and
        # any statement list under it is walked as its own scope
        for field, value in node.iter_fields():
            items = value if isinstance(value, list) else [value]
            stmts = [v for v in items if isinstance(v, nodes.Stmt)]
            if stmts:
                self.statements(stmts, bound)
            for v in items:
                if isinstance(v, nodes.Expr):
                    self.expr(v, bound)
        return bound

    def branches(self, node, bound: frozenset) -> frozenset:
        """The names bound after `{% if %}` `node` entered with `bound`."""
        self.expr(node.test, bound)
        outs = [self.statements(node.body, bound)]
        for e in node.elif_:
            self.expr(e.test, bound)
            outs.append(self.statements(e.body, bound))
        outs.append(self.statements(node.else_, bound) if node.else_ else bound)
        after = frozenset.intersection(*outs)
        if not node.elif_:
            for name, missing_in_body in _missing_tests(node.test):
                if name in (outs[0] if missing_in_body else outs[-1]):
                    after |= {name}
        return after


def _missing_tests(test):
    """(name, True when the `{% if %}` body runs while it is missing) for a test on one
    variable: `x` / `x is defined` (the else branch runs when missing), `not x` /
    `x is undefined` / `not (x is defined)` (the body runs). Not `x is none`: a missing
    variable is Undefined, which is not None, so that branch does not run for it."""
    from jinja2 import nodes
    flip = False
    while isinstance(test, nodes.Not):
        flip, test = not flip, test.node
    if isinstance(test, nodes.Name):
        return [(test.name, flip)]
    if isinstance(test, nodes.Test) and isinstance(test.node, nodes.Name):
        if test.name == "defined":
            return [(test.node.name, flip)]
        if test.name == "undefined":
            return [(test.node.name, not flip)]
    return []


def _substitute(node, env: dict) -> None:
    """Replace, in place, each loaded `Name` under `node` that `env` binds by a `Const`."""
    from jinja2 import nodes

    def folded(item):
        if isinstance(item, nodes.Name) and item.ctx == "load" and item.name in env:
            return nodes.Const(env[item.name], lineno=item.lineno)
        if isinstance(item, nodes.Node):
            _substitute(item, env)
        return item

    for field, value in node.iter_fields():
        if isinstance(value, list):
            value[:] = [folded(item) for item in value]
        else:
            setattr(node, field, folded(value))


def lint(path: str, text: str, rules: list, config: Config, options: dict | None = None) -> list[Finding]:
    """Lint one template file with the given (prefiltered) rules.

    Args:
        options: delimiter settings of the environment rendering it (DELIMITER_KEYS),
            known only in the project pass; default delimiters otherwise.
    Returns findings before suppression; a template that does not parse is one CTX000
    finding at jinja2's line. Never raises on bad input.
    """
    from ctxlint.languages.jinja import parse_template_tags
    opts = tuple(sorted((options or {}).items()))
    tree, err, unknown = parse_template_tags(text, opts)
    if err is not None:
        line, msg = err
        nlines = text.count("\n") + 1
        line = min(max(line, 1), nlines)
        return [Finding("CTX000", "parse-error", path, line, 1, line, 1, f"cannot parse Jinja template: {msg}")]
    if unknown:
        from ctxlint.findings import note
        note(f"unknown Jinja tag{'s' if len(unknown) > 1 else ''} "
             f"{', '.join(repr(t) for t in unknown)} (an extension ctxlint does not load): parsed "
             "generically, their arguments are not checked")
    from ctxlint.rules import run_checks
    return run_checks(JinjaFacts(path, text, tree, config, dict(opts)), rules)


def literal_facts(pyfacts, lt) -> JinjaFacts | None:
    """JinjaFacts for a literal template string in Python, positions mapped into the .py file.

    Args:
        pyfacts: the Python file's `PythonFacts`.
        lt: a `ctxlint.semantic.jinja.call_sites.LiteralTemplate` (node, text, options).

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
