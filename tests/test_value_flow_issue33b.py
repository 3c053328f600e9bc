"""Issue 33 (second half): values followed where real code moves them, for CTX402,
CTX407, CTX501 and CTX601. Each shape has a silent twin.

- CTX402: functools' class-wide cache applied through a project decorator (a helper
  returning `lru_cache(fn)`, a factory, an alias, a `wraps` wrapper delegating to a
  cached copy, two helper levels, a decorator imported from another module);
- CTX407: a lock or client one object deeper than the object sent through Ray;
- CTX501: a scope id in an item path of a mapping (`kwargs["metadata"]["tenant_id"]`),
  read here or by a helper the mapping is handed to;
- CTX601: a loss tensor kept by a helper that stores its argument in a container
  outliving the call (an attribute of its object, a module global), through a dict.
"""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import facts as py
from ctxlint.semantic.python import lint as py_lint
from ctxlint.semantic.python.decorators import applied_cache, cache_bound


def lint(src: str, codes: list[str], path: str = "t.py"):
    return py_lint.lint(path, textwrap.dedent(src), select_rules(codes, []), Config())


def found(src: str, codes: list[str], path: str = "t.py") -> set[tuple[int, str]]:
    return {(f.line, f.code) for f in lint(src, codes, path)}


# ---------------------------------------------------------------- CTX402
DECORATORS = """\
import functools
from functools import lru_cache, wraps

def memoize(maxsize=None):
    return functools.lru_cache(maxsize=maxsize)

memo = lru_cache(maxsize=512)

def cached(fn):
    inner = functools.lru_cache()(fn)
    @wraps(fn)
    def wrapper(*args, **kw):
        return inner(*args, **kw)
    return wrapper

def _wrap(fn):
    return functools.cache(fn)

def cached2(fn):
    return _wrap(fn)

def logged(fn):
    @wraps(fn)
    def wrapper(self, *a):
        print(fn.__name__)
        return fn(self, *a)
    return wrapper

def on_instance(fn):
    def wrapper(self, *a):
        d = self.__dict__.setdefault("_m", {})
        if a not in d:
            d[a] = fn(self, *a)
        return d[a]
    return wrapper

def tiny(fn):
    return functools.lru_cache(maxsize=1)(fn)

CACHE_SIZE = 256
memo2 = lru_cache(CACHE_SIZE)
"""

DOC_CLASS = """\
class Doc:
    def __init__(self, text):
        self.text = text

    @{deco}
    def part(self, i):
        return self.text[i]

def load_all(paths):
    return [Doc(open(p).read()) for p in paths]
"""


def _doc_with(deco: str) -> str:
    return DECORATORS + "\n\n" + DOC_CLASS.format(deco=deco)


def test_ctx402_project_decorators_that_apply_the_class_cache():
    line = len(DECORATORS.splitlines()) + 2 + 5
    for deco in ("memoize()", "memo", "memo2", "cached", "cached2"):
        assert found(_doc_with(deco), ["CTX402"]) == {(line, "CTX402")}, deco


def test_ctx402_decorators_that_memoize_elsewhere_are_silent():
    for deco in ("logged", "on_instance", "tiny"):
        assert found(_doc_with(deco), ["CTX402"]) == set(), deco


def test_ctx402_factory_bound_is_read_from_its_call():
    src = _doc_with("memoize(maxsize=64)")
    [f] = lint(src, ["CTX402"])
    assert "up to 64 entries" in f.message and "lru_cache(maxsize=maxsize)" in f.message
    [f] = lint(_doc_with("memoize()"), ["CTX402"])
    assert "no bound" in f.message  # the factory's default, maxsize=None
    assert f.fix is None  # the project's decorator is the project's to change


def test_ctx402_applied_cache_unit():
    src = _doc_with("cached")
    tree = ast.parse(src)
    facts = py.PythonFacts("t.py", src, tree, Config())
    deco = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "part").decorator_list[0]
    app = applied_cache(facts, deco)
    assert app is not None and app.qualname == "functools.lru_cache"
    assert isinstance(cache_bound(facts, app), ast.Constant) and cache_bound(facts, app).value == 128
    assert any("wrapper calls `inner`" in msg for _f, _n, msg in app.steps)


