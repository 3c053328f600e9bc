"""Templates family (CTX301-CTX305), the Jinja language module, the project pass and
`ctxlint template-probe`. The per-rule bad/good cases live in corpus/CTX30x/."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ctxlint import engine
from ctxlint.cli import main
from ctxlint.config import Config
from ctxlint.rules import select_rules


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")


def _lint(root: Path, paths=None, select=("CTX3", "CTX000"), use_cache=False):
    cfg = Config(root=root)
    rules = select_rules(list(select), [])
    res = engine.lint_paths([str(p) for p in (paths or [root])], cfg, rules, jobs=1, use_cache=use_cache)
    assert not res.internal_errors, res.notices
    return res


def _keys(res, root: Path):
    return sorted((str(Path(f.path).resolve().relative_to(root.resolve())), f.line, f.code) for f in res.findings)


APP = """\
    from pathlib import Path
    from jinja2 import FileSystemLoader
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(loader=FileSystemLoader(Path(__file__).parent / "templates"){extra})


    def build(question):
        return env.get_template("{name}").render(question=question{more})
"""


# ------------------------------------------------------------------ parsing
def test_template_syntax_error_is_ctx000_at_jinja2_line(tmp_path):
    _write(tmp_path, {"broken.j2": "Hello {{ name }}\n{% for x in xs %}\n{{ x }\n"})
    res = _lint(tmp_path)
    assert [(f.code, f.line) for f in res.findings] == [("CTX000", 3)]
    assert "cannot parse Jinja template" in res.findings[0].message


def test_columns_point_at_the_attribute(tmp_path):
    _write(tmp_path, {"t.j2": "ok {{ a.b }} then {{ doc.__class__ }}\n"})
    (f,) = _lint(tmp_path).findings
    line = "ok {{ a.b }} then {{ doc.__class__ }}"
    assert (f.code, f.line, f.col) == ("CTX302", 1, line.index("__class__") + 1)
    assert f.end_col - f.col == len("__class__")


def test_suppression_comment_in_template(tmp_path):
    _write(tmp_path, {"t.j2": "{{ x.__class__ }} {# ctxlint: ignore CTX302 #}\n{{ y.__mro__ }}\n"})
    assert [(f.line, f.code) for f in _lint(tmp_path).findings] == [(2, "CTX302")]


def test_linting_python_does_not_import_jinja2(tmp_path):
    _write(tmp_path, {"svc.py": "import asyncio\n\nasync def f():\n    asyncio.create_task(g())\n"})
    code = (
        "import sys; from ctxlint import engine; from ctxlint.config import Config;"
        "from ctxlint.rules import select_rules;"
        f"engine.lint_paths([{str(tmp_path)!r}], Config(root=__import__('pathlib').Path({str(tmp_path)!r})),"
        " select_rules([], []), jobs=1, use_cache=False);"
        "print('jinja2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_rules_for_multi_language():
    rules = select_rules(["CTX302", "CTX301"], ["CTX000"])  # CTX000 is on unless ignored
    assert {r.code for r in engine.rules_for("jinja", rules)} == {"CTX302"}
    assert {r.code for r in engine.rules_for("python", rules)} == {"CTX301", "CTX302"}
    assert engine.rules_for("go", rules) == []


# ------------------------------------------------------------------ project pass
def test_ctx304_cross_file_names_call_site(tmp_path):
    _write(tmp_path, {
        "app.py": APP.format(extra="", name="answer.j2", more=""),
        "templates/answer.j2": "Q: {{ question }}\nFor: {{ user_name }}\n",
    })
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("templates/answer.j2", 2, "CTX304")]
    assert "app.py:9" in res.findings[0].message and "user_name" in res.findings[0].message


def test_ctx304_silent_with_mapping_splat(tmp_path):
    _write(tmp_path, {
        "app.py": APP.format(extra="", name="answer.j2", more=", **extra"),
        "templates/answer.j2": "Q: {{ question }}\nFor: {{ user_name }}\n",
    })
    assert _lint(tmp_path).findings == []


def test_project_findings_are_not_served_from_the_cache(tmp_path):
    files = {
        "app.py": APP.format(extra="", name="answer.j2", more=""),
        "templates/answer.j2": "Q: {{ question }}\nFor: {{ user_name }}\n",
    }
    _write(tmp_path, files)
    first = _lint(tmp_path, use_cache=True)
    again = _lint(tmp_path, use_cache=True)
    assert _keys(first, tmp_path) == _keys(again, tmp_path) == [("templates/answer.j2", 2, "CTX304")]
    assert again.cached >= 1
    # the template is unchanged (a cache hit) but the call site now passes the variable
    _write(tmp_path, {"app.py": APP.format(extra="", name="answer.j2", more=", user_name='x'")})
    assert _lint(tmp_path, use_cache=True).findings == []


def test_loader_dir_files_are_linted_as_jinja(tmp_path):
    _write(tmp_path, {
        "app.py": APP.format(extra="", name="page.html", more=""),
        "templates/page.html": "<p>{{ question }}</p>\n<p>{{ question.__class__ }}</p>\n",
        "templates/notes.md": "{{ config|attr('__init__') }}\n",
        "other/readme.md": "{{ x.__class__ }}\n",  # not a template directory: not linted
    })
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("templates/notes.md", 1, "CTX302"), ("templates/page.html", 2, "CTX302")]
    assert res.files == 3 + 0  # app.py, page.html, notes.md


def test_loader_dir_file_of_another_engine_is_not_a_parse_error(tmp_path):
    """A loader directory shared with Tornado's templates (dask's http/templates): a file
    no render call names and that does not parse as Jinja is not ours; one a render call
    names is, and its syntax error is CTX000."""
    tornado = "{% for w in workers %}<li>{{ w }}</li>\n{% end %}\n"
    _write(tmp_path, {
        "app.py": APP.format(extra="", name="page.html", more=""),
        "templates/page.html": "<p>{{ question }}</p>\n",
        "templates/workers.html": tornado,
    })
    assert _keys(_lint(tmp_path), tmp_path) == []
    _write(tmp_path, {"app.py": APP.format(extra="", name="workers.html", more="")})
    assert _keys(_lint(tmp_path), tmp_path) == [("templates/workers.html", 2, "CTX000")]


def test_call_site_delimiters_are_respected(tmp_path):
    extra = ', variable_start_string="[[", variable_end_string="]]"'
    _write(tmp_path, {
        "app.py": APP.format(extra=extra, name="latex.j2", more=""),
        # {{ ... }} is LaTeX text under these delimiters; [[ ]] is template code
        "templates/latex.j2": "\\newcommand{{\\x}}{{ {{ foo.__class__ }} }}\n[[ question ]] [[ question.__globals__ ]]\n",
    })
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("templates/latex.j2", 2, "CTX302")]


def test_literal_template_with_custom_delimiters(tmp_path):
    _write(tmp_path, {"gen.py": """\
        from jinja2 import Environment
        env = Environment(variable_start_string="<<", variable_end_string=">>")
        T = env.from_string("struct << name >> { << t.__class__ >> }")
    """})
    assert _keys(_lint(tmp_path), tmp_path) == [("gen.py", 3, "CTX302")]


def test_same_file_literal_render_in_lint_text():
    """The LSP/flake8 path lints one buffer: CTX304 works for Template(literal).render()."""
    src = 'from jinja2 import Template\nT = Template("Hi {{ name }}, {{ plan }}")\nout = T.render(name="a")\n'
    rules = select_rules(["CTX304"], [])
    found = engine.lint_text("mem.py", src, "python", rules, Config())
    assert [(f.line, f.code) for f in found] == [(2, "CTX304")]
    assert "line 3" in found[0].message


def test_ctx303_needs_a_string_receiver(tmp_path):
    _write(tmp_path, {"f.py": """\
        def a(template: str, user):
            return template.format(user=user)

        def b(prompt, user):
            return prompt.format(user=user)

        def c(path, user):
            fmt = open(path).read()
            return fmt.format(user=user)

        def d(user):
            # a bare parameter is the caller's string; this caller fills `a`'s with input
            return a(input(), user)
    """})
    assert [(f.line, f.code) for f in _lint(tmp_path).findings] == [(2, "CTX303"), (9, "CTX303")]


def test_ctx303_bare_parameter_is_the_callers_string(tmp_path):
    # sentry_sdk.logger / haystack.logging shape: a library function formatting its
    # caller's template is not outside text; every caller passing a class constant
    # (crewai DatabaseError.format_error) is the author's own format string.
    _write(tmp_path, {"f.py": """\
        class Errors:
            SAVE = "could not save: {}"

            @classmethod
            def format_error(cls, template: str, error: Exception) -> str:
                return template.format(str(error))

        def log(template: str, **kwargs):
            return template.format_map(kwargs)

        def save(e):
            return Errors.format_error(Errors.SAVE, e)
    """})
    assert _lint(tmp_path).findings == []


def test_fix_data_follows_the_contract(tmp_path):
    _write(tmp_path, {"f.py": """\
        import jinja2, os
        def a(src, cfg):
            env = jinja2.Environment(autoescape=False)
            env.get_template("x.html")
            return jinja2.Template(src).render(), os.getenv("p", "x").format_map({})
    """})
    by_code = {f.code: f for f in _lint(tmp_path).findings}
    assert set(by_code) == {"CTX301", "CTX303", "CTX305"}
    assert by_code["CTX301"].fix.codemod == "sandboxed_environment"
    assert by_code["CTX303"].fix.codemod == "safe_format" and by_code["CTX303"].fix.safety == "unsafe"
    assert by_code["CTX305"].fix.codemod == "select_autoescape"
    for f in by_code.values():
        assert {"line", "col"} <= set(f.fix.data)
        assert f.fix.data["line"] == f.line and f.fix.data["col"] == f.col - 1


# ------------------------------------------------------------------ template-probe
def test_probe_reports_every_security_error(tmp_path, capsys):
    t = tmp_path / "bad.j2"
    t.write_text("{{ user.name }}\n{{ doc.__class__.__mro__ }}\n{{ lipsum.__globals__ }}\n")
    assert main(["template-probe", str(t)]) == 1
    out = capsys.readouterr().out
    assert f"{t}:2: SecurityError" in out and f"{t}:3: SecurityError" in out
    assert "__globals__" in out


def test_probe_clean_template_exits_zero(tmp_path, capsys):
    t = tmp_path / "ok.j2"
    t.write_text("{% for m in messages %}{{ m.role }}: {{ m.content | trim }}\n{% endfor %}"
                 "{% if tools %}{{ tools | length }}{% endif %}{{ 'x' ~ bos_token }}\n")
    assert main(["template-probe", str(t)]) == 0
    assert "renders clean" in capsys.readouterr().out


def test_probe_json_and_unsafe_call(tmp_path, capsys):
    t = tmp_path / "t.j2"
    t.write_text("{% set xs = [] %}{{ xs.append(1) }}\n{{ '{0.__class__}'.format(x) }}\n")
    assert main(["template-probe", "--json", str(t)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {e["line"] for e in data["security_errors"]} == {1, 2}
    assert all(e["path"] == str(t) for e in data["security_errors"])


def test_probe_names_the_template_expression_once(tmp_path, capsys):
    """Each unsafe expression is reported once, in the template's terms: never the
    probe's own stand-in class, not again for the falsy pass, nor once per loop item."""
    t = tmp_path / "t.j2"
    t.write_text("{% for m in messages %}{{ m.__class__ }}{% endfor %}\n"
                 "{% if doc.__dict__ %}x{% else %}{{ doc.__dict__ }}{% endif %}\n"
                 "{{ a.__class__ }} {{ b.__class__ }}\n{{ x.y.__class__.__mro__ }}\n")
    assert main(["template-probe", "--json", str(t)]) == 1
    data = json.loads(capsys.readouterr().out)
    got = [(e["line"], e["message"]) for e in data["security_errors"]]
    assert got == [
        (1, "access to attribute '__class__' of an item of `messages` is unsafe"),
        (2, "access to attribute '__dict__' of `doc` is unsafe"),
        (3, "access to attribute '__class__' of `a` is unsafe"),
        (3, "access to attribute '__class__' of `b` is unsafe"),
        (4, "access to attribute '__class__' of `x.y` is unsafe"),
    ]
    assert not any("StandIn" in m or "Refused" in m for _, m in got)


