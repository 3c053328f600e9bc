"""CTX305 jinja-autoescape-disabled: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import SAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.jinja.call_sites import HTML_SUFFIXES, call_sites, last_part, looks_like_html


class JinjaAutoescapeDisabled(Rule):
    code = "CTX305"
    name = "jinja-autoescape-disabled"
    summary = "A non-sandboxed jinja2 Environment/Template that renders HTML without autoescape."
    tokens = ("Environment", "Template")
    fix_safety = SAFE
    doc = """\
## What it does
Flags a plain `jinja2.Environment(...)` or `jinja2.Template(...)` without
autoescape (the default, or `autoescape=False`) when there is positive evidence
that it renders HTML:
- its loader directory holds `.html`/`.htm`/`.xml` files, or a `get_template()` /
  `select_template()` call on it names one;
- a template it compiles (`from_string(...)`, `Template(...)`) is HTML markup: a
  doctype, a closing tag of a known HTML element (`</p>`), an element tag with an
  attribute (`<div class="x">`) or a void element (`<br>`) — a bare `<path>` or
  `<A,B>` placeholder of a CLI usage text is not markup;
- what it renders is wrapped in `Markup(...)`, handed to a web response
  (`HTMLResponse`, Flask `make_response`/`Response`, Django `HttpResponse`, ...) or
  returned from a Flask/Quart view (served as text/html).

Nothing else counts: a variable's or attribute's name never does, and
`autoescape=False` alone is not evidence (prompts sent to a model are text and must
not be escaped). Sandboxed environments and environments with
`autoescape=True`/`select_autoescape(...)` are not flagged.

A `**options` splat is looked through: a dict display it holds decides
`autoescape`; a splat that cannot be seen through (a parameter, a dict other code
updates) may set it, and nothing is reported.

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
        cs = call_sites(facts)
        seen: set[int] = set()
        for env in cs.envs:
            if env.kind != "plain" or env.autoescape == "on" or env.call is None:
                continue
            html = self._evidence(facts, cs, env)
            if html:
                seen.add(id(env.call))
                yield self._finding(facts, env.call, html)
        for site in cs.compile_sites:
            if site.kind != "Template" or id(site.call) in seen or site.env is None or site.env.autoescape == "on":
                continue
            lv = cs.literal_values(site.src)
            if lv and any(looks_like_html(t) for t, _ in lv):
                yield self._finding(facts, site.call, "its template source is HTML markup")
            else:
                sink = self._html_sink(facts, cs, [site.call])
                if sink:
                    yield self._finding(facts, site.call, sink)

    def _finding(self, facts, call, why):
        callee = last_part(facts.qualname(call.func)) or "Environment"
        fix = Fix("enable autoescaping with select_autoescape()", SAFE, codemod="select_autoescape",
                  data={"line": call.lineno, "col": call.col_offset, "callee": callee})
        return facts.finding(self, call, f"`{callee}()` renders HTML without autoescape ({why}): model output "
                             "and user text are written into the page unescaped", fix=fix)

    @staticmethod
    def _html_sink(facts, cs, origins: list) -> str | None:
        """Why the templates compiled or loaded by the calls in `origins` render HTML, judged
        by where their render result goes (Markup, a web response), or None."""
        for rs in cs.render_calls_of(origins):
            sink = cs.html_sink(rs)
            if sink:
                return f"what it renders goes to {sink}"
        return None

    @classmethod
    def _evidence(cls, facts, cs, env) -> str | None:
        """Why `env` renders HTML, or None when nothing shows it does."""
        for d in env.loader_dirs:
            if not d.is_dir():
                continue
            n = 0
            for p in d.rglob("*"):
                n += 1
                if n > 500:
                    break
                if p.suffix.lower() in HTML_SUFFIXES:
                    return f"its loader directory holds {p.name}"
        only_env = len([e for e in cs.envs if e.kind == "plain"]) == 1
        origins = []
        for call in facts.nodes(ast.Call):
            fn = call.func
            if not (isinstance(fn, ast.Attribute) and fn.attr in ("get_template", "select_template", "from_string")
                    and call.args):
                continue
            target = cs.env_of(fn.value)
            if target is not env and not (target is None and only_env):
                continue
            origins.append(call)
            arg = call.args[0]
            if fn.attr == "from_string":
                for t, _ in cs.literal_values(arg) or ():
                    if looks_like_html(t):
                        return "it compiles an HTML literal"
                continue
            names = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
            for nm in names:
                if isinstance(nm, ast.Constant) and isinstance(nm.value, str) and nm.value.lower().endswith(HTML_SUFFIXES):
                    return f"it loads {nm.value}"
        return cls._html_sink(facts, cs, origins)
