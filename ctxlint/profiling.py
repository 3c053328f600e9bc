"""Where a run's time goes: per rule, per semantic fact and per file.

`ctxlint check --profile` (or the environment variable `CTXLINT_PROFILE=1`) times each
rule's `check` on each file, each semantic fact the first time a file computes it (a
`functools.cached_property` of a ctxlint class, a `PythonFacts.memo` / `GoFacts.memo`
entry, named by its key without the per-node ids), and each file as a whole, and prints
to stderr, sorted by self time, the costliest rules and facts and the slowest files
with the rule or fact that cost each of them most. Self time is exclusive: a fact
computed while a rule runs is charged to the fact, not the rule; a file's own share
(the prefilter, suppressions, anything not named) is listed as "file: prefilter,
suppressions, the rest"; parsing and the tree index have their own lines.

Times are the process's CPU time (`time.process_time`): on a loaded machine wall
time grows with the load, CPU time much less. A profiled run reads and writes no
cache and lints in one process (a cached file costs nothing to profile; workers would
keep their timings). The hooks cost one clock read
per rule run and per fact computed; they are installed only when profiling is on.
Where the idea comes from: Ruff's and Pylint's per-rule timing switches, and Python's
own `cProfile` self/cumulative split.
"""

from __future__ import annotations

import functools
import os
import sys
from time import process_time as _clock  # CPU time: a loaded machine inflates wall time, not this

_on = False
#: Open timings, innermost last: [label, start, time spent in nested timings].
_stack: list[list] = []
#: label -> [calls, inclusive seconds, self seconds], over the whole run.
_totals: dict[str, list] = {}
#: label -> self seconds within the file being linted.
_file_self: dict[str, float] = {}
#: (seconds, display path, lines, costliest label, its self seconds) per file.
_files: list[tuple[float, str, int, str, float]] = []
#: (owner, attribute, original value) of every hook installed, for `disable`.
_patched: list[tuple[object, str, object]] = []

FILE_LABEL = "file: prefilter, suppressions, the rest"


def enabled() -> bool:
    """Is profiling on (`--profile` sets `CTXLINT_PROFILE=1`)? Installs the fact hooks
    the first time it answers yes."""
    if not _on and os.environ.get("CTXLINT_PROFILE", "") not in ("", "0"):
        _install()
    return _on


def _push(label: str) -> None:
    _stack.append([label, _clock(), 0.0])


def _pop() -> float:
    label, t0, nested = _stack.pop()
    dt = _clock() - t0
    if _stack:
        _stack[-1][2] += dt
    own = dt - nested
    tot = _totals.get(label)
    if tot is None:
        tot = _totals[label] = [0, 0.0, 0.0]
    tot[0] += 1
    tot[1] += dt
    tot[2] += own
    _file_self[label] = _file_self.get(label, 0.0) + own
    return dt


def memo_label(key) -> str:
    """A memo key without its per-node parts: `tensors.cb.1403.2` -> `tensors.cb`,
    `cfg:17` -> `cfg`, `project_index.mentions:'x'` -> `project_index.mentions`; a
    tuple key by its first string (`("ck_fields", 1403)` -> `ck_fields`)."""
    if not isinstance(key, str):
        key = next((k for k in key if isinstance(k, str)), "") if isinstance(key, tuple) else ""
        key = key or "(unnamed)"
    head = key.split(":", 1)[0]
    head = ".".join(p for p in head.split(".") if p and not p.lstrip("-").isdigit())
    base, _, tail = head.rpartition("_")
    return base if base and tail.isdigit() else head  # `ck_switched_1403` -> `ck_switched`