@pytest.mark.parametrize("content,code", [("{% for x in %}", 2), (None, 2)])
def test_probe_bad_input(tmp_path, content, code, capsys):
    t = tmp_path / "t.j2"
    if content is not None:
        t.write_text(content)
    assert main(["template-probe", str(t)]) == code
    assert "ctxlint: error" in capsys.readouterr().err


# ------------------------------------------------------------------ bad input
NASTY_TEMPLATES = [
    "{{", "{% if %}", "{{ x.__class__ ", "{% for %}{% endfor %}", "{#", "\x00\x01{{ a }}",
    "{% raw %}{{ x.__class__ }}{% endraw %}", "{{ " + "(" * 200 + "x" + ")" * 200 + " }}",
    "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{{ y.__init__ }}{% endcall %}",
    "{% unknowntag a b %}{{ q.__dict__ }}{% endunknowntag %}",
]
NASTY_PYTHON = [
    "from jinja2 import Template\nTemplate()\n",
    "import jinja2\njinja2.Environment().from_string(**kw)\n",
    "from langchain_core.prompts import PromptTemplate\nPromptTemplate(template_format=fmt)\n",
    "from jinja2 import Template\nTemplate('{{ x.__class__ }').render()\n",
    "import jinja2\ne = jinja2.Environment(loader=jinja2.FileSystemLoader(1 / 0))\ne.get_template(3).render(**{})\n",
    "x = '{0.__class__}'\nx.format(1)\nx.format_map()\n''.format\n",
    "from jinja2 import Environment\nEnvironment(variable_start_string='')\n",
]


