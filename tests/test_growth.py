"""Adversarial growth: ctxlint's work on one file grows linearly with the file.

Each case generates a file at two sizes (a quarter and the full size named in issue 36:
a class with 3,000 attributes, a module of 5,000 calls, 1,000 templates compiled in one
function, a 20,000-line file) and lints it with every rule, counting the Python and
builtin function calls made (a `sys.setprofile` hook: generator resumptions count, so an
`ast.walk` counts every node it visits). Counted, not timed: the large file may cost at
most its size ratio times the small one's count, plus a 30% margin, and the small one at
most `PER_LINE` calls per source line. A count past either bound stops the run at once
(a quadratic analysis would otherwise take minutes), and the test fails.

The shape comes from Ruff's rule that every check is linear in the file; the cases from
the hot spots issue 36 found on untuned projects (llama.cpp's `gguf_writer.py`: CTX303
walked its 1,600-line class once per `self.attr` read, 2.4M nodes).
"""

from __future__ import annotations

import sys

import pytest

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import all_rules

#: Calls allowed per source line of the small file (measured: 250-2,500 with every rule;
#: the templates case compiles each template with jinja2).
PER_LINE = 5_000
#: The large file may cost this much more than its share of the small file's count.
MARGIN = 1.3


def class_attrs(n: int) -> str:
    """A class whose `__init__` sets `n` attributes and whose method formats each
    (`'{}'.format(self.aI)`: CTX303 asks what every `self.aI` may hold)."""
    init = "".join(f"        self.a{i} = 'v{i}' if flag else None\n" for i in range(n))
    uses = "".join(f"        out.append('{{}} {{0.x}}'.format(self.a{i}))\n" for i in range(n))
    return ("import jinja2\n\nclass Writer:\n    def __init__(self, flag):\n" + init
            + "\n    def render(self, out):\n" + uses + "        return out\n")


_CALLS = ("f{i}(x, y={i})", "obj.method{m}(k{i})", "'{{}}'.format(v{i})", "asyncio.create_task(job{m}(r))",
          "cache.get(key{i})", "env.from_string(src{m})", "requests.get(url{m}, timeout=3)",
          "lock.acquire()", "open(path{m})", "torch.no_grad()")


def calls(n: int) -> str:
    """One async def making `n` calls of ten kinds the rules look at (tasks, caches,
    templates, format strings, locks, files, HTTP, torch)."""
    body = "".join("    " + _CALLS[i % len(_CALLS)].format(i=i, m=i % 7) + "\n" for i in range(n))
    return "import asyncio, jinja2, requests, torch\n\nasync def main(x, y, r, obj, cache, env, lock):\n" + body


def templates(n: int) -> str:
    """One def compiling `n` templates with `env.from_string` and rendering each."""
    body = "".join(
        f"    t{i} = env.from_string('{{{{ user.name{i} }}}} {{% for x in items{i} %}}{{{{ x }}}}{{% endfor %}}')\n"
        f"    out.append(t{i}.render(user=request.user, items{i}=items))\n" for i in range(n))
    return ("import jinja2\n\ndef build(request, items, out):\n    env = jinja2.Environment(autoescape=False)\n"
            + body + "    return out\n")


_UNIT = '''
class Service{i}:
    cache = {{}}

    def __init__(self, client, lock):
        self.client = client
        self.lock = lock
        self.pending{i} = []

    async def handle(self, request):
        key = request.headers.get("x-key{i}")
        if key in self.cache:
            return self.cache[key]
        task = asyncio.create_task(self.client.fetch(key))
        self.pending{i}.append(task)
        with self.lock:
            value = await task
        self.cache[key] = value
        return "{{}}: {{}}".format(key, value)


@functools.lru_cache(maxsize=None)
def helper{i}(x, y=None):
    for k in range(x):
        if k % 3 == 0:
            y = (y or 0) + k
    return y

'''


