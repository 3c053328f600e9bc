"""Template call-site facts of one Python file (shared by the CTX3xx rules).

`call_sites(facts)` (memoized on `PythonFacts`) answers, for one Python file:

- `envs`: every jinja2 environment constructed here (`EnvInfo`): its kind, decided
  by the class of the VALUE built — "plain" (`jinja2.Environment`), "sandbox"
  (`SandboxedEnvironment`, `ImmutableSandboxedEnvironment`, or a subclass of
  either defined here or imported) or "native" —, its loader directories,
  delimiters, autoescape setting and globals;
- `env_of(expr)`: the environment an expression holds, following local names,
  module globals and `self.`/`cls.` attributes through every assignment in the
  class and in its base classes defined in this module, never by the
  attribute's or variable's name;
- `compile_sites`: calls that compile template source (`jinja2.Template(src)`,
  `env.from_string(src)`, Flask `render_template_string(src)`, prompt classes of
  LangChain/LlamaIndex with `template_format="jinja2"`);
- `literal_templates`, `render_sites`: literal template text reaching a compile
  site, and render calls with the variable names they pass;
- `literal_values`, `is_trusted_source`: whether a string expression is the developers'
  own text; `external_origin`: positive evidence that it comes from outside the program
  (input, environment, files, databases, requests); `str_evidence`, `data_evidence`: the
  weaker "looks like data" evidence used for prompt templates, which are configuration;
- `formatter_kind`, `prompt_library`: format strings (`string.Formatter`, and the
  prompt classes' own formatters).

The name tables below are well-known APIs (jinja2, Flask, LangChain, LlamaIndex),
each with its source; a rule never decides by what a variable is called.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ctxlint.languages.jinja import DELIMITER_KEYS

#: jinja2's public API (jinja2/__init__.py, jinja2.sandbox, jinja2.nativetypes): the
#: template class, the sandboxed environment classes and the plain ones.
_TEMPLATE_QUALNAMES = {"jinja2.Template", "jinja2.environment.Template"}
SANDBOX_NAMES = {"SandboxedEnvironment", "ImmutableSandboxedEnvironment"}
_ENV_NAMES = {"Environment", "NativeEnvironment", "Overlay"}
#: LangChain prompt classes taking `template_format` (langchain_core.prompts.prompt /
#: chat); LlamaIndex exports a `PromptTemplate` too (llama_index.core.prompts.base).
_LC_PROMPTS = {"PromptTemplate", "ChatPromptTemplate", "SystemMessagePromptTemplate",
               "HumanMessagePromptTemplate", "AIMessagePromptTemplate", "ChatMessagePromptTemplate"}
#: Prompt-template libraries and how each formats a template in its default
#: ("f-string") format. "attribute-walk": `str.format`, so `{x.__class__}` walks
#: attributes (langchain_core.prompts.string: `formatter.format`, GHSA-6qv9-48xg-fc7f).
#: "key-only": only `{key}` is substituted from a dict, attribute and index fields are
#: left as text (llama_index.core.prompts.utils.SafeFormatter / format_string).
PROMPT_FORMATTERS = {"langchain": "attribute-walk", "llama_index": "key-only"}
#: Where text from outside the program enters it (CTX303 `external_origin`).
#: Calls returning such text or data: builtins.input; os.getenv / os.environ.get (the
#: environment); json.load / yaml.safe_load / yaml.load / yaml.full_load / tomllib.load /
#: toml.load (a file's content, parsed); HTTP clients (requests, httpx, urllib.request.urlopen);
#: python-dotenv `dotenv_values` (a .env file); Streamlit text widgets (what the user typed).
EXTERNAL_CALLS = {
    "input", "os.getenv", "os.environ.get", "os.getenvb",
    "json.load", "yaml.safe_load", "yaml.load", "yaml.full_load", "yaml.unsafe_load", "tomllib.load", "toml.load",
    "requests.get", "requests.post", "requests.request", "httpx.get", "httpx.post", "httpx.request",
    "urllib.request.urlopen", "dotenv.dotenv_values", "dotenv.main.dotenv_values",
    "streamlit.text_input", "streamlit.text_area", "streamlit.chat_input",
}
#: Pure transforms of text: their result comes from outside when an argument does
#: (json/tomllib/toml `loads`, yaml.safe_load of a string, textwrap/inspect dedenting,
#: base64 decoding, html/URL unescaping).
_TEXT_TRANSFORMS = {"json.loads", "tomllib.loads", "toml.loads", "textwrap.dedent", "inspect.cleandoc",
                    "base64.b64decode", "html.unescape", "urllib.parse.unquote", "urllib.parse.unquote_plus"}
#: Objects holding text from outside: os.environ, sys.argv, sys.stdin, and the current
#: request of Flask/Quart (flask.globals.request, quart.globals.request).
EXTERNAL_OBJECTS = {"os.environ", "sys.argv", "sys.stdin", "flask.request", "quart.request"}
#: Calls that fetch a file from a model hub and return its local path (huggingface_hub
#: docs, `hf_hub_download`/`snapshot_download`; transformers `utils.cached_file`;
#: modelscope `snapshot_download`): what lies there is the repository owner's text.
REMOTE_FILE_CALLS = {
    "huggingface_hub.hf_hub_download", "huggingface_hub.snapshot_download",
    "huggingface_hub.file_download.hf_hub_download", "huggingface_hub._snapshot_download.snapshot_download",
    "transformers.utils.cached_file", "transformers.utils.hub.cached_file",
    "modelscope.snapshot_download", "modelscope.hub.snapshot_download.snapshot_download",
}
#: Of EXTERNAL_CALLS / EXTERNAL_OBJECTS / EXTERNAL_CLASSES, those whose text comes from
#: someone other than the deployment's operator (CTX301's manifest evidence,
#: `untrusted_origin`): an HTTP response (a download), a web request, a chat widget.
#: The environment, configuration files, the command line and `input()` are the
#: operator's text: evidence of an outside origin, but only a latent harm.
UNTRUSTED_CALLS = {
    "requests.get", "requests.post", "requests.request", "httpx.get", "httpx.post", "httpx.request",
    "urllib.request.urlopen", "streamlit.text_input", "streamlit.text_area", "streamlit.chat_input",
}
UNTRUSTED_OBJECTS = {"flask.request", "quart.request"}
#: Keys and attributes under which a model artifact carries its chat template: GGUF
#: metadata `tokenizer.chat_template` (GGUF spec, llama.cpp), Hugging Face tokenizers'
#: `chat_template` attribute and `tokenizer_config.json` key (transformers docs).
MODEL_TEMPLATE_KEYS = {"tokenizer.chat_template", "chat_template"}
#: Classes whose instances hold text from outside: configuration parsers (configparser),
#: web requests (flask/werkzeug Request, starlette/fastapi Request, django HttpRequest,
#: aiohttp web.Request), HTTP responses (requests.Response, httpx.Response) and the
#: command line (argparse.ArgumentParser: `parse_args()` returns what the user typed).
EXTERNAL_CLASSES = {
    "configparser.ConfigParser", "configparser.RawConfigParser", "configparser.SafeConfigParser",
    "flask.Request", "werkzeug.Request", "werkzeug.wrappers.Request", "quart.Request",
    "starlette.requests.Request", "fastapi.Request", "fastapi.requests.Request",
    "django.http.HttpRequest", "django.http.request.HttpRequest", "aiohttp.web.Request", "aiohttp.web_request.Request",
    "requests.Response", "requests.models.Response", "httpx.Response",
    "argparse.ArgumentParser",
}
#: Of EXTERNAL_CLASSES, the operator's own input (configuration, command line).
_OPERATOR_CLASSES = {"configparser.ConfigParser", "configparser.RawConfigParser", "configparser.SafeConfigParser",
                     "argparse.ArgumentParser"}
#: Methods that read from a file, stream, socket or database: io (read, readline,
#: readlines, read_text, read_bytes), socket.recv, PEP 249 DB-API cursors (fetchone,
#: fetchmany, fetchall), encode/databases (fetch_one, fetch_all, fetch_val), asyncpg
#: (fetchrow, fetchval). A read of the package's own files is excluded by `is_trusted_source`.
READ_METHODS = {"read", "readline", "readlines", "read_text", "read_bytes", "recv",
                "fetchone", "fetchmany", "fetchall", "fetch_one", "fetch_all", "fetch_val", "fetchrow", "fetchval"}
#: Settings classes whose fields are read from environment variables and .env files when
#: an instance is built (pydantic-settings BaseSettings; pydantic v1 pydantic.BaseSettings).
SETTINGS_BASES = {"pydantic_settings.BaseSettings", "pydantic_settings.main.BaseSettings", "pydantic.BaseSettings"}
#: Route-registering application classes besides Flask/Quart: FastAPI and its APIRouter
#: (fastapi.applications.FastAPI, fastapi.routing.APIRouter); their decorated handlers'
#: parameters are request data.
_ROUTER_CLASSES = {"fastapi.FastAPI", "fastapi.applications.FastAPI", "fastapi.APIRouter", "fastapi.routing.APIRouter"}
#: Read-only mapping wrappers of a literal dict (types.MappingProxyType, dict(...)).
_MAPPING_WRAPPERS = {"types.MappingProxyType", "dict"}
#: Framework application classes and globals whose `jinja_env` is a plain
#: `jinja2.Environment` (flask.app.Flask.jinja_environment = templating.Environment,
#: a jinja2.Environment subclass; quart.app.Quart likewise).
_APP_CLASSES = {"flask.Flask", "flask.app.Flask", "quart.Quart", "quart.app.Quart"}
_APP_GLOBALS = {"flask.current_app", "quart.current_app"}
_APP_ENV_ATTRS = {"jinja_env"}
#: Names Flask puts in every template's context (flask.app.Flask.update_template_context
#: and flask.templating._default_template_ctx_processor: request, session, g, config,
#: url_for, get_flashed_messages; Flask-Login adds current_user, Flask-WTF csrf_token).
FLASK_TEMPLATE_CONTEXT = frozenset({"request", "session", "g", "config", "url_for", "get_flashed_messages",
                                    "current_user", "csrf_token"})
#: Where a rendered string is HTML: Markup marks it as HTML, a web response with
#: these classes is served as text/html (starlette.responses.HTMLResponse; flask
#: Response/make_response default mimetype "text/html"; django.http.HttpResponse
#: default content_type "text/html"; aiohttp.web.Response with `content_type="text/html"`
#: only, checked where it is used).
HTML_SINKS = {
    "markupsafe.Markup", "jinja2.Markup", "flask.Markup", "jinja2.utils.Markup",
    "starlette.responses.HTMLResponse", "fastapi.responses.HTMLResponse",
    "flask.make_response", "flask.Response", "werkzeug.wrappers.Response", "werkzeug.Response",
    "quart.make_response", "quart.Response", "django.http.HttpResponse", "django.http.response.HttpResponse",
    "aiohttp.web.Response",
}
#: Route decorators of Flask/Quart application and Blueprint objects (flask.sansio.scaffold.Scaffold).
_VIEW_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}
_BLUEPRINT_CLASSES = {"flask.Blueprint", "flask.blueprints.Blueprint", "quart.Blueprint"}
_RENDER_METHODS = {"render", "render_async", "stream", "generate", "generate_async"}
_STR_METHODS = {"read", "read_text", "decode", "strip", "lstrip", "rstrip", "replace", "join", "lower",
                "upper", "format", "getenv", "removeprefix", "removesuffix", "expandtabs", "title"}
HTML_SUFFIXES = (".html", ".htm", ".xml", ".xhtml", ".svg")
#: HTML element names (WHATWG HTML Living Standard, "Elements" index; the common subset).
HTML_ELEMENTS = ("html|head|body|title|meta|link|div|span|p|a|b|i|u|em|strong|small|sub|sup|table|thead|"
                 "tbody|tfoot|tr|td|th|caption|ul|ol|li|dl|dt|dd|pre|code|blockquote|script|style|form|"
                 "input|button|label|select|option|textarea|iframe|h[1-6]|br|hr|img|section|article|nav|"
                 "header|footer|main|aside|figure|figcaption|details|summary|svg|canvas|video|audio|source")
#: The HTML tests' patterns, compiled on first use (`_html_patterns`): two large
#: alternations cost about a millisecond to compile, in every process that imports
#: this module, most of which never ask.
_HTML_CLOSE_SRC = rf"</\s*(?:{HTML_ELEMENTS})\s*>"
_HTML_STRONG_SRC = rf"<\s*(?:!doctype\s+html|(?:{HTML_ELEMENTS})\s+[\w-]+\s*=|(?:br|hr|img|meta|input|link)\s*/?>)"
_HTML_RES: list = []


def _html_patterns() -> "list[re.Pattern[str]]":
    if not _HTML_RES:
        _HTML_RES.extend((re.compile(_HTML_CLOSE_SRC, re.I), re.compile(_HTML_STRONG_SRC, re.I)))
    return _HTML_RES


def _is_docstring(facts, expr: ast.AST) -> bool:
    """Is `expr` an object's docstring: `x.__doc__`, `inspect.getdoc(x)`, or one of them
    passed through `textwrap.dedent`/`inspect.cleandoc` or `.strip()`?"""
    if isinstance(expr, ast.Attribute):
        return expr.attr == "__doc__"
    if not isinstance(expr, ast.Call) or not expr.args and not isinstance(expr.func, ast.Attribute):
        return False
    if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("strip", "lstrip", "rstrip") and not expr.args:
        return _is_docstring(facts, expr.func.value)
    q = facts.qualname(expr.func) or ""
    if q == "inspect.getdoc":
        return True
    if q in ("textwrap.dedent", "inspect.cleandoc") and expr.args:
        return _is_docstring(facts, expr.args[0])
    return False


def looks_like_html(text: str) -> bool:
    """Is `text` HTML markup: a doctype, a closing tag of a known element (`</p>`), a known
    element's tag with an attribute (`<div class="x">`) or a void element (`<br>`)? A bare
    `<word>` — a CLI usage placeholder such as `<path>` or `<A,B>` — is not markup."""
    if not isinstance(text, str) or "<" not in text:
        return False
    close, strong = _html_patterns()
    return bool(close.search(text) or strong.search(text))


@dataclass
class EnvInfo:
    """A jinja2 environment built in the checked file.

    kind: "sandbox" | "plain" | "native"; call: its constructor call in the checked file
    (None when unknown, or built in another module of the project);
    options: literal delimiter settings; autoescape: "on" | "off-explicit" | "off-default";
    loader_dirs: directories its FileSystemLoader/PackageLoader reads (resolved, may not exist);
    globals: names added through `env.globals[...]`/`.update(...)`; open_globals: a
    non-literal globals update (render checks then stay silent); declared: known only
    from a parameter's or attribute's type annotation (`env: Environment` admits
    any subclass, `SandboxedEnvironment` included, so a plain `kind` is a bound, not
    a fact).
    """

    kind: str
    call: ast.Call | None = None
    options: dict = field(default_factory=dict)
    autoescape: str = "off-default"
    loader_dirs: list[Path] = field(default_factory=list)
    globals: set = field(default_factory=set)
    open_globals: bool = False
    binding: str | None = None
    declared: bool = False


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
    `Template(literal).render(...)`; globals: the names that template object gets
    through its own `.globals` (None when they cannot be read).
    """

    call: ast.Call
    names: set | None
    template: str | None = None
    env: EnvInfo | None = None
    source: LiteralTemplate | None = None
    flask: bool = False
    #: names the template object itself gets as globals (`_template_globals`); None: any
    globals: set | None = field(default_factory=set)