#: the findings each NASTY_TEMPLATES entry gets: a parse error, the dunder walk, or nothing
NASTY_EXPECTED = [["CTX000"], ["CTX000"], ["CTX000"], ["CTX000"], [], ["CTX000"], [], ["CTX000"],
                  ["CTX302"], ["CTX302"]]


@pytest.mark.parametrize("text,expected", list(zip(NASTY_TEMPLATES, NASTY_EXPECTED)))
def test_bad_templates_never_crash(tmp_path, text, expected):
    (tmp_path / "t.j2").write_text(text, encoding="utf-8", errors="surrogateescape")
    res = _lint(tmp_path, select=("ALL",))
    assert [f.code for f in res.findings] == expected
    assert all(f.line == 1 and f.col >= 1 for f in res.findings)


def test_unknown_extension_tags_parse_generically(tmp_path):
    (tmp_path / "t.j2").write_text(NASTY_TEMPLATES[-1])
    assert [(f.code, f.line) for f in _lint(tmp_path).findings] == [("CTX302", 1)]


@pytest.mark.parametrize("text", NASTY_PYTHON)
def test_bad_python_call_sites_never_crash(tmp_path, text):
    """Half-written call sites: no internal error (asserted by _lint) and no finding —
    none of them compiles or formats text from outside the program."""
    (tmp_path / "m.py").write_text(text)
    assert _lint(tmp_path, select=("ALL",)).findings == []


