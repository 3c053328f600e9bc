"""A peer linter's suppression of the same defect suppresses ctxlint's finding
(`suppress.PEER_CODES`): ruff's RUF006 for CTX107, golangci-lint's govet (lostcancel),
containedctx and contextcheck for CTX101, CTX202 and CTX206. Unrelated peer codes do not,
and a peer code never makes an unused-suppression (CTX001) finding."""

from __future__ import annotations

from ctxlint import engine
from ctxlint.config import Config
from ctxlint.rules import all_rules

RULES = list(all_rules().values())

PY = """\
import asyncio


async def close_after(stream) -> None:
    await stream.close()


async def rotate(old) -> None:
    asyncio.create_task(close_after(old)){comment}
"""

GO = """\
package p

import (
\t"context"
\t"time"
)

func Ctx(parent context.Context) context.Context {
\tctx, _ := context.WithTimeout(parent, time.Second){comment}
\treturn ctx
}
"""


def _codes(path: str, text: str, language: str, select=("CTX",)) -> list[str]:
    rules = [r for r in RULES if any(r.code.startswith(s) for s in select)]
    return [f.code for f in engine.lint_text(path, text, language, rules, Config())]


def test_ruff_dangling_task_noqa_covers_ctx107():
    assert _codes("a.py", PY.replace("{comment}", ""), "python") == ["CTX107"]
    assert _codes("a.py", PY.replace("{comment}", "  # noqa: RUF006"), "python") == []
    assert _codes("a.py", PY.replace("{comment}", "  # noqa: E501, RUF006"), "python") == []
    assert _codes("a.py", PY.replace("{comment}", "  # noqa: RUF005"), "python") == ["CTX107"]


def test_golangci_nolint_names_cover_their_ctxlint_codes():
    assert _codes("a.go", GO.replace("{comment}", ""), "go") == ["CTX101"]
    for comment in (" //nolint:govet", " //nolint:lostcancel // reviewed", " //nolint:errcheck,govet"):
        assert _codes("a.go", GO.replace("{comment}", comment), "go") == [], comment
    for comment in (" //nolint:errcheck", " //nolint:containedctx"):
        assert _codes("a.go", GO.replace("{comment}", comment), "go") == ["CTX101"], comment


def test_a_peer_code_is_never_an_unused_suppression():
    text = PY.replace("{comment}", "") + "x = 1  # noqa: RUF006\n"
    assert _codes("a.py", text, "python", select=("CTX001", "CTX107")) == ["CTX107"]
    text = GO.replace("{comment}", "") + "var y = 1 //nolint:containedctx\n"
    assert _codes("a.go", text, "go", select=("CTX001", "CTX101")) == ["CTX101"]
