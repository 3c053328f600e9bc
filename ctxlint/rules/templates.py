"""CTX3xx: prompt and page templates — code that data writes.

A Jinja2 template compiled from text a user, tenant or model file controls, a
template that walks to `__class__.__globals__`, or a `str.format` prompt with
`{obj.__class__...}` escapes the values it was given. CTX301/CTX303/CTX305 read
Python call sites; CTX302 reads template files and literal template strings in
Python; CTX304 links a render call to its template (the project pass in
`ctxlint.languages.jinja.project_findings`, or one Python file for
`Template(literal).render(...)`).

The call-site facts (environments, loaders, compile/render sites, literal
resolution) live in `ctxlint.languages.jinja.CallSites`, shared by every rule here.
"""

from __future__ import annotations

import ast
import re
import string

from ctxlint.findings import SAFE, UNSAFE, Fix
from ctxlint.languages import jinja as J
from ctxlint.rules import Rule

_FLASK_CONTEXT = {"request", "session", "g", "config", "url_for", "get_flashed_messages", "current_user", "csrf_token"}


def _is_jinja(facts) -> bool:
    return getattr(facts, "language", None) == "jinja"


def _src_text(facts, node: ast.AST, limit: int = 40) -> str:
    s = facts.segment(node) or "<expr>"
    s = " ".join(s.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


class TemplateFromVariable(Rule):
    code = "CTX301"
    name = "template-from-variable"
    summary = "jinja2 Template()/from_string() compiles non-literal source outside a SandboxedEnvironment."
    tokens = ("Template", "from_string", "render_template_string")
    fix_safety = SAFE
    doc = """\
## What it does
Flags `jinja2.Template(src)`, `env.from_string(src)` on a plain (not sandboxed)
`Environment`, and Flask's `render_template_string(src)` when `src` is not a
literal: not a string constant, a module or class constant, or text read from the
package's own files (`Path(__file__).parent / ...`, `importlib.resources`).

## Why is this bad
A Jinja template is a program. Whoever writes its text can reach
`cycler.__init__.__globals__.os` and run code on the serving host. Chat templates
read from a model file or a hub `tokenizer_config.json`, prompts pulled from a
registry, and workflow nodes edited by users are all template text someone else
controls.

## Example
```python
def render_chat(model, messages):
    env = jinja2.Environment()
    return env.from_string(model.metadata["tokenizer.chat_template"]).render(messages=messages)
```

## Use instead
```python
from jinja2.sandbox import ImmutableSandboxedEnvironment

def render_chat(model, messages):
    env = ImmutableSandboxedEnvironment()
    return env.from_string(model.metadata["tokenizer.chat_template"]).render(messages=messages)
```

## Fix safety
Safe: the codemod swaps the environment for `ImmutableSandboxedEnvironment`; a
template that only formats its variables renders the same. (A template that
mutates lists or dicts it was given now raises `SecurityError`.)

## Source
llama-cpp-python CVE-2024-34359 (GGUF chat template); LiteLLM
GHSA-46cm-pfwv-cgf8 (hub tokenizer template); SGLang CVE-2026-5760; PySpur#289;
bandit B701's sibling checks; jinja2 docs "Sandbox".
"""

    def check(self, facts):
        cs = J.call_sites(facts)
        sandbox_imported = any(J._last(v) in J._SANDBOX_NAMES for v in facts.imports.values())
        for site in cs.compile_sites:
            if site.kind == "langchain":
                continue  # langchain-core renders jinja2 templates in a SandboxedEnvironment
            env = site.env
            if env is not None and env.kind == "sandbox":
                continue
            if env is None and sandbox_imported:
                continue  # an unresolved receiver in a file that uses sandboxes: do not guess
            if cs.literal_values(site.src) is not None or cs.is_trusted_source(site.src):
                continue
            what = {"Template": "`Template()`", "from_string": "`from_string()`",
                    "render_template_string": "`render_template_string()`"}[site.kind]
            fix = Fix("compile the template in jinja2.sandbox.ImmutableSandboxedEnvironment", SAFE,
                      codemod="sandboxed_environment",
                      data={"line": site.call.lineno, "col": site.call.col_offset, "kind": site.kind})
            yield facts.finding(self, site.call,
                                f"{what} compiles `{_src_text(facts, site.src)}`, which is not a literal, "
                                "outside a sandbox: whoever writes that text can run code here "
                                "(use ImmutableSandboxedEnvironment)", fix=fix)


class TemplateDunderAccess(Rule):
    code = "CTX302"
    name = "template-dunder-access"
    language = "python+jinja"
    summary = "A template reaches `_`-prefixed attributes (__class__, __globals__, attr('__…'), lipsum.__globals__)."
    # Python side: a compile site; template side: template tags (so that a template that
    # does not parse is always reported as CTX000).
    tokens = ("Template", "from_string", "{{", "{%")
    doc = """\
## What it does
In template files and in literal template strings passed to `Template(...)`,
`from_string(...)` or `PromptTemplate(..., template_format="jinja2")`, flags
attribute access, string-key subscripts and `attr()` filter arguments naming
`_`-prefixed attributes (`__class__`, `__mro__`, `__subclasses__`, `__globals__`,
`__init__`), attribute walks off the gadget globals `lipsum`, `cycler`, `joiner`,
`namespace` and `range`, and literal `"{0.__class__}".format(...)` inside a template.
Reported at the line of the expression, once per expression chain. The read-only
descriptive dunders `__name__`, `__qualname__`, `__doc__`, `__all__`, `__version__`
and `__module__` (printed by documentation templates) are not flagged by themselves.

## Why is this bad
These are the steps of every Jinja server-side template injection payload:
from any value to `object.__subclasses__()`, or from a global helper to its
module's `__globals__` and `os`. No prompt or page template needs them; in a
template file they are a planted payload or a debugging leftover that leaks object
internals into a prompt.

## Example
```jinja
{% for doc in documents %}
- {{ doc.title }}: {{ doc.__class__.__mro__[1].__subclasses__() }}
{% endfor %}
```

## Use instead
```jinja
{% for doc in documents %}
- {{ doc.title }}
{% endfor %}
```
and render untrusted templates in `ImmutableSandboxedEnvironment`
(`ctxlint template-probe FILE` shows what the sandbox refuses).

## Fix safety
No fix: the expression has to be removed by a person.

## Source
PayloadsAllTheThings "Server Side Template Injection / Jinja2"; llama-cpp-python
CVE-2024-34359 (poisoned chat template); jinja2 sandbox documentation.
"""

    def check(self, facts):
        if _is_jinja(facts):
            yield from _dunder_findings(self, facts)
            return
        cs = J.call_sites(facts)
        for lt in cs.literal_templates:
            jf = J.literal_facts(facts, lt)
            if jf is not None:
                yield from _dunder_findings(self, jf)


def _dunder_findings(rule, facts):
    from jinja2 import nodes
    local = {n.name for n in facts.nodes(nodes.Name) if n.ctx in ("store", "param")}
    sus: dict[int, tuple] = {}
    for n in facts.nodes(nodes.Getattr, nodes.Getitem, nodes.Filter):
        hit = None
        if isinstance(n, nodes.Getattr):
            if n.attr.startswith("_") and n.attr not in _DESCRIPTIVE:
                hit = (n.attr, f"reaches `{n.attr}`")
            elif isinstance(n.node, nodes.Name) and n.node.name in J.GADGET_GLOBALS - {"self"} and n.node.name not in local:
                hit = (n.attr, f"walks `{n.node.name}.{n.attr}` off the `{n.node.name}` global")
            elif n.attr in ("format", "format_map") and isinstance(n.node, nodes.Const) and isinstance(n.node.value, str):
                if _format_dunder(n.node.value):
                    hit = (n.attr, "formats a string whose fields walk `__` attributes")
        elif isinstance(n, nodes.Getitem):
            key = _const(n.arg)
            if isinstance(key, str) and key.startswith("_") and key not in _DESCRIPTIVE:
                hit = (key, f"reaches `[{key!r}]`")
            elif isinstance(n.node, nodes.Name) and n.node.name in J.GADGET_GLOBALS - {"self"} and n.node.name not in local:
                hit = (n.node.name, f"subscripts the `{n.node.name}` global")
        elif isinstance(n, nodes.Filter) and n.name == "attr" and n.args:
            key = _const(n.args[0])
            if isinstance(key, str) and key.startswith("_") and key not in _DESCRIPTIVE:
                hit = (key, f"reaches `{key}` through the `attr()` filter")
        if hit is not None:
            sus[id(n)] = (n, *hit)
    for n, needle, what in sus.values():
        inner = n.node
        shadowed = False
        while isinstance(inner, (nodes.Getattr, nodes.Getitem, nodes.Filter, nodes.Call)):
            if id(inner) in sus:
                shadowed = True
                break
            inner = inner.node
        if shadowed:
            continue
        yield facts.finding(rule, n.lineno, needle,
                            f"template {what}: `_`-prefixed attribute walks escape the values the template "
                            "was given (the first step of template injection)")


#: Read-only descriptive dunders that documentation templates (pdoc, Sphinx autosummary)
#: legitimately print; they lead nowhere by themselves, and a walk from them is flagged.
_DESCRIPTIVE = frozenset({"__name__", "__qualname__", "__doc__", "__all__", "__version__", "__module__"})


def _const(node):
    try:
        return node.as_const()
    except Exception:  # jinja2.nodes.Impossible and anything a folded filter raises
        return None


_DUNDER_FIELD = re.compile(r"(\.|\[)\s*__")


def _format_dunder(fmt: str) -> str | None:
    """The first replacement field of a str.format string that walks a `__` attribute, or None."""
    try:
        stack = [fmt]
        depth = 0
        while stack and depth < 4:
            depth += 1
            s = stack.pop()
            for _lit, fld, spec, _conv in string.Formatter().parse(s):
                if fld and _DUNDER_FIELD.search(fld):
                    return fld
                if spec and "{" in spec:
                    stack.append(spec)
    except (ValueError, TypeError):
        return None
    return None


class FormatStringAttributeAccess(Rule):
    code = "CTX303"
    name = "format-string-attribute-access"
    summary = "str.format/format_map/Formatter/f-string PromptTemplate on a non-literal format string, or `{x.__…}`."
    tokens = (".format", "from_template", "PromptTemplate", "Formatter")
    fix_safety = UNSAFE
    doc = """\
## What it does
Flags `fmt.format(...)` and `fmt.format_map(...)`, `string.Formatter().format(fmt, ...)`
/ `.vformat(...)`, LangChain `PromptTemplate(template=fmt)` (default
`template_format="f-string"`) and `PromptTemplate`/`ChatPromptTemplate.from_template(fmt)`
when the format string is not a literal — or is a literal whose fields walk
`__` attributes (`"{user.__class__.__init__.__globals__}"`). For `.format()` the
receiver must be known to be a string (read from a file, config or environment,
built with string methods, or a template-named parameter annotated `str` without a
default), so `PromptTemplate.format()` and `logging.Formatter.format()` are not
flagged; for the LangChain classes the template must come from data (that, a
subscript such as `row["template"]`, or an attribute of a non-`self` object), so a
library forwarding its caller's optional template argument is not flagged. A format string that is a module or
class constant is a literal. A `string.Formatter` subclass overriding `get_field`
is a sanitizer.

## Why is this bad
`str.format` resolves `{obj.attr}` and `{obj[key]}` in the format string, so
whoever writes the format string can read any attribute reachable from the values
passed: `{profile.__class__.__init__.__globals__[SECRET_KEY]}` prints module
globals into the prompt. Operator- or tenant-configured prompt templates are such
format strings.

## Example
```python
def build_system_prompt(cfg, session):
    template = cfg.get("llm", "system_prompt", fallback=DEFAULT_PROMPT)
    return template.format_map({"hostname": session.hostname, "session": session})
```

## Use instead
```python
class SafeFormatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        if not field_name.isidentifier():
            raise ValueError(f"only plain names are allowed: {field_name!r}")
        return super().get_field(field_name, args, kwargs)

SafeFormatter().vformat(template, (), values)
```
or `string.Template(template).safe_substitute(values)`.

## Fix safety
Unsafe: the codemod formats through a Formatter that rejects attribute and index
access; a template that legitimately used `{x.attr}` now raises.

## Source
LangChain GHSA-6qv9-48xg-fc7f / CVE-2025-65106 (f-string prompt templates);
cowrie #40501; Armin Ronacher, "Be Careful with Python's New-Style String Format" (2016).
"""

    def check(self, facts):
        cs = J.call_sites(facts)
        for call in facts.nodes(ast.Call):
            fn = call.func
            if isinstance(fn, ast.Attribute) and fn.attr in ("format", "format_map", "vformat"):
                fk = cs.formatter_kind(fn.value)
                if fk == "hardened":
                    continue
                if fk == "plain":
                    fmt = call.args[0] if call.args else J._kw(call, "format_string")
                    if fmt is not None:
                        yield from self._check(facts, cs, call, fmt, need_str=False, what="`string.Formatter()." + fn.attr + "()`", fix=False)
                    continue
                if fn.attr == "vformat":
                    continue
                yield from self._check(facts, cs, call, fn.value, need_str=fn.attr == "format",
                                       what=f"`.{fn.attr}()`", fix=True)
            elif cs._is_langchain(fn) and cs._lc_format(call) == "f-string":
                src = cs._lc_source(call)
                if src is not None:
                    name = J._last(facts.qualname(fn))
                    what = f"`{name}()`" if name != "from_template" else "`from_template()`"
                    yield from self._check(facts, cs, call, src, need_str="data", what=what + " (f-string template)", fix=False)

    def _check(self, facts, cs, call, fmt, need_str, what, fix):
        lv = cs.literal_values(fmt)
        if lv is not None:
            for text, _ in lv:
                fld = _format_dunder(text)
                if fld:
                    yield facts.finding(self, call, f"{what} on a format string with the field `{{{fld}}}`, which walks "
                                        "`__` attributes of a formatted value", fix=self._fix(call) if fix else None)
                    return
            return
        if cs.is_trusted_source(fmt):
            return
        if need_str == "data" and not cs.data_evidence(fmt):
            return
        if need_str is True and not cs.str_evidence(fmt):
            return
        yield facts.finding(self, call, f"{what} uses `{_src_text(facts, fmt)}`, which is not a literal, as a format "
                            "string: whoever writes it can read attributes of every value passed "
                            "(`{x.__class__.__init__.__globals__}`)", fix=self._fix(call) if fix else None)

    @staticmethod
    def _fix(call):
        return Fix("format through a Formatter that rejects attribute and index access", UNSAFE,
                   codemod="safe_format", data={"line": call.lineno, "col": call.col_offset,
                                                "method": call.func.attr})


class TemplateUndeclaredVariable(Rule):
    code = "CTX304"
    name = "template-undeclared-variable"
    language = "python+jinja"
    summary = "A variable the template reads that its render call site never passes."
    tokens = ("Template", "from_string")  # the cross-file part runs in the project pass
    doc = """\
## What it does
Links a render call — `env.get_template("x.j2").render(a=..., b=...)`,
`Template(literal).render(...)`, Flask `render_template("x.html", ...)` — to its
template (the loader directory is resolved from literal paths such as
`Path(__file__).parent / "templates"`, `os.path.join(os.path.dirname(__file__), ...)`
or a `PackageLoader`), and compares the variables the template reads
(`jinja2.meta.find_undeclared_variables`, which already accounts for `{% set %}`,
loops, macros and imports) with the keyword names the call passes. Reported in the
template at the first use of each missing variable, naming the call site. Silent
when the call passes `**mapping` or a non-literal context, when the environment's
globals are extended with non-literal names, and for variables the template treats
as optional (`is defined`, `| default`, a bare `{% if x %}`).

## Why is this bad
An undefined variable renders as an empty string: the policy text, the tenant's
instructions or the retrieved passages silently vanish from the prompt (or every
request fails under `StrictUndefined`). Render sites and templates drift apart
because nothing checks them against each other.

## Example
```python
env.get_template("guard_chat.j2").render(messages=messages, bos_token="<bos>")
```
```jinja
Policy: {{ policy_text }}
```

## Use instead
```python
env.get_template("guard_chat.j2").render(messages=messages, bos_token="<bos>", policy_text=policy)
```

## Fix safety
No fix: which value to pass is a decision for a person.

## Source
vLLM issues 15147 and 7084 (chat templates reading variables the server never
passes); TGI PR 2403; jinja2.meta.find_undeclared_variables.
"""

    def check(self, facts):
        if _is_jinja(facts):
            return  # the template side needs the render call: see languages.jinja.project_findings
        cs = J.call_sites(facts)
        for rs in cs.render_sites:
            if rs.source is None or rs.names is None or (rs.env is not None and rs.env.open_globals):
                continue
            jf = J.literal_facts(facts, rs.source)
            if jf is None:
                continue
            extra = rs.env.globals if rs.env is not None else set()
            yield from self.check_links(jf, [(rs.names | extra, f"line {rs.call.lineno}", False)])

    def check_links(self, facts, links):
        """CTX304 findings for one template and its render calls.

        Args:
            facts: the template's JinjaFacts.
            links: (names passed, "path:line" of the call, is a Flask render_template) per call.
        """
        undeclared = facts.undeclared - facts.optional_names
        if not undeclared:
            return
        missing: dict[str, list[str]] = {}
        for names, where, flask in links:
            passed = set(names) | (_FLASK_CONTEXT if flask else set())
            for v in undeclared - passed:
                missing.setdefault(v, []).append(where)
        order = []
        for v, wheres in missing.items():
            node = facts.first_use(v)
            if node is not None:
                order.append((node.lineno, v, wheres))
        for lineno, v, wheres in sorted(order):
            sites = ", ".join(wheres[:3]) + (f" and {len(wheres) - 3} more" if len(wheres) > 3 else "")
            yield facts.finding(self, lineno, v,
                                f"`{v}` is read here but the render call at {sites} never passes it; it renders "
                                "as undefined (empty text, or an error under StrictUndefined)")


class JinjaAutoescapeDisabled(Rule):
    code = "CTX305"
    name = "jinja-autoescape-disabled"
    summary = "A non-sandboxed jinja2 Environment/Template that renders HTML without autoescape."
    tokens = ("Environment", "Template")
    fix_safety = SAFE
    doc = """\
## What it does
Flags a plain `jinja2.Environment(...)` or `jinja2.Template(...)` without
autoescape (the default) that renders HTML: its loader directory holds
`.html`/`.htm`/`.xml` files, a `get_template()` call on it names one, or a literal
template it compiles is markup. An explicit `autoescape=False` is flagged unless
the environment only renders prompts or text (its templates are `.j2`/`.txt`/
`.md`/... files or non-HTML literals, or it is named for prompts). Sandboxed
environments and environments with `autoescape=True`/`select_autoescape(...)` are
not flagged.

## Why is this bad
Without autoescape every `{{ value }}` is written into the page verbatim. Model
output, retrieved documents and tool output routinely contain `<script>` or
markup: the report or chat page becomes a cross-site scripting vector. Prompts
sent to a model are text, not HTML, and must not be escaped — hence the exemption.

## Example
```python
page = Template(REPORT_PAGE)          # REPORT_PAGE is an HTML document
Path(out).write_text(page.render(rows=rows))
```

## Use instead
```python
page = Template(REPORT_PAGE, autoescape=True)
env = Environment(loader=FileSystemLoader("templates"), autoescape=select_autoescape())
```

## Fix safety
Safe: the codemod sets `autoescape=select_autoescape()`, which escapes only
templates named `.html`/`.htm`/`.xml` (and strings); values already marked safe
with `Markup` are unchanged.

## Source
bandit B701 (jinja2_autoescape_false); jinja2 docs "Autoescaping";
qodo-ai/qodo-cover PR 95; agent-os issue 850 (prompt-only environment, not a bug).
"""

    def check(self, facts):
        cs = J.call_sites(facts)
        seen: set[int] = set()
        for env in cs.envs:
            if env.kind != "plain" or env.autoescape == "on" or env.call is None:
                continue
            html, text = self._evidence(facts, cs, env)
            if html or (env.autoescape == "off-explicit" and not text):
                seen.add(id(env.call))
                yield self._finding(facts, env.call, html or "it sets autoescape=False")
        for site in cs.compile_sites:
            if site.kind != "Template" or id(site.call) in seen or site.env is None or site.env.autoescape == "on":
                continue
            lv = cs.literal_values(site.src)
            if lv and any(J._HTML_TAG.search(t) for t, _ in lv):
                yield self._finding(facts, site.call, "its template source is HTML markup")

    def _finding(self, facts, call, why):
        callee = J._last(facts.qualname(call.func)) or "Environment"
        fix = Fix("enable autoescaping with select_autoescape()", SAFE, codemod="select_autoescape",
                  data={"line": call.lineno, "col": call.col_offset, "callee": callee})
        return facts.finding(self, call, f"`{callee}()` renders HTML without autoescape ({why}): model output "
                             "and user text are written into the page unescaped", fix=fix)

    @staticmethod
    def _evidence(facts, cs, env) -> tuple[str | None, bool]:
        """(why it renders HTML or None, whether it is seen rendering prompts/text)."""
        html: str | None = None
        text = False
        if env.binding and "prompt" in env.binding.lower():
            text = True
        for d in env.loader_dirs:
            if not d.is_dir():
                continue
            n = 0
            for p in d.rglob("*"):
                n += 1
                if n > 500:
                    break
                suf = p.suffix.lower()
                if suf in J._HTML_SUFFIXES:
                    html = html or f"its loader directory holds {p.name}"
                elif suf in J._TEXT_SUFFIXES:
                    text = True
        only_env = len([e for e in cs.envs if e.kind == "plain"]) == 1
        for call in facts.nodes(ast.Call):
            fn = call.func
            if not (isinstance(fn, ast.Attribute) and fn.attr in ("get_template", "select_template", "from_string")
                    and call.args):
                continue
            target = cs.env_of(fn.value)
            if target is not env and not (target is None and only_env):
                continue
            arg = call.args[0]
            if fn.attr == "from_string":
                for t, _ in cs.literal_values(arg) or ():
                    if J._HTML_TAG.search(t):
                        html = html or "it compiles an HTML literal"
                    else:
                        text = True
                continue
            names = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
            for nm in names:
                if isinstance(nm, ast.Constant) and isinstance(nm.value, str):
                    low = nm.value.lower()
                    if low.endswith(J._HTML_SUFFIXES):
                        html = html or f"it loads {nm.value}"
                    elif low.endswith(J._TEXT_SUFFIXES) or "prompt" in low:
                        text = True
        return html, text
