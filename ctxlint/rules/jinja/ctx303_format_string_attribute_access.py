"""CTX303 format-string-attribute-access: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import UNSAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.jinja.call_sites import PROMPT_FORMATTERS, call_sites, keyword_arg, last_part, source_text


class FormatStringAttributeAccess(Rule):
    code = "CTX303"
    name = "format-string-attribute-access"
    summary = ("str.format/format_map/Formatter or an f-string PromptTemplate on a format string that comes "
               "from outside the program.")
    tokens = (".format", "from_template", "PromptTemplate", "Formatter")
    fix_safety = UNSAFE
    doc = """\
## What it does
Flags `fmt.format(...)` and `fmt.format_map(...)` (also spelled `str.format(fmt, ...)`),
`string.Formatter().format(fmt, ...)`
/ `.vformat(...)`, and LangChain `PromptTemplate(template=fmt)` (default
`template_format="f-string"`) / `PromptTemplate`/`ChatPromptTemplate.from_template(fmt)`
/ the text of a `(role, fmt)` message in `ChatPromptTemplate.from_messages([...])`
when the format string comes from outside the program. That needs positive evidence:
the value is, or is built from, input or the environment (`os.environ`, `os.getenv`,
a pydantic `BaseSettings` field), a file, stream or database read (`open(p).read()`,
`json.load`, `yaml.safe_load`, `cursor.fetchone()`), a parsed config file
(`configparser`), a web request (Flask's `request`, a route handler's parameter, a
`Request` object) or an HTTP response — followed through local names, `self.`
attributes, the return values of this module's helpers, and the calls in this module
that fill a parameter.

Not flagged: the author's own format strings — a literal (even one with attribute
fields such as `"{fn.__qualname__}"`), a module or class constant, an entry of a
constant table (`LABELS[style]`, `MappingProxyType({...})[key]`, `TABLE.get(key)`,
`example["content"]` for `example in examples` where `examples=EXAMPLES` is a
parameter default no call in this module replaces with other data),
text read from the package's own files (the fact CTX301 uses: a path built from
`__file__`, importlib.resources, or a literal relative path that exists in the source
tree or leads down into this module's own directory tree — `open("pkg/webui/footer.html")`
from `pkg/webui/manage.py`, also through a helper whose path parameter every call here
fills so) — and a bare parameter of a function: a
library helper formatting its caller's template (`logger.info(template, **kwargs)`)
formats a developer's string, and a parameter every call here fills with a constant
is the author's. A LangChain f-string prompt template is the exception: prompt
templates are configuration by design (saved, loaded from files, hubs and
registries), so a record's field (`row.template`) or a `str` parameter that no call
here fills with the author's text is reported there too. For `.format()` the
receiver is known to be a string because data read from outside is plain data, so
`PromptTemplate.format()` and `logging.Formatter.format()` are not flagged. A
`string.Formatter` subclass overriding `get_field` is a sanitizer. Nor is a
`.format()` whose every value is a string or number literal of this file, also
`**TABLE` of a constant dict of such literals (`stored.format(**PLACEHOLDER_MAP)`):
a field can reach only `str`/`int` and their builtin methods, which hold no
`__globals__`, whoever wrote the format string.