FLASK_APP = """\
    from flask import Flask, render_template
    app = Flask(__name__)
    {extra}

    @app.get("/")
    def index():
        return render_template("index.html", answer="42")
"""


def test_ctx304_flask_render_template(tmp_path):
    _write(tmp_path, {
        "app.py": FLASK_APP.format(extra=""),
        "templates/index.html": "<p>{{ answer }} {{ request.path }} {{ url_for('x') }}</p>\n<p>{{ question }}</p>\n",
    })
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("templates/index.html", 2, "CTX304")]


def test_ctx304_flask_context_processor_silences(tmp_path):
    _write(tmp_path, {
        "app.py": FLASK_APP.format(extra="app.context_processor(lambda: {'question': 'q'})"),
        "templates/index.html": "<p>{{ answer }}</p>\n<p>{{ question }}</p>\n",
    })
    assert _lint(tmp_path).findings == []


# ------------------------------------------------------------------ values, not names
def test_environment_kind_follows_the_value_not_the_attribute_name(tmp_path):
    """A sandbox under Flask's conventional attribute name is a sandbox; a plain
    Environment under a sandbox-sounding name is plain; a base class's assignment counts."""
    _write(tmp_path, {"m.py": """\
        from jinja2 import Environment
        from jinja2.sandbox import ImmutableSandboxedEnvironment

        class Store:
            def __init__(self):
                self.jinja_env = ImmutableSandboxedEnvironment()

        class Chat(Store):
            def render(self, src):
                return self.jinja_env.from_string(src).render()

        class Base:
            def setup(self):
                self.sandbox = Environment()

        class Node(Base):
            def run(self, src):
                return self.sandbox.from_string(src).render()
    """})
    res = _lint(tmp_path)
    assert [(f.line, f.code) for f in res.findings] == [(18, "CTX301")]
    assert res.findings[0].fix is None  # the Environment() is in a base class's method: no blind swap


