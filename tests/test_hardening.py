"""Regression tests from the abuse run (issue 15): odd file names, corrupted caches,
symlink loops, closed pipes, repeated options, oversized files, pathological files.
Each test is named after the behaviour it keeps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, load_script

BUG = "import asyncio\nasync def f(c):\n    asyncio.create_task(c)\n"
BAD_NAME = os.fsdecode(b"bad_\xff.py")  # a file name that is not UTF-8


def cli(args: list[str], cwd: Path, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """`python -m ctxlint ARGS` in `cwd` (bytes output)."""
    if args[:1] == ["check"] and "--min-confidence" not in args:
        args = [*args, "--min-confidence", "low"]  # detection tests: both tiers
    return subprocess.run([sys.executable, "-m", "ctxlint", *args], cwd=cwd, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=120, **kw)


#: Strict JSON (UTF-8, no NaN, no lone surrogate): the fuzz harness's own check.
strict_json = load_script("fuzz")._strict_json


# --------------------------------------------------------------- file names
@pytest.fixture
def odd_name_tree(tmp_path) -> Path:
    try:
        (tmp_path / BAD_NAME).write_text(BUG)
    except (UnicodeEncodeError, OSError):
        pytest.skip("the filesystem does not take non-UTF-8 names")
    return tmp_path


def test_non_utf8_file_name_is_escaped_the_same_way_in_every_format(odd_name_tree):
    d = odd_name_tree
    js = cli(["check", "--no-cache", "--output-format", "json", "."], d)
    assert js.returncode == 1, js.stderr
    (f,) = strict_json(js.stdout)
    assert f["path"] == "bad_\\xff.py" and f["code"] == "CTX107"
    text = cli(["check", "--no-cache", "."], d)
    assert text.returncode == 1 and text.stdout.decode("utf-8").startswith("bad_\\xff.py:3:5: CTX107")
    gh = cli(["check", "--no-cache", "--output-format", "github", "."], d)
    assert gh.returncode == 1 and "file=bad_\\xff.py," in gh.stdout.decode("utf-8")


def test_non_utf8_file_name_is_a_percent_encoded_uri_in_sarif(odd_name_tree):
    out = cli(["check", "--no-cache", "--output-format", "sarif", "."], odd_name_tree)
    assert out.returncode == 1, out.stderr
    assert b"internal error" not in out.stderr
    log = strict_json(out.stdout)
    (result,) = log["runs"][0]["results"]
    loc = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert loc == {"uri": "bad_%FF.py", "uriBaseId": "%SRCROOT%"}


def test_baseline_records_and_matches_a_non_utf8_file_name(odd_name_tree):
    d = odd_name_tree
    w = cli(["check", "--no-cache", "--write-baseline", "bl.json", "."], d)
    assert w.returncode == 0 and b"internal error" not in w.stderr, w.stderr
    doc = strict_json((d / "bl.json").read_bytes())
    assert [e["path"] for e in doc["findings"]] == ["bad_\\xff.py"]
    again = cli(["check", "--no-cache", "--baseline", "bl.json", "."], d)
    assert again.returncode == 0, again.stdout + again.stderr


# ------------------------------------------------------------------- cache
def _cache_file(root: Path) -> Path:
    (f,) = list((root / ".ctxlint_cache").glob("findings-*.json"))
    return f


@pytest.mark.parametrize("corrupt", [
    pytest.param(lambda e: [dict(e[0], line=str(e[0]["line"])), *e[1:]], id="line-mixes-int-and-str"),
    pytest.param(lambda e: [dict(x, line=None) for x in e], id="null-line"),
    pytest.param(lambda e: [dict(x, line=float("nan")) for x in e], id="nan-line"),
    pytest.param(lambda e: [dict(x, col=True) for x in e], id="bool-column"),
    pytest.param(lambda e: [[] for _ in e], id="finding-is-a-list"),
    pytest.param(lambda e: [dict(x, fix={"description": 1}) for x in e], id="bad-fix"),
    pytest.param(lambda e: {"not": "a list"}, id="entry-is-an-object"),
])
def test_cache_entry_of_the_wrong_shape_is_a_miss(tmp_path, corrupt):
    (tmp_path / "a.py").write_text(BUG)
    (tmp_path / "b.py").write_text(BUG.replace("f(c)", "g(c)") + "\n\nasync def h(c):\n    asyncio.create_task(c)\n")
    first = cli(["check", "--output-format", "json", "."], tmp_path)
    assert first.returncode == 1
    cache = _cache_file(tmp_path)
    data = json.loads(cache.read_text())
    assert len(data) == 2
    for k, entry in data.items():
        if isinstance(entry, dict) and "findings" in entry:
            # an entry whose findings read other modules (a latent finding asked who else
            # reaches its function): corrupt its findings the same way
            entry["findings"] = corrupt(entry["findings"]) if entry["findings"] else entry["findings"]
        elif entry:
            data[k] = corrupt(entry)
    cache.write_text(json.dumps(data))  # json.dumps writes NaN as the JSON extension NaN
    second = cli(["check", "--output-format", "json", "."], tmp_path)
    third = cli(["check", "--output-format", "json", "."], tmp_path)
    assert second.returncode == 1 and b"internal error" not in second.stderr, second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout) == json.loads(third.stdout)


def test_cache_entries_are_validated_against_the_schema():
    from ctxlint.engine import valid_entry
    good = {"code": "CTX107", "name": "n", "line": 3, "col": 5, "end_line": 3, "end_col": 9, "message": "m",
            "fix": {"description": "d", "safety": "safe", "edits": [{"start": 1, "end": 2, "text": "x"}],
                    "codemod": None, "data": {}}}
    assert valid_entry([]) and valid_entry([good]) and valid_entry([dict(good, fix=None)])
    for bad in ([dict(good, line="3")], [dict(good, line=None)], [dict(good, line=float("nan"))],
                [dict(good, end_col=True)], [dict(good, line=-1)], [{k: v for k, v in good.items() if k != "message"}],
                [dict(good, fix={**good["fix"], "edits": [{"start": 5, "end": 2, "text": ""}]})],
                [dict(good, fix={**good["fix"], "safety": "maybe"})], [[]], None, "x", {}):
        assert not valid_entry(bad), bad


def test_cache_path_that_is_a_directory_leaves_no_temp_files(tmp_path):
    from ctxlint.config import Config
    from ctxlint.engine import Cache
    from ctxlint.findings import Finding
    cfg = Config(root=tmp_path)
    cache = Cache(tmp_path, cfg, ["CTX107"])
    cache.file.mkdir(parents=True)  # the cache file's path is taken by a directory
    cache.put("d" * 32, [Finding("CTX107", "n", "a.py", 1, 1, 1, 2, "m")])
    cache.save()
    assert not list(cache.dir.glob(".tmp-*")), list(cache.dir.iterdir())
    assert cache.file.is_dir()
    # And through the CLI: the run works and leaves nothing behind.
    (tmp_path / "a.py").write_text(BUG)
    out = cli(["check", "a.py"], tmp_path)
    assert out.returncode == 1
    assert not list((tmp_path / ".ctxlint_cache").glob(".tmp-*"))


# ------------------------------------------------------------------ paths
def test_symlink_loop_named_as_a_path_is_a_one_line_user_error(tmp_path):
    os.symlink("b", tmp_path / "a")
    os.symlink("a", tmp_path / "b")
    out = cli(["check", "a"], tmp_path)
    assert out.returncode == 2
    err = out.stderr.decode()
    assert err.strip().splitlines() == ["ctxlint: error: a: symbolic link loop (too many levels of symbolic links)"]
    dangling = cli(["check", "nowhere.py"], tmp_path)
    assert dangling.returncode == 2 and dangling.stderr.decode().strip() == "ctxlint: error: path does not exist: nowhere.py"


def test_symlink_loop_inside_a_walked_directory_is_skipped(tmp_path):
    (tmp_path / "ok.py").write_text(BUG)
    os.symlink("y.py", tmp_path / "x.py")
    os.symlink("x.py", tmp_path / "y.py")
    out = cli(["check", "--no-cache", "."], tmp_path)
    assert out.returncode == 1 and b"internal error" not in out.stderr, out.stderr
    assert out.stdout.decode().startswith("ok.py:3:5: CTX107")


# ------------------------------------------------------------------- codes
def test_unknown_code_in_per_file_ignores_is_rejected_with_did_you_mean(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "a.py").write_text(BUG)
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nper-file-ignores = {"app/*.py" = ["CTX5O1"]}\n')
    out = cli(["check", "--no-cache", "."], tmp_path)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == ("ctxlint: error: unknown rule code or prefix 'CTX5O1' in "
                                           "per-file-ignores \"app/*.py\" (did you mean 'CTX501'?)")
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX5O1"]\n')
    top = cli(["check", "--no-cache", "."], tmp_path)
    assert top.returncode == 2 and "in ignore (did you mean 'CTX501'?)" in top.stderr.decode()
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nper-file-ignores = {"app/*.py" = ["CTX1"]}\n')
    assert cli(["check", "--no-cache", "."], tmp_path).returncode == 0  # a real prefix is accepted


def test_repeated_select_accumulates(tmp_path):
    (tmp_path / "a.py").write_text(BUG)
    one = cli(["check", "--no-cache", "--output-format", "json", "--select", "CTX5", "a.py"], tmp_path)
    both = cli(["check", "--no-cache", "--output-format", "json", "--select", "CTX5", "--select", "CTX107",
                "a.py"], tmp_path)
    assert json.loads(one.stdout) == [] and one.returncode == 0
    assert [f["code"] for f in json.loads(both.stdout)] == ["CTX107"] and both.returncode == 1
    ign = cli(["check", "--no-cache", "--ignore", "CTX5", "--ignore", "CTX107", "a.py"], tmp_path)
    assert ign.returncode == 0


def test_rules_marks_off_by_default_rules(tmp_path):
    out = cli(["rules"], tmp_path).stdout.decode()
    header, *rows = out.splitlines()
    assert "default" in header.split()
    ctx001 = next(r for r in rows if r.startswith("CTX001"))
    ctx107 = next(r for r in rows if r.startswith("CTX107"))
    assert " off " in ctx001 and " on " in ctx107
    data = json.loads(cli(["rules", "--output-format", "json"], tmp_path).stdout)
    assert {r["code"]: r["default"] for r in data}["CTX001"] is False


# ------------------------------------------------------------------- pipes
@pytest.mark.parametrize("args", [["rules"], ["explain", "CTX101"], ["rules", "--output-format", "json"],
                                  ["check", "--no-cache", "bug.py"]])
def test_closed_stdout_exits_0_quietly(tmp_path, args):
    """`ctxlint rules | head`: a reader that went away is not an error (not 2, not death by SIGPIPE)."""
    (tmp_path / "bug.py").write_text(BUG * 200)
    r, w = os.pipe()
    os.close(r)  # the reader is gone before ctxlint writes anything
    try:
        out = subprocess.run([sys.executable, "-m", "ctxlint", *args], stdout=w, stderr=subprocess.PIPE, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    finally:
        os.close(w)
    assert out.returncode == 0, out.stderr
    assert out.stderr == b""


def test_pipefail_pipeline_into_head_succeeds(tmp_path):
    out = subprocess.run(["bash", "-c", f"set -o pipefail; {sys.executable} -m ctxlint explain CTX101 | head -1"],
                         capture_output=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith(b"# CTX101"), out.stderr


# ------------------------------------------------------------ size limits
def test_file_over_max_file_size_is_reported_in_text_stderr_and_sarif(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.ctxlint]\nmax-file-size = 50\n")
    (tmp_path / "big.py").write_text("x = 1\n" * 20)
    (tmp_path / "small.py").write_text("x = 1\n")
    for cache in (["--no-cache"], []):
        out = cli(["check", *cache, "."], tmp_path)
        assert out.returncode == 0
        text, err = out.stdout.decode(), out.stderr.decode()
        assert "All checks passed (1 file; 1 skipped)." in text, text
        assert "Skipped 1 file over the max-file-size limit, not checked: big.py" in text
        assert "big.py: skipped, 120 bytes is over the 50-byte limit" in err and "max-file-size = 120" in err
    sarif = json.loads(cli(["check", "--no-cache", "--output-format", "sarif", "."], tmp_path).stdout)
    (inv,) = sarif["runs"][0]["invocations"]
    (note,) = inv["toolExecutionNotifications"]
    assert inv["executionSuccessful"] is True and note["level"] == "warning"
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "big.py"
    assert "max-file-size" in note["message"]["text"]
    # The JSON output stays the findings array of the contract.
    assert json.loads(cli(["check", "--no-cache", "--output-format", "json", "."], tmp_path).stdout) == []


def test_pathological_file_over_the_worker_memory_limit_is_a_ctx000_finding(tmp_path):
    """A file whose parse needs more memory than the worker's guard allows is one CTX000
    "too large to analyse" finding, and the rest of the run goes on."""
    (tmp_path / "pyproject.toml").write_text("[tool.ctxlint]\nmax-file-size = 100000000\n")
    (tmp_path / "huge.py").write_text("x = [" + "1, " * 1_500_000 + "]\n")
    (tmp_path / "bug.py").write_text(BUG)
    out = cli(["check", "--no-cache", "--output-format", "json", "."], tmp_path,
              env={"CTXLINT_MEMORY_LIMIT_MB": "150"})
    assert out.returncode == 1, out.stderr
    found = {(f["path"], f["code"]) for f in json.loads(out.stdout)}
    assert found == {("huge.py", "CTX000"), ("bug.py", "CTX107")}, found
    (huge,) = [f for f in json.loads(out.stdout) if f["path"] == "huge.py"]
    assert "too large to analyse" in huge["message"]
    assert b"internal error" not in out.stderr


def test_memory_guard_restores_the_limit_after_an_in_process_run():
    resource = pytest.importorskip("resource")
    from ctxlint.engine import memory_guard
    before = resource.getrlimit(resource.RLIMIT_AS)
    with memory_guard():
        inside = resource.getrlimit(resource.RLIMIT_AS)
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    if Path("/proc/self/status").exists() and before[0] == resource.RLIM_INFINITY:
        assert inside[0] != resource.RLIM_INFINITY


# --------------------------------------------------------------- templates
@pytest.mark.parametrize("text", ["{% frobnicate x", "{% frobnicate %}{% frobnicate x\n", "{% a %}{% b x y"])
def test_template_ending_inside_an_unknown_tag_is_a_parse_error_not_a_hang(tmp_path, text):
    """Found by scripts/fuzz.py: a truncated template whose last tag is from an extension
    ctxlint does not load used to loop forever at the end of the token stream."""
    (tmp_path / "t.j2").write_text(text)
    out = cli(["check", "--no-cache", "--output-format", "json", "t.j2"], tmp_path)  # 120 s timeout
    assert out.returncode == 1, out.stderr
    assert [f["code"] for f in json.loads(out.stdout)] == ["CTX000"]



def test_compiler_warnings_of_the_linted_code_are_not_printed(monkeypatch):
    """ast.parse warns about the linted code on newer Pythons (SyntaxWarning for an
    invalid escape like `"\\d"` from 3.12): that is the linted code's business, never
    ctxlint's stderr. A parser that warns must not leak the warning out of `parse`."""
    import ast
    import warnings

    from ctxlint.languages import python as pylang

    real = ast.parse

    def noisy(*args, **kwargs):
        warnings.warn_explicit("invalid escape sequence '\\d'", SyntaxWarning, "x.py", 1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pylang.ast, "parse", noisy)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a leaked warning would raise here
        tree, err = pylang.parse("x.py", 'import re\nx = re.compile("\\d+")\n')
    assert err is None and tree is not None


