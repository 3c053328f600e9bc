"""`PythonFacts.is_test_code` and the rules that skip it: pytest's discovery names and
a test-driver import (never a directory's name). Growth rules and CTX107 skip test code;
CTX103 and CTX106 skip only the project's own test modules (`is_test_module`), since a
testing utility a library ships (`aiohttp/pytest_plugin.py`) leaves its leftovers in its
users' suites."""

from __future__ import annotations

import ast

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import all_rules
from ctxlint.semantic.python.facts import PythonFacts

RULES = list(all_rules().values())

FAKE = """\
class FakeStore:
    def __init__(self):
        self.rows = {}

    def put(self, request_id, row):
        self.rows[request_id] = row


STORE = FakeStore()


def save(request_id, row):
    STORE.put(request_id, row)
"""


def _facts(path: str, src: str = "x = 1\n") -> PythonFacts:
    return PythonFacts(path, src, ast.parse(src), Config())


def test_is_test_code_by_path_and_import():
    for path in ("test_store.py", "pkg/store_test.py", "conftest.py", "tests/unit/test_fakes.py"):
        assert _facts(path).is_test_code, path
    # A directory's name decides nothing: a checkout may live under any `tests` folder
    # (CI lints the handed cases from tests/handed_cases/).
    for path in ("store.py", "pkg/testing_utils.py", "contest.py", "tests/handed_cases/py/L06_registry.py",
                 "pkg/tests/fakes.py"):
        assert not _facts(path).is_test_code, path
    assert _facts("fakes.py", "import pytest\n").is_test_code
    assert _facts("fakes.py", "from unittest import mock\n").is_test_code


def test_growth_rules_skip_test_code_only():
    codes = lambda path: [f.code for f in engine.lint_text(path, FAKE, "python", RULES, Config())]  # noqa: E731
    assert "CTX401" in codes("store.py")
    assert "CTX401" in codes("tests/store.py")
    assert "CTX401" not in codes("test_store.py")


LEFTOVERS = """\
import asyncio
import contextlib
import contextvars

import pytest

current = contextvars.ContextVar("current", default=None)
settings = {}


@contextlib.contextmanager
def override(key, value):
    old = settings.get(key)
    settings[key] = value
    yield
    settings[key] = old


def bind(value):
    current.set(value)
    return run()


def run():
    return current.get()


async def worker(job):
    await job.run()


def start(job):
    asyncio.create_task(worker(job))


def test_override():
    with override("mode", "fast"):
        assert settings["mode"] == "fast"
"""


def test_leftover_rules_skip_only_the_projects_own_test_modules():
    codes = lambda path: {f.code for f in engine.lint_text(path, LEFTOVERS, "python", RULES, Config())}  # noqa: E731
    shipped = codes("pkg/pytest_plugin.py")  # imports pytest: test code, but API of the package
    assert {"CTX103", "CTX106"} <= shipped and "CTX107" not in shipped
    for path in ("test_settings.py", "pkg/settings_test.py", "conftest.py"):
        assert not {"CTX103", "CTX106", "CTX107"} & codes(path), path
    plain = LEFTOVERS.replace("import pytest\n", "")  # an application module: every rule checks it
    assert {"CTX103", "CTX106", "CTX107"} <= {f.code for f in engine.lint_text("app.py", plain, "python", RULES, Config())}


def test_is_test_module_is_pytest_collection_only():
    tests = "import pytest\n\n\ndef test_put():\n    assert True\n"
    for path in ("test_store.py", "pkg/store_test.py", "conftest.py"):
        assert _facts(path, tests).is_test_module, path
    assert _facts("conftest.py").is_test_module
    for path in ("pytest_plugin.py", "pkg/testing.py", "tests/fakes.py"):
        assert not _facts(path, tests).is_test_module, path
    # a module of a test's name that pytest collects nothing from is a library module
    # (aiohttp's `test_utils.py`: `class TestServer` has an `__init__`)
    library = "class TestServer:\n    def __init__(self, app):\n        self.app = app\n"
    assert not _facts("aiohttp/test_utils.py", library).is_test_module
    assert not _facts("modeling/test_time_augmentation.py", "def augment(x):\n    return x\n").is_test_module
    assert _facts("test_api.py", "class TestApi:\n    def test_get(self):\n        pass\n").is_test_module


def test_is_test_module_follows_an_inherited_init():
    """pytest's `hasinit` sees an `__init__` inherited from a base class too: a `Test*`
    class whose base (of this module) defines one is collected from nowhere, so its
    module is a library module (a shipped `TestClient(BaseClient)` helper)."""
    inherited = ("class BaseClient:\n    def __init__(self, app):\n        self.app = app\n\n\n"
                 "class TestClient(BaseClient):\n    def get(self, path):\n        return path\n")
    assert not _facts("pkg/test_utils.py", inherited).is_test_module
    # a base without `__init__` leaves the test class collectable
    mixin = ("class Helpers:\n    def make(self):\n        return 1\n\n\n"
             "class TestThing(Helpers):\n    def test_make(self):\n        assert self.make()\n")
    assert _facts("test_thing.py", mixin).is_test_module
    # a cycle of names (a shadowed base) does not recurse forever
    cyc = "class TestA(TestA):\n    def test_x(self):\n        pass\n"
    assert _facts("test_cyc.py", cyc).is_test_module