def test_ctx402_decorator_imported_from_another_module(tmp_path):
    pkg = tmp_path / "svc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "caching.py").write_text(textwrap.dedent("""\
        import functools

        def cached_method(fn):
            return functools.lru_cache(maxsize=None)(fn)

        def instance_memo(fn):
            def call(self, *a):
                return self.__dict__.setdefault(a, fn(self, *a))
            return call
        """))
    body = textwrap.dedent("""\
        from fastapi import Request

        from .caching import {deco}

        class PerRequest:
            def __init__(self, request: Request):
                self.request = request

            @{deco}
            def header(self, name):
                return self.request.headers.get(name)
        """)
    path = pkg / "views.py"
    for deco, want in (("cached_method", {(9, "CTX402")}), ("instance_memo", set())):
        path.write_text(body.format(deco=deco))
        assert found(path.read_text(), ["CTX402"], str(path)) == want, deco


# ---------------------------------------------------------------- CTX407
RAY = """\
import threading
from dataclasses import dataclass

import httpx
import ray


class Pool:
    def __init__(self):
        guard = threading.RLock()
        self._guard = guard
        self.items = []
{pool_extra}

@dataclass
class Settings:
    pool: Pool
    name: str = "x"


class Service:
    def __init__(self, settings: Settings):
        self.settings = settings

    def publish_pool(self):
        return ray.put(self.settings.pool)

    def publish(self):
        return ray.put(self.settings)


class Holder:
    def __init__(self):
        self.clients = {{"a": httpx.Client()}}


@ray.remote
def work(x):
    return x


def go():
    work.remote(Holder())
"""
GETSTATE = """
    def __getstate__(self):
        return {"items": list(self.items)}

    def __setstate__(self, state):
        self._guard = threading.RLock()
        self.items = state["items"]
"""


def test_ctx407_unpicklable_one_object_deeper_and_in_displays():
    src = RAY.format(pool_extra="")
    assert found(src, ["CTX407"]) == {(26, "CTX407"), (29, "CTX407"), (43, "CTX407")}
    by_line = {f.line: f for f in lint(src, ["CTX407"])}
    assert "an instance of `Pool`" in by_line[29].message
    # the fix mends the class that holds the lock, not the config around it
    assert by_line[29].fix.data["cls"] == "Pool" and by_line[29].fix.data["drop"] == ["_guard"]


def test_ctx407_inner_class_that_pickles_itself_is_silent():
    src = RAY.format(pool_extra=GETSTATE)
    holder = src.splitlines().index("    work.remote(Holder())") + 1
    assert found(src, ["CTX407"]) == {(holder, "CTX407")}  # only the client in a dict display


# ---------------------------------------------------------------- CTX501
ROUTER = """\
import hashlib
import json

import cachetools


class Router:
    def __init__(self, deployments):
        self.deployments = deployments
        self._cache = cachetools.TTLCache(maxsize=1000, ttl=60)

    async def complete(self, **kwargs):
        params = {{k: kwargs[k] for k in ("model", "messages") if k in kwargs}}
        key = hashlib.sha256(json.dumps({key}, sort_keys=True).encode()).hexdigest()
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        out = await self._pick(kwargs, params)
        self._cache[key] = out
        return out

    async def _pick(self, kwargs, params):
        return await self._send(kwargs.get("metadata", {{}}), params)

    async def _send(self, meta, params):
        return await self.deployments[meta["org_id"]].complete(**params)
"""


def test_ctx501_scope_id_in_an_item_path_two_helpers_away():
    src = ROUTER.format(key="params")
    fs = lint(src, ["CTX501"])
    assert {(f.line, f.code) for f in fs} == {(15, "CTX501")}
    assert 'kwargs.get("metadata", {})["org_id"]' in fs[0].message


def test_ctx501_item_path_in_the_key_scopes_it():
    src = ROUTER.format(key='[kwargs.get("metadata", {})["org_id"], params]')
    assert found(src, ["CTX501"]) == set()


def test_ctx501_item_read_of_another_key_is_not_the_scope():
    # `kwargs[k]` reads other items of the mapping that carries the tenant: not scoped
    src = ROUTER.format(key='[kwargs[k] for k in ("model", "temperature") if k in kwargs]')
    assert found(src, ["CTX501"]) == {(15, "CTX501")}


# ---------------------------------------------------------------- CTX601
TRAIN = """\
import torch

HISTORY = []


def log_metrics(metrics):
    HISTORY.append(metrics)


def log_scalar(name, value):
    HISTORY.append((name, float(value)))