def _check_json(*paths) -> tuple[set[tuple[str, str]], str]:
    """Run `ctxlint check --output-format json` in a subprocess: ({(file name, code)}, stderr)."""
    import json
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "ctxlint", "check", "--no-cache", "--output-format", "json",
                        *map(str, paths)], capture_output=True, text=True)
    found = json.loads(r.stdout)
    found = found if isinstance(found, list) else found.get("findings", [])
    return {(f["path"].replace("\\", "/").split("/")[-1], f["code"]) for f in found}, r.stderr


def test_newer_python_syntax_is_a_notice_not_a_parse_error(tmp_path):
    """Round 18 (coredis `_py_312_typing.py`, imported only on 3.12+): a file valid in a
    newer Python's grammar (PEP 695 `type` statements, type parameters) is not a CTX000
    finding on an older interpreter; the run says on stderr that it was not analysed.
    A file no grammar accepts stays a CTX000 finding."""
    import sys

    newer = tmp_path / "typing_312.py"
    newer.write_text('type JsonType = str | int | list["JsonType"]\n\n\ndef first[T](xs: list[T]) -> T:\n'
                     '    return xs[0]\n')
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n    pass\n")
    paths, stderr = _check_json(newer, broken)
    if sys.version_info >= (3, 12):
        assert ("typing_312.py", "CTX000") not in paths
        return
    assert paths == {("broken.py", "CTX000")}
    assert "typing_312.py" in stderr and "not analysed" in stderr


