"""Manifest and latent findings (issue 32): the tier of each finding, its evidence
(trace), and how every output honours `min-confidence`."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python.lint import lint

ROOT = Path(__file__).resolve().parent.parent


def tiers(src: str, codes: list[str]) -> list[tuple[int, str, str]]:
    """(line, code, confidence) of every finding of `codes` on `src`, both tiers."""
    fs = lint("t.py", textwrap.dedent(src), select_rules(codes, []), Config())
    return sorted((f.line, f.code, f.confidence) for f in fs)


DROPPED_TASK = """\
    import asyncio

    async def record(n):
        await asyncio.sleep(0)

    async def handle(n):
        asyncio.create_task(record(n))
"""


def test_repetition_dependent_finding_is_latent_without_an_entry_point():
    assert tiers(DROPPED_TASK, ["CTX107"]) == [(7, "CTX107", "low")]


@pytest.mark.parametrize("entry", [
    'from fastapi import FastAPI\napp = FastAPI()\n\n@app.post("/usage")\n',
    'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/usage")\n',
])
def test_a_route_makes_it_manifest_with_the_route_in_the_trace(entry):
    src = textwrap.dedent(DROPPED_TASK).replace("async def handle", entry + "async def handle")
    fs = lint("t.py", src, select_rules(["CTX107"], []), Config())
    assert [f.confidence for f in fs] == ["high"]
    assert "route handler" in fs[0].trace[0].message


def test_reach_follows_the_call_graph_from_an_entry_point():
    src = textwrap.dedent(DROPPED_TASK) + textwrap.dedent("""
        from fastapi import FastAPI
        app = FastAPI()

        async def middle(n):
            await handle(n)

        @app.get("/x")
        async def route(n: int):
            await middle(n)
    """)
    fs = lint("t.py", src, select_rules(["CTX107"], []), Config())
    assert [f.confidence for f in fs] == ["high"]
    assert [t.message.split(":")[0] for t in fs[0].trace] == [
        "`route` is a route handler", "`route` calls `middle`", "`middle` calls `handle`"]


def test_a_thread_target_is_an_entry_point():
    src = """\
        import threading
        SEEN = {}

        def work(request_id):
            SEEN[request_id] = 1

        threading.Thread(target=work, args=("r",)).start()
    """
    assert tiers(src, ["CTX401"]) == [(5, "CTX401", "high")]


def test_middleware_is_an_entry_point_by_its_shape_not_its_names():
    src = """\
        import contextvars
        current = contextvars.ContextVar("current")

        class A:
            def __init__(self, nxt):
                self.nxt = nxt

            def __call__(self, req):
                token = current.set(req)
                out = self.nxt(req)
                current.reset(token)
                return out
    """
    assert tiers(src, ["CTX103"]) == [(9, "CTX103", "high")]


def test_enter_without_exit_reset_is_manifest_whoever_calls_it():
    src = """\
        import contextvars
        var = contextvars.ContextVar("v")

        class Scope:
            def __init__(self, value):
                self.value = value

            def __enter__(self):
                var.set(self.value)
                return self

            def __exit__(self, *exc):
                return False
    """
    assert tiers(src, ["CTX103"]) == [(9, "CTX103", "high")]


def test_lifetime_comes_from_the_allocation_site_not_the_name():
    base = textwrap.dedent("""\
        class {name}:
            def __init__(self):
                self.seen = {{}}

            def start(self, request_id, t):
                self.seen[request_id] = t
    """)
    local = base + "\n\ndef one(rid):\n    {name}().start(rid, 0)\n"
    module = base + "\n\nSTATS = {name}()\n"
    for name in ("StatsManager", "Thing"):
        assert tiers(local.format(name=name), ["CTX401"]) == []           # one call's object
        assert tiers(module.format(name=name), ["CTX401"]) == [(6, "CTX401", "low")]  # no caller shown
        assert tiers(base.format(name=name), ["CTX401"]) == [(6, "CTX401", "low")]    # allocated elsewhere


def test_singleton_metaclass_makes_the_owner_long_lived():
    src = """\
        class Single(type):
            _made = {}

            def __call__(cls, *a, **k):
                if cls not in cls._made:
                    cls._made[cls] = super().__call__(*a, **k)
                return cls._made[cls]

        class Tally(metaclass=Single):
            def __init__(self):
                self.seen = {}

            def start(self, request_id, t):
                self.seen[request_id] = t
    """
    fs = lint("t.py", textwrap.dedent(src), select_rules(["CTX401"], []), Config())
    assert [(f.line, f.confidence) for f in fs] == [(14, "low")]
    assert any("singleton" in t.message for t in fs[0].trace)


@pytest.mark.parametrize("src_expr,tier", [
    ('os.environ["PROMPT"]', "low"),                       # the operator's configuration
    ('meta["tokenizer.chat_template"]', "high"),           # a model artifact's template
    ('requests.get(url).text', "high"),                    # a download
])
def test_template_text_tier_follows_who_writes_it(src_expr, tier):
    src = f"""\
        import os
        import jinja2
        import requests

        def build(meta, url):
            return jinja2.Environment().from_string({src_expr})
    """
    assert tiers(src, ["CTX301"]) == [(6, "CTX301", tier)]


def _cli(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ctxlint", *args, "--no-cache"], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_cli_default_reports_high_and_counts_the_held_back(tmp_path: Path):
    (tmp_path / "svc.py").write_text(textwrap.dedent(DROPPED_TASK))
    res = _cli("check", "svc.py", cwd=tmp_path)
    assert res.returncode == 0
    assert "1 latent finding" in res.stdout and "--min-confidence low" in res.stdout
    low = _cli("check", "svc.py", "--min-confidence", "low", cwd=tmp_path)
    assert low.returncode == 1
    assert "CTX107 [low]" in low.stdout and "= note:" in low.stdout
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nmin-confidence = "low"\n')
    assert _cli("check", "svc.py", cwd=tmp_path).returncode == 1


def test_json_and_sarif_carry_tier_and_trace(tmp_path: Path):
    (tmp_path / "svc.py").write_text(textwrap.dedent(DROPPED_TASK))
    js = json.loads(_cli("check", "svc.py", "--min-confidence", "low", "--output-format", "json",
                         cwd=tmp_path).stdout)
    assert js[0]["confidence"] == "low" and js[0]["trace"][0]["line"] == 6
    assert set(js[0]["trace"][0]) == {"path", "line", "col", "message"}
    sarif = json.loads(_cli("check", "svc.py", "--min-confidence", "low", "--output-format", "sarif",
                            cwd=tmp_path).stdout)
    result = sarif["runs"][0]["results"][0]
    assert result["level"] == "note" and result["properties"]["confidence"] == "low"
    assert result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 6
    flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [loc["location"]["physicalLocation"]["region"]["startLine"] for loc in flow] == [6, 7]


def test_bad_config_value_is_an_error(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nmin-confidence = "medium"\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    res = _cli("check", "a.py", cwd=tmp_path)
    assert res.returncode == 2 and "min-confidence" in res.stderr


def test_an_entry_point_of_another_module_reaches_a_singleton_method(tmp_path: Path):
    """The router's route calls the stats singleton's method through an imported
    accessor (production-stack's RequestStatsMonitor): manifest, with the route in the
    trace, though the stats module alone shows no caller."""
    pkg = tmp_path / "app"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "stats.py").write_text(textwrap.dedent("""\
        class Single(type):
            _made: dict = {}

            def __call__(cls, *a, **k):
                if cls not in cls._made:
                    cls._made[cls] = super().__call__(*a, **k)
                return cls._made[cls]


        class Monitor(metaclass=Single):
            def __init__(self):
                self.start = {}

            def on_new_request(self, url, request_id, t):
                self.start[(url, request_id)] = t


        def get_monitor():
            return Monitor()
    """))
    routes = textwrap.dedent("""\
        from fastapi import FastAPI

        from .stats import get_monitor

        app = FastAPI()


        @app.post("/v1/completions")
        async def completions(request_id: str):
            get_monitor().on_new_request("e", request_id, 0.0)
    """)
    (pkg / "routes.py").write_text(routes)
    js = json.loads(_cli("check", ".", "--min-confidence", "low", "--output-format", "json", cwd=tmp_path).stdout)
    assert [(f["path"], f["line"], f["confidence"]) for f in js] == [("app/stats.py", 15, "high")]
    assert [t["path"] for t in js[0]["trace"]][-2:] == ["app/routes.py", "app/routes.py"]
    (pkg / "routes.py").write_text(routes.replace('@app.post("/v1/completions")\n', ""))
    js = json.loads(_cli("check", ".", "--min-confidence", "low", "--output-format", "json", cwd=tmp_path).stdout)
    assert [(f["line"], f["confidence"]) for f in js] == [(15, "low")]


def test_a_module_level_call_of_a_helper_is_not_an_internal_error(tmp_path: Path):
    """text-generation-webui's html_generator.py (fresh review): `x = helper(x)` at module
    level asked the value-flow summaries for the parameters of the module itself."""
    src = (ROOT / "tests" / "data" / "module_level_call_of_a_helper.py").read_text()
    (tmp_path / "m.py").write_text(src)
    res = _cli("check", "m.py", "--min-confidence", "low", cwd=tmp_path)
    assert res.returncode == 0 and "internal error" not in res.stderr, res.stderr
