"""Misreads found by blind review on real code (round 7), as kinds:

- CTX501: a removal (`pop`/`del`/`discard`) is no key use; a key minted in the call
  (uuid4, a new object's own fresh id field) is per call; a key the function maps to its
  scope (a run registry storing the session under the run id) is not shared across it.
- CTX303: a format string read from a literal path into the module's own directory
  tree is the package's own text (the fact CTX301 uses).
- CTX601: graph-free tensors (comparisons, integer casts, argmax, no_grad results)
  carry no autograd history.
Each kind is tested together with a control that must still be reported."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import select_rules
from ctxlint.semantic.python.cache_keys import cache_key_facts
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.tensors import graph_free, graph_free_locals


def lines(src: str, code: str) -> list[int]:
    rules = select_rules([code], [])
    found = engine.lint_text("case.py", textwrap.dedent(src), "python", rules, Config())
    return [f.line for f in found if f.code == code]


def facts_of(src: str) -> PythonFacts:
    text = textwrap.dedent(src)
    return PythonFacts("case.py", text, ast.parse(text), Config())


def fn_named(facts: PythonFacts, name: str):
    return next(f for f in facts.nodes(ast.FunctionDef, ast.AsyncFunctionDef) if f.name == name)


# --------------------------------------------------------------------- CTX501
CLEANUP = """
_ANSWER_CACHE = {}

def forget(trace_ref, conversation_id, tenant_id):
    _ANSWER_CACHE.pop(trace_ref, None)
    if trace_ref in _ANSWER_CACHE:
        del _ANSWER_CACHE[trace_ref]

def store(tenant_id, k, build):
    _ANSWER_CACHE[(tenant_id, k)] = build(tenant_id)
"""


def test_ctx501_removal_is_no_key_use():
    assert lines(CLEANUP, "CTX501") == []
    # controls: a lookup in the same function is a key use; so is a membership test
    # that guards more than a removal
    looked_up = CLEANUP.replace("_ANSWER_CACHE.pop(trace_ref, None)", "hit = _ANSWER_CACHE.get(trace_ref)")
    assert lines(looked_up, "CTX501") == [5]
    guarded = CLEANUP.replace("        del _ANSWER_CACHE[trace_ref]", "        return _ANSWER_CACHE[trace_ref]")
    assert lines(guarded, "CTX501") == [6]


MINTED = """
import uuid
from dataclasses import dataclass, field

_JOB_CACHE = {}

@dataclass
class Job:
    prompt: str
    handle: str = field(default_factory=lambda: uuid.uuid4().hex)
    label: str = "job"

def submit(tenant_id, prompt, render):
    KEY
    _JOB_CACHE[key] = render(tenant_id, prompt)
"""


def test_ctx501_key_minted_per_call():
    for key, reported in (("key = uuid.uuid4().hex", False),
                          ("job = Job(prompt)\n    key = job.handle", False),
                          # controls: a field the caller fills, a content key, a passed-in object
                          ("job = Job(prompt)\n    key = job.label", True),
                          ("job = Job(prompt, handle=prompt)\n    key = job.handle", True),
                          ("key = prompt", True),
                          # id() of a new object is reused once the object is freed
                          ("job = Job(prompt)\n    key = id(job)", True)):
        src = MINTED.replace("KEY", key)
        assert bool(lines(src, "CTX501")) is reported, key


REGISTRY = """
_RUN_SESSIONS = {}
_RUN_LOG_SESSION = {}

def register(run_ref, session, session_id=None, context=None):
    _RUN_SESSIONS[run_ref] = VALUE
    resolved = session_id or getattr(context, "session_id", None)
    _RUN_LOG_SESSION[run_ref] = resolved
"""


def test_ctx501_key_mapped_to_its_scope():
    src = REGISTRY.replace("VALUE", "session")
    assert lines(src, "CTX501") == []
    facts = facts_of(src)
    ck = cache_key_facts(facts)
    fn = fn_named(facts, "register")
    key = ast.parse("run_ref", mode="eval").body
    assert ck.owned_scope_kinds(fn, key) == {"session"}
    # control: a cache of values computed for the session, with no map to the session
    cache = """
_PROMPT_CACHE = {}

def render(persona, session_id, build):
    _PROMPT_CACHE[persona] = build(persona, session_id)
