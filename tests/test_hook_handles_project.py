"""CTX403 and `hooks.returns_no_handle`: a `register_*_hook` call that resolves, through
the class hierarchy and across the project's modules (`project_index.resolve_call`,
`resolve_method`), to a def that hands back no handle drops nothing."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python import hooks, project_index
from ctxlint.semantic.python.facts import PythonFacts


def _write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return p


def _facts(path: Path) -> PythonFacts:
    text = path.read_text(encoding="utf-8")
    return PythonFacts(str(path), text, ast.parse(text), Config())


def _lines(path: Path) -> list[int]:
    res = engine.lint_paths([str(path)], Config(root=path.parent), select_rules(["CTX403"], []),
                            jobs=1, use_cache=False)
    return sorted(f.line for f in res.findings if f.code == "CTX403")


BASE = """\
    import abc


    class Watcher(abc.ABC):
        hooks = {}

        @classmethod
        def register_module_hook(cls, module, hook) -> None:
            cls.hooks.setdefault(module, []).append(hook)
            return

        @classmethod
        def register_forward_hook(cls, module, hook):
            return module.register_forward_hook(hook)
    """


def _sub(extra_base: str = "") -> str:
    return f"""\
        from pkg.core import Watcher
        {'from torch import nn' if extra_base else ''}


        class Dedup({extra_base}Watcher):
            seen = set()

            @classmethod
            def register_module_hook(cls, module, hook) -> None:
                if module in cls.seen:
                    return
                cls.seen.add(module)
                super().register_module_hook(module, hook)

            @classmethod
            def register_forward_hook(cls, module, hook):
                super().register_forward_hook(module, hook)
        """


def test_super_call_into_another_module_returning_none_is_silent(tmp_path):
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/core.py", BASE)
    sub = _write(tmp_path, "pkg/sub.py", _sub())
    # register_module_hook (base returns nothing) is silent; register_forward_hook's base
    # returns torch's handle, so dropping it is still reported
    assert _lines(sub) == [17]


def test_base_from_outside_the_project_first_in_mro_is_unknown(tmp_path):
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/core.py", BASE)
    sub = _write(tmp_path, "pkg/sub.py", _sub("nn.Module, "))
    facts = _facts(sub)
    calls = [c for c in facts.nodes(ast.Call) if hooks.is_hook_registration(c)]
    # nn.Module comes before Watcher in the MRO and may define the method: unknown
    assert [project_index.resolve_call(facts, c) for c in calls] == [None, None]
    assert not any(hooks.returns_no_handle(facts, c) for c in calls)


def test_resolve_method_follows_c3_order_across_modules(tmp_path):
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/a.py", """\
        class Root:
            def register_hook(self, fn):
                return None

        class Left(Root):
            pass

        class Right(Root):
            def register_hook(self, fn):
                return fn
        """)
    main = _write(tmp_path, "pkg/main.py", """\
        from .a import Left, Right

        class Both(Left, Right):
            def go(self, fn):
                self.register_hook(fn)
        """)
    facts = _facts(main)
    cls = facts.nodes(ast.ClassDef)[0]
    got = project_index.resolve_method(facts, cls, "register_hook")
    # C3: Both, Left, Right, Root - Right's method wins over Root's
    assert got is not None and isinstance(got.body[0].value, ast.Name)
    assert str(tmp_path / "pkg" / "a.py") in project_index.consulted(facts)


def test_same_file_shapes():
    src = textwrap.dedent("""\
        class Reg:
            def register_hook(self, fn):
                self.fns.append(fn)
                return fn

            def register_stub_hook(self, fn):
                raise NotImplementedError

            def register_none_hook(self, fn) -> None:
                ...

            def register_rebound_hook(self, fn):
                fn = make_handle(fn)
                return fn

            def register_chain_hook(self, fn):
                return self.register_hook(fn)

            def go(self, fn):
                self.register_hook(fn)
                self.register_stub_hook(fn)
                self.register_none_hook(fn)
                self.register_rebound_hook(fn)
                self.register_chain_hook(fn)
        """)
    facts = PythonFacts("x.py", src, ast.parse(src), Config())
    go = [f for f in facts.nodes(ast.FunctionDef) if f.name == "go"][0]
    calls = [s.value for s in go.body]
    assert [hooks.returns_no_handle(facts, c) for c in calls] == [True, False, True, False, True]
