"""Value-flow shapes of CTX203, CTX206, CTX303, CTX304 and CTX502 beyond the corpus:
a request-built client kept in an entry of a module dict, an executor job reading a
ContextVar set upstream, chat-message templates, template names that reach
`get_template` through a constructor, a constant or a helper's parameter, and a scope
ContextVar read through a same-module getter. Each shape has a silent twin."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint


def found(src: str, codes: list[str]) -> set[tuple[int, str]]:
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return {(f.line, f.code) for f in fs}


# ---------------------------------------------------------------- CTX203
def test_ctx203_request_client_in_module_dict_entry_and_plain_record_is_silent():
    src = """\
    import httpx
    from fastapi import Request

    _state = {}
    _seen = {}

    def dep(request: Request):
        _seen["last"] = {"path": request.url.path, "ua": request.headers.get("user-agent")}
        if "c" not in _state:
            _state["c"] = httpx.AsyncClient(headers={"Authorization": request.headers["authorization"]})
        return _state["c"]
    """
    assert found(src, ["CTX203"]) == {(10, "CTX203")}


def test_ctx203_record_holding_the_request_object_is_reported():
    src = """\
    from fastapi import Request

    _recent = {}

    async def handler(request: Request, rid: str):
        _recent[rid] = (request, 1)
    """
    assert found(src, ["CTX203"]) == {(6, "CTX203")}


# ---------------------------------------------------------------- CTX206
JOB = """\
import asyncio
import contextvars
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

tenant = contextvars.ContextVar("tenant", default="-")
POOL = ThreadPoolExecutor()
PROCS = ProcessPoolExecutor()


def reads(x):
    return tenant.get(), x


def pure(x):
    return x * 2


async def handle(x, pool):
    loop = asyncio.get_running_loop()
    a = await loop.run_in_executor(POOL, reads, x)
    b = await loop.run_in_executor(None, pure, x)
    c = await loop.run_in_executor(PROCS, reads, x)
    d = await loop.run_in_executor(pool, reads, x)
    e = POOL.submit(reads, x)
    return a, b, c, d, e
"""


def test_ctx206_job_reading_upstream_var_on_thread_pools_only():
    # reported: a thread pool (line 20) and `submit` (24); silent: a job reading
    # nothing, a process pool, an executor parameter of unknown kind
    assert found(JOB, ["CTX206"]) == {(20, "CTX206"), (24, "CTX206")}


# ---------------------------------------------------------------- CTX303
def test_ctx303_from_messages_text_is_a_template():
    src = """\
    import os
    from langchain_core.prompts import ChatPromptTemplate
    from langchain_core.messages import SystemMessage

    MESSAGES = [("system", os.environ["SYSTEM_PROMPT"]), ("human", "{q}")]

    def bad():
        return ChatPromptTemplate.from_messages(MESSAGES)

    def bad_ctor(row):
        return ChatPromptTemplate([("system", row["prompt"]), ("human", "{q}")])

    def good(row):
        return ChatPromptTemplate.from_messages([SystemMessage(content=row["prompt"]), ("human", "{q}")])

    def good_jinja(row):
        return ChatPromptTemplate.from_messages([("system", row["prompt"])], template_format="jinja2")
    """
    assert found(src, ["CTX303"]) == {(8, "CTX303"), (11, "CTX303")}


# ---------------------------------------------------------------- CTX304
def _lint_tree(root: Path, files: dict[str, str]) -> list[tuple[str, int]]:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    res = engine.lint_paths([str(root)], Config(root=root), select_rules(["CTX304"], []), jobs=1, use_cache=False)
    assert not res.internal_errors, res.notices
    return sorted((Path(f.path).name, f.line) for f in res.findings)


HEAD = """\
from pathlib import Path
from jinja2 import Environment, FileSystemLoader
ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "t"))
"""


def test_ctx304_template_name_through_constructor_constant_and_parameter(tmp_path):
    app = HEAD + textwrap.dedent("""\
    NAME = "b.j2"

    class Renderer:
        def __init__(self, name):
            self.t = ENV.get_template(name)

        def render(self, msgs):
            return self.t.render(msgs=msgs)

    def by_constant(msgs):
        return ENV.get_template(NAME).render(msgs=msgs)

    def by_param(name, msgs):
        return ENV.get_template(name).render(msgs=msgs)

    R = Renderer("a.j2")
    by_param("c.j2", [])
    """)
    files = {"app.py": app, "t/a.j2": "{{ msgs }}{{ tools }}\n", "t/b.j2": "{{ msgs }}{{ docs }}\n",
             "t/c.j2": "{{ msgs }}{{ user }}\n"}
    assert _lint_tree(tmp_path, files) == [("a.j2", 1), ("b.j2", 1), ("c.j2", 1)]


def test_ctx304_constructor_with_a_runtime_name_is_not_linked(tmp_path):
    app = HEAD + textwrap.dedent("""\
    class Renderer:
        def __init__(self, name):
            self.t = ENV.get_template(name)

        def render(self, msgs):
            return self.t.render(msgs=msgs)

    A = Renderer("a.j2")

    def for_model(model):
        return Renderer(model + ".j2")

    class Sub(Renderer):
        pass
    """)
    files = {"app.py": app, "t/a.j2": "{{ msgs }}{{ tools }}\n"}
    assert _lint_tree(tmp_path, files) == []


# ---------------------------------------------------------------- CTX502
def test_ctx502_scope_var_through_getter_helpers():
    src = """\
    from contextvars import ContextVar
    from functools import lru_cache

    _tenant = ContextVar("tenant")
    _trace = ContextVar("trace")

    def get_tenant():
        t = _tenant.get()
        return t

    def tenant_key():
        return "k:" + get_tenant()

    def log_trace():
        print(_trace.get())
        return None

    @lru_cache
    def quota(model):
        log_trace()
        return (tenant_key(), model)
    """
    # `tenant_key()` returns the var (two helpers deep); `log_trace()` reads one but
    # returns nothing of it
    assert found(src, ["CTX502"]) == {(21, "CTX502")}


def test_ctx206_thread_pool_map_of_a_job_reading_a_var_has_no_fix():
    src = """\
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    tenant = contextvars.ContextVar("tenant", default="-")
    POOL = ThreadPoolExecutor()

    def embed(text):
        return (tenant.get(), len(text))

    def plain(text):
        return len(text)

    def embed_all(texts):
        a = list(POOL.map(embed, texts))
        b = list(POOL.map(plain, texts))
        c = list(map(embed, texts))
        return a, b, c
    """
    fs = py_lint.lint("t.py", textwrap.dedent(src), select_rules(["CTX206"], []), Config())
    assert [(f.line, f.fix) for f in fs] == [(14, None)]


def test_ctx203_app_state_store_and_request_state_is_silent():
    src = """\
    import httpx
    from fastapi import FastAPI, Request

    app = FastAPI()

    def a(request: Request):
        request.state.client = httpx.AsyncClient(headers={"A": request.headers["a"]})
        request.app.state.hits = request.app.state.hits + 1
        app.state.client = httpx.AsyncClient(headers={"A": request.headers["a"]})
    """
    assert found(src, ["CTX203"]) == {(9, "CTX203")}


def test_ctx203_app_state_refreshed_by_a_helper_given_the_request_is_silent():
    src = """\
    from fastapi import Request

    async def load_servers(request: Request):
        return [s for s in request.app.state.CONFIG]

    async def refresh(request: Request):
        servers = None
        if servers is None:
            servers = await load_servers(request)
        request.app.state.SERVERS = servers
        request.app.state.LAST = request
    """
    assert found(src, ["CTX203"]) == {(11, "CTX203")}