class Loop:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.rows = []

    def _store(self, row):
        self.rows.append(row)

    def _record(self, step, metrics):
        entry = dict(metrics)
        entry["step"] = step
        self._store(entry)

    def run(self, loader):
        for step, (x, y) in enumerate(loader):
            loss = torch.nn.functional.mse_loss(self.model(x), y)
            loss.backward()
            self.opt.step()
            self._record(step, {"mse": loss})
            log_metrics({"loss": loss})
            log_scalar("loss", loss)
            rec = {"loss": loss}
            self._record(step, rec)
            self._record(step, {"mse": loss.item()})
            log_metrics({"loss": loss.detach()})
"""


def test_ctx601_helpers_that_keep_their_argument():
    fs = {f.line: f for f in lint(TRAIN, ["CTX601"])}
    assert set(fs) == {32, 33, 36}
    assert "kept there by `_record()`" in fs[32].message and "`self.rows`" in fs[32].message
    assert "`HISTORY`" in fs[33].message
    # the fix detaches the element of the display that carries the graph
    assert (fs[32].fix.data["line"], fs[32].fix.data["col"]) == (32, 39)
    assert fs[36].fix is None  # a local container built elsewhere: detaching it is no fix


def test_ctx601_helper_outside_a_training_loop_is_silent():
    src = TRAIN.replace("            loss.backward()\n            self.opt.step()\n", "")
    assert found(src, ["CTX601"]) == set()


def test_ctx501_route_handler_named_like_a_key_builder_builds_no_key():
    # the user id is in scope through a helper, but the endpoint's return is the response
    src = """\
    from fastapi import APIRouter

    router = APIRouter()

    def audit(auth):
        return {"by": auth.user_id}

    @router.post("/key/block")
    async def block_key(data, auth):
        audit(auth)
        record = {"token": data.token, "blocked": True}
        return record
    """
    assert found(src, ["CTX501"]) == set()
    assert found(src.replace('@router.post("/key/block")\n    ', ""), ["CTX501"]) == {(11, "CTX501")}


def test_header_item_queue_field_nested_factory_and_owned_recorder():
    src = """\
    import functools
    import queue

    import ray
    from fastapi import Request

    _CACHE = {}


    def _route(headers):
        return headers["X-Tenant-ID"]


    async def handle(request: Request, prompt: str, llm):
        if prompt in _CACHE:
            return _CACHE[prompt]
        out = await llm(prompt, deployment=_route(request.headers))
        _CACHE[prompt] = out
        return out


    class Batcher:
        def __init__(self):
            self.pending = queue.Queue()


    def publish(b: Batcher):
        return ray.put(b)


    def memo(maxsize=None):
        def deco(fn):
            return functools.lru_cache(maxsize=maxsize)(fn)
        return deco


    class Doc:
        def __init__(self, t):
            self.t = t

        @memo(maxsize=32)
        def part(self, i):
            return self.t[i]


    def load(paths):
        return [Doc(p) for p in paths]


    class Recorder:
        def __init__(self):
            self.rows = []

        def log(self, value):
            self.rows.append(value)


    class Trainer:
        def __init__(self, model, opt):
            self.model, self.opt = model, opt
            self.recorder = Recorder()

        def step(self, batch):
            loss = self.model(batch).loss
            loss.backward()
            self.opt.step()
            self.recorder.log(loss)
    """
    got = {f.line: f for f in lint(src, ["CTX402", "CTX407", "CTX501", "CTX601"])}
    assert {(n, f.code) for n, f in got.items()} == {
        (15, "CTX501"), (28, "CTX407"), (41, "CTX402"), (67, "CTX601")}
    assert 'request.headers["X-Tenant-ID"]' in got[15].message
    assert "queue.Queue" in got[28].message and "up to 32 entries" in got[41].message
    assert "`self.recorder.rows`" in got[67].message


def test_ctx501_helper_param_named_as_an_id_does_not_rename_the_callers_argument():
    # openai-agents' tool lookup key: `namespace` is an id only by the helper's own name
    src = """\
    def is_reserved(name, namespace):
        return namespace == name

    def tool_lookup_key(tool_name, tool_ns=None):
        if is_reserved(tool_name, tool_ns):
            return ("deferred", tool_name)
        return ("bare", tool_name)
    """
    assert found(src, ["CTX501"]) == set()
