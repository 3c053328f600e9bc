"""The cross-module index (`semantic.python.project_index`): what it resolves, what it
records, and CTX107 using it for a coroutine imported from another module."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ctxlint.config import Config
from ctxlint.semantic.python import project_index
from ctxlint.semantic.python.facts import PythonFacts


def _write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def _facts(path: Path) -> PythonFacts:
    text = path.read_text(encoding="utf-8")
    return PythonFacts(str(path), text, ast.parse(text), Config())


def _callees(facts: PythonFacts) -> dict[str, ast.AST]:
    return {facts.dotted(c.func): c.func for c in facts.nodes(ast.Call) if facts.dotted(c.func)}


def _project(tmp_path: Path) -> Path:
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/sub/__init__.py", "from .impl import exported\n")
    _write(tmp_path, "pkg/sub/impl.py", """\
        async def exported():
            return 1
        """)
    _write(tmp_path, "pkg/jobs.py", """\
        async def run(x):
            return x

        class Worker:
            async def step(self):
                return 2
        """)
    return _write(tmp_path, "pkg/main.py", """\
        import json
        from . import jobs
        from .jobs import run, Worker
        from pkg.sub import exported
        from .missing import nothing

        def start():
            jobs.run(1)
            run(2)
            exported()
            nothing()
            json.dumps(3)
            Worker()
        """)


def test_resolves_relative_absolute_and_reexported_defs(tmp_path):
    facts = _facts(_project(tmp_path))
    c = _callees(facts)
    assert project_index.resolve_function(facts, c["jobs.run"]).name == "run"
    assert project_index.resolve_function(facts, c["run"]).name == "run"
    # `pkg.sub` re-exports `exported` from `pkg.sub.impl`: one more hop
    assert project_index.resolve_function(facts, c["exported"]).name == "exported"
    consulted = project_index.consulted(facts)
    assert any(p.endswith("jobs.py") for p in consulted)
    assert any(p.endswith("impl.py") for p in consulted)


def test_unresolvable_names_give_none(tmp_path):
    facts = _facts(_project(tmp_path))
    c = _callees(facts)
    assert project_index.resolve_function(facts, c["nothing"]) is None   # module not in the project
    assert project_index.resolve_function(facts, c["json.dumps"]) is None  # outside the project
    assert project_index.resolve_function(facts, c["Worker"]) is None  # a class, not a def


def test_a_file_not_on_disk_resolves_nothing(tmp_path):
    text = "from .jobs import run\nrun()\n"
    facts = PythonFacts(str(tmp_path / "nowhere" / "x.py"), text, ast.parse(text), Config())
    call = next(n for n in facts.nodes(ast.Call))
    assert project_index.resolve_function(facts, call.func) is None


def test_unparsable_or_binary_module_resolves_nothing(tmp_path):
    _write(tmp_path, "pkg/__init__.py", "")
    (tmp_path / "pkg" / "bad.py").write_bytes(b"\xff\xfe def (")
    main = _write(tmp_path, "pkg/main.py", "from .bad import f\nf()\n")
    facts = _facts(main)
    call = next(n for n in facts.nodes(ast.Call))
    assert project_index.resolve_function(facts, call.func) is None


def test_ctx107_follows_an_imported_coroutine(tmp_path):
    _write(tmp_path, "app/__init__.py", "")
    _write(tmp_path, "app/jobs.py", """\
        import logging
        log = logging.getLogger(__name__)

        async def guarded(job_id):
            try:
                await work(job_id)
            except Exception:
                log.exception("job %s failed", job_id)

        async def unguarded(job_id):
            await work(job_id)

        async def work(job_id):
            return job_id
        """)
    server = _write(tmp_path, "app/server.py", """\
        import asyncio
        from .jobs import guarded, unguarded

        def start(job_id):
            asyncio.create_task(guarded(job_id))
            asyncio.create_task(unguarded(job_id))
        """)
    from ctxlint.rules import get_rule
    from ctxlint.semantic.python.lint import lint
    rules = [get_rule("CTX107")]
    text = server.read_text(encoding="utf-8")
    found = lint(str(server), text, rules, Config())
    assert [f.line for f in found] == [6]


def test_namespace_packages_without_init(tmp_path):
    # PEP 420: subpackages without __init__.py (as in open-webui's wheel)
    _write(tmp_path, "svc/__init__.py", "")
    _write(tmp_path, "svc/utils/tasks.py", "async def job():\n    return 1\n")
    main = _write(tmp_path, "svc/routers/api.py", "from svc.utils.tasks import job\njob()\n")
    facts = _facts(main)
    call = next(n for n in facts.nodes(ast.Call))
    assert project_index.resolve_function(facts, call.func).name == "job"


def test_a_finding_that_reads_another_module_is_not_cached(tmp_path):
    """Editing the imported module changes the importer's findings on the next run."""
    from ctxlint.config import load_config
    from ctxlint.engine import lint_paths
    from ctxlint.rules import get_rule
    _write(tmp_path, "app/__init__.py", "")
    jobs = _write(tmp_path, "app/jobs.py", """\
        async def job():
            try:
                await work()
            except Exception:
                pass

        async def work():
            return 1
        """)
    _write(tmp_path, "app/server.py", """\
        import asyncio
        from .jobs import job

        def start():
            asyncio.create_task(job())
        """)
    config = load_config(None, str(tmp_path))
    rules = [get_rule("CTX107")]
    first = lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1)
    assert [f.line for f in first.findings] == []
    jobs.write_text("async def job():\n    await work()\n\n\nasync def work():\n    return 1\n", encoding="utf-8")
    second = lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1)
    assert [(Path(f.path).name, f.line) for f in second.findings] == [("server.py", 5)]