def last_part(q: str | None) -> str:
    """The last dotted component of a qualified name ("jinja2.sandbox.X" -> "X"; None -> "")."""
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
        # per-class indexes, each built in one pass on first use (see `_class_attr_values`)
        self._class_attrs: dict[ast.ClassDef, dict[str, list]] = {}
        self._families: dict[ast.ClassDef, list[ast.ClassDef]] = {}

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
                vals.extend(("aug", n) for n in self._module_augassigns.get(expr.id, ()))
                return vals
            return None
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and self._is_instance_ref(expr.value):
            cls = self.f.enclosing_class(expr)
            if cls is None:
                return None
            vals: list = []
            for c in self.class_family(cls):
                vals.extend(self._class_attr_values(c, expr.attr) or ())
            return vals or None
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            c = self._classes_by_name.get(expr.value.id)
            if c is not None:
                return self._class_attr_values(c[0], expr.attr)
        return None

    @cached_property
    def _module_augassigns(self) -> dict[str, list[ast.AugAssign]]:
        """name -> the module-level `name op= ...` statements (outside any def), in source order."""
        out: dict[str, list[ast.AugAssign]] = {}
        for n in self.f.nodes(ast.AugAssign):
            if isinstance(n.target, ast.Name) and self.f.enclosing_function(n) is None:
                out.setdefault(n.target.id, []).append(n)
        return out

    @cached_property
    def _classes_by_name(self) -> dict[str, list[ast.ClassDef]]:
        """class name -> the classes of this module so named, in source order."""
        by_name: dict[str, list[ast.ClassDef]] = {}
        for c in self.f.nodes(ast.ClassDef):
            by_name.setdefault(c.name, []).append(c)
        return by_name

    def _is_instance_ref(self, name: ast.Name) -> bool:
        """Is `name` the instance (or class) parameter of the method it is used in — the
        method's first parameter, whatever it is called — also from a closure or lambda
        inside that method that does not rebind it?"""
        fn = self.f.enclosing_function(name)
        while fn is not None:
            cls = self.f.enclosing_class(fn)
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and cls is not None \
                    and self.f.parents.get(fn) is cls:
                if any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list):
                    return False
                first = [*fn.args.posonlyargs, *fn.args.args]
                return bool(first) and first[0].arg == name.id
            if name.id in {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}:
                return False  # rebound by the closure's own parameter
            fn = self.f.enclosing_function(fn)
        return False

    def _typed_as(self, expr: ast.AST, cls: ast.ClassDef, depth: int = 0) -> bool:
        """Does `expr` hold an instance of `cls` (a class of this module), by its binding:
        a parameter annotated with the class (a FastAPI `Depends` parameter included), a
        local or `self.` attribute assigned the class's constructor call, or a `self.`
        attribute assigned such a parameter in the class's methods?"""
        if depth > 3:
            return False
        def names_cls(ann) -> bool:
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                return ann.value == cls.name
            return isinstance(ann, ast.Name) and ann.id == cls.name
        if isinstance(expr, ast.Name):
            fn = self.f.enclosing_function(expr)
            if fn is None:
                return False
            for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
                if a.arg == expr.id:
                    return names_cls(a.annotation)
            return any(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls.name
                       for v in self.values_of(expr) or () if not isinstance(v, tuple))
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and self._is_instance_ref(expr.value):
            for v in self.values_of(expr) or ():
                if isinstance(v, tuple) and v[0] == "param" and names_cls(v[1].annotation):
                    return True
                if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == cls.name:
                    return True
                if isinstance(v, ast.Name) and self._typed_as(v, cls, depth + 1):
                    return True
        return False

    def _is_method(self, fn: ast.AST) -> bool:
        """Is `fn` a method defined in a class body that receives the instance or class
        as its first parameter (not a staticmethod)?"""
        return (isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and isinstance(self.f.parents.get(fn), ast.ClassDef)
                and bool([*fn.args.posonlyargs, *fn.args.args])
                and not any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list))

    def class_family(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """`cls`, its base classes defined in this module (transitively) and the classes of
        this module deriving from any of them: every class whose methods may assign an
        attribute that a method of `cls` reads through `self`. Computed once per class."""
        family = self._families.get(cls)
        if family is None:
            family = self._families[cls] = self._class_family(cls)
        return family

    def _class_family(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        by_name = self._classes_by_name

        def bases(c: ast.ClassDef) -> list[ast.ClassDef]:
            return [b2 for b in c.bases if isinstance(b, ast.Name) for b2 in by_name.get(b.id, ()) if b2 is not c]

        family: list[ast.ClassDef] = [cls]
        i = 0
        while i < len(family) and len(family) < 32:
            for b in bases(family[i]):
                if b not in family:
                    family.append(b)
            i += 1
        for c in self.f.nodes(ast.ClassDef):
            if c not in family and any(b in family for b in bases(c)):
                family.append(c)
        return family

    def _class_attr_values(self, cls: ast.ClassDef, attr: str) -> list | None:
        """Values assigned to `attr` in the body of `cls` (class attributes) and through the
        instance parameter (`self.attr = ...`) in any of its methods: a fresh list, or None.
        Every attribute of `cls` is indexed in one walk of the class, on first use."""
        table = self._class_attrs.get(cls)
        if table is None:
            table = self._class_attrs[cls] = self._index_class_attrs(cls)
        vals = table.get(attr)
        return list(vals) if vals else None

    def _index_class_attrs(self, cls: ast.ClassDef) -> dict[str, list]:
        """attr -> the values `_class_attr_values` returns for it: the class-body
        assignments first (in body order), then the instance-attribute stores (in
        `ast.walk` order), as a per-attribute search would find them."""
        body: dict[str, list] = {}
        for s in cls.body:
            if isinstance(s, ast.Assign):
                for name in dict.fromkeys(t.id for t in s.targets if isinstance(t, ast.Name)):
                    body.setdefault(name, []).append(s.value)
            elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                body.setdefault(s.target.id, []).append(s.value if s.value is not None else ("annotation", s.annotation))
        stores: dict[str, list] = {}
        for n in ast.walk(cls):
            if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                for t in targets:
                    if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                            and self._is_instance_ref(t.value)):
                        if isinstance(n, ast.AugAssign):
                            v = ("aug", n)
                        elif n.value is not None:
                            v = n.value
                        else:
                            v = ("annotation", n.annotation)
                        stores.setdefault(t.attr, []).append(v)
        for name, vs in stores.items():
            body.setdefault(name, []).extend(vs)
        return body

    # ----------------------------------------------------------- literals
    def literal_values(self, expr: ast.AST, depth: int = 0) -> list[tuple[str, ast.Constant | None]] | None:
        """Every string `expr` can evaluate to, when all are literal in this file.

        Resolves module constants, class constants, local names, `+` of literals,
        `"".join([...])`, `textwrap.dedent`/`inspect.cleandoc`/`.strip()`, conditional
        expressions, subscripts and `.get()` of constant dicts (also wrapped in
        `MappingProxyType`/`dict`) and subscripts of constant lists/tuples. Returns (value, the Constant node
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
            if (isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" and 1 <= len(expr.args) <= 2
                    and not expr.keywords and self._dict_literal(expr.func.value, depth) is not None):
                # `TABLE.get(key)` / `TABLE.get(key, default)` of a constant dict
                table = self._dict_literal(expr.func.value, depth)
                parts = [*table.values, *expr.args[1:]]  # type: ignore[union-attr]
                out_get: list = []
                for v in parts:
                    lv = self.literal_values(v, depth + 1)
                    if lv is None:
                        return None
                    out_get.extend(lv)
                return out_get or None
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
                seq = self._seq_literal(expr.value, depth)
                if seq is None:
                    return None
                out_seq: list = []
                for e in seq.elts:
                    lv = self.literal_values(e, depth + 1)
                    if lv is None:
                        return None
                    out_seq.extend(lv)
                return out_seq or None
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
            if not vals and isinstance(expr, ast.Name) and expr.id in self.f.imports:
                found = self._imported_module(expr.id)
                if found is None:
                    return None
                other, attr = found
                vals = other.f.module_assignments.get(attr)
                if not vals or any(isinstance(v, tuple) for v in vals):
                    return None
                texts = [other.literal_values(v, depth + 1) for v in vals]
                # the constants live in the other file: values only, no nodes of this tree
                return None if any(t is None for t in texts) else [(x, None) for t in texts for x, _ in t]
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
        """The dict literal `expr` holds: a literal, a constant bound to one, or a read-only
        wrapper of one (`MappingProxyType({...})`, `dict({...})`)."""
        if isinstance(expr, ast.Dict):
            return expr
        if (isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords
                and (self.f.qualname(expr.func) or "") in _MAPPING_WRAPPERS):
            return self._dict_literal(expr.args[0], depth + 1)
        if isinstance(expr, (ast.Name, ast.Attribute)) and depth < 6:
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and not isinstance(vals[0], tuple):
                return self._dict_literal(vals[0], depth + 1)
        return None

    def _seq_literal(self, expr: ast.AST, depth: int) -> ast.List | ast.Tuple | None:
        """The list/tuple literal `expr` holds: a literal or a constant bound to one."""
        if isinstance(expr, (ast.List, ast.Tuple)):
            return expr
        if isinstance(expr, (ast.Name, ast.Attribute)) and depth < 6:
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and isinstance(vals[0], (ast.List, ast.Tuple)):
                return vals[0]
        return None

    def _stored_from_outside(self, attr: str) -> bool:
        """Does code of this module store into `.attr` other than through a method's own
        instance parameter (`p.template = ...`, `Prompt.template = ...`, a tuple target,
        `setattr(obj, "template", ...)`)? Then a class slot of that name is not only what
        class bodies and the class's methods put there."""
        from ctxlint.semantic.python.registries import attribute_stores
        stores, setattrs = attribute_stores(self.f)
        if setattrs & {attr, None}:
            return True  # `setattr(self, k, v)` with a computed name may set any attribute
        for st in stores.get(attr, ()):
            targets = st.targets if isinstance(st, ast.Assign) else [getattr(st, "target", None)]
            if not any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                       and self._is_instance_ref(t.value) for t in targets):
                return True
        return False

    def is_trusted_source(self, expr: ast.AST, depth: int = 0) -> bool:
        """Template text the developers wrote: read from the package itself (a path built
        from `__file__`, importlib.resources, pkgutil.get_data), a module-level or imported
        UPPER_CASE constant (`DEFAULT_PROMPT_TMPL` from another module), a docstring
        (`obj.__doc__`, `inspect.getdoc(obj)`, also dedented or stripped: program text, as
        gradio renders its event listeners' docs), a concatenation of such, or a parameter
        whose default is one (a setting, not data)."""
        if depth > 4 or expr is None:
            return False
        if _is_docstring(self.f, expr):
            return True
        if isinstance(expr, ast.BoolOp):  # `doc or ""`
            return all(self.is_trusted_source(x, depth + 1) or self.literal_values(x) is not None
                       for x in expr.values)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return all(self.is_trusted_source(x, depth + 1) or self.literal_values(x) is not None
                       for x in (expr.left, expr.right))
        if isinstance(expr, (ast.Subscript, ast.Name, ast.Call)) and self.constant_data(expr):
            return True  # `demo["content"]` for `demo in demos=DEMONSTRATIONS`: an entry of the author's table
        if isinstance(expr, ast.Call) and self._trusted_helper_call(expr, depth):
            return True  # `read_package_resource(f"{self.type}.jinja2")`: a helper reading the package's file
        if _is_constant_name(expr) and (
                (isinstance(expr, ast.Name) and self.f.enclosing_function(expr) is None)
                or self._module_or_imported(expr)):
            return True
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr)
            if vals and all(isinstance(v, tuple) and v[0] == "param" for v in vals):
                return all(self._literal_default(v[1]) or self._filled_by_author(v[1], depth) for v in vals)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            # every value the name or `self.` attribute may hold (class-body declarations and
            # instance stores of the class family) is the developers' text; a `None`
            # default (`template: Optional[str] = None`, a slot subclasses fill with their
            # own constant) holds no template text at all
            vals = self.values_of(expr)
            if vals is None and isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) \
                    and self._is_instance_ref(expr.value) and (cls := self.f.enclosing_class(expr)) is not None:
                # `self.graphql_ide_html`, a property of a base class (here or in another
                # module of the project) returning the package's own file
                found = self.inherited_property(cls, expr.attr)
                if found is not None:
                    owner, prop = found
                    rets = owner._own_returns(prop)
                    return bool(rets) and all(r.value is not None and owner.is_trusted_source(r.value, depth + 1)
                                              for r in rets)
            if isinstance(expr, ast.Attribute) and any(isinstance(v, ast.Constant) and v.value is None
                                                       for v in (vals or ()) if not isinstance(v, tuple)) \
                    and self._stored_from_outside(expr.attr):
                return False  # `p.template = request.json[...]`: the slot is filled by other code
            return bool(vals) and all(
                not isinstance(v, tuple) and (
                    (isinstance(v, ast.Constant) and v.value is None)
                    or self.literal_values(v, depth + 1) is not None
                    or self.is_trusted_source(v, depth + 1))
                for v in vals)
        if not isinstance(expr, ast.Call):
            return False
        q = self.f.qualname(expr.func) or ""
        if self._outside_argument(expr):
            return False  # a package file named by a request (`files(pkg).joinpath(request.args["t"])`)
        if q.startswith(("importlib.resources", "importlib_resources", "pkgutil.get_data", "pkg_resources.resource_string")):
            return True
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("read_text", "read_bytes") and (
                self.path_value(expr.func.value) is not None or self._constant_paths(expr.func.value)
                or self._package_file(expr.func.value)):
            return True  # a file shipped inside the package (a helper's path param included)
        if isinstance(expr.func, ast.Attribute) and expr.func.attr in ("read", "read_text") \
                and self._opened_constant_path(expr.func.value, expr):
            return True  # `with (TEMPLATES_DIR / NAME).open() as f: f.read()`: the package's own file
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

    def constant_data(self, expr: ast.AST, depth: int = 0) -> bool:
        """Is `expr` data made only of literals the author wrote: a constant, a list /
        tuple / set / dict display of such, a module constant bound to one (also imported
        from a project module), an entry of such data (`TABLE[key]`, `TABLE.get(key)`,
        `row["content"]`), a view of it (`.items()`/`.values()`/`.keys()`, `list(...)`,
        `tuple(...)`, `sorted(...)`, `reversed(...)`, `enumerate(...)`), a loop or
        comprehension target walking it, or a parameter whose default is such data and
        that every call of its function in this module leaves out or fills with such data
        (`def from_llm(llm, demos=DEMONSTRATIONS)` called as `from_llm(llm)`)? A call that
        passes anything else (`from_llm(llm, demos=json.load(f))`) makes the parameter
        the caller's data. Decided by values, never by names. Cross-module callers are
        not seen."""
        if depth > 8 or expr is None:
            return False
        d = depth + 1
        if isinstance(expr, ast.Constant):
            return True
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return all(self.constant_data(e, d) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return all(k is not None and self.constant_data(k, d) and self.constant_data(v, d)
                       for k, v in zip(expr.keys, expr.values))
        if isinstance(expr, ast.Subscript):
            return self.constant_data(expr.value, d)
        if isinstance(expr, ast.Call):
            fn = expr.func
            if isinstance(fn, ast.Attribute) and fn.attr in ("items", "values", "keys") and not expr.args:
                return self.constant_data(fn.value, d)
            if isinstance(fn, ast.Attribute) and fn.attr == "get" and 1 <= len(expr.args) <= 2 and not expr.keywords:
                return self.constant_data(fn.value, d) and all(self.constant_data(a, d) for a in expr.args[1:])
            if (self.f.qualname(fn) or "") in ("list", "tuple", "sorted", "reversed", "enumerate") \
                    and len(expr.args) == 1 and not expr.keywords:
                return self.constant_data(expr.args[0], d)
            return False
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr)
            if not vals and expr.id in self.f.imports:
                found = self._imported_module(expr.id)
                if found is None:
                    return False
                other, attr = found
                ovals = other.f.module_assignments.get(attr)
                return bool(ovals) and all(not isinstance(v, tuple) and other.constant_data(v, d) for v in ovals)
            if not vals:
                return False
            for v in vals:
                if isinstance(v, tuple):
                    if v[0] == "param" and self._constant_param(v[1], d):
                        continue
                    if v[0] == "opaque" and isinstance(v[1], (ast.For, ast.AsyncFor, ast.comprehension)) \
                            and self.constant_data(v[1].iter, d):
                        continue
                    return False
                if not self.constant_data(v, d):
                    return False
            return True
        return False

    def _constant_param(self, arg: ast.arg, depth: int) -> bool:
        """A parameter whose default is `constant_data` and that every call of its function
        in this module leaves out or fills with `constant_data` (see there)."""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        a = fn.args
        pos = [*a.posonlyargs, *a.args]
        if arg in pos and pos.index(arg) >= len(pos) - len(a.defaults):
            default = a.defaults[pos.index(arg) - (len(pos) - len(a.defaults))]
        elif arg in a.kwonlyargs:
            default = a.kw_defaults[a.kwonlyargs.index(arg)]
        else:
            return False
        if default is None or not self.constant_data(default, depth + 1):
            return False
        for call, val in self._call_site_calls(fn, arg):
            if val is None:
                if any(isinstance(x, ast.Starred) for x in call.args) or any(k.arg is None for k in call.keywords):
                    return False  # `f(*args)` / `f(**kw)` may fill it with anything
                continue
            if not self.constant_data(val, depth + 1):
                return False
        return True

    def _trusted_helper_call(self, call: ast.Call, depth: int) -> bool:
        """Is `call` a call of a helper of this module (`_local_function`) every `return`
        of which is a trusted source (`is_trusted_source`: the package's own file read
        through importlib.resources or a `__file__` path), with no argument that comes
        from outside the program (`external_origin`)? `read_package_resource(f"{self.type}.jinja2")`
        reads one of the package's files, chosen by code; a name taken from a request
        (`read_package_resource(request.query_params["page"])`) is not trusted: it can
        walk out of the package directory."""
        if depth > 3:
            return False
        owner, helper = self, self._local_function(call.func)
        if helper is None and isinstance(call.func, ast.Name) and call.func.id in self.f.imports:
            # `get_graphql_ide_html(...)` imported from another module of the project
            found = self._imported_module(call.func.id)
            if found is not None:
                owner = found[0]
                helper = next((n for n in owner.f.tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                               and n.name == found[1]), None)
        if helper is None:
            return False
        rets = owner._own_returns(helper)
        if not rets or not all(r.value is not None and owner.is_trusted_source(r.value, depth + 1) for r in rets):
            return False
        return not self._outside_argument(call)

    def inherited_property(self, cls: ast.ClassDef, attr: str, depth: int = 0):
        """The `@property` / `@cached_property` def named `attr` that instances of `cls`
        read, with the CallSites of the module defining it: `cls`'s class family here
        first, then its bases imported from other modules of the project (a subscripted
        generic base, `BaseView[Request]`, counts as `BaseView`), up to 4 modules deep.
        Returns (CallSites, FunctionDef) or None when no such property is found."""
        if depth > 4:
            return None
        family = self.class_family(cls)
        for c in family:
            for n in c.body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == attr and any(
                        last_part(self.f.dotted(d) or "") in ("property", "cached_property") for d in n.decorator_list):
                    return self, n
        for c in family:
            for b in c.bases:
                b = b.value if isinstance(b, ast.Subscript) else b
                if not (isinstance(b, ast.Name) and b.id in self.f.imports):
                    continue
                found = self._imported_module(b.id)
                if found is None:
                    continue
                other, name = found
                base = next((n for n in other.f.tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)
                if base is not None and (got := other.inherited_property(base, attr, depth + 1)) is not None:
                    return got
        return None

    def _outside_argument(self, expr: ast.AST) -> bool:
        """Does any call in `expr` receive an argument that comes from outside the
        program (`external_origin`): a file name taken from a request, the environment,
        input?"""
        for n in ast.walk(expr):
            if isinstance(n, ast.Call):
                for a in [*n.args, *(k.value for k in n.keywords)]:
                    a = a.value if isinstance(a, ast.Starred) else a
                    if self.external_origin(a, 2):
                        return True
        return False

    def _opened_path(self, recv: ast.AST, at: ast.AST):
        """The path a file read at `at` was opened from, for the receiver `recv` of its
        `.read()`/`.read_text()`: (P, withs) for a name bound by `with open(P) as f` /
        `with P.open() as f` (withs: the `with` statements searched, for a resource name),
        for `open(P)` / `Path(P)` itself, or for a path object P; None for a name no `with`
        of the enclosing function opens. Shared by the constant-path check and the
        whole-file-read facts."""
        fn = self.f.enclosing_function(at)
        if isinstance(recv, ast.Name):
            if fn is None:
                return None
            # the `with` around the read binds the file it reads (a def may open several)
            withs = [a for a in self.f.ancestors(at) if isinstance(a, (ast.With, ast.AsyncWith))]
            withs += [w for w in self.f.walk(fn) if isinstance(w, (ast.With, ast.AsyncWith))]
            for w in withs:
                for item in w.items:
                    v, c = item.optional_vars, item.context_expr
                    if isinstance(v, ast.Name) and v.id == recv.id and isinstance(c, ast.Call):
                        if isinstance(c.func, ast.Attribute) and c.func.attr == "open":
                            return c.func.value, withs
                        if (self.f.qualname(c.func) or "") in _OPEN_CALLS and c.args:
                            return c.args[0], ()
            return None
        if isinstance(recv, ast.Call) and (self.f.qualname(recv.func) or "") in _OPEN_CALLS and recv.args:
            return recv.args[0], ()  # `open(_path).read()`, `Path(p).read_text()`
        return recv, ()

    def _opened_constant_path(self, recv: ast.AST, at: ast.AST) -> bool:
        """Is `recv` a file opened from a constant path: the receiver of `.read()` is a
        path (or a `with P.open() as f` / `with open(P) as f` name, or a local bound to
        such a path) built only from UPPER_CASE module or imported constants and string
        literals (`TEMPLATES_DIR / README_TEMPLATE_NAME`)? Such a path names a file the
        project ships or configures, not text a caller hands in."""
        got = self._opened_path(recv, at)
        if got is None:
            return False
        path, withs = got
        fn = self.f.enclosing_function(at)
        return self._constant_path(path, fn) or bool(withs and self._package_resource_name(path, withs))

    def whole_file_path(self, expr: ast.AST, depth: int = 0) -> ast.AST | None:
        """The path of the file whose whole text `expr` is, or None: `f.read()` of a file
        bound by `with open(P) as f` / `with P.open() as f` in the enclosing function,
        `open(P).read()`, `P.read_text()` (also `Path(P).read_text()`), or a local name
        bound once to one of those (`_opened_path`). The path expression P is returned as
        written."""
        if depth > 2 or expr is None:
            return None
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr)
            if vals and len(vals) == 1 and not isinstance(vals[0], tuple):
                return self.whole_file_path(vals[0], depth + 1)
            return None
        if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and not expr.args
                and expr.func.attr in ("read", "read_text")):
            return None
        recv = expr.func.value
        got = self._opened_path(recv, expr)
        if got is None and expr.func.attr == "read_text":
            return recv  # `path.read_text()` of a path held in a local
        return got[0] if got is not None else None

    def path_from_outside(self, path: ast.AST, depth: int = 0) -> bool:
        """Positive evidence that the file at `path` is chosen or written outside the
        program: some part of the path expression (a join, an f-string part, a local it
        is built from) has `external_origin` (a request or a route's parameter, the
        environment, input, a parsed config) or is a download from a model hub
        (`REMOTE_FILE_CALLS`). A path from the caller's parameters or the program's own
        settings is the deployment's file (as a loader's template directory is)."""
        if depth > 3 or path is None:
            return False
        for n in ast.walk(path):
            if isinstance(n, ast.Call) and (self.f.qualname(n.func) or "") in REMOTE_FILE_CALLS:
                return True
            if isinstance(n, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) and self.external_origin(n, 1):
                return True
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                # a local the path is built from (`_path = os.path.join(os.environ[...], ...)`)
                vals = self.values_of(n)
                if vals and any(not isinstance(v, tuple) and v is not path and self.path_from_outside(v, depth + 1)
                                for v in vals):
                    return True
        return False

    #: importlib.resources (and its backport) calls that yield a file of a package.
    _RESOURCE_PATHS = ("importlib.resources.path", "importlib.resources.as_file",
                       "importlib_resources.path", "importlib_resources.as_file")

    def _package_resource_name(self, recv: ast.AST, withs: list) -> bool:
        """Is `recv` a name bound by `with importlib.resources.path(pkg, name) as p`
        (or `as_file(...)`), also reached through a project module's version shim
        (`from pkg.compat import pkg_resources` where that module does `import
        importlib.resources as pkg_resources`: `project_index.import_targets`)? Such a
        path is a file shipped in a package, as `is_trusted_source` counts
        importlib.resources reads; a resource named by a request is checked where the
        helper is called (`_trusted_helper_call`)."""
        if not isinstance(recv, ast.Name):
            return False
        for w in withs:
            for item in w.items:
                v, c = item.optional_vars, item.context_expr
                if isinstance(v, ast.Name) and v.id == recv.id and isinstance(c, ast.Call):
                    if self._outside_argument(c):
                        return False
                    q = self.f.qualname(c.func) or ""
                    if q.startswith(self._RESOURCE_PATHS):
                        return True
                    if "." in q and not q.startswith(("importlib", "os", "pathlib")):
                        from ctxlint.semantic.python import project_index
                        targets = project_index.import_targets(self.f, q)
                        return bool(targets) and all(t.startswith(self._RESOURCE_PATHS) for t in targets)
        return False

    def _constant_path(self, expr: ast.AST, fn, depth: int = 0) -> bool:
        """A path from constants: a literal counts only as a part joined to a constant
        directory (a bare relative literal is relative to the working directory, which
        the package-file fact judges). `depth` counts the nodes followed (joins and local
        names): a directory built in three joins and bound to a local is six deep."""
        if depth > 8 or expr is None:
            return False
        if (isinstance(expr, ast.Constant) and isinstance(expr.value, str)) or (
                isinstance(expr, ast.JoinedStr) and all(self._constant_part(v, fn) for v in expr.values)):
            # a literal, or an f-string of literal parts (`f"{prefix}_kernel.jinja"` with
            # `for prefix in ["gemm", "group_gemm"]`)
            parent = self.f.parents.get(expr)
            return isinstance(parent, ast.BinOp) or (isinstance(parent, ast.Call) and len(parent.args) > 1)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
            return self._constant_path(expr.left, fn, depth + 1) and self._constant_path(expr.right, fn, depth + 1)
        if isinstance(expr, ast.IfExp) and isinstance(self.f.parents.get(expr), ast.BinOp):
            return self._constant_path(expr.body, fn, depth + 1) and self._constant_path(expr.orelse, fn, depth + 1)
        if isinstance(expr, ast.Call) and (self.f.qualname(expr.func) or "") in ("os.path.join", "pathlib.Path", "Path"):
            return bool(expr.args) and all(self._constant_path(a, fn, depth + 1) for a in expr.args)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in ("str", "os.fspath") \
                and len(expr.args) == 1:
            return self._constant_path(expr.args[0], fn, depth + 1)  # `str(files("pkg") / "t.jinja2")`
        if isinstance(expr, ast.Call) and (self.f.qualname(expr.func) or "").startswith(
                ("importlib.resources.files", "importlib_resources.files")) \
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in expr.args):
            return True  # `importlib.resources.files("distilabel")`: the package's own directory
        if _is_constant_name(expr) and ((isinstance(expr, ast.Name) and self.f.enclosing_function(expr) is None)
                                        or self._module_or_imported(expr)):
            return True
        if isinstance(expr, ast.Name) and fn is not None:
            if expr.id in _param_names(fn):
                return False  # the caller's value (`if kind == "latest": kind = "v3"` keeps the others)
            srcs = [n.value for n in self.f.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
                    and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
            joined = isinstance(self.f.parents.get(expr), ast.BinOp)
            return bool(srcs) and all(self._constant_path(v, fn, depth + 1) or (
                joined and isinstance(v, ast.Constant) and isinstance(v.value, str)) for v in srcs)
        return False

    def _constant_part(self, part: ast.AST, fn) -> bool:
        """Is a part of an f-string path a constant: a literal piece, or a formatted name
        that is a module constant or a local of `fn` bound only by loops over literal
        lists/tuples of strings and assignments of string literals?"""
        if isinstance(part, ast.Constant):
            return True
        if not isinstance(part, ast.FormattedValue):
            return False
        v = part.value
        if _is_constant_name(v) and self._module_or_imported(v):
            return True  # a module or imported constant (an UPPER_CASE local is just a local)
        if isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and self._is_instance_ref(v.value):
            # `f"{self.aspect}.jinja2"` with `aspect: Literal["helpfulness", ...]` or only
            # string literals ever assigned: one of the author's names
            vals = self.values_of(v) or []
            return bool(vals) and all(_literal_strings(x[1]) if isinstance(x, tuple) and x[0] == "annotation"
                                      else isinstance(x, ast.Constant) and isinstance(x.value, str) for x in vals)
        if not (isinstance(v, ast.Name) and fn is not None) or v.id in _param_names(fn):
            return False
        binds = []
        for n in self.f.walk(fn):
            if isinstance(n, ast.comprehension):
                continue  # a comprehension's variable lives in its own scope
            if isinstance(n, (ast.With, ast.AsyncWith, ast.Global, ast.Nonlocal)) and any(
                    isinstance(x, ast.Name) and x.id == v.id for x in ast.walk(n) if isinstance(x, ast.Name)
                    and isinstance(x.ctx, ast.Store)):
                return False
            if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and n.target.id == v.id:
                binds.append(n.iter)
            elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                ts = n.targets if isinstance(n, ast.Assign) else [n.target]
                if any(isinstance(x, ast.Name) and x.id == v.id for t in ts for x in ast.walk(t)):
                    if not (isinstance(n, ast.Assign) and len(ts) == 1 and isinstance(ts[0], ast.Name)
                            and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)):
                        return False
                    binds.append(ast.Tuple(elts=[n.value], ctx=ast.Load()))  # `prefix = "gemm"`
        return bool(binds) and all(isinstance(b, (ast.List, ast.Tuple)) and b.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in b.elts) for b in binds)

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

    def _filled_by_author(self, arg: ast.arg, depth: int) -> bool:
        """Is parameter `arg` of a module-level def filled, at every call, with the author's
        own text (a literal, a module constant, a trusted source), by calls of this module
        only? The def must be called at least once here, never with `*args`/`**kwargs` or
        without the argument, never referenced here other than by a call (a callback
        could be handed anything), and no other module of the package may name it
        (`project_index.named_elsewhere`: an importer could pass a request's text).
        gptqmodel's machete generator compiles `Template(template_str)` in a helper called
        only with its module's template constants."""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or self.f.parents.get(fn) is not self.f.tree:
            return False
        calls = self._call_site_calls(fn, arg)
        call_funcs = {id(c.func) for c, _ in calls}
        for n in self.f.nodes(ast.Name):
            if n.id == fn.name and isinstance(n.ctx, ast.Load) and id(n) not in call_funcs:
                return False  # handed on (`callbacks.append(make)`, `functools.partial(make, ...)`)
        for call, val in calls:
            if val is None or isinstance(val, ast.Starred):
                return False
            if not (self.literal_values(val, depth + 1) is not None or self.constant_data(val, depth + 1)
                    or self.is_trusted_source(val, depth + 1)):
                return False
        from ctxlint.semantic.python import project_index
        if not project_index.named_elsewhere(self.f, fn.name):
            return bool(calls)
        # other modules call it too (feast's `offline_utils.build_point_in_time_query(...,
        # query_template=MULTIPLE_FEATURE_VIEW_POINT_IN_TIME_JOIN)` from every store)
        return self._project_callers_pass_constants(fn, arg, known=len(calls))

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
        Strings built only from literals and code are not evidence. Weaker than
        `external_origin` (a bare parameter counts): used, through `data_evidence`, for
        prompt-template sources only, which are configuration by design."""
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
        """A `str` parameter the caller must supply: without a default (a default makes it
        an optional setting of a library API, not data) and not one that every call in
        this file fills with a literal. Decided by the parameter's shape and its callers,
        never by its name."""
        return not self._has_default(arg) and not self._callers_pass_literals(arg)

    def _callers_pass_literals(self, arg: ast.arg) -> bool:
        """Every call of the parameter's function in this file passes a literal for it
        (a helper such as `_create_backend(..., error_template="unknown {backend_type}")`)."""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        return self._filled_with_constants(fn, arg, 0)

    def _filled_with_constants(self, fn, arg: ast.arg, depth: int) -> bool:
        """`_callers_pass_literals`, followed through callers that hand on a parameter of
        their own (`LLMTool.__init__(self, prompt)` calling `create_tool(prompt=prompt)`:
        then `LLMTool(...)`'s callers decide), up to 3 hops, and to the other modules of the
        project when no call of this file uses the def."""
        if depth > 3:
            return False
        seen = False
        for call, val in self._call_site_calls(fn, arg):
            if val is None:
                return False
            if self.literal_values(val) is not None or self.is_trusted_source(val):
                seen = True
                continue
            outer = self.f.enclosing_function(call)
            handed = None
            if isinstance(val, ast.Name) and outer is not None:
                handed = next((a for a in (*outer.args.posonlyargs, *outer.args.args, *outer.args.kwonlyargs)
                               if a.arg == val.id), None)
            vals = self.values_of(val) if handed is not None else None
            if not vals or any(not (isinstance(v, tuple) and v[0] == "param" and v[1] is handed) for v in vals):
                return False  # not simply the caller's own parameter handed on
            if not self._filled_with_constants(outer, handed, depth + 1):
                return False
            seen = True
        return seen or self._project_callers_pass_constants(fn, arg)

    def _project_callers_pass_constants(self, fn, arg: ast.arg, known: int = 0) -> bool:
        """For a module-level def that no call of this file uses: do the other modules of
        the project that name it (`project_index.files_naming`) call it, at least once,
        always with the author's own text for `arg` (a literal, a module constant, a
        package file: judged in that module), and never reference it otherwise? motleycrew's
        `create_llm_langchain_tool(prompt=...)` is only ever given its callers' template
        constants. Unknowable (a huge tree, an unreadable file): False."""
        owner = self.f.parents.get(fn)
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        if owner is self.f.tree:
            name = fn.name
        elif isinstance(owner, ast.ClassDef) and fn.name == "__init__" and self.f.parents.get(owner) is self.f.tree:
            name, params = owner.name, params[1:]  # `LLMTool(prompt=...)` runs `LLMTool.__init__`
        else:
            return False
        from ctxlint.semantic.python.project_index import files_naming
        files = files_naming(self.f, name)
        if not files or len(files) > 20:
            return False
        stem = Path(self.path).stem
        seen = 0
        for path in files:
            other = module_call_sites(str(path), self.f.config)
            if other is None:
                return False
            q = other.f.imports.get(name, "")
            ours = q == f"{stem}.{name}" or q.endswith(f".{stem}.{name}")  # imported from this module
            mods = {m for m, mq in other.f.imports.items() if mq == stem or mq.endswith("." + stem)}
            if not ours and not mods:
                continue  # a same-named function of another module
            call_funcs = set()
            for call in other.f.nodes(ast.Call):
                direct = isinstance(call.func, ast.Name) and call.func.id == name and ours
                via_module = isinstance(call.func, ast.Attribute) and call.func.attr == name \
                    and isinstance(call.func.value, ast.Name) and call.func.value.id in mods
                if via_module:
                    call_funcs.add(id(call.func.value))
                if direct or via_module:
                    call_funcs.add(id(call.func))
                    val = _passed_arg(call, params, arg.arg)
                    if val is None or isinstance(val, ast.Starred) or not (
                            other.literal_values(val) is not None or other.constant_data(val)
                            or other.is_trusted_source(val)):
                        return False
                    seen += 1
            for n in other.f.nodes(ast.Attribute) if mods else ():
                if n.attr == name and isinstance(n.value, ast.Name) and n.value.id in mods \
                        and id(n) not in call_funcs and isinstance(n.ctx, ast.Load):
                    return False  # `callbacks.append(utils.render)`: handed on
            for n in other.f.nodes(ast.Name) if ours else ():
                if n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in call_funcs \
                        and not isinstance(other.f.parents.get(n), (ast.arg, ast.Subscript)) \
                        and not _in_annotation(other.f, n):
                    return False  # handed on: it could be called with anything
        return seen + known > 0

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
            return not (isinstance(base, ast.Name) and self._is_instance_ref(base)) and not self._module_or_imported(expr)
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr) or []
            return any(not isinstance(v, tuple) and isinstance(v, (ast.Subscript, ast.Attribute))
                       and self.data_evidence(v) for v in vals)
        return False

    def untrusted_origin(self, expr: ast.AST) -> bool:
        """Positive evidence that `expr` holds text an outsider writes (CTX301's manifest
        evidence): `external_origin` restricted to web requests and a route's parameters,
        HTTP responses (UNTRUSTED_CALLS/OBJECTS, request and response classes), and a
        model artifact's chat template (MODEL_TEMPLATE_KEYS, a model hub download). Text
        from the environment, configuration files or the command line is the operator's:
        `external_origin` holds for it, this does not."""
        prev = getattr(self, "_untrusted_only", False)
        self._untrusted_only = True
        try:
            return self.external_origin(expr)
        finally:
            self._untrusted_only = prev

    def _model_template_read(self, expr: ast.AST) -> bool:
        """`meta["tokenizer.chat_template"]`, `meta.get("tokenizer.chat_template")`,
        `tokenizer.chat_template`: a chat template read out of a model artifact."""
        if isinstance(expr, ast.Attribute) and expr.attr in MODEL_TEMPLATE_KEYS:
            return True
        key = None
        if isinstance(expr, ast.Subscript):
            key = expr.slice
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
                and expr.args:
            key = expr.args[0]
        return isinstance(key, ast.Constant) and key.value in MODEL_TEMPLATE_KEYS

    def external_origin(self, expr: ast.AST, depth: int = 0) -> bool:
        """Positive evidence that `expr` holds text from outside the program (CTX303).

        True when the value is, or is built from (`+`, `%`, f-string, a method call on,
        a _TEXT_TRANSFORMS call of, a field `x["k"]` / `x.k` / `x.get("k")` of), one of: a call in EXTERNAL_CALLS (input,
        environment, a parsed file, an HTTP response); an object in EXTERNAL_OBJECTS
        (`os.environ`, Flask's `request`); a file, stream or database read (READ_METHODS on
        anything but the package's own files); an instance of EXTERNAL_CLASSES (a config
        parser, a web request, an HTTP response: a parameter annotated with one or a value
        built by one); a parameter of a web route handler (Flask/Quart view, FastAPI route);
        the return value of a function of this module that returns such a value; or a
        parameter that some call of its function in this module fills with such a value.
        Followed through local names, `self.` attributes and module names. A bare parameter
        with no such caller is the caller's (a developer's) text: not evidence. Never
        decided by what a name is called."""
        if depth > 6 or expr is None:
            return False
        d = depth + 1
        strict = getattr(self, "_untrusted_only", False)
        if strict and self._model_template_read(expr):
            return True
        if isinstance(expr, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self.external_origin(v.value, d) for v in expr.values)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Mod)):
            return self.external_origin(expr.left, d) or self.external_origin(expr.right, d)
        if isinstance(expr, ast.IfExp):
            return self.external_origin(expr.body, d) or self.external_origin(expr.orelse, d)
        if isinstance(expr, ast.BoolOp):
            return any(self.external_origin(v, d) for v in expr.values)
        if isinstance(expr, ast.Await):
            return self.external_origin(expr.value, d)
        q = self.f.qualname(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        if q in (UNTRUSTED_OBJECTS if strict else EXTERNAL_OBJECTS):
            return True
        if isinstance(expr, ast.Call):
            fq = self.f.qualname(expr.func) or ""
            if strict and fq in REMOTE_FILE_CALLS:
                return True
            if fq in (UNTRUSTED_CALLS if strict else EXTERNAL_CALLS):
                # a loader of the package's own file (`json.load(open(HERE / "p.json"))`) is the author's text
                return not any(self._package_file(a) for a in expr.args)
            if (fq in EXTERNAL_CLASSES and not (strict and fq in _OPERATOR_CLASSES)) or (
                    not strict and self._settings_class(expr.func)):
                return True
            if (fq == "str" or fq in _TEXT_TRANSFORMS) and expr.args:
                return self.external_origin(expr.args[0], d)
            if fq in ("open", "io.open", "codecs.open") and expr.args:
                if strict:
                    return self.external_origin(expr.args[0], d)  # a downloaded model file's path
                return not self._package_file(expr.args[0])  # a file handle: iterating it reads the file
            if isinstance(expr.func, ast.Attribute):
                attr = expr.func.attr
                if attr in READ_METHODS:
                    if strict:
                        return self.external_origin(expr.func.value, d)
                    return not (self.is_trusted_source(expr) or self._package_file(expr.func.value))
                if self.external_origin(expr.func.value, d):
                    # a method of outside data returns outside data: `request.get_json()`,
                    # `cfg.get("llm", "prompt")`, `text.strip()`, `resp.json()`
                    return True
            local = self._local_function(expr.func)
            if local is not None and depth < 4:
                return any(isinstance(r, ast.Return) and r.value is not None and self.external_origin(r.value, d)
                           for r in self._own_returns(local))
            return False
        if isinstance(expr, ast.Subscript):
            return self.external_origin(expr.value, d)
        if isinstance(expr, (ast.Name, ast.Attribute)):
            vals = self.values_of(expr)
            if not vals:
                if isinstance(expr, ast.Attribute):
                    return self.external_origin(expr.value, d)
                return False
            for v in vals:
                if isinstance(v, tuple):
                    if v[0] == "param" and self._external_param(v[1], depth):
                        return True
                    if v[0] == "opaque" and isinstance(v[1], (ast.For, ast.AsyncFor, ast.comprehension)) \
                            and self.external_origin(v[1].iter, d):
                        return True
                    if v[0] == "opaque" and isinstance(v[1], (ast.With, ast.AsyncWith)):
                        continue
                    continue
                if self.external_origin(v, d):
                    return True
        return False

    def _package_file(self, expr: ast.AST, depth: int = 0) -> bool:
        """Does `expr` (a path, an open file) name one of the package's own files: built
        from `__file__`/`__name__`/`__package__` or importlib.resources, directly or through
        the names it uses (a `with open(...) as fh` binding included)?"""
        if depth > 6 or expr is None:
            return False
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return self._project_file(expr.value)
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and n.id in ("__file__", "__name__", "__package__"):
                return True
            if isinstance(n, ast.Attribute) and n.attr == "__file__":
                return True  # `Path(pkg.cli.__file__).parent`: an imported package's own directory
            if isinstance(n, ast.Call) and depth < 6:
                helper = self._local_function(n.func)
                if helper is not None and (rets := self._own_returns(helper)) and all(
                        r.value is not None and self._package_file(r.value, depth + 1) for r in rets):
                    return True  # `self._templates_dir() / "x"`: a helper returning a package path
            if isinstance(n, ast.Call) and (self.f.qualname(n.func) or "").startswith(("importlib.resources", "importlib_resources")):
                return True
            if isinstance(n, ast.Call) and (self.f.qualname(n.func) or "") in _OPEN_CALLS and n.args \
                    and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) \
                    and self._project_file(n.args[0].value):
                return True  # `open("pkg/webui/footer.html")`: a literal path to one of the package's files
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                vals = self.values_of(n) or ()
                if vals and all(isinstance(v, tuple) and v[0] == "param" for v in vals):
                    # a helper's path parameter: every call in this module passes one of the package's files
                    fn = self.f.parents.get(self.f.parents.get(vals[0][1]))
                    args = self._call_site_args(fn, vals[0][1]) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
                    if args and all(a is not None and self._package_file(a, depth + 1) for a in args):
                        return True
                for v in vals:
                    if isinstance(v, tuple):
                        if v[0] == "opaque" and isinstance(v[1], (ast.For, ast.AsyncFor, ast.comprehension)) \
                                and self._package_file(v[1].iter, depth + 1):
                            return True  # `for item in pkg_dir.rglob("*")`: an entry of the package's files
                        if v[0] == "opaque" and isinstance(v[1], (ast.With, ast.AsyncWith)) and any(
                                self._package_file(i.context_expr, depth + 1) for i in v[1].items
                                if i.optional_vars is not None and any(
                                    isinstance(x, ast.Name) and x.id == n.id for x in ast.walk(i.optional_vars))):
                            return True
                    elif self._package_file(v, depth + 1):
                        return True
        return False

    def _project_file(self, text: str) -> bool:
        """Is literal path `text` a relative path naming a file that ships with the checked
        code: it exists under the checked file's directory or one of its ancestors (a
        data file of the source tree, read relative to the project root), or it leads
        from one of those ancestors down into the checked file's own directory tree
        (`"fish_speech/webui/html/footer.html"` read from `fish_speech/webui/manage.py`:
        the author's own source tree, even where a wheel left the data file out)?"""
        if not text or len(text) > 255 or "\n" in text or text.startswith(("/", "~")) or "://" in text:
            return False
        here = self.path.resolve().parent
        try:
            ancestors = (here, *list(here.parents)[:6])
            if any((a / text).is_file() for a in ancestors):
                return True
            parts = [p for p in text.replace("\\", "/").split("/") if p not in ("", ".")]
            if len(parts) < 2 or ".." in parts or any(ch in text for ch in "{}%*?$"):
                return False
            own = {here, *here.parents}
            return any(a / parts[0] in own for a in ancestors[1:])
        except (OSError, ValueError):
            return False

    def _settings_class(self, func: ast.AST, depth: int = 0) -> bool:
        """Is `func` a settings class that loads its fields from the environment and .env
        files at runtime (a subclass of one in SETTINGS_BASES, defined here or imported)?"""
        if depth > 4:
            return False
        if (self.f.qualname(func) or "") in SETTINGS_BASES:
            return True
        if isinstance(func, ast.Name):
            for c in self.f.nodes(ast.ClassDef):
                if c.name == func.id and any(self._settings_class(b, depth + 1) for b in c.bases):
                    return True
        return False

    def _own_returns(self, fn) -> list:
        """The `return` statements of `fn` itself (not of functions nested in it)."""
        out = []
        stack = list(fn.body)
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(n, ast.Return):
                out.append(n)
            stack.extend(ast.iter_child_nodes(n))
        return out

    def _external_param(self, arg: ast.arg, depth: int) -> bool:
        """Is parameter `arg` external data: annotated with an EXTERNAL_CLASSES type, a
        parameter of a web route handler, or filled with external data by some call of
        its function in this module?"""
        fn = self.f.parents.get(self.f.parents.get(arg))
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        ann = arg.annotation
        if ann is not None:
            base = ann.slice if isinstance(ann, ast.Subscript) and ast.unparse(ann.value).endswith("Optional") else ann
            bq = self.f.qualname(base) or ""
            if getattr(self, "_untrusted_only", False):
                if bq in EXTERNAL_CLASSES and bq not in _OPERATOR_CLASSES:
                    return True
            elif bq in EXTERNAL_CLASSES or self._settings_class(base):
                return True
        if self._is_method(fn) and [*fn.args.posonlyargs, *fn.args.args][0] is arg:
            return False  # self / cls
        if self._route_handler(fn):
            return True
        if depth >= 4:
            return False
        return any(v is not None and self.external_origin(v, depth + 2) for v in self._call_site_args(fn, arg))

    def _route_handler(self, fn) -> bool:
        """A Flask/Quart view or a FastAPI route handler (`@app.get(...)` / `@router.post(...)`
        on an object built by a _ROUTER_CLASSES class): its parameters carry request data."""
        if self._flask_view(fn):
            return True
        for dec in fn.decorator_list:
            f = dec.func if isinstance(dec, ast.Call) else dec
            if isinstance(f, ast.Attribute) and f.attr in _VIEW_DECORATORS | {"api_route", "websocket"}:
                vals = self.values_of(f.value) if isinstance(f.value, (ast.Name, ast.Attribute)) else None
                if any(isinstance(v, ast.Call) and (self.f.qualname(v.func) or "") in _ROUTER_CLASSES for v in vals or ()):
                    return True
        return False

    def _call_site_args(self, fn, arg: ast.arg) -> list:
        """See `_call_site_calls`: the passed expressions only."""
        return [v for _, v in self._call_site_calls(fn, arg)]

    def _call_site_calls(self, fn, arg: ast.arg) -> list:
        """(call, expression) for every call of `fn` in this module: the expression it passes
        for parameter `arg` (None for a call that passes nothing for it or passes it through
        `*args`/`**kwargs`). Calls are
        `fn(...)` for a module function, `self.fn(...)` / `cls.fn(...)` / `Class.fn(...)` for a
        method of this module's class."""
        params = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
        method = self._is_method(fn)
        owner = self.f.parents.get(fn)
        out: list = []
        for call in self.f.nodes(ast.Call):
            f = call.func
            if isinstance(f, ast.Name) and f.id == fn.name and not isinstance(owner, ast.ClassDef):
                shift = 0
            elif isinstance(f, ast.Attribute) and f.attr == fn.name and isinstance(f.value, ast.Name) and (
                    self._is_instance_ref(f.value)
                    or (isinstance(owner, ast.ClassDef) and f.value.id == owner.name)):
                shift = 1 if method else 0
            elif isinstance(f, ast.Attribute) and f.attr == fn.name and isinstance(owner, ast.ClassDef) \
                    and self._typed_as(f.value, owner):
                shift = 1 if method else 0
            else:
                continue
            out.append((call, _passed_arg(call, params[shift:], arg.arg)))
        return out

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
        last = last_part(q)
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
            elif kw.arg is None and info.autoescape == "off-default":
                setting = self._splat_autoescape(kw.value)
                if setting is not None:
                    info.autoescape = setting
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

    def _splat_autoescape(self, expr: ast.AST) -> str | None:
        """What a `**opts` splat into an environment says about autoescape: "off-explicit"
        or "on" where a dict display it holds sets the `autoescape` key, "on" too when the
        splat cannot be seen through (a parameter, a dict updated with other data: it may
        set the option, so nothing is claimed), None when every dict it holds is seen and
        none names the key (the jinja2 default applies). jupyter-server's
        `jenv_opt = {"autoescape": True}; jenv_opt.update(user_options)` is "on"."""
        vals = [expr] if isinstance(expr, ast.Dict) else (self.values_of(expr) if isinstance(expr, ast.Name) else None)
        if not vals or any(isinstance(v, tuple) or not isinstance(v, ast.Dict) for v in vals):
            return "on"
        setting = None
        for v in vals:
            for k, x in zip(v.keys, v.values):
                if k is None:
                    return "on"  # `{**defaults, ...}`: unseen keys
                if isinstance(k, ast.Constant) and k.value == "autoescape":
                    off = isinstance(x, ast.Constant) and x.value in (False, None)
                    setting = "off-explicit" if off and setting != "on" else "on"
        if isinstance(expr, ast.Name) and setting is None and any(
                isinstance(c.func, ast.Attribute) and c.func.attr in ("update", "setdefault", "__setitem__")
                and isinstance(c.func.value, ast.Name) and c.func.value.id == expr.id
                for c in self.f.nodes(ast.Call)):
            return "on"  # filled by other code too: it may set the option
        return setting

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
            helper = self._local_function(expr.func)
            if helper is not None:
                # a factory of this module (`env = create_jinja_env(...)`): what it returns
                found = [self.env_of(r.value, depth + 1) for r in self.f.walk(helper)
                         if isinstance(r, ast.Return) and r.value is not None
                         and self.f.enclosing_function(r) is helper]
                found = [e for e in found if e is not None]
                return next((e for e in found if e.kind == "sandbox"), found[0] if found else None)
            return None
        if isinstance(expr, ast.Name) and expr.id in self.f.imports and self.values_of(expr) is None:
            return self._imported_env(expr.id, depth + 1)
        if isinstance(expr, ast.IfExp):
            # `NativeEnvironment() if unsafe else SandboxedEnvironment()`: the sandbox is the
            # default and the other branch an explicit opt-in, so the sandbox wins.
            found = [e for e in (self.env_of(expr.body, depth + 1), self.env_of(expr.orelse, depth + 1)) if e]
            return next((e for e in found if e.kind == "sandbox"), found[0] if found else None)
        if isinstance(expr, ast.Attribute) and expr.attr in _APP_ENV_ATTRS and self._is_app(expr.value):
            return EnvInfo(kind="plain")  # Flask/Quart application environments are not sandboxed
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
                            return EnvInfo(kind=k, declared=True)
        return None

    def _local_function(self, func: ast.AST):
        """The FunctionDef a callee names when it is a module-level function of this file
        (`make_env(...)`) or a method of the enclosing class (`self._make_env(...)`)."""
        if isinstance(func, ast.Name) and func.id not in self.f.imports:
            for n in self.f.tree.body:
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func.id:
                    return n
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and self._is_instance_ref(func.value):
            cls = self.f.enclosing_class(func)
            for c in self.class_family(cls) if cls is not None else ():
                for n in c.body:
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func.attr:
                        return n
        return None

    def _imported_module(self, name: str) -> "tuple[CallSites, str] | None":
        """For a name imported from another module of the same project, that module's
        CallSites and the name there: `from .env import env` -> (CallSites of env.py,
        "env"). The file is found by `project_index.locate_module` (inside this file's
        own package tree) and parsed once per run; None when it is not found (a
        third-party module). The lookup marks this file's findings as depending on
        another file (`project_index.note_consulted`: not cached by its own hash)."""
        from ctxlint.semantic.python.project_index import locate_module, note_consulted, question
        q = self.f.imports.get(name, "")
        module, _, attr = q.rpartition(".")
        if not attr or not module:
            return None
        here = Path(os.path.abspath(self.path)).parent
        note_consulted(question("lookup", here, q))  # this file's findings now depend on another file
        f = locate_module(module, here)
        if f is None:
            return None
        note_consulted(str(f))
        other = module_call_sites(str(f), self.f.config)
        if other is None or os.path.abspath(other.path) == os.path.abspath(self.path):
            return None
        return other, attr

    def _imported_env(self, name: str, depth: int) -> EnvInfo | None:
        """The environment a module-level name imported from another module of the same
        project holds (`from .env import env`, where env.py builds a SandboxedEnvironment),
        or None when that module is not found or does not say."""
        found = self._imported_module(name)
        if found is None:
            return None
        other, attr = found
        vals = other.f.module_assignments.get(attr)
        envs = [other.env_of(v, depth + 1) for v in vals or () if not isinstance(v, tuple)]
        envs = [e for e in envs if e is not None]
        env = next((e for e in envs if e.kind == "sandbox"), envs[0] if envs else None)
        # its constructor call belongs to the other file's tree: not a location here
        return replace(env, call=None) if env is not None else None

    def _is_app(self, expr: ast.AST, depth: int = 0) -> bool:
        """Does `expr` hold an application object of a framework in _APP_CLASSES
        (`app = Flask(__name__)`, `flask.current_app`), followed through assignments?"""
        if depth > 4:
            return False
        q = self.f.qualname(expr) or ""
        if q in _APP_GLOBALS:
            return True
        if isinstance(expr, ast.Call):
            return (self.f.qualname(expr.func) or "") in _APP_CLASSES
        if isinstance(expr, (ast.Name, ast.Attribute)):
            return any(not isinstance(v, tuple) and self._is_app(v, depth + 1) for v in self.values_of(expr) or ())
        return False

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
        last = last_part(self.f.qualname(expr.func))
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
            last = last_part(q)
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
                src = src or keyword_arg(call, "source")
                if src is not None:
                    env = EnvInfo(kind="plain", call=call)
                    env.options = {k.arg: k.value.value for k in call.keywords
                                   if k.arg in DELIMITER_KEYS and isinstance(k.value, ast.Constant)}
                    ae = keyword_arg(call, "autoescape")
                    if ae is not None:
                        env.autoescape = "off-explicit" if isinstance(ae, ast.Constant) and ae.value in (False, None) else "on"
                    out.append(CompileSite(call, src, "Template", env))
            elif isinstance(fn, ast.Attribute) and fn.attr == "from_string":
                src = src or keyword_arg(call, "source")
                if src is None:
                    continue
                env = self.env_of(fn.value)
                if env is None and (not self.f.imports_module("jinja2") or self._non_jinja_receiver(fn.value)):
                    continue  # `.from_string` of some other library, or of the project's own class
                out.append(CompileSite(call, src, "from_string", env))
            elif last_part(q) == "render_template_string" and ("flask" in q or "quart" in q):
                if src is not None:
                    out.append(CompileSite(call, src, "render_template_string", EnvInfo(kind="plain")))
            elif self._is_langchain(fn) and self._lc_format(call) == "jinja2":
                src = self._lc_source(call)
                if src is not None:
                    out.append(CompileSite(call, src, "langchain", EnvInfo(kind="sandbox")))
        return out

    def _non_jinja_receiver(self, expr: ast.AST, depth: int = 0) -> bool:
        """Does the receiver of a `.from_string(...)` call resolve to something that is not
        jinja2: a name imported from another module (`from app.pagination import Cursor`),
        a class or function defined in this file, or a local whose every value is built by
        such a callee (`c = Cursor(...)`)? An unresolvable receiver (a parameter, an
        attribute of an unknown object) is not decided here."""
        if depth > 3:
            return False
        if isinstance(expr, ast.Attribute):
            root = expr
            while isinstance(root, ast.Attribute):
                root = root.value
            q = self.f.qualname(expr)
            return isinstance(root, ast.Name) and root.id in self.f.imports and self.values_of(root) is None \
                and bool(q) and self._non_jinja_qualname(q)
        if isinstance(expr, ast.Call):
            q = self.f.qualname(expr.func)
            root = expr.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if q and isinstance(root, ast.Name) and root.id in self.f.imports and self._non_jinja_qualname(q):
                return True
            if self.env_of(expr) is not None:
                return False
            if isinstance(expr.func, ast.Name) and self._local_class(expr.func.id):
                return True  # `Cursor(...)`: an instance of this file's own (non-Environment) class
            helper = self._local_function(expr.func)
            rets = self._own_returns(helper) if helper is not None else []
            return bool(rets) and all(r.value is not None and self._non_jinja_receiver(r.value, depth + 1)
                                      for r in rets)
        if isinstance(expr, ast.Name):
            vals = self.values_of(expr)
            if vals is None:
                if expr.id in self.f.imports:
                    return self._non_jinja_qualname(self.f.imports[expr.id])
                return self._local_class(expr.id)
            return all(not isinstance(v, tuple) and self._non_jinja_receiver(v, depth + 1) for v in vals)
        return False

    def _local_class(self, name: str) -> bool:
        """Is `name` a module-level class of this file that does not derive from a jinja2
        Environment (see `_class_kind`)?"""
        return name not in self.f.imports and self._class_kind(name) is None and any(
            c.name == name and self.f.enclosing_function(c) is None and self.f.enclosing_class(c) is None
            for c in self.f.nodes(ast.ClassDef))

    @staticmethod
    def _non_jinja_qualname(q: str) -> bool:
        """Is import-resolved name `q` outside jinja2 (and outside the template libraries
        that wrap it)? Names that merely end a dotted path of an unknown object stay
        undecided: only a resolved module path (with a dot) counts."""
        return "." in q and not q.startswith(("jinja2", "flask", "quart", "starlette.templating",
                                               "fastapi.templating", "sanic_ext", "aiohttp_jinja2"))

    def _is_langchain(self, fn: ast.AST) -> bool:
        """Is `fn` (a call's callee) a prompt-template class of a library in PROMPT_FORMATTERS?"""
        return self.prompt_library(fn) is not None

    def prompt_library(self, fn: ast.AST) -> str | None:
        """The library ("langchain" | "llama_index") whose prompt-template class or
        `from_template` constructor `fn` is, or None."""
        q = self.f.qualname(fn) or ""
        parts = q.split(".")
        if isinstance(fn, ast.Attribute) and fn.attr in ("from_template", "from_messages"):
            parts = parts[:-1]
        elif not isinstance(fn, (ast.Name, ast.Attribute)):
            return None  # `Cls[P, R](...)`, `factory()(...)`: not a prompt class we know
        if not parts or parts[-1] not in _LC_PROMPTS:
            return None
        origin = q if q.startswith(tuple(PROMPT_FORMATTERS)) else next(
            (v for k, v in self.f.imports.items() if k == parts[0] and v.startswith(tuple(PROMPT_FORMATTERS))), "")
        return next((lib for lib in PROMPT_FORMATTERS if origin.startswith(lib)), None)

    @staticmethod
    def _lc_format(call: ast.Call) -> str | None:
        """The `template_format` a LangChain prompt call compiles with ("f-string" by
        default). For the message prompt classes' `from_template(template,
        template_format, ...)` (langchain_core.prompts.chat.BaseStringMessagePromptTemplate)
        it is also the second positional argument."""
        v = keyword_arg(call, "template_format")
        if v is None and isinstance(call.func, ast.Attribute) and call.func.attr == "from_template" \
                and len(call.args) >= 2 and (_dotted_tail(call.func.value) or "").endswith("MessagePromptTemplate"):
            v = call.args[1]
        if v is None:
            # `**kwargs` may carry template_format: unknown
            return None if any(k.arg is None for k in call.keywords) else "f-string"
        return v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None

    @staticmethod
    def _lc_source(call: ast.Call) -> ast.AST | None:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "from_template":
            return call.args[0] if call.args else keyword_arg(call, "template")
        return keyword_arg(call, "template") or (call.args[0] if call.args and isinstance(call.func, ast.Name) else None)

    def prompt_sources(self, call: ast.Call) -> list[ast.AST]:
        """The template texts a prompt-class call (`prompt_library` is not None) compiles.

        `PromptTemplate(template=t)` / `X.from_template(t)`: `[t]`. A chat prompt built
        from messages — `ChatPromptTemplate.from_messages([...])`, `ChatPromptTemplate([...])`,
        `ChatPromptTemplate(messages=[...])` with a literal list (or a name bound once to
        one) — compiles the text of every `(role, text)` pair and every bare string
        message as a template in the call's `template_format` (LangChain
        `langchain_core.prompts.chat._convert_to_message_template`; LlamaIndex
        `ChatPromptTemplate.from_messages`). Message objects (`SystemMessage(...)`) are
        not templates, and a `("placeholder", "{history}")` pair names a variable; a bare
        element counts only with evidence that it is a string (`str_evidence`). []
        when the messages cannot be read."""
        fn = call.func
        q = self.f.qualname(fn) or ""
        msgs = None
        if isinstance(fn, ast.Attribute) and fn.attr == "from_messages":
            msgs = call.args[0] if call.args else keyword_arg(call, "messages")
        elif last_part(q) == "ChatPromptTemplate":
            msgs = keyword_arg(call, "messages") or (call.args[0] if call.args else None)
        else:
            src = self._lc_source(call)
            return [src] if src is not None else []
        seq = self._seq_literal(msgs, 0) if msgs is not None else None
        if seq is None:
            return []
        out: list[ast.AST] = []
        for el in seq.elts:
            if isinstance(el, (ast.Tuple, ast.List)) and len(el.elts) == 2:
                role = el.elts[0]
                if isinstance(role, ast.Constant) and role.value == "placeholder":
                    continue
                out.append(el.elts[1])
            elif isinstance(el, (ast.Constant, ast.JoinedStr, ast.BinOp)) or (
                    not isinstance(el, (ast.Call, ast.Tuple, ast.List, ast.Dict, ast.Starred))
                    and self.str_evidence(el)):
                out.append(el)
        return out

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
                    and self._is_instance_ref(call.func.value) else None)
                if name not in by_name:
                    continue
                fn, ps = by_name[name]
                shift = 1 if self._is_method(fn) and isinstance(call.func, ast.Attribute) else 0
                for pos, pname in ps:
                    arg = keyword_arg(call, pname)
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
            if last_part(q) == "render_template" and ("flask" in q or "quart" in q) and call.args:
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
                    tg = self._template_globals(origin)
                    for tname in self.template_names(origin.args[0]):
                        out.append(RenderSite(call, names, template=tname, env=self.env_of(ofn.value),
                                              globals=tg))
                elif id(origin) in lit_by_site:
                    env = self.env_of(ofn.value) if isinstance(ofn, ast.Attribute) else None
                    out.append(RenderSite(call, names, env=env, source=lit_by_site[id(origin)],
                                          globals=self._template_globals(origin)))
        return out

    def _template_globals(self, origin: ast.Call) -> set | None:
        """The names a template made by `origin` gets as globals of its own
        (`Template.globals`, jinja2 API): writes `X.globals[name] = ...` or
        `X.globals.update(...)` in the same-file def that `origin` calls to build it
        (`def create_template(src): t = Template(src); t.globals.update(HELPERS)`), or on
        the name `origin` is bound to (`t = Template(SRC)` then `t.globals["f"] = f`).
        The keys come from string subscripts, keyword names, and dict displays with
        constant keys, also through a module-level name or a local of the updating def
        bound once to one and not filled further. Returns None
        when a write's names cannot be read (the template may see any name)."""
        names: set = set()
        scopes: list[ast.AST] = []
        if isinstance(origin.func, ast.Name):
            scopes += [d for d in self.f.tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and d.name == origin.func.id]
        parent = self.f.parents.get(origin)
        binding = None
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            t = parent.targets[0] if isinstance(parent, ast.Assign) else parent.target
            binding = self.f.dotted(t)

        def dict_keys(expr: ast.AST, at: ast.AST) -> set | None:
            if isinstance(expr, ast.Name):
                fn = self.f.enclosing_function(at)
                local = self._function_bindings(fn, expr.id) if fn is not None else None
                if local is not None:
                    # a local of the def that updates the globals (elyra's `template_vars =
                    # {...}` then `template.globals.update(template_vars)`), bound once and
                    # never filled further (a later `d[k] = v` or `d.update(...)`: unknown)
                    if len(local) != 1 or isinstance(local[0], tuple) or any(
                            (isinstance(m, ast.Subscript) and isinstance(m.ctx, ast.Store)
                             and isinstance(m.value, ast.Name) and m.value.id == expr.id)
                            or (isinstance(m, ast.Call) and isinstance(m.func, ast.Attribute)
                                and isinstance(m.func.value, ast.Name) and m.func.value.id == expr.id
                                and m.func.attr in ("update", "setdefault"))
                            for m in self.f.walk(fn)):
                        return None
                    vals = local
                else:
                    vals = self.f.module_assignments.get(expr.id) or []
                if len(vals) != 1:
                    return None
                expr = vals[0]
            if isinstance(expr, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                  for k in expr.keys):
                return {k.value for k in expr.keys}  # type: ignore[union-attr]
            return None

        writes = [w for d in scopes for w in self._globals_writes_by_top.get(d, ())]
        if binding is not None:
            writes += self._globals_writes_by_owner.get(binding, ())
        for n, t in writes:
            if isinstance(n, ast.Assign):
                if isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                    names.add(t.slice.value)
                else:
                    return None
            else:
                for kw in n.keywords:
                    if kw.arg is None:
                        return None
                    names.add(kw.arg)
                for a in n.args:
                    keys = dict_keys(a, n)
                    if keys is None:
                        return None
                    names |= keys
        return names

    @cached_property
    def _globals_writes(self) -> list[tuple[ast.AST, ast.AST]]:
        """Every write to an `X.globals` attribute in this module, found in one pass:
        (the Assign, its `X.globals[...]` target) or (the `X.globals.update(...)` Call,
        the Call). `_template_globals` reads them through the two indexes below."""
        out: list[tuple[ast.AST, ast.AST]] = []
        for n in self.f.nodes(ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "globals":
                    out.append((n, t))
        for n in self.f.nodes(ast.Call):
            if isinstance(n.func, ast.Attribute) and n.func.attr == "update" \
                    and isinstance(n.func.value, ast.Attribute) and n.func.value.attr == "globals":
                out.append((n, n))
        return out

    @cached_property
    def _globals_writes_by_top(self) -> dict[ast.AST, list[tuple[ast.AST, ast.AST]]]:
        """The `.globals` writes by the module-level statement holding them."""
        out: dict[ast.AST, list[tuple[ast.AST, ast.AST]]] = {}
        for w in self._globals_writes:
            top = w[0]
            while (p := self.f.parents.get(top)) is not None and p is not self.f.tree:
                top = p
            out.setdefault(top, []).append(w)
        return out

    @cached_property
    def _globals_writes_by_owner(self) -> dict[str, list[tuple[ast.AST, ast.AST]]]:
        """The `.globals` writes by the dotted name of the object owning the globals
        (`t` of `t.globals[...] = f`)."""
        out: dict[str, list[tuple[ast.AST, ast.AST]]] = {}
        for w in self._globals_writes:
            owner = (w[1].value if isinstance(w[0], ast.Assign) else w[1].func.value).value
            d = self.f.dotted(owner)
            if d is not None:
                out.setdefault(d, []).append(w)
        return out

    def template_names(self, expr: ast.AST) -> list[str]:
        """The template names a `get_template(expr)` argument holds: a string literal, a
        name or attribute bound once to one, or a parameter of the enclosing function that the function never rebinds and that
        every call of it in this module fills with a string literal (a constructor
        `def __init__(self, name): self.t = env.get_template(name)` built as
        `Renderer("chat.j2")`). [] when any value is unknown or there is no call."""
        const = self._scalar(expr, 0)
        if isinstance(const, str):
            return [const]  # a literal, or a constant bound once (`CHAT_TEMPLATE = "chat.j2"`, a class attribute)
        fn = self.f.enclosing_function(expr) if isinstance(expr, ast.Name) else None
        if fn is None:
            return []
        bound = self._function_bindings(fn, expr.id)
        if not (bound and len(bound) == 1 and isinstance(bound[0], tuple) and bound[0][0] == "param"):
            return []  # not a parameter of `fn`, or one that `fn` rebinds
        arg = bound[0][1]
        vals = self._constructor_args(fn, arg) if fn.name == "__init__" else self._call_site_args(fn, arg)
        names: list[str] = []
        for v in vals or [None]:
            if not (isinstance(v, ast.Constant) and isinstance(v.value, str)):
                return []
            if v.value not in names:
                names.append(v.value)
        return names

    def _constructor_args(self, init, arg: ast.arg) -> list:
        """The expressions `Cls(...)` calls of this module pass for parameter `arg` of
        `Cls.__init__` (None where one passes nothing for it or `*args`). A class with a
        subclass here, or whose name is read other than as a call, yields [None]: its
        constructions are not all visible."""
        cls = self.f.parents.get(init)
        if not isinstance(cls, ast.ClassDef):
            return [None]
        for c in self.f.nodes(ast.ClassDef):
            if any(isinstance(b, ast.Name) and b.id == cls.name for b in c.bases):
                return [None]
        params = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
        out: list = []
        for n in self.f.nodes(ast.Name):
            if n.id != cls.name or not isinstance(n.ctx, ast.Load):
                continue
            call = self.f.parents.get(n)
            if not (isinstance(call, ast.Call) and call.func is n):
                if isinstance(call, (ast.Attribute, ast.Subscript)) or (
                        isinstance(call, ast.Call) and n in call.args):
                    return [None]  # passed around or subclassed dynamically: other constructions
                continue
            out.append(_passed_arg(call, params, arg.arg))
        return out

    def render_calls_of(self, origins: list) -> list[ast.Call]:
        """`.render(...)`-family calls on a template made by one of the calls in `origins`
        (`env.get_template(...)`, `env.from_string(...)`, `Template(...)`), directly or
        through a name or `self.` attribute holding it."""
        want = {id(o) for o in origins}
        if not want:
            return []
        out = []
        for call in self.f.nodes(ast.Call):
            fn = call.func
            if isinstance(fn, ast.Attribute) and fn.attr in _RENDER_METHODS:
                if any(id(o) in want for o in self._template_origins(fn.value)):
                    out.append(call)
        return out

    def html_sink(self, value: ast.AST, depth: int = 0) -> str | None:
        """Where the string `value` (a render call) is served as HTML, described for a
        message ("`HTMLResponse`", "a Flask view's response"), or None: an HTML_SINKS
        call or a Flask/Quart view's return, reached directly, through `+`/f-strings/
        `.join`, or through a local name."""
        if depth > 3:
            return None
        node, parent = value, self.f.parents.get(value)
        while isinstance(parent, (ast.BinOp, ast.JoinedStr, ast.FormattedValue, ast.keyword)) or (
                isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute) and parent.func.attr == "join"
                and node in parent.args):
            node, parent = parent, self.f.parents.get(parent)
        if isinstance(parent, ast.Call) and node is not parent.func:
            q = self.f.qualname(parent.func) or ""
            if q in HTML_SINKS:
                if last_part(q) == "Response" and q.startswith("aiohttp"):
                    ct = keyword_arg(parent, "content_type")
                    if not (isinstance(ct, ast.Constant) and ct.value == "text/html"):
                        return None
                return f"`{last_part(q)}`"
        if isinstance(parent, ast.Return) and self._flask_view(self.f.enclosing_function(parent)):
            return "a Flask view's response"
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and node is parent.value:
            tgt = parent.targets[0] if isinstance(parent, ast.Assign) else parent.target
            if isinstance(tgt, ast.Name):
                fn = self.f.enclosing_function(parent)
                scope = fn if fn is not None else self.f.tree
                for n in ast.walk(scope):
                    if isinstance(n, ast.Name) and n.id == tgt.id and isinstance(n.ctx, ast.Load):
                        s = self.html_sink(n, depth + 1)
                        if s:
                            return s
        return None

    def _flask_view(self, fn) -> bool:
        """Is `fn` a Flask/Quart view (`@app.route(...)`, `@bp.get(...)` on an application or
        Blueprint object)? Its `str` return value is served as text/html (Flask's
        Response.default_mimetype)."""
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        for d in fn.decorator_list:
            f = d.func if isinstance(d, ast.Call) else d
            if isinstance(f, ast.Attribute) and f.attr in _VIEW_DECORATORS and (
                    self._is_app(f.value) or self._is_blueprint(f.value)):
                return True
        return False

    def _is_blueprint(self, expr: ast.AST) -> bool:
        vals = self.values_of(expr) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        return any(isinstance(v, ast.Call) and (self.f.qualname(v.func) or "") in _BLUEPRINT_CLASSES for v in vals or ())

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