def test_flask_application_environment_is_plain(tmp_path):
    _write(tmp_path, {"app.py": """\
        from flask import Flask, request
        app = Flask(__name__)

        def preview():
            return app.jinja_env.from_string(request.args["t"]).render()
    """})
    assert [(f.line, f.code) for f in _lint(tmp_path).findings] == [(5, "CTX301")]


def test_ctx303_the_authors_own_format_strings_are_silent(tmp_path):
    _write(tmp_path, {"m.py": """\
        TABLE = {"a": "{x.__class__.__name__}"}

        class H:
            def __repr__(self):
                return "<H {fn.__qualname__}>".format(fn=self.fn)

            def label(self, k):
                return TABLE[k].format(x=self)
    """})
    assert _lint(tmp_path).findings == []


def test_ctx303_key_only_formatter_is_a_lesser_finding(tmp_path):
    _write(tmp_path, {"m.py": """\
        from llama_index.core import PromptTemplate
        from langchain_core.prompts import PromptTemplate as LC

        def a(db):
            return PromptTemplate(db.fetchone()["template"])

        def b(row):
            return LC.from_template(row["template"])

        def c(question: str):
            # no evidence of outside text: the key-only formatter is not reported
            return PromptTemplate(question)
    """})
    by_line = {f.line: f for f in _lint(tmp_path).findings}
    assert sorted(by_line) == [5, 8]
    assert "substitutes only `{key}`" in by_line[5].message and "walk attributes" in by_line[5].message
    assert "can read attributes" in by_line[8].message


def test_ctx305_needs_positive_evidence_of_html(tmp_path):
    _write(tmp_path, {"m.py": """\
        from fastapi.responses import HTMLResponse
        from jinja2 import Environment

        html_env = Environment(autoescape=False)
        page_env = Environment()
        web_env = Environment()

        def prompt(q):
            return html_env.from_string("Answer: {{ q }}").render(q=q)

        def report(rows):
            return page_env.get_template("report.html").render(rows=rows)

        def served(text):
            out = web_env.from_string("{{ text }}").render(text=text)
            return HTMLResponse(out)
    """, "views.py": """\
        from flask import Blueprint
        from jinja2 import Environment

        bp = Blueprint("answers", __name__)
        _env = Environment()
        _prompts = Environment()

        @bp.route("/answer")
        def answer(text):
            return _env.from_string("{{ text }}").render(text=text)

        def prompt(text):
            return _prompts.from_string("{{ text }}").render(text=text)
    """})
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("m.py", 5, "CTX305"), ("m.py", 6, "CTX305"), ("views.py", 5, "CTX305")]
    assert "report.html" in res.findings[0].message and "`HTMLResponse`" in res.findings[1].message
    assert "Flask view" in res.findings[2].message


def test_template_modules_form_no_import_cycle():
    """engine -> project -> semantic.jinja -> languages.jinja: one direction. No ctxlint
    module on the template path imports a module that imports it back (function-level
    imports included), and languages/jinja.py imports nothing but the standard library."""
    import ast as pyast

    root = Path(__file__).resolve().parents[1] / "ctxlint"
    graph: dict[str, set[str]] = {}
    for p in root.rglob("*.py"):
        rel = p.relative_to(root.parent).with_suffix("")
        mod = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        deps = graph.setdefault(mod, set())
        for n in pyast.walk(pyast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, pyast.Import):
                deps.update(a.name for a in n.names if a.name.startswith("ctxlint"))
            elif isinstance(n, pyast.ImportFrom) and (n.module or "").startswith("ctxlint") and not n.level:
                deps.add(n.module)
                deps.update(f"{n.module}.{a.name}" for a in n.names)
    template_path = ["ctxlint.engine", "ctxlint.project", "ctxlint.template_probe", "ctxlint.languages.jinja",
                     "ctxlint.semantic.jinja.templates", "ctxlint.semantic.jinja.call_sites",
                     *sorted(m for m in graph if m.startswith("ctxlint.rules.jinja."))]

    def reaches(a: str, b: str) -> bool:
        seen, todo = set(), [a]
        while todo:
            m = todo.pop()
            if m == b:
                return True
            if m not in seen:
                seen.add(m)
                todo.extend(d for d in graph.get(m, ()) if d in graph)
        return False

    for m in template_path:
        assert m in graph, m
        for d in graph[m]:
            if d in graph and d != m:
                assert not reaches(d, m), f"{m} imports {d}, which imports {m} back"
    assert not {d for d in graph["ctxlint.languages.jinja"] if d in graph}
    assert "ctxlint.engine" not in graph["ctxlint.project"]