def test_a_finding_that_reads_another_module_is_cached_while_that_module_holds(tmp_path):
    """The warm run serves a dependent file from the cache (nothing re-parsed) while
    the module it read is unchanged, and re-lints it once that module is edited."""
    from ctxlint.config import load_config
    from ctxlint.engine import lint_paths
    from ctxlint.rules import get_rule
    _write(tmp_path, "app/__init__.py", "")
    jobs = _write(tmp_path, "app/jobs.py", "async def job():\n    await work()\n\n\nasync def work():\n    return 1\n")
    _write(tmp_path, "app/server.py", "import asyncio\nfrom .jobs import job\n\n\ndef start():\n"
                                     "    asyncio.create_task(job())\n")
    config, rules = load_config(None, str(tmp_path)), [get_rule("CTX107")]
    first = lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1)
    assert [(Path(f.path).name, f.line) for f in first.findings] == [("server.py", 6)]
    second = lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1)
    assert second.parsed == 0 and second.cached == 3
    assert [(Path(f.path).name, f.line) for f in second.findings] == [("server.py", 6)]
    jobs.write_text("async def job():\n    try:\n        await work()\n    except Exception:\n        pass\n\n\n"
                    "async def work():\n    return 1\n", encoding="utf-8")
    third = lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1)
    assert third.findings == [] and third.parsed == 2  # jobs.py itself and server.py


def test_dependency_stamps_cover_trees_lookups_and_files(tmp_path):
    """A package-tree question is stamped by the tree's listing (a file added anywhere
    in it changes the stamp), a lookup by the file it finds now, a file by size and mtime."""
    _write(tmp_path, "pkg/__init__.py", "")
    mod = _write(tmp_path, "pkg/a.py", "x = 1\n")
    items = [project_index.question("names", tmp_path / "pkg", "x"),
             project_index.question("lookup", tmp_path / "pkg", ".b.run"), str(mod)]
    stamps = project_index.dependency_stamps(items, {})
    assert set(stamps) == set(items[:2])  # a.py lies in the stamped tree
    assert stamps[items[1]] == "none"
    assert project_index.stamps_hold(stamps, {})
    _write(tmp_path, "pkg/b.py", "def run():\n    pass\n")
    now = project_index.dependency_stamps(items, {})
    assert now[items[0]] != stamps[items[0]] and now[items[1]].endswith("b.py")
    assert not project_index.stamps_hold(stamps, {})
    other = _write(tmp_path, "elsewhere.py", "y = 2\n")
    one = project_index.dependency_stamps([str(other)], {})
    other.write_text("y = 22\n", encoding="utf-8")
    assert not project_index.stamps_hold(one, {})
    assert project_index.dependency_stamps(["?what\0is\0this"], {}) is None
    project_index.take_consulted()
    for i in range(5000):  # an overflowing record lost items: it must never be cached
        project_index.note_consulted(f"/nowhere/{i}.py")
    assert project_index.dependency_stamps(project_index.take_consulted(), {}) is None
    assert not project_index.stamps_hold({"x": 1}, {}) and not project_index.stamps_hold(None, {})