A LlamaIndex `PromptTemplate` built from outside text is reported with its own,
lesser wording: its formatter substitutes only `{key}` from a dict and never walks
attributes, so the risk is prompt text controlled by someone else, not reading
object internals. Without evidence of outside text it is not reported.

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
cowrie #40501; Armin Ronacher, "Be Careful with Python's New-Style String Format" (2016);
llama_index.core.prompts.utils.SafeFormatter (key-only substitution).
"""

    def check(self, facts):
        cs = call_sites(facts)
        for call in facts.nodes(ast.Call):
            fn = call.func
            if isinstance(fn, ast.Attribute) and fn.attr in ("format", "format_map") and isinstance(fn.value, ast.Name) \
                    and fn.value.id == "str" and "str" not in facts.imports and "str" not in facts.module_assignments:
                # the unbound spelling, `str.format(fmt, **fields)`: the format string is the first argument
                if call.args and not isinstance(call.args[0], ast.Starred):
                    yield from self._check(facts, cs, call, call.args[0], need="evidence",
                                           what=f"`str.{fn.attr}()`", fix=False)
                continue
            if isinstance(fn, ast.Attribute) and fn.attr in ("format", "format_map", "vformat"):
                fk = cs.formatter_kind(fn.value)
                if fk == "hardened":
                    continue
                if fk == "plain":
                    fmt = call.args[0] if call.args else keyword_arg(call, "format_string")
                    if fmt is not None:
                        yield from self._check(facts, cs, call, fmt, need="evidence",
                                               what=f"`string.Formatter().{fn.attr}()`", fix=False)
                    continue
                if fn.attr == "vformat":
                    continue
                if fn.attr == "format" and _only_literal_values(cs, call):
                    continue  # nothing to walk: `{0.__class__...}` on a str/int literal reaches no secret
                yield from self._check(facts, cs, call, fn.value, need="evidence",
                                       what=f"`.{fn.attr}()`", fix=True)
                continue
            lib = cs.prompt_library(fn)
            if lib is None or cs._lc_format(call) != "f-string":
                continue
            name = last_part(facts.qualname(fn))
            what = f"`{name}()`"
            key_only = PROMPT_FORMATTERS.get(lib) == "key-only"
            src = next((s for s in cs.prompt_sources(call)
                        if self._external(cs, s, need="evidence" if key_only else "prompt")), None)
            if src is None:
                continue
            if key_only:
                yield facts.finding(
                    self, call,
                    f"{what} builds a prompt template from `{source_text(facts, src)}`, which comes from outside "
                    f"the program: {lib}'s formatter substitutes only `{{key}}` and cannot walk attributes, but "
                    "whoever writes that text decides the whole prompt (lesser risk; review where it comes from)")
                continue
            yield self._finding(facts, call, src, what + " (f-string template)", fix=False)

    def _external(self, cs, fmt, need: str) -> bool:
        """Does format string `fmt` come from outside the program (see the doc)?

        need: "evidence" (`.format()`, `format_map`, `string.Formatter`, a key-only prompt
        class): positive evidence of outside origin is required (`CallSites.external_origin`:
        input, environment, a file/DB/HTTP read, a parsed config file, a web request or a
        route handler's parameter, followed through locals, helpers and this module's
        callers); a bare parameter is the caller's, a developer's, string. Data read from
        outside is plain data (str, numbers, lists, dicts), so a `.format()` receiver of
        that origin is a string. "prompt" (an attribute-walking prompt class, LangChain's
        f-string `PromptTemplate`): prompt templates are configuration by design (saved,
        loaded from files, hubs and registries — `load_prompt`, GHSA-6qv9-48xg-fc7f), so a
        record's field (`row["template"]`, `settings.system_prompt`) or a `str` parameter
        that no call in this module fills with the author's own text counts as well."""
        if cs.literal_values(fmt) is not None or cs.is_trusted_source(fmt):
            return False  # the author's own text: a literal, a constant, a constant table, a package file
        if cs.external_origin(fmt):
            return True
        return need == "prompt" and cs.data_evidence(fmt)

    def _check(self, facts, cs, call, fmt, need, what, fix):
        if self._external(cs, fmt, need):
            yield self._finding(facts, call, fmt, what, fix)

    def _finding(self, facts, call, fmt, what, fix):
        return facts.finding(self, call, f"{what} uses `{source_text(facts, fmt)}`, which comes from outside the "
                             "program, as a format string: whoever writes it can read attributes of every value "
                             "passed (`{x.__class__.__init__.__globals__}`)", fix=self._fix(call) if fix else None)

    @staticmethod
    def _fix(call):
        return Fix("format through a Formatter that rejects attribute and index access", UNSAFE,
                   codemod="safe_format", data={"line": call.lineno, "col": call.col_offset,
                                                "method": call.func.attr})


def _only_literal_values(cs, call: ast.Call) -> bool:
    """Are all the values `.format()` is given literal strings or numbers (directly or
    through constants of this file)? Then an attribute walk in the format string can
    reach only a `str`/`int` and its builtin methods, which hold no `__globals__`: the
    author's values expose nothing, whoever wrote the format string. `**TABLE` of a
    constant dict of this file whose values are all such literals
    (`template.format(**PLACEHOLDER_MAP)`) counts as its values. A call with no values,
    `*args`, or `**kwargs` of anything else, is not of this kind."""
    values = [*call.args, *(k.value for k in call.keywords if k.arg is not None)]
    for k in call.keywords:
        if k.arg is None:
            table = cs._dict_literal(k.value, 0)
            if table is None or any(key is None for key in table.keys) or _mutated(cs, k.value):
                return False
            values.extend(table.values)
    if not values or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    for v in values:
        if isinstance(v, ast.Constant) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool):
            continue
        if cs.literal_values(v) is None:
            return False
    return True


def _mutated(cs, expr: ast.AST) -> bool:
    """Is the table `expr` names (a module or local name) changed anywhere in the file:
    a subscript store or `del`, a mutating method (`update`, `setdefault`, `__setitem__`,
    `pop`, `clear`), or a second binding? Then its values are not only its literal's."""
    if not isinstance(expr, ast.Name):
        return not isinstance(expr, ast.Dict)
    name = expr.id
    binds = 0
    for n in cs.f.nodes(ast.Name):
        if n.id != name:
            continue
        p = cs.f.parents.get(n)
        if isinstance(n.ctx, ast.Store):
            binds += 1
        elif isinstance(p, ast.Subscript) and p.value is n and isinstance(p.ctx, (ast.Store, ast.Del)):
            return True
        elif isinstance(p, ast.Attribute) and p.value is n and p.attr in (
                "update", "setdefault", "__setitem__", "pop", "popitem", "clear", "__ior__"):
            return True
        elif isinstance(p, ast.AugAssign) and p.target is n:
            return True
    return binds > 1