def test_environment_imported_from_a_sibling_module_is_followed(tmp_path):
    """`from .env import env`: the sibling module decides what the environment is (a
    sandbox there silences CTX301), and a literal defined there is the author's text;
    a factory function's return value is followed too."""
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/env.py": """\
            from jinja2.sandbox import SandboxedEnvironment as Environment
            env = Environment()
        """,
        "pkg/plain.py": """\
            import jinja2
            shared = jinja2.Environment()
            chat_tmpl = "{% for m in messages %}{{ m.content }}{% endfor %}"
        """,
        "pkg/chat.py": """\
            from jinja2 import Template
            from .plain import chat_tmpl

            def render(messages):
                return Template(chat_tmpl).render(messages=messages)
        """,
        "pkg/prompt.py": """\
            from .env import env
            from .plain import shared
            import jinja2

            def make_env():
                return jinja2.Environment(trim_blocks=True)

            def a(text):
                return env.from_string(text)

            def b(text):
                return shared.from_string(text)

            def c(text):
                return make_env().from_string(text)
        """,
    })
    res = _lint(tmp_path)
    assert _keys(res, tmp_path) == [("pkg/prompt.py", 12, "CTX301"), ("pkg/prompt.py", 15, "CTX301")]
    by_line = {f.line: f for f in res.findings}
    # the Environment() to swap is in another file / another function: no blind fix
    assert by_line[12].fix is None and by_line[15].fix is None


def test_custom_delimiters_hold_when_only_python_rules_are_selected(tmp_path):
    """`--select` of Python rules alone: a template that parses only under its
    environment's own delimiters (nbconvert's LaTeX `((* ... *))`) is no CTX000, as
    in the full run; a template that parses under none still is."""
    extra = ', block_start_string="((*", block_end_string="*))"'
    _write(tmp_path, {
        "app.py": APP.format(extra=extra, name="latex.j2", more=""),
        # `{%` is LaTeX text here; under the default delimiters it is a broken block tag
        "templates/latex.j2": "\\def\\x{% raw-latex }\n((* if question *))[[ question ]]((* endif *))\n",
    })
    full = _keys(_lint(tmp_path), tmp_path)
    python_only = _keys(_lint(tmp_path, select=("CTX404", "CTX000")), tmp_path)
    assert full == python_only == []
    _write(tmp_path, {"templates/latex.j2": "{% if x %}\n((* if question *))\n"})  # unclosed under both sets
    assert [k[2] for k in _keys(_lint(tmp_path, select=("CTX404", "CTX000")), tmp_path)] == ["CTX000"]


def test_generation_tag_parses_and_an_unknown_tag_is_a_notice(tmp_path):
    """Hugging Face chat templates' `{% generation %}` parses in `check` and renders in
    `template-probe`; a tag of an extension ctxlint does not load is parsed generically
    and named in a notice, never silence (issue 35, llama.cpp's templates)."""
    import subprocess
    import sys
    (tmp_path / "chat.j2").write_text("{% for m in messages %}{% generation %}{{ m.content }}"
                                      "{% endgeneration %}{% endfor %}\n")
    (tmp_path / "odd.j2").write_text("{% foo bar %}x{% endfoo %}\n")
    res = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--no-cache", "chat.j2", "odd.j2"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "unknown Jinja tag 'foo'" in res.stderr and "generation" not in res.stderr
    probe = subprocess.run([sys.executable, "-m", "ctxlint", "template-probe", "chat.j2"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and "renders clean" in probe.stdout, probe.stdout + probe.stderr