def _literal_strings(ann: ast.AST) -> bool:
    """Is `ann` `Literal["a", "b", ...]` (`typing`/`typing_extensions`) of strings only?"""
    return isinstance(ann, ast.Subscript) and (ast.unparse(ann.value).split(".")[-1] == "Literal") and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str)
        for e in (ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]))


def _in_annotation(facts, node: ast.AST) -> bool:
    """Is `node` part of a type annotation (a parameter's, an `AnnAssign`'s, a return's)?"""
    child = node
    for a in facts.ancestors(node):
        if isinstance(a, ast.arg) and a.annotation is child:
            return True
        if isinstance(a, ast.AnnAssign) and a.annotation is child:
            return True
        if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)) and a.returns is child:
            return True
        if isinstance(a, ast.stmt):
            return False
        child = a
    return False


def _param_names(fn) -> set[str]:
    a = fn.args
    return {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x))}


def _is_constant_name(expr: ast.AST) -> bool:
    """`PROMPT_TMPL` or `prompts.PROMPT_TMPL`: an UPPER_CASE name (PEP 8 constant)."""
    name = expr.id if isinstance(expr, ast.Name) else expr.attr if isinstance(expr, ast.Attribute) else ""
    return len(name) > 1 and name.isupper() and any(c.isalpha() for c in name)


