"""CTX304 template-undeclared-variable: one rule module (see the Rule's doc).

The cross-file part (a render call in Python linked to a template file) runs in the
project pass, `ctxlint.project`, which calls `TemplateUndeclaredVariable.check_links`.
"""

from __future__ import annotations


from ctxlint.rules import Rule
from ctxlint.semantic.jinja.call_sites import FLASK_TEMPLATE_CONTEXT, call_sites
from ctxlint.semantic.jinja.templates import literal_facts


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
loops, macros and imports) with the keyword names the call passes. A name the
template binds itself before every read, on every path, is not read from the call:
a `{% set %}` (or block set) in every branch of an `{% if %}/{% else %}` above the
read (which jinja2 still reports), `{% for %}` targets, `{% with %}` names, macro
parameters, and a default set on the branch taken while the name is missing
(`{% if not x %}{% set x = ... %}{% endif %}`). A set in only some branches (no
`{% else %}`), or inside a loop or `{% with %}` it does not leave, still leaves the
other path reading the render context: that read is reported. Reported in the
template at the first read of each missing variable that reaches the render
context, naming the call site. Names added to the template's or its environment's
globals (`t.globals.update(HELPERS)` on the template, one from `Template(...)` or from
`env.get_template(...)`, also in the helper that builds it, and through a dict bound
once in the updating function and not filled further; `env.globals["f"] = f`) count as
passed. Silent
when the call passes `**mapping` or a non-literal context, when the environment's
or the template's globals are extended with names that cannot be read, when the environment is not resolved
(made lazily in a property, reached through a wrapper class) in a module that adds
globals to an environment, and for variables the template treats
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
        if getattr(facts, "language", None) == "jinja":
            return  # the template side needs the render call: see ctxlint.project
        cs = call_sites(facts)
        for rs in cs.render_sites:
            if rs.source is None or rs.names is None or rs.globals is None or (
                    rs.env is not None and rs.env.open_globals):
                continue
            if rs.env is None and any(e.globals or e.open_globals for e in cs.envs):
                # an environment we cannot see (made lazily, behind a wrapper class), in a
                # module that adds globals to one: the render may see them
                continue
            jf = literal_facts(facts, rs.source)
            if jf is None:
                continue
            extra = (rs.env.globals if rs.env is not None else set()) | rs.globals
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
            passed = set(names) | (FLASK_TEMPLATE_CONTEXT if flask else set())
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

