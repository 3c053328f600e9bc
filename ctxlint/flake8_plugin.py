"""flake8 plugin: `flake8 --select CTX` runs ctxlint's Python rules.

Registered as the `flake8.extension` entry point `CTX` (pyproject.toml). flake8
hands every AST plugin the `ast.Module` it already parsed together with the
file's lines; the checker passes that tree straight to `ctxlint.engine.lint_text`
(`tree=`), so a file is parsed once for flake8 and all its plugins. Nothing is
re-implemented here: the rules, the per-file facts, the prefilter, per-file
ignores and the `[tool.ctxlint]` settings (scope ids, select/ignore) are the
engine's. flake8 applies its own `# noqa` handling on top (so `--disable-noqa`
and `--extend-ignore` work as for any plugin); ctxlint's own comment forms
(`# ctxlint: ignore[CTX501]`) are honoured by the engine as under `ctxlint check`.

Model: flake8's plugin interface for AST plugins ("Writing Plugins for Flake8",
the `tree`/`filename`/`lines` parameters), as used by flake8-bugbear.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Iterator

from ctxlint import __version__

# (config file path or None, its mtime) -> (Config, selected rules). flake8 runs
# one checker per file, possibly in several processes: resolve config once per
# project directory per process.
_CONFIG_BY_DIR: dict[str, tuple] = {}


def _settings_for(filename: str):
    """The `Config` and selected rules for `filename` (nearest [tool.ctxlint] above it).

    A broken ctxlint config is not flake8's problem to crash on: the defaults are used
    and the error is reported once as a CTX000 finding at line 1.
    """
    from ctxlint.config import Config, ConfigError, load_config
    from ctxlint.rules import select_rules

    directory = os.path.dirname(os.path.abspath(filename)) if filename not in ("stdin", "-", "") else os.getcwd()
    hit = _CONFIG_BY_DIR.get(directory)
    if hit is not None:
        return hit
    error = None
    try:
        config = load_config(None, directory)
    except ConfigError as exc:
        config, error = Config(), str(exc)
    try:
        rules = select_rules(config.select, config.ignore, config.extend_select)
    except ValueError as exc:
        rules, error = select_rules([], []), str(exc)
    _CONFIG_BY_DIR[directory] = (config, rules, error)
    return config, rules, error


class CtxlintChecker:
    """The flake8 AST checker.

    Args (passed by flake8 by parameter name):
        tree: the `ast.Module` flake8 parsed.
        filename: the path flake8 reports (or "stdin").
        lines: the file's physical lines, with line endings.

    `run()` yields `(line, column, "CTX107 message", type)` with flake8's 1-based
    line and 0-based column; flake8 prints the column 1-based, as `ctxlint check` does.
    """

    name = "ctxlint"
    version = __version__
    #: True when flake8's --select/--extend-select names CTX001 (off by default in
    #: ctxlint, so it runs only when asked for by its full code).
    unused_noqa = False
    #: `--ctxlint-min-confidence` ("high"/"low"), None: the `[tool.ctxlint]` key, else high.
    min_confidence: str | None = None

    @classmethod
    def add_options(cls, manager) -> None:
        """flake8 hook: `--ctxlint-min-confidence high|low` (also a flake8 config key)."""
        manager.add_option("--ctxlint-min-confidence", choices=("high", "low"), default=None,
                           parse_from_config=True,
                           help="ctxlint: report latent (low-confidence) findings too with 'low' "
                                "(default: [tool.ctxlint] min-confidence, else high)")

    @classmethod
    def parse_options(cls, options) -> None:
        """flake8 hook: note whether CTX001 unused-noqa was selected by its full code,
        and the confidence tier to report."""
        chosen = [*(getattr(options, "select", None) or ()), *(getattr(options, "extend_select", None) or ())]
        cls.unused_noqa = any(str(c).strip().upper() == "CTX001" for c in chosen)
        cls.min_confidence = getattr(options, "ctxlint_min_confidence", None)

    def __init__(self, tree: ast.Module, filename: str = "stdin", lines: list[str] | None = None):
        self.tree = tree
        self.filename = filename
        self.lines = lines

    def _text(self) -> str:
        if self.lines is not None:
            text = "".join(self.lines)
        else:  # flake8 always passes lines; a direct caller may not
            text = Path(self.filename).read_text(encoding="utf-8", errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        return text

    def run(self) -> Iterator[tuple[int, int, str, type]]:
        from ctxlint import engine

        config, rules, error = _settings_for(self.filename)
        if self.unused_noqa and not any(r.code == "CTX001" for r in rules):
            from ctxlint.rules import get_rule
            rules = [*rules, get_rule("CTX001")]
        if error:
            yield 1, 0, f"CTX000 ctxlint configuration error: {error}", type(self)
        try:
            findings = engine.lint_text(self.filename, self._text(), "python", rules, config, tree=self.tree)
        except Exception as exc:  # a rule bug must not take flake8 down with it
            yield 1, 0, f"CTX000 ctxlint internal error: {type(exc).__name__}: {exc}", type(self)
            return
        findings, _ = engine.filter_confidence(findings, self.min_confidence or config.min_confidence)
        for f in findings:
            yield f.line, max(f.col - 1, 0), f"{f.code} {f.message}", type(self)
