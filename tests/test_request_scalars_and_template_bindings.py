"""Round-11 misreads fixed as kinds: CTX304 names a template binds itself on every
path (`{% set %}` in every branch of an if/else, a default set while missing), CTX203
scalars read out of a request (not the request or its mappings), and CTX203 WebSocket
connection registries whose entries are removed. Corpus cases:
corpus/CTX304/{good/branch_set_names,bad/branch_set_one_path},
corpus/CTX203/good/{flask_heartbeat_scalars,starlette_usage_record_list,websocket_connection_registry}.py,
corpus/CTX203/bad/{request_mapping_in_record,websocket_registry_without_removal}.py."""

from __future__ import annotations

import ast
import textwrap

import pytest

from ctxlint.config import Config
from ctxlint.languages.jinja import parse_template
from ctxlint.rules import select_rules
from ctxlint.semantic.jinja.templates import JinjaFacts
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.requests import connection_only, request_data_value


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


def context_reads(text: str) -> set[str]:
    tree, err = parse_template(text)
    assert err is None, err
    f = JinjaFacts("t.j2", text, tree, Config())
    return f.undeclared - f.optional_names


# ---------------------------------------------------------------- CTX304
@pytest.mark.parametrize("text", [
    # the openhands Dockerfile shape: if/else sets, nested in another if
    "{% if not skip %}{% if 'u' in img %}{% set LIB = 'a' %}{% else %}{% set LIB = 'b' %}{% endif %}"
    "{{ LIB }}{% endif %}",
    # if/elif/else, block sets and a tuple set, read inside a loop and a with
    "{% if m == 1 %}{% set H %}x{% endset %}{% elif m == 2 %}{% set H, J = 1, 2 %}{% else %}"
    "{% set H = 3 %}{% endif %}{% for a in items %}{% with n = loop.index %}{{ H }}{{ n }}{{ a }}"
    "{% endwith %}{% endfor %}",
    # a default set on the branch taken while the name is missing
    "{% if not persona %}{% set persona = 'helpful' %}{% endif %}You are {{ persona }}.",
    "{% if title is undefined %}{% set title = 'Report' %}{% endif %}{{ title }}",
    "{% if lang %}{% else %}{% set lang = 'en' %}{% endif %}{{ lang }}",
])
def test_ctx304_names_bound_on_every_path_are_not_render_context_reads(text):
    assert context_reads(text) <= {"m", "items", "img", "skip"}


@pytest.mark.parametrize("text, name", [
    ("{% if a == 1 %}{% set X = 1 %}{% endif %}{{ X }}", "X"),                       # no else
    ("{% if a == 1 %}{% set X = 1 %}{% elif a == 2 %}{% set X = 2 %}{% endif %}{{ X }}", "X"),
    ("{% for i in r %}{% set X = i %}{% endfor %}{{ X }}", "X"),                      # loop scope
    ("{% with %}{% set X = 1 %}{% endwith %}{{ X }}", "X"),                           # with scope
    ("{{ X }}{% if a == 1 %}{% set X = 1 %}{% else %}{% set X = 2 %}{% endif %}", "X"),  # read first
    ("{% if a == 1 %}{% set X = 1 %}{% else %}{% set X = 2 %}{% endif %}"
     "{% macro m() %}{{ X }}{% endmacro %}{{ m() }}", "X"),                           # macro body apart
    ("{% if X is none %}{% set X = 1 %}{% endif %}{{ X + 1 }}{{ Y }}", "Y"),          # none is not missing
])
def test_ctx304_a_path_without_the_binding_still_reads_the_render_context(text, name):
    assert name in context_reads(text)


def test_ctx304_reported_at_the_read_that_reaches_the_render_context():
    text = ("{% if a == 1 %}{% set X = 1 %}{% else %}{% set X = 2 %}{% endif %}\n{{ X }}\n"
            "{% for i in r %}{% set X = i %}{% endfor %}{% if b == 2 %}{% set Y = 1 %}{% endif %}\n{{ Y }}\n")
    tree, _ = parse_template(text)
    f = JinjaFacts("t.j2", text, tree, Config())
    assert "X" not in f.undeclared and f.first_use("Y").lineno == 4


def test_ctx304_literal_template_branch_sets():
    src = '''\
    from jinja2 import Template

    _OK = Template("{% if short %}{% set style = 'terse' %}{% else %}{% set style = 'full' %}{% endif %}"
                   "Answer in a {{ style }} style: {{ question }}")
    _BAD = Template("{% if short %}{% set style = 'terse' %}{% endif %}Answer in a {{ style }} style.")

    def prompts(q, short):
        return _OK.render(question=q, short=short), _BAD.render(short=short)
    '''
    assert found(src, ["CTX304"]) == {(5, "CTX304")}