def test_a_module_created_later_is_seen_despite_the_cache(tmp_path):
    """A lookup that found nothing also makes the importer uncacheable."""
    from ctxlint.config import load_config
    from ctxlint.engine import lint_paths
    from ctxlint.rules import get_rule
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/main.py", """\
        import asyncio
        from .worker import run_job

        def start(x):
            asyncio.create_task(run_job(x))
        """)
    config, rules = load_config(None, str(tmp_path)), [get_rule("CTX107")]
    assert [f.line for f in lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1).findings] == [5]
    _write(tmp_path, "pkg/worker.py", """\
        async def run_job(x):
            try:
                await work(x)
            except Exception:
                pass

        async def work(x):
            return x
        """)
    assert lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1).findings == []


def test_local_names_shadow_the_import(tmp_path):
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/jobs.py", "async def run_job(x):\n    return x\n")
    main = _write(tmp_path, "pkg/main.py", """\
        from .jobs import run_job

        def start(run_job, x):
            run_job(x)

        def other(x):
            run_job = len
            run_job(x)

        def fine(x):
            run_job(x)
        """)
    facts = _facts(main)
    calls = [n for n in facts.nodes(ast.Call) if facts.dotted(n.func) == "run_job"]
    got = [project_index.resolve_function(facts, c.func) is not None for c in calls]
    assert got == [False, False, True]


def test_lookups_stay_inside_the_files_own_package(tmp_path):
    # a module above the top package, and a sibling top-level package, are not read
    _write(tmp_path, "jobs.py", "async def run_job(x):\n    return x\n")
    _write(tmp_path, "other/__init__.py", "")
    _write(tmp_path, "other/jobs.py", "async def run_job(x):\n    return x\n")
    _write(tmp_path, "proj/pkg/__init__.py", "")
    main = _write(tmp_path, "proj/pkg/main.py", """\
        from ...jobs import run_job
        from jobs import run_job as b
        from other.jobs import run_job as c
        run_job(1)
        b(2)
        c(3)
        """)
    facts = _facts(main)
    calls = [n for n in facts.nodes(ast.Call)]
    assert [project_index.resolve_function(facts, c.func) for c in calls] == [None, None, None]


def test_a_symlinked_module_resolves_from_its_own_package(tmp_path):
    import os
    _write(tmp_path, "shared/__init__.py", "")
    _write(tmp_path, "shared/worker.py", "async def run_job(x):\n    return 'shared'\n")
    shared_main = _write(tmp_path, "shared/main.py", "from .worker import run_job\nrun_job(1)\n")
    _write(tmp_path, "proj/pkg/__init__.py", "")
    _write(tmp_path, "proj/pkg/worker.py", "async def run_job(x):\n    return 'pkg'\n")
    link = tmp_path / "proj" / "pkg" / "main.py"
    os.symlink(shared_main, link)
    facts = _facts(link)
    call = next(n for n in facts.nodes(ast.Call))
    d = project_index.resolve_function(facts, call.func)
    assert d is not None and d.body[0].value.value == "pkg"


def test_template_constants_read_from_another_module_are_not_cached(tmp_path):
    """CTX303 follows an imported constant into its module (`call_sites`): editing that
    module changes the importer's findings on a cached run."""
    from ctxlint.config import load_config
    from ctxlint.engine import lint_paths
    from ctxlint.rules import get_rule
    _write(tmp_path, "pkg/__init__.py", "")
    consts = _write(tmp_path, "pkg/consts.py", 'NAME = "world"\n')
    _write(tmp_path, "pkg/main.py", """\
        import os
        from .consts import NAME

        def greet():
            template = os.environ.get("GREETING", "hello {0}")
            return template.format(NAME)
        """)
    config, rules = load_config(None, str(tmp_path)), [get_rule("CTX303")]
    assert lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1).findings == []
    consts.write_text("class Box:\n    pass\n\n\nNAME = Box()\n", encoding="utf-8")
    assert [f.line for f in lint_paths([str(tmp_path)], config, rules, use_cache=True, jobs=1).findings] == [6]


def test_annotated_parameter_resolves_its_class_methods(tmp_path):
    """A parameter annotated with a project class (plain, `Optional[...]`, `X | None`,
    a string) resolves `param.method()` to that class's def; a rebound parameter, a
    union of two classes or an unannotated one resolves nothing."""
    _write(tmp_path, "app/__init__.py", "")
    _write(tmp_path, "app/manager.py", """\
        class Manager:
            async def start(self, run_id):
                return run_id


        class Other:
            async def start(self, run_id):
                return None
        """)
    path = _write(tmp_path, "app/routes.py", """\
        from typing import Optional

        from app.manager import Manager, Other


        async def plain(m: Manager):
            m.start(1)


        async def optional(m: Optional[Manager]):
            m.start(1)


        async def pep604(m: Manager | None):
            m.start(1)


        async def quoted(m: "Manager"):
            m.start(1)


        async def rebound(m: Manager):
            m = make()
            m.start(1)


        async def union(m: Manager | Other):
            m.start(1)


        async def bare(m):
            m.start(1)
        """)
    facts = _facts(path)
    got = {}
    for fn in facts.tree.body:
        if isinstance(fn, ast.AsyncFunctionDef):
            call = next(n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute))
            target = project_index.resolve_call(facts, call)
            got[fn.name] = (target.name, target.lineno) if target is not None else None
    assert got == {"plain": ("start", 2), "optional": ("start", 2), "pep604": ("start", 2),
                   "quoted": ("start", 2), "rebound": None, "union": None, "bare": None}
