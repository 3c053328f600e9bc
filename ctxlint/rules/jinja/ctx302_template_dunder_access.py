"""CTX302 template-dunder-access: one rule module (see the Rule's doc)."""

from __future__ import annotations

import re
import string

from ctxlint.rules import Rule
from ctxlint.semantic.jinja.call_sites import call_sites
from ctxlint.semantic.jinja.templates import GADGET_GLOBALS, literal_facts


class TemplateDunderAccess(Rule):
    code = "CTX302"
    name = "template-dunder-access"
    language = "python+jinja"
    summary = "A template reaches dunder or name-mangled attributes (__class__, __globals__, attr('__…'), lipsum.__globals__)."
    # Python side: a compile site; template side: template tags (so that a template that
    # does not parse is always reported as CTX000).
    tokens = ("Template", "from_string", "{{", "{%")
    doc = """\
## What it does
In template files and in literal template strings passed to `Template(...)`,
`from_string(...)` or `PromptTemplate(..., template_format="jinja2")`, flags
attribute access, string-key subscripts and `attr()` filter arguments naming
dunder or name-mangled attributes (`__class__`, `__mro__`, `__subclasses__`,
`__globals__`, `__init__`, `_TemplateReference__context`), attribute walks off the gadget globals `lipsum`, `cycler`, `joiner`,
`namespace` and `range`, and literal `"{0.__class__}".format(...)` inside a template.
Reported at the line of the expression, once per expression chain. The read-only
descriptive dunders `__name__`, `__qualname__`, `__doc__`, `__all__`, `__version__`
and `__module__` (printed by documentation templates) and the text conversions
`__repr__`, `__str__` and `__html__` (`{{ group.__repr__() | e }}`, dask's widget
templates) are not flagged by themselves (a dunder step off them, `.__class__` or
`.__globals__`, is),
nor is a plain `_private` field of the template's own objects (`task._subtasks`).

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
        if getattr(facts, "language", None) == "jinja":
            yield from _dunder_findings(self, facts)
            return
        cs = call_sites(facts)
        for lt in cs.literal_templates:
            jf = literal_facts(facts, lt)
            if jf is not None:
                yield from _dunder_findings(self, jf)


def _dunder_findings(rule, facts):
    from jinja2 import nodes
    local = {n.name for n in facts.nodes(nodes.Name) if n.ctx in ("store", "param")}
    sus: dict[int, tuple] = {}
    for n in facts.nodes(nodes.Getattr, nodes.Getitem, nodes.Filter):
        hit = None
        if isinstance(n, nodes.Getattr):
            if _escapes(n.attr):
                hit = (n.attr, f"reaches `{n.attr}`")
            elif isinstance(n.node, nodes.Name) and n.node.name in GADGET_GLOBALS - {"self"} \
                    and n.node.name not in local and n.attr.startswith("_"):
                # only a private step leads anywhere from a gadget global; a public field
                # (`namespace.tools`, `cycler.items`) is a render variable's own data
                hit = (n.attr, f"walks `{n.node.name}.{n.attr}` off the `{n.node.name}` global")
            elif n.attr in ("format", "format_map") and isinstance(fmt := facts.const_value(n.node), str):
                if _format_dunder(fmt):
                    hit = (n.attr, "formats a string whose fields walk `__` attributes")
        elif isinstance(n, nodes.Getitem):
            key = facts.const_value(n.arg)
            if isinstance(key, str) and _escapes(key):
                hit = (key, f"reaches `[{key!r}]`")
            elif isinstance(n.node, nodes.Name) and n.node.name in GADGET_GLOBALS - {"self"} \
                    and n.node.name not in local and isinstance(key, str) and key.startswith("_"):
                hit = (n.node.name, f"subscripts the `{n.node.name}` global")
        elif isinstance(n, nodes.Filter) and n.name == "attr" and n.args:
            key = facts.const_value(n.args[0])
            if isinstance(key, str) and _escapes(key):
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
                            f"template {what}: dunder attribute walks escape the values the template "
                            "was given (the first step of template injection)")


#: Read-only descriptive dunders that documentation templates (pdoc, Sphinx autosummary)
#: legitimately print; they lead nowhere by themselves, and a walk from them is flagged.
_DESCRIPTIVE = frozenset({"__name__", "__qualname__", "__doc__", "__all__", "__version__", "__module__",
                          # the text conversions (`{{ group.__repr__() | e }}` in dask's widget
                          # templates, the Markup protocol's `__html__`): a string, from which
                          # any further dunder step (`.__class__`) is flagged on its own
                          "__repr__", "__str__", "__html__"})


def _escapes(name: str) -> bool:
    """Does attribute `name` lead out of the data a template was given? Dunders
    (`__class__`, `__globals__`, `__init__`; not the descriptive `__name__` & co.) and
    name-mangled or double-underscore privates (`_TemplateReference__context`,
    `__dict`) do: they are the steps of every jinja2 SSTI payload. A plain `_private`
    field of the template's own objects (`task._subtasks`) is data the author's
    template reads, not an escape (jinja2's sandbox refuses both; only the first is
    a payload's shape)."""
    if name in _DESCRIPTIVE or not name.startswith("_"):
        return False
    return name.startswith("__") or "__" in name[1:]


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
