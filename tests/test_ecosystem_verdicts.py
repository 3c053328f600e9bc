"""The ecosystem check's verdict lookup (scripts/ecosystem.py): several findings of a
file on identical line text share a fingerprint, so a verdict is matched by its line
first and by its fingerprint only when the line moved (kombu's `qdesc =
self._queue_cache[queue]`, three findings with three verdicts)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location("ecosystem", Path(__file__).resolve().parents[1] / "scripts" / "ecosystem.py")
eco = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("ecosystem", eco)  # dataclasses look their module up while the class is built
_SPEC.loader.exec_module(eco)


def _f(line: int, fp: str = "d239b45f513a0c89") -> dict:
    return {"project": "kombu", "code": "CTX501", "path": "kombu/transport/gcpubsub.py", "fingerprint": fp, "line": line}


def test_identical_lines_keep_their_own_verdicts(tmp_path, monkeypatch):
    rows = [dict(_f(392), verdict="true"), dict(_f(427), verdict="true"), dict(_f(596), verdict="harmless")]
    path = tmp_path / "verdicts.jsonl"
    import json
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setattr(eco, "VERDICTS", path)
    v = eco.load_verdicts()
    assert [eco.verdict_of(v, _f(n))["verdict"] for n in (392, 427, 596)] == ["true", "true", "harmless"]
    # a finding whose line moved still finds the fingerprint's verdict
    assert eco.verdict_of(v, _f(600)) is not None
    assert eco.verdict_of(v, _f(600, fp="0000000000000000")) is None
