"""The cross-file template pass: template render sites <-> template files.

Called by the engine after the per-file pass (`engine._project_pass`), with what it
borrows from the engine handed in as `EngineHooks`, so that this module never
imports the engine (the engine imports it: one direction, no cycle). It reads the
run's Python files for template environments and render calls
(`ctxlint.semantic.jinja.call_sites`), lints the template files they name, and links
render calls to templates for CTX304. Nothing here is cached: its findings depend
on more than one file.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ctxlint.config import DEFAULT_EXCLUDES, Config
from ctxlint.findings import Finding
from ctxlint.suppress import apply_suppressions, file_ignored

if TYPE_CHECKING:
    from ctxlint.semantic.jinja.call_sites import RenderSite
# The template analyses are imported where they are used: a run whose Python files
# render no templates (most single-file runs) never loads them (engine start-up).


@dataclass(frozen=True)
class EngineHooks:
    """What the project pass borrows from the engine, handed in by the engine.

    decode: `(raw bytes, language, display path) -> (text | None, CTX000 Finding | None)`
        (`engine.decode`);
    per_file_ignores: `(findings, display path, config) -> findings` with the
        configuration's per-file-ignores applied (`engine._per_file_ignores`);
    template_suffixes: suffixes of files under a template directory that are linted
        as Jinja (`engine.TEMPLATE_DIR_SUFFIXES`).
    """

    decode: Callable[[bytes, str, str], tuple]
    per_file_ignores: Callable[[list, str, Config], list]
    template_suffixes: tuple[str, ...]


_RENDER_HINTS = (b"get_template", b"render_template", b"FileSystemLoader", b"PackageLoader", b"select_template",
                 b"_start_string")


@dataclass
class ProjectResult:
    """What the project pass adds to a run.

    findings: new findings (suppressions and per-file ignores applied);
    replace: display paths whose per-file findings are superseded (re-parsed with a
    call site's delimiters; their new findings are in `findings`);
    files: template files linted that discovery had not listed; notices: for stderr.
    """

    findings: list[Finding] = field(default_factory=list)
    replace: set = field(default_factory=set)
    files: int = 0
    notices: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def _resolve_dir(d: str) -> str:
    return os.path.realpath(d)


def _resolve_fast(p: Path) -> Path:
    """`p.resolve()` with the directory part resolved once per directory (a run
    has thousands of files in few directories: one lstat per file, not per component)."""
    s = os.fspath(p)
    if os.path.islink(s):
        return p.resolve()
    return Path(os.path.join(_resolve_dir(os.path.dirname(os.path.abspath(s))), os.path.basename(s)))


def project_findings(paths: list[str], files: list, config: Config, rules: list,
                     hooks: EngineHooks) -> ProjectResult:
    """Cross-file template analysis for one run (called by `engine.lint_paths`).

    Args:
        paths: the paths named on the command line.
        files: the run's `engine.SourceFile`s (display, path, language).
        config: the run's Config.
        rules: the selected rules that run on templates (`engine.rules_for("jinja", ...)`).
        hooks: what this pass borrows from the engine (see EngineHooks).

    1. Re-reads only the Python files of the run that mention a loader or render call,
       and resolves their environments' template directories.
    2. Lints template files under those directories that discovery did not list
       (`.html`, `.txt`, `.md`, ... — TEMPLATE_DIR_SUFFIXES) when the directory lies
       under a directory named on the command line. Such a file that does not parse
       as Jinja is skipped unless a render call names it: it may belong to another
       engine (Tornado, Django) that shares the directory.
    3. Re-lints templates whose environment sets custom delimiters (replacing the
       per-file findings made with the default ones).
    4. CTX304: links each render call with literal keyword names to its template file
       and reports, in the template, the first use of each variable the call never passes.

    Nothing here is cached: the findings depend on more than one file.
    Never raises on bad input.
    """
    res = ProjectResult()
    jinja_rules = list(rules)
    if not jinja_rules:
        return res
    want304 = any(r.code == "CTX304" for r in jinja_rules)
    run_files = {_resolve_fast(sf.path): sf for sf in files}
    dir_roots = [Path(p).resolve() for p in paths if Path(p).is_dir()]

    # template path -> (options, [(site, py display)]) ; loader dirs -> options
    dir_options: dict[Path, dict] = {}
    alt_delimiters: list[dict] = []
    flask_extra_context = False
    sites: list[tuple[RenderSite, str, list[Path]]] = []
    for sf in files:
        if sf.language != "python":
            continue
        try:
            raw = sf.path.read_bytes()
        except OSError:
            continue
        if b"context_processor" in raw:
            flask_extra_context = True  # Flask context processors add variables no call site shows
        if not any(h in raw for h in _RENDER_HINTS) or len(raw) > config.max_file_size:
            continue
        text, err = hooks.decode(raw, "python", sf.display)
        if text is None:
            continue
        try:
            # shared with `_imported_env`: a module another one imports is parsed once
            from ctxlint.semantic.jinja.call_sites import module_call_sites
            cs = module_call_sites(os.fspath(_resolve_fast(sf.path)), config, text)
            if cs is None:
                continue
            alt_delimiters.extend(d for d in cs.delimiter_sets if d not in alt_delimiters)
            for env in cs.envs:
                for d in env.loader_dirs:
                    dir_options.setdefault(d.resolve(), {}).update(env.options)
            for rs in cs.render_sites:
                if rs.template is None:
                    continue
                if rs.flask:
                    here = sf.path.resolve().parent
                    dirs = [a / "templates" for a in (here, *here.parents[:3])]
                    for d in dirs:  # Flask's template folder is a template directory too
                        if (d / rs.template).is_file():
                            dir_options.setdefault(d.resolve(), {})
                            break
                else:
                    env = rs.env
                    dirs = list(env.loader_dirs) if env is not None else [d for e in cs.envs for d in e.loader_dirs]
                sites.append((rs, f"{sf.display}:{rs.call.lineno}", dirs))
        except RecursionError:
            continue

    if not sites and not dir_options and not alt_delimiters:
        return res  # no Python file of the run renders templates: nothing to link
    from ctxlint.languages.jinja import parse_template
    from ctxlint.semantic.jinja.templates import JinjaFacts

    # 2 + 3: template files to (re-)lint
    targets: dict[Path, tuple[str, dict, bool]] = {}
    for d, opts in dir_options.items():
        if not d.is_dir():
            continue
        in_run = [p for p in run_files if p.is_relative_to(d)]
        for p in in_run:
            if run_files[p].language == "jinja" and opts:
                targets[p] = (run_files[p].display, opts, False)
        if not any(d.is_relative_to(r) for r in dir_roots):
            continue
        count = 0
        for p in sorted(d.rglob("*")):
            if count > 2000:
                break
            if not p.is_file() or p.suffix.lower() not in hooks.template_suffixes:
                continue
            if any(part in DEFAULT_EXCLUDES for part in p.relative_to(d).parts):
                continue
            rp = p.resolve()
            if rp in run_files:
                continue
            count += 1
            targets[rp] = (_display_for(rp, paths), opts, True)
    if alt_delimiters:
        # Templates no loader links to: one that does not parse with the default
        # delimiters but does with a set the run's code configures is re-linted with it.
        for rp, sf in run_files.items():
            if sf.language != "jinja" or rp in targets:
                continue
            text = _read_text(rp, config, hooks)
            if text is None or parse_template(text)[1] is None:
                continue
            for opts in alt_delimiters:
                if parse_template(text, tuple(sorted(opts.items())))[1] is None:
                    targets[rp] = (sf.display, opts, False)
                    break
    # A file found only by walking a loader directory is a template of ours only if it
    # parses, or if a render call names it: directories are shared with other engines
    # (dask's http/templates holds Tornado templates beside the one Jinja page it loads).
    named = {(d / rs.template).resolve() for rs, _where, dirs in sites if rs.template for d in dirs}
    texts: dict[Path, str] = {}
    for rp, (display, opts, added) in targets.items():
        text = _read_text(rp, config, hooks)
        if text is None:
            continue
        if added and rp not in named and parse_template(text, tuple(sorted(opts.items())))[1] is not None:
            continue
        texts[rp] = text
        res.findings.extend(_lint_template(display, text, jinja_rules, config, opts, hooks))
        if added:
            res.files += 1
        else:
            res.replace.add(display)

    # 4: CTX304
    if want304:
        rule = next(r for r in jinja_rules if r.code == "CTX304")
        linked: dict[Path, list] = {}
        for rs, where, dirs in sites:
            if rs.names is None or (rs.flask and flask_extra_context):
                continue
            if (rs.env is not None and rs.env.open_globals) or rs.globals is None:
                continue  # globals added that cannot be read: the template may see any name
            for d in dirs:
                cand = (d / rs.template).resolve()
                if cand.is_file():
                    if cand in run_files or cand in targets:
                        linked.setdefault(cand, []).append((rs, where, dir_options.get(d.resolve(), {})))
                    break
        for tp, links in linked.items():
            display = run_files[tp].display if tp in run_files else targets[tp][0]
            text = texts.get(tp) or _read_text(tp, config, hooks)
            if text is None:
                continue
            opts = links[0][2]
            tree, err = parse_template(text, tuple(sorted(opts.items())))
            if err is not None:
                continue
            facts = JinjaFacts(display, text, tree, config, opts)
            found = []
            for f in rule.check_links(facts, [(rs.names | (rs.env.globals if rs.env else set()) | rs.globals,
                                               where, rs.flask)
                                              for rs, where, _ in links]):
                found.append(f)
            res.findings.extend(_post(found, display, text, config, hooks))
    return res


def _display_for(p: Path, paths: list[str]) -> str:
    for raw in paths:
        base = Path(raw)
        try:
            rel = p.relative_to(base.resolve())
        except ValueError:
            continue
        return str(base / rel) if raw not in (".", "./") else str(rel)
    return str(p)


def _read_text(p: Path, config: Config, hooks: EngineHooks) -> str | None:
    try:
        if p.stat().st_size > config.max_file_size:
            return None
        raw = p.read_bytes()
    except OSError:
        return None
    text, _err = hooks.decode(raw, "jinja", str(p))
    return text


def _post(findings: list[Finding], display: str, text: str, config: Config, hooks: EngineHooks) -> list[Finding]:
    if file_ignored(text):
        return []
    findings = hooks.per_file_ignores(findings, display, config)
    kept, _ = apply_suppressions(findings, text, "jinja")
    return kept


def _lint_template(display: str, text: str, rules: list, config: Config, options: dict,
                   hooks: EngineHooks) -> list[Finding]:
    """Per-file template lint with a call site's delimiters (prefilter off, suppressions applied)."""
    if file_ignored(text):
        return []
    from ctxlint.semantic.jinja.templates import lint
    wanted = [r for r in rules if r.code not in ("CTX000", "CTX001")]
    return _post(lint(display, text, wanted, config, options), display, text, config, hooks)