def test_invalid_code_near_newer_syntax_stays_a_parse_error(tmp_path):
    """Stop 23's review of the newer-grammar notice: a file invalid in every Python must
    stay a CTX000 finding even when it mentions PEP 695 syntax elsewhere (in a docstring)
    or fails with an f-string error no grammar accepts ("nested too deeply")."""
    a = tmp_path / "docstring_mentions_type_params.py"
    a.write_text('"""On 3.12 one writes ``class Box[T]: ...``."""\n\nARROW = "\\N{CHECK MARK HEAVY}x"\n')
    b = tmp_path / "fstring_too_deep.py"
    b.write_text('def fmt(r, width, prec, align):\n    return f"{r:{align}{width:{prec:{width}}}}"\n')
    assert _check_json(a, b)[0] == {("docstring_mentions_type_params.py", "CTX000"), ("fstring_too_deep.py", "CTX000")}


def test_project_generator_template_is_a_notice_not_a_parse_error(tmp_path):
    """Round 27 (agentstack's cookiecutter templates, crawlee's `# % block` templates): a
    `.py` file Python rejects at a line of Jinja syntax is a template a project generator
    renders, not Python: a notice, no CTX000. Broken Python whose only `{{` lies far from
    the error, or in none of its lines, stays a CTX000 finding."""
    cc = tmp_path / "{{cookiecutter.slug}}" / "main.py"
    cc.parent.mkdir()
    cc.write_text("from {{cookiecutter.slug}}.crew import Crew\n\n\ndef run():\n    Crew().kickoff()\n")
    blocks = tmp_path / "main_parsel.py"
    blocks.write_text("# % extends 'main.py'\n\n# % block instantiation\ncrawler = Crawler(\n"
                      "    request_handler=router,\n    {{ self.http_client() }})\n# % endblock\n")
    far = tmp_path / "far.py"
    far.write_text('TEMPLATE = "{{ name }}"\n\n\n\n\n\ndef f(:\n    pass\n')
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n    pass\n")
    paths, stderr = _check_json(cc, blocks, far, broken)
    assert paths == {("far.py", "CTX000"), ("broken.py", "CTX000")}
    assert "project generator" in stderr and "not analysed" in stderr