"""
    assert lines(cache, "CTX501") == [5]


def test_ctx501_scope_value_is_the_head_noun():
    facts = facts_of("def f(user_prompt, upstream_session, ctx):\n    pass\n")
    ck = cache_key_facts(facts)
    fn = fn_named(facts, "f")

    def kinds(text: str) -> set[str]:
        return ck.scope_value_kinds(fn, ast.parse(text, mode="eval").body)

    assert kinds("user_prompt") == set()
    assert kinds("upstream_session") == {"session"}
    assert kinds('getattr(ctx, "tenant_id", None)') == {"tenant"}
    assert kinds("ctx.user_id or ctx.fallback") == {"user"}


# --------------------------------------------------------------------- CTX303
def _lint_tree(root: Path, rel: str, code: str) -> list[int]:
    path = root / rel
    res = engine.lint_paths([str(path)], Config(root=root), select_rules([code], []), jobs=1, use_cache=False)
    return [f.line for f in res.findings if f.code == code]


def test_ctx303_literal_path_into_own_tree(tmp_path: Path):
    pkg = tmp_path / "proj" / "speechui" / "webui"
    pkg.mkdir(parents=True)
    (tmp_path / "proj" / "speechui" / "__init__.py").write_text("")
    src = textwrap.dedent('''
        def load(path):
            with open(path, encoding="utf-8") as fh:
                return str(fh.read())

        def footer(request):
            text = load("PATH")
            return text.format(request=request)
        ''')
    (pkg / "manage.py").write_text(src.replace("PATH", "speechui/webui/html/footer.html"))
    assert _lint_tree(tmp_path, "proj/speechui/webui/manage.py", "CTX303") == []
    # controls: a path into the working directory's config, and an absolute path
    for path in ("config/footer.html", "/etc/speechui/footer.html", "speechui/../secrets/f.html"):
        (pkg / "manage.py").write_text(src.replace("PATH", path))
        assert _lint_tree(tmp_path, "proj/speechui/webui/manage.py", "CTX303") == [8], path


def test_ctx303_direct_open_of_own_file(tmp_path: Path):
    pkg = tmp_path / "app" / "ui"
    pkg.mkdir(parents=True)
    src = textwrap.dedent('''
        def banner(user):
            with open("PATH") as fh:
                text = fh.read()
            return text.format(user=user)
        ''')
    (pkg / "page.py").write_text(src.replace("PATH", "ui/templates/banner.txt"))
    assert _lint_tree(tmp_path, "app/ui/page.py", "CTX303") == []
    (pkg / "page.py").write_text(src.replace("PATH", "banner.txt"))
    assert _lint_tree(tmp_path, "app/ui/page.py", "CTX303") == [5]


# --------------------------------------------------------------------- CTX601
def test_graph_free_values():
    facts = facts_of("import torch\ndef f(loss, mask, labels, device):\n    pass\n")
    fn = fn_named(facts, "f")

    def expr(text: str) -> ast.AST:
        return ast.parse(text, mode="eval").body

    for text in ("(labels != -100).sum()", "labels.ne(0).long()", "loss.argmax(-1)", "loss.to(torch.long)",
                 "(labels == 1).float().mean().to(device)", "mask.numel()", "(labels > 0).sum() * 2"):
        assert graph_free(facts, expr(text), fn), text
    for text in ("loss.sum()", "loss * (labels != 0).sum()", "loss.to(device)", "loss.float()", "mask"):
        assert not graph_free(facts, expr(text), fn), text


TRAIN = """
import torch

def train(model, loader, loss_fn, optimizer):
    acc = 0
    for batch in loader:
        labels = batch["labels"]
        loss = loss_fn(model(batch["x"]), labels)
        loss.backward()
        optimizer.step()
        BODY
        acc += value
    return acc
"""


def test_ctx601_follows_graph_free_values():
    quiet = ("value = (labels != loss_fn.ignore_index).sum()",
             "value = model(batch['x']).argmax(-1).eq(labels).long().sum()",
             "with torch.no_grad():\n            value = loss * 2")
    for body in quiet:
        assert lines(TRAIN.replace("BODY", body), "CTX601") == [], body
    for body in ("value = loss * (labels != 0).sum()",
                 "with torch.no_grad():\n            value = loss",
                 "value = loss.float()"):
        assert lines(TRAIN.replace("BODY", body), "CTX601"), body


def test_graph_free_locals_are_flow_insensitive():
    facts = facts_of("def f(loss, labels):\n    n = (labels != 0).sum()\n    n = n + loss\n    m = n\n")
    assert graph_free_locals(facts, fn_named(facts, "f")) == frozenset()