# ---------------------------------------------------------------- CTX203: request data
FLASK = """\
import datetime
from flask import Flask, request

app = Flask(__name__)
BEATS = {}
ARGS = []

@app.route("/hb")
def hb():
    address = request.args.get("api_address")
    pid = request.args.get("pid", type=int)
    if address:
        BEATS[address] = {"pid": pid, "n": int(request.args["n"]), "ts": datetime.datetime.now().isoformat(),
                          "ua": request.headers.get("User-Agent", "").lower(), "body": request.get_json()}
        BEATS[address + "/v"] = pid
    {extra}
    return "ok"
"""


def test_ctx203_scalars_read_from_the_flask_request_are_data():
    assert found(FLASK.replace("{extra}", "pass"), ["CTX203"]) == set()


@pytest.mark.parametrize("extra", [
    'BEATS["h"] = {"pid": pid, "headers": request.headers}',
    'BEATS["r"] = {"pid": pid, "req": request}',
    "ARGS.append(request.args)",
    'ARGS.append([pid, request.cookies])',
])
def test_ctx203_record_holding_the_request_or_its_mappings_still_fires(extra):
    assert found(FLASK.replace("{extra}", extra), ["CTX203"]) == {(16, "CTX203")}


def test_request_data_value_by_shape():
    src = textwrap.dedent("""\
    from starlette.requests import Request

    async def h(request: Request, other):
        a = request.query_params.get("a")
        b = request.headers["x"]
        c = await request.json()
        d = request.headers
        e = request.state
        f = other.get("x")
        g = request.headers.items()
    """)
    facts = py.PythonFacts("t.py", src, ast.parse(src), Config())
    fn = next(n for n in facts.nodes(ast.AsyncFunctionDef))
    values = {s.targets[0].id: s.value for s in facts.walk(fn) if isinstance(s, ast.Assign)}
    got = {k for k, v in values.items() if request_data_value(facts, v, fn)}
    assert got == {"a", "b", "c"}


def test_connection_only_by_shape():
    src = textwrap.dedent("""\
    import contextvars
    from fastapi import Request, WebSocket

    def h(ws: WebSocket, req: Request, sid: str):
        a = ws
        b = Session(sid, ws=ws)
        c = Session(ws, contextvars.copy_context())
        d = req
        e = Session(ws, req.headers["x"])
    """)
    facts = py.PythonFacts("t.py", src, ast.parse(src), Config())
    fn = next(n for n in facts.nodes(ast.FunctionDef))
    values = {s.targets[0].id: s.value for s in facts.walk(fn) if isinstance(s, ast.Assign)}
    assert {k for k, v in values.items() if connection_only(facts, v, fn)} == {"a", "b"}


# ---------------------------------------------------------------- CTX203: connection registries
WS = """\
import asyncio
import contextvars
from fastapi import FastAPI, Request, WebSocket

app = FastAPI()


class Session:
    def __init__(self, sid, ws, store=None, ctx=None):
        self.ws = ws


class Manager:
    _sessions: dict = {}

    def __init__(self, store):
        self.store = store

    def add(self, sid: str, conn: WebSocket):
        self._sessions[sid] = {value}
        return self._sessions[sid]

    {removal}
"""
SWEEP = """async def sweep(self):
        for sid in [s for s in self._sessions if s]:
            self._sessions.pop(sid, None)
        await asyncio.sleep(1)"""


def test_ctx203_websocket_session_in_a_swept_registry_is_silent():
    src = WS.replace("{value}", "Session(sid=sid, ws=conn, store=self.store)").replace("{removal}", SWEEP)
    assert found(src, ["CTX203"]) == set()
    src = WS.replace("{value}", "conn").replace("{removal}", "def drop(self, sid):\n        del self._sessions[sid]")
    assert found(src, ["CTX203"]) == set()


@pytest.mark.parametrize("value, removal", [
    ("Session(sid=sid, ws=conn, store=self.store)", "pass"),                      # never removed
    ("Session(sid, conn, ctx=contextvars.copy_context())", SWEEP),                # a Context too
    ("[conn, contextvars.copy_context()]", SWEEP),
])
def test_ctx203_connection_registry_near_misses_still_fire(value, removal):
    assert found(WS.replace("{value}", value).replace("{removal}", removal), ["CTX203"]) == {(20, "CTX203")}


def test_ctx203_http_request_in_a_registry_with_removal_still_fires():
    src = WS.replace("conn: WebSocket", "conn: Request").replace("{value}", "Session(sid, conn)") \
        .replace("{removal}", SWEEP)
    assert found(src, ["CTX203"]) == {(20, "CTX203")}


def test_ctx203_request_body_stream_kept_in_a_registry_fires():
    src = """\
    from starlette.requests import Request

    _uploads = {}

    async def upload(request: Request, uid: str):
        chunks = request.stream()
        _uploads[uid] = chunks
        _uploads[uid + "/direct"] = request.stream()
        _uploads[uid + "/len"] = int(request.headers.get("content-length", "0"))
    """
    assert found(src, ["CTX203"]) == {(7, "CTX203"), (8, "CTX203")}