def _install() -> None:
    """Wrap the fact computations (see the module docstring)."""
    global _on
    _on = True
    cp = functools.cached_property
    plain_get = cp.__get__

    def timed_get(self, instance, owner=None):
        if instance is None or not (getattr(self.func, "__module__", "") or "").startswith("ctxlint."):
            return plain_get(self, instance, owner)
        _push(f"fact {type(instance).__name__}.{self.attrname}")
        try:
            return plain_get(self, instance, owner)
        finally:
            _pop()

    _patch(cp, "__get__", timed_get)
    import importlib
    for mod, cls in (("ctxlint.semantic.python.facts", "PythonFacts"), ("ctxlint.semantic.go.facts", "GoFacts")):
        try:
            klass = getattr(importlib.import_module(mod), cls)
        except Exception:  # a language whose parser is not installed: nothing to time there
            continue
        _patch(klass, "memo", _timed_memo(klass.memo))
        _patch(klass, "__init__", _timed(klass.__init__, f"fact {cls} (parents, node index)"))
    for mod, fn in (("ctxlint.languages.python", "parse"), ("ctxlint.languages.python", "compiles")):
        m = importlib.import_module(mod)
        _patch(m, fn, _timed(getattr(m, fn), f"parse ({mod.rsplit('.', 1)[-1]}.{fn})"))


def _patch(owner, name: str, value) -> None:
    _patched.append((owner, name, owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)))
    setattr(owner, name, value)


def disable() -> None:
    """Remove the hooks and forget every timing (tests; a long-lived process)."""
    global _on
    while _patched:
        owner, name, value = _patched.pop()
        setattr(owner, name, value)
    _on = False
    _stack.clear()
    _totals.clear()
    _file_self.clear()
    _files.clear()


def _timed(plain, label: str):
    """`plain`, timed under `label` at every call."""
    @functools.wraps(plain)
    def timed(*args, **kwargs):
        _push(label)
        try:
            return plain(*args, **kwargs)
        finally:
            _pop()
    return timed


def _timed_memo(plain):
    def memo(self, key, compute):
        if key in self._memo:
            return self._memo[key]
        _push("fact memo " + memo_label(key))
        try:
            return plain(self, key, compute)
        finally:
            _pop()
    memo.__doc__ = plain.__doc__
    return memo


class TimedRule:
    """A rule whose `check` is timed (its findings are collected inside the timing, as
    `check` is usually a generator). Every other attribute is the rule's.

    Args:
        rule: the rule instance (`code`, `check(facts)`).
    """

    def __init__(self, rule):
        self._rule = rule

    def __getattr__(self, name):
        return getattr(self._rule, name)

    def check(self, facts):
        _push(f"rule {self._rule.code}")
        try:
            return list(self._rule.check(facts))
        finally:
            _pop()


def begin_file() -> None:
    """Start timing one file (engine.lint_text)."""
    _file_self.clear()
    _push(FILE_LABEL)


def end_file(display: str, text: str) -> None:
    """Stop timing the file begun last; record its time and its costliest label."""
    dt = _pop()
    if _stack:  # a file linted inside another's analysis (a project pass): not a file of its own
        return
    top = max(_file_self.items(), key=lambda kv: kv[1], default=(FILE_LABEL, 0.0))
    _files.append((dt, display, text.count("\n") + 1, top[0], top[1]))
    _file_self.clear()


def report(out=None, top: int = 25, slowest: int = 10) -> None:
    """Print the run's profile (see the module docstring) to `out` (stderr)."""
    out = out or sys.stderr
    if not _files:
        out.write("ctxlint profile: no file was analysed\n")
        return
    total = sum(f[0] for f in _files)
    out.write(f"ctxlint profile: {len(_files)} files, {total:.3f} s analysing "
              "(CPU; self time: a fact's time is not charged to the rule that asked for it)\n")
    out.write(f"  {'self ms':>9} {'incl ms':>9} {'runs':>7}  rule / fact\n")
    for label, (n, incl, own) in sorted(_totals.items(), key=lambda kv: -kv[1][2])[:top]:
        out.write(f"  {own * 1000:9.1f} {incl * 1000:9.1f} {n:7d}  {label}\n")
    out.write("slowest files:\n")
    out.write(f"  {'ms':>9} {'lines':>7} {'ms/kline':>9}  file  (costliest: self ms)\n")
    for dt, display, lines, label, own in sorted(_files, reverse=True)[:slowest]:
        out.write(f"  {dt * 1000:9.1f} {lines:7d} {dt * 1e6 / max(lines, 1):9.1f}  {display}  "
                  f"({label}: {own * 1000:.1f})\n")
