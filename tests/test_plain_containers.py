"""`tensors.is_plain_data` / `plain_locals` through containers and value-preserving
builtins (read by CTX601 and CTX406): a dict or list built from `.item()`/`.tolist()`
results is plain; one that holds a tensor, or gets one stored into it, is not."""

from __future__ import annotations

import ast
import textwrap

from ctxlint.config import Config
from ctxlint.semantic.python.facts import PythonFacts
from ctxlint.semantic.python.tensors import element_store, is_plain_data, plain_locals


def _plain(src: str) -> frozenset:
    src = textwrap.dedent(src)
    facts = PythonFacts("x.py", src, ast.parse(src), Config())
    return plain_locals(facts, facts.nodes(ast.FunctionDef)[0])


def test_displays_and_builtins():
    e = lambda s: ast.parse(s, mode="eval").body  # noqa: E731
    assert is_plain_data(e('{"loss": a, "w": w.detach().tolist(), **{"n": 1}}'), {"a"})
    assert is_plain_data(e("[p.grad.norm().item() for p in ps]"))
    assert is_plain_data(e("max(n, 1)"), {"n"}) and is_plain_data(e("sum(xs) / max(len(xs), 1)"), {"xs"})
    assert is_plain_data(e("max(xs, key=lambda v: v[0])"), {"xs"})
    assert not is_plain_data(e("max(a, b)"), {"a"})  # max of tensors is a tensor
    assert not is_plain_data(e('{"loss": loss}'))
    assert not is_plain_data(e("{k: v for k, v in d.items()}"))


def test_element_stores_decide_a_container():
    got = _plain("""\
        def f(loss, logits, xs):
            row = {}
            row["loss"] = loss.item()
            rows = []
            rows.append(row)
            bad = {}
            bad["logits"] = logits
            nested = {"a": [], "b": []}
            nested["a"].append(loss)
            grouped = {}
            grouped.setdefault("a", []).append(loss.item())
            avg = sum(rows and [1]) / max(len(xs), 1)
        """)
    assert {"row", "rows", "grouped", "avg"} <= got
    assert "bad" not in got and "nested" not in got


def test_element_store_shapes():
    s = lambda src: element_store(ast.parse(src).body[0] if "=" in src else ast.parse(src).body[0].value)  # noqa: E731
    assert s("a[k] = v")[0] == "a"
    assert s("a[k][j] += v")[0] == "a"
    assert s("a.setdefault(k, []).append(v)")[0] == "a"
    assert s("self.rows.append(v)") is None
    assert s("a.append()") is None