def long_file(lines: int) -> str:
    """About `lines` lines of ordinary service code: classes with class-level caches,
    tasks, locks and memoized helpers, repeated with fresh names."""
    per = _UNIT.count("\n")
    return "import asyncio, functools, jinja2\n\n" + "".join(_UNIT.format(i=i) for i in range(max(1, lines // per)))


class _OverBudget(BaseException):
    """Raised from the profile hook when a run passes its call budget (a BaseException,
    so no `except Exception` in the analysis can swallow it)."""


def count_calls(src: str, limit: int) -> int | None:
    """The function calls made linting `src` with every rule, or None past `limit`."""
    rules = list(all_rules().values())
    n = 0

    def hook(frame, event, arg):
        nonlocal n
        if event == "call" or event == "c_call":
            n += 1
            if n > limit:
                raise _OverBudget

    sys.setprofile(hook)
    try:
        engine.lint_text("grown.py", src, "python", rules, Config())
    except _OverBudget:
        return None
    finally:
        sys.setprofile(None)
    return n


@pytest.mark.parametrize("make, size", [(class_attrs, 3000), (calls, 5000), (templates, 1000), (long_file, 20000)],
                         ids=["class-3000-attributes", "module-5000-calls", "1000-templates-one-def", "20000-lines"])
def test_work_grows_linearly(make, size):
    engine.lint_text("warm.py", make(4), "python", list(all_rules().values()), Config())  # imports, outside the count
    small, large = make(size // 4), make(size)
    small_lines, large_lines = small.count("\n"), large.count("\n")
    c_small = count_calls(small, PER_LINE * small_lines)
    assert c_small is not None, f"{make.__name__}({size // 4}): over {PER_LINE} calls per line"
    budget = int(c_small * large_lines / small_lines * MARGIN)
    c_large = count_calls(large, budget)
    assert c_large is not None, (f"{make.__name__}: {c_small} calls at {small_lines} lines, over {budget} at "
                                 f"{large_lines} lines: superlinear")


def test_profile_switch_times_rules_facts_and_files(tmp_path, monkeypatch, capsys):
    """`ctxlint check --profile` prints, on stderr, the self time of each rule and
    semantic fact and the slowest files with their costliest rule or fact; the findings
    on stdout are those of a plain run."""
    import functools

    from ctxlint import profiling
    from ctxlint.cli import main
    (tmp_path / "svc.py").write_text(long_file(200))
    (tmp_path / "tpl.py").write_text(templates(20))
    plain_get = functools.cached_property.__get__
    main(["check", "--no-cache", "--output-format", "json", str(tmp_path)])
    plain = capsys.readouterr().out
    monkeypatch.setenv("CTXLINT_PROFILE", "0")  # off; `--profile` turns it on, teardown restores it
    try:
        main(["check", "--profile", "--output-format", "json", str(tmp_path)])
        got = capsys.readouterr()
    finally:
        profiling.disable()
    assert functools.cached_property.__get__ is plain_get  # disable() removed the hooks
    assert got.out == plain
    err = got.err
    assert "ctxlint profile: 2 files" in err
    assert "rule CTX303" in err and "fact PythonFacts" in err and "parse (python.parse)" in err
    rows = err.split("slowest files:")[1].splitlines()[2:]
    assert len(rows) == 2 and {r.split()[3] for r in rows} == {str(tmp_path / "svc.py"), str(tmp_path / "tpl.py")}
    selfs = [float(line.split()[0]) for line in err.split("rule / fact\n")[1].split("slowest files:")[0].splitlines()]
    assert selfs == sorted(selfs, reverse=True)


def test_memo_labels_drop_node_ids():
    from ctxlint.profiling import memo_label
    assert memo_label("tensors.cb.140233.2") == "tensors.cb"
    assert memo_label("cfg:17") == "cfg"
    assert memo_label("project_index.mentions:'x.y'") == "project_index.mentions"
    assert memo_label(("ck_fields", 1403)) == "ck_fields" and memo_label((1, 2)) == "(unnamed)"
    assert memo_label("ck_switched_140480153538704") == "ck_switched" and memo_label("a_b") == "a_b"
