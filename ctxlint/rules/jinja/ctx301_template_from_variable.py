"""CTX301 template-from-variable: one rule module (see the Rule's doc)."""

from __future__ import annotations

import ast

from ctxlint.findings import UNSAFE, Fix
from ctxlint.rules import Rule
from ctxlint.semantic.jinja.call_sites import SANDBOX_NAMES, call_sites, last_part, source_text


class TemplateFromVariable(Rule):
    code = "CTX301"
    name = "template-from-variable"
    summary = "jinja2 Template()/from_string() compiles non-literal source outside a SandboxedEnvironment."
    tokens = ("Template", "from_string", "render_template_string")
    fix_safety = UNSAFE
    doc = """\
## What it does
Flags `jinja2.Template(src)`, `env.from_string(src)` on a plain (not sandboxed)
`Environment`, and Flask's `render_template_string(src)` when `src` is not a
literal: not a string constant, a module or class constant (a class attribute
declared with a `None` default that only class bodies fill, with constants, and no
instance stores into), or text read from the
package's own files (`Path(__file__).parent / ...`, `importlib.resources`, also
through a helper's path parameter or a walk of the package directory), or a file
opened from a path built only from module or imported UPPER_CASE constants and
literals (`with (TEMPLATES_DIR / README_TEMPLATE_NAME).open() as f: f.read()`),
or the result of a helper of this module whose every `return` is such a package
read (`read_package_resource(f"{self.type}.jinja2")`, a file of the package chosen by
code), or an entry of a constant table (also through a parameter defaulting to it
that no call here fills with other data). A package read whose file name comes from
outside the program (`files(pkg).joinpath(request.args["t"])`) is still reported:
the name can walk out of the package.
A `.from_string(...)` counts only when its receiver can be jinja2's: a receiver
that resolves to another module's name or to this file's own class
(`Cursor.from_string(text)` parsing a pagination cursor) is not a template.

What an environment is — plain, sandboxed or immutable-sandboxed — is decided by
the value assigned, followed through local names, module globals and `self.`
attributes across the methods of a class and its base classes (and a Flask/Quart
application's `jinja_env`, a plain environment), never by what the variable or
attribute is called. An environment known only from a type annotation
(`def __init__(self, env: Environment)`) is not resolved: `Environment` admits a
`SandboxedEnvironment`, its subclass, so nothing is reported for it. Template text
passed to a helper of this module is judged at its calls: a parameter that every call
fills with the author's text (a literal, a constant), with no call from another module
possible (no other file of the package names the helper), is the author's text.

The author's own text also includes a property of a base class (in another module
of the project too) or an imported helper that returns a package file, and a file
the package ships opened by a path code alone names (`open(str(importlib_resources.files(
"pkg") / "t.jinja2")).read()`; a part taken from a parameter or a request is not).

The whole text of a file (`f.read()` of `with open(P) as f`, `open(P).read()`,
`P.read_text()`) is a template file of the deployment, as a `FileSystemLoader`'s
templates are, and is reported only with positive evidence that the file is chosen or
written outside the program: a part of its path comes from a request or a route's
parameter, the environment, input or a parsed config (`external_origin`, as CTX303
asks), or from a model-hub download (`hf_hub_download`, `snapshot_download`,
transformers `cached_file`). A path that is the caller's argument or the program's own
setting (panel's `--basic-login-template`) is the deployer's file. Blind reviews of real
code judged none of 35 such whole-file reads true (31 wrong: packaged kernel and prompt
files, operator-named pages). A field of a parsed file (`json.load(f)["chat_template"]`,
GGUF metadata) is data, not a template file, and is still reported. (Known gap: a model
directory handed in as a parameter is not followed to the download that filled it.)

A compile whose result is dropped (`env.from_string(text)` as a statement, a syntax
check that lets `TemplateSyntaxError` propagate) is not reported: compiling runs none of
the template's expressions; only rendering does.

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
Unsafe: the codemod swaps the environment for `ImmutableSandboxedEnvironment`. A
template that only formats its variables renders the same, but one that reads an
underscore attribute (`obj._name`) or mutates a list or dict it was given
(`messages.append(...)`, `ns.update(...)`) now raises `SecurityError`: check the
templates that reach this call (`ctxlint template-probe FILE`) before applying it.
The import is added where isort sorts it.

## Source
llama-cpp-python CVE-2024-34359 (GGUF chat template); LiteLLM
GHSA-46cm-pfwv-cgf8 (hub tokenizer template); SGLang CVE-2026-5760; PySpur#289;
bandit B701's sibling checks; jinja2 docs "Sandbox".
"""

    reported_when = (
        "the compiled text comes from someone other than the operator: a web request or a route's "
        "parameter (followed through helpers), an HTTP response, or a model artifact's chat template "
        "(GGUF `tokenizer.chat_template`, a tokenizer's `chat_template`, a hub download). Text from "
        "configuration, the environment or a caller the project does not show is latent.")

    def check(self, facts):
        cs = call_sites(facts)
        sandbox_imported = any(last_part(v) in SANDBOX_NAMES for v in facts.imports.values())
        for site in cs.compile_sites:
            if site.kind == "langchain":
                continue  # langchain-core renders jinja2 templates in a SandboxedEnvironment
            env = site.env
            if env is not None and env.kind == "sandbox":
                continue
            if env is None and sandbox_imported:
                continue  # an unresolved receiver in a file that uses sandboxes: do not guess
            if env is not None and env.declared and env.kind == "plain":
                continue  # `env: Environment` admits a SandboxedEnvironment (a subclass): not resolved
            if cs.literal_values(site.src) is not None or cs.is_trusted_source(site.src):
                continue
            if isinstance(facts.parents.get(site.call), ast.Expr):
                continue  # compiled and dropped: a syntax check, no template code runs
            path = cs.whole_file_path(site.src)
            if path is not None and not cs.path_from_outside(path):
                continue  # a template file of the deployment, as a loader's template is
            what = {"Template": "`Template()`", "from_string": "`from_string()`",
                    "render_template_string": "`render_template_string()`"}[site.kind]
            fix = None
            if self._fixable(facts, site):
                data = {"line": site.call.lineno, "col": site.call.col_offset, "kind": site.kind}
                if site.kind == "from_string":
                    data.update(env_line=env.call.lineno, env_col=env.call.col_offset)
                fix = Fix("compile the template in jinja2.sandbox.ImmutableSandboxedEnvironment", UNSAFE,
                          codemod="sandboxed_environment", data=data)
            # Manifest when the text is an outsider's: a request, an HTTP download, a model
            # artifact's chat template. Config, environment or a caller's parameter: latent.
            untrusted = cs.untrusted_origin(site.src)
            trace = [(site.src, "this text comes from a request, a download or a model artifact: "
                                "an outsider writes it")] if untrusted else [
                (site.src, "nothing in the project shows an outsider writing this text (it may be "
                           "configuration or a caller's parameter): the harm is latent")]
            yield facts.finding(self, site.call,
                                f"{what} compiles `{source_text(facts, site.src)}`, which is not a literal, "
                                "outside a sandbox: whoever writes that text can run code here "
                                "(use ImmutableSandboxedEnvironment)", fix=fix,
                                confidence="high" if untrusted else "low", trace=trace)

    @staticmethod
    def _fixable(facts, site) -> bool:
        """The fix swaps the `Environment(...)` call for a sandbox: offered only where that
        call is known and lies in the compile site's own function, class or module scope
        (not a base class's method, not a framework's application object)."""
        if site.kind != "from_string":
            return True
        env = site.env
        if env is None or env.call is None:
            return False
        env_fn = facts.enclosing_function(env.call)
        if env_fn is None or env_fn is facts.enclosing_function(site.call):
            return True
        cls = facts.enclosing_class(env_fn)
        return cls is not None and cls is facts.enclosing_class(site.call)