#: Calls whose first argument is the path of the file they open.
_OPEN_CALLS = frozenset({"open", "io.open", "codecs.open", "pathlib.Path", "pathlib.PurePath"})


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
        if ast.unparse(ann.value).endswith("Optional"):
            return _is_str_annotation(ann.slice)
    return False


def source_text(facts, node: ast.AST, limit: int = 40) -> str:
    """The source of `node` on one line, shortened to `limit` characters (for messages)."""
    s = " ".join((facts.segment(node) or "<expr>").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def keyword_arg(call: ast.Call, name: str) -> ast.AST | None:
    """The value of keyword argument `name` of `call`, or None."""
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def _dotted_tail(expr: ast.AST) -> str | None:
    """The last name of `a.b.C` or `C`, else None."""
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else None


def _passed_arg(call: ast.Call, params: list[str], name: str) -> ast.AST | None:
    """The expression `call` passes for parameter `name`, whose positional parameters
    (the receiver already dropped) are `params`: its keyword, else its positional
    argument; None when it passes nothing for it or the position lies behind a `*args`."""
    val = keyword_arg(call, name)
    if val is None and name in params:
        i = params.index(name)
        val = call.args[i] if i < len(call.args) and not any(
            isinstance(a, ast.Starred) for a in call.args[: i + 1]) else None
    return val


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


_OTHER_MODULES: dict[tuple[str, float], "CallSites | None"] = {}


def module_call_sites(path: str, config, text: str | None = None) -> "CallSites | None":
    """CallSites of a module of the project, parsed at most once per run and file
    version (`_imported_env`, and the project pass, which hands in the `text` it
    decoded); None when it cannot be read or parsed."""
    import os
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_mtime)
    cached = _OTHER_MODULES.get(key)
    if key not in _OTHER_MODULES or (text is not None and (
            cached is None or cached.f.text != text or cached.f.config is not config)):
        cs = None
        if text is not None or st.st_size <= getattr(config, "max_file_size", 1 << 20):
            tree = None
            try:
                if text is None:
                    with open(path, encoding="utf-8") as fh:
                        text = fh.read()
                from ctxlint.languages.python import parse as py_parse
                tree = py_parse(path, text, quiet=True)[0]
            except (OSError, UnicodeDecodeError):
                pass
            if tree is not None:
                from ctxlint.semantic.python.facts import PythonFacts
                cs = CallSites(PythonFacts(path, text, tree, config))
        if len(_OTHER_MODULES) > 256:
            _OTHER_MODULES.clear()
        _OTHER_MODULES[key] = cs
    return _OTHER_MODULES[key]


def call_sites(facts) -> CallSites:
    """The memoized CallSites of a PythonFacts (shared by the CTX3xx rules)."""
    return facts.memo("jinja.call_sites", lambda: CallSites(facts))
