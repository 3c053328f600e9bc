"""The engine: file discovery, language dispatch, process pool, content-hash cache.

Data flows one way: paths -> discover() -> per file: read once, decode, prefilter
(rules whose literal tokens occur), parse once, rules over shared facts,
suppressions -> findings. The CLI, the LSP server and the flake8 plugin all call
`lint_text` (one in-memory source) or `lint_paths` (a tree); none re-implements
a rule.

Cache: `.ctxlint_cache/` beside the config (or the cwd), one JSON map per
(ctxlint version, resolved config digest, selected rules) from the blake2b digest
of a file's bytes to its findings, so an unchanged file is neither decoded nor
parsed again (the ruff model).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
from pathlib import Path
from typing import Iterable

from ctxlint import __version__
from ctxlint.config import DEFAULT_EXCLUDES, Config, Record, blake2b
from ctxlint.findings import Finding
from ctxlint.processes import TEMP_SUFFIX, remove_if_stale, temp_prefix
from ctxlint.suppress import Suppression, apply_suppressions, file_ignored

#: suffix -> language name; language name -> module implementing `lint`.
SUFFIX_LANGUAGE: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".go": "go",
    ".j2": "jinja", ".jinja": "jinja", ".jinja2": "jinja",
}
LANGUAGE_MODULES: dict[str, str] = {
    "python": "ctxlint.semantic.python.lint",
    "go": "ctxlint.semantic.go.facts",
    "jinja": "ctxlint.semantic.jinja.templates",
}
#: Suffixes of files under a template directory that are linted as Jinja.
TEMPLATE_DIR_SUFFIXES = (".html", ".htm", ".xml", ".txt", ".md", ".j2", ".jinja", ".jinja2", ".tmpl", ".prompt")


class SourceFile(Record):
    """A file to lint: `display` is the path reported; `path` the filesystem path;
    `language` "python" | "go" | "jinja"."""

    _fields = ("display", "path", "language")

    def __init__(self, display: str, path: Path, language: str):
        self.display, self.path, self.language = display, path, language


class RunResult(Record):
    """What one `lint_paths` run produced.

    findings: sorted, after suppression and per-file ignores.
    notices: one-line messages for stderr (skipped large files, rule errors).
    files: number of files considered; parsed: files actually parsed (cache misses
    that passed the prefilter); internal_errors: rule crashes (exit 2).
    from_cache: display paths whose findings came from the cache.
    unreadable: (display path, notice) of each file or directory that could not
    be read (permissions, a FIFO, ...): not checked, so the run is not clean.
    skipped: (display path, notice) of each file not linted because it is over
    `max-file-size`; the notice (also in `notices`) says how to raise the limit.
    unchecked: (display path, line, notice) of each function left out of a linted file
    because its text does not parse (`findings.note_unchecked`); also in `notices`.
    """

    _fields = ("findings", "notices", "files", "parsed", "cached", "internal_errors", "skipped", "from_cache",
               "unreadable", "unchecked")

    def __init__(self, findings: list[Finding] | None = None, notices: list[str] | None = None, files: int = 0,
                 parsed: int = 0, cached: int = 0, internal_errors: int = 0,
                 skipped: list[tuple[str, str]] | None = None, from_cache: set[str] | None = None,
                 unreadable: list[tuple[str, str]] | None = None,
                 unchecked: list[tuple[str, int, str]] | None = None):
        self.findings = [] if findings is None else findings
        self.notices = [] if notices is None else notices
        self.files, self.parsed, self.cached, self.internal_errors = files, parsed, cached, internal_errors
        self.skipped = [] if skipped is None else skipped
        #: display paths whose findings were read from the cache, not computed by this
        #: run: `--fix` recomputes them on the file's bytes before editing (issue 37)
        self.from_cache = set() if from_cache is None else from_cache
        self.unreadable = [] if unreadable is None else unreadable
        self.unchecked = [] if unchecked is None else unchecked


#: Marker following a notice in `lint_file`'s notices: the file was skipped for its size.
SKIPPED_MARKER = "__skipped__"
#: Marker following a notice in `lint_file`'s notices: the file could not be read.
UNREADABLE_MARKER = "__unreadable__"
#: Notice marker: the file's findings read other modules of the project
#: (`semantic.python.project_index`), so its own content hash cannot key them alone. The
#: notice carries, one per line after the marker, what they read (`note_consulted`'s
#: strings); `Cache.put` stamps those and keys the entry on them too.
DEPENDS_MARKER = "__depends__\n"


def split_unchecked(display: str, notices: list[str]) -> tuple[list[str], list[tuple[str, int, str]]]:
    """Turn `lint_bytes`' unchecked-function notices (`findings.UNCHECKED_MARKER`)
    into readable "path:line: message" notices; returns (notices, [(path, line, message)])."""
    from ctxlint.findings import UNCHECKED_MARKER
    out, unchecked = [], []
    for n in notices:
        if n.startswith(UNCHECKED_MARKER):
            line, _, msg = n[len(UNCHECKED_MARKER):].partition("\t")
            unchecked.append((display, int(line) if line.isdigit() else 1, msg))
            out.append(f"{display}:{line}: {msg}")
        else:
            out.append(n)
    return out, unchecked


def too_big_notice(display: str, size: int, limit: int) -> str:
    """The notice for a file over `max-file-size`, saying how to raise the limit."""
    return (f"{display}: skipped, {size} bytes is over the {limit}-byte limit; to check it, raise "
            f"`max-file-size` (e.g. `max-file-size = {size}` under [tool.ctxlint] in pyproject.toml)")


# ---------------------------------------------------------------- discovery
def language_of(path: str | Path) -> str | None:
    """The language of a file by its suffix ("python" | "go" | "jinja"), case-insensitive.

    None for an unknown suffix: such a file is linted only as Jinja under a
    configured template dir, or as Python with a python shebang (`discover`).
    """
    return SUFFIX_LANGUAGE.get(Path(path).suffix.lower())


def discover(paths: Iterable[str], config: Config, extra_excludes: Iterable[str] = (),
             unreadable: list | None = None) -> list[SourceFile]:
    """Expand `paths` into source files.

    Directories are walked recursively, honouring .gitignore files (pathspec's
    gitwildmatch), the default excludes and the configured excludes. A file named
    explicitly is always checked (even when excluded or of an unknown suffix
    that is under a template dir). Files under configured `template-dirs` are
    Jinja regardless of suffix (within TEMPLATE_DIR_SUFFIXES). A directory that
    cannot be listed is appended to `unreadable` (when given) as (path, notice).
    A stale temporary file of a killed `--fix` (`processes.remove_if_stale`) met on
    the walk is removed.

    Raises:
        FileNotFoundError: a path does not exist (the CLI reports it, exit 2).
    """
    patterns = [*config.exclude, *config.extend_exclude, *extra_excludes]
    needs_walk = any(Path(raw).is_dir() for raw in paths)
    if needs_walk:
        import pathspec  # ~25 ms to import: only when a directory is walked
    user_spec = pathspec.GitIgnoreSpec.from_lines(patterns) if patterns and needs_walk else None
    template_dirs = [(config.root / d).resolve() for d in config.template_dirs]
    out: list[SourceFile] = []
    seen: set[str] = set()  # absolute paths (no symlink resolution: a stat per component is costly)
    root_prefix = str(config.root).rstrip("/") + "/"

    def lang_for(p: Path) -> str | None:
        lang = language_of(p)
        if lang is None and template_dirs and p.suffix.lower() in TEMPLATE_DIR_SUFFIXES:
            rp = p.resolve()
            if any(rp.is_relative_to(t) for t in template_dirs):
                return "jinja"
        return lang

    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise FileNotFoundError(raw)
        if p.is_file():
            lang = lang_for(p) or _shebang_language(p)
            if lang is None:
                continue  # not Python, Go or a template: nothing of ours to check
            ap = os.path.abspath(raw)
            real = os.path.realpath(raw)
            if ap not in seen and real not in seen:
                seen.update((ap, real))  # a named link and its target are one file
                out.append(SourceFile(raw, p, lang))
            continue
        # Directory walk with nested .gitignore support, on path strings.
        inherited = _ancestor_gitignores(p) if config.respect_gitignore else []
        if inherited and _named_dir_ignored(p, inherited):
            inherited = []  # an ignored directory named explicitly is checked, like a named file
        stack: list[tuple[str, str, list]] = [(raw, os.path.abspath(raw), inherited)]
        while stack:
            d, d_abs, specs = stack.pop()
            if config.respect_gitignore:
                gi = os.path.join(d_abs, ".gitignore")
                if os.path.isfile(gi):
                    try:
                        with open(gi, encoding="utf-8", errors="replace") as fh:
                            spec = pathspec.GitIgnoreSpec.from_lines(fh.read().splitlines())
                        specs = [*specs, (d_abs.rstrip("/") + "/", spec)]
                    except Exception:  # a malformed .gitignore must not stop the run
                        pass
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError as exc:
                if unreadable is not None:
                    shown = str(Path(d))  # "./x" as "x", as files are shown
                    unreadable.append((shown, f"{shown}: directory not checked, cannot read it: "
                                              f"{exc.strerror or exc}"))
                continue
            subdirs = []
            for e in entries:
                try:
                    is_dir = e.is_dir(follow_symlinks=False)
                    is_file = not is_dir and e.is_file()
                except OSError:
                    continue
                if is_dir:
                    if e.name in DEFAULT_EXCLUDES:
                        continue
                    lang = None
                elif is_file:
                    if e.name.endswith(TEMP_SUFFIX) and e.name.startswith("."):
                        remove_if_stale(e.path)  # left by a `--fix` killed mid-write
                        continue
                    lang = SUFFIX_LANGUAGE.get(os.path.splitext(e.name)[1].lower())
                    if lang is None:
                        lang = lang_for(Path(e.path))
                        if lang is None:
                            continue
                else:
                    continue
                e_abs = d_abs.rstrip("/") + "/" + e.name
                if specs and _ignored(e_abs, is_dir, specs):
                    continue
                if user_spec is not None:
                    suffix = "/" if is_dir else ""
                    if e_abs.startswith(root_prefix) and user_spec.match_file(e_abs[len(root_prefix):] + suffix):
                        continue
                    if user_spec.match_file(e.name + suffix):
                        continue
                if is_dir:
                    subdirs.append((e.path, e_abs, specs))
                elif e_abs not in seen:
                    if e.is_symlink():
                        # A link to a file also in the run is one file (fixes
                        # must not write it twice); dedupe links by target.
                        target = os.path.realpath(e_abs)
                        if target in seen:
                            continue
                        seen.add(target)
                    seen.add(e_abs)
                    ep = Path(e.path)  # normalises "./x.py" to "x.py" for display
                    out.append(SourceFile(str(ep), ep, lang))
            stack.extend(reversed(subdirs))
    return out


def _shebang_language(path: Path) -> str | None:
    """An extension-less script named on the command line: Python if its shebang says so."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(200)
    except OSError:
        return None
    return "python" if first.startswith(b"#!") and b"python" in first else None


def _ancestor_gitignores(start: Path) -> list:
    """.gitignore specs of the directories above `start`, up to the repository root.

    `ctxlint check sub/` honours the root .gitignore as `git status` would.
    The walk stops at the first directory holding `.git`.
    """
    import pathspec
    specs = []
    d = start.absolute()
    chain = []
    for parent in d.parents:
        chain.append(parent)
        if (parent / ".git").exists():
            break
    else:
        return []
    if (d / ".git").exists():
        return []
    for parent in reversed(chain):
        gi = parent / ".gitignore"
        if gi.is_file():
            try:
                specs.append((str(parent).rstrip("/") + "/", pathspec.GitIgnoreSpec.from_lines(
                    gi.read_text(encoding="utf-8", errors="replace").splitlines())))
            except Exception:  # a malformed .gitignore must not stop the run
                pass
    return specs


def _named_dir_ignored(p: Path, specs: list) -> bool:
    """Is directory `p`, or a directory above it, ignored by the inherited specs?"""
    d = p.absolute()
    for x in (d, *d.parents):
        xs = str(x).rstrip("/") + "/"
        if any(xs != b and xs.startswith(b) for b, _ in specs) and _ignored(str(x), True, specs):
            return True
    return False


def _ignored(abs_path: str, is_dir: bool, specs: list) -> bool:
    """gitignore verdict for an absolute path under specs [(base dir + "/", GitIgnoreSpec)], outermost first.

    A directory is judged by `_dir_verdict` (the last matching pattern wins), so a
    `*`, `!*/`, `!*.*` .gitignore (only files with a suffix) walks every directory as git
    does."""
    if is_dir:
        return _dir_verdict(abs_path + "/", specs)
    return _verdict(abs_path, specs)


def _dir_verdict(abs_path: str, specs: list) -> bool:
    """git's rule for a directory: the last pattern matching `d/` decides (pathspec's
    GitIgnoreSpec ranks a name match above a directory-only match, so `*` then `!*/`
    leaves every directory ignored, which git does not)."""
    ignored = False
    for base, spec in specs:
        if not abs_path.startswith(base):
            continue
        rel = abs_path[len(base):]
        for pat in getattr(spec, "patterns", ()):
            if pat.include is not None and pat.match_file(rel) is not None:
                ignored = bool(pat.include)
    return ignored


def _verdict(abs_path: str, specs: list) -> bool:
    ignored = False
    for base, spec in specs:
        if not abs_path.startswith(base):
            continue
        rel = abs_path[len(base):]
        res = spec.check_file(rel) if hasattr(spec, "check_file") else None
        if res is not None and getattr(res, "include", None) is not None:
            ignored = bool(res.include)
        elif spec.match_file(rel):
            ignored = True
    return ignored


# ------------------------------------------------------------------ decode
def decode(raw: bytes, language: str, display: str) -> tuple[str | None, Finding | None]:
    """Decode file bytes to text.

    UTF-8 (with or without BOM) first; for Python a PEP 263 coding cookie is
    honoured. NUL bytes mark a binary file. Returns (text, None) or
    (None, CTX000 finding).
    """
    if b"\x00" in raw[:8192]:
        pos = raw.index(b"\x00")
        return None, Finding("CTX000", "parse-error", display, 1, 1, 1, 1,
                             f"file looks binary (NUL byte at offset {pos}); not linted")
    if language == "python" and b"coding" in raw[:400]:
        refused = _refused_cookie(raw, display)
        if refused is not None:
            return None, refused
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if language == "python":
            import io
            import tokenize
            try:
                enc, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
                if enc not in ("utf-8", "utf-8-sig"):
                    return raw.decode(enc), None
            except (SyntaxError, LookupError, UnicodeDecodeError):
                pass
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, Finding("CTX000", "parse-error", display, line, col, line, col + 1,
                             f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); not linted")
    if "\r" in text:
        # Normalise line endings for analysis; offsets of fixes are computed on
        # this text and the fixers re-apply the file's own newline style.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, None


def _refused_cookie(raw: bytes, display: str) -> Finding | None:
    """A CTX000 finding when Python refuses the file for its PEP 263 coding cookie: an
    unknown codec, a cookie that contradicts the UTF-8 BOM, or a codec under which
    the bytes are not Python (`# coding: utf-16` on an ASCII file); None otherwise.
    The interpreter decides (`tokenize.detect_encoding`, then `compile` of the bytes
    for a cookie naming another codec than UTF-8) and its message is the finding's."""
    import io
    import tokenize
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        return Finding("CTX000", "parse-error", display, 1, 1, 1, 2, f"Python refuses this file: {exc}")
    if enc in ("utf-8", "utf-8-sig"):
        return None
    import ast
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(raw, display, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        line = max(exc.lineno or 1, 1)
        col = max(exc.offset or 1, 1)
        return Finding("CTX000", "parse-error", display, line, col, line, col + 1,
                       f"Python refuses this file under its coding cookie ({enc}): {exc.msg}")
    except Exception:  # ValueError (NUL), RecursionError, MemoryError: the usual path reports those
        return None
    return None


# ------------------------------------------------------------------ lint one
def _language_module(language: str):
    return importlib.import_module(LANGUAGE_MODULES[language])


def rules_for(language: str, rules: list) -> list:
    """The rules that run on files of `language`.

    A rule's `language` is one name, "any", or several joined by "+" (CTX302 checks
    template files and literal templates in Python: "python+jinja").
    """
    return [r for r in rules if r.language in (language, "any") or language in r.language.split("+")]


def lint_text(display: str, text: str, language: str, rules: list, config: Config,
              tree=None, with_suppressions: bool = False):
    """Lint one decoded source: prefilter, parse once, run rules, apply suppressions.

    Args:
        display: path to report.
        text: decoded source (LSP buffers and flake8 hand theirs in).
        language: "python" | "go" | "jinja".
        rules: the selected rules (all languages; filtered here).
        tree: a parsed `ast.Module` for Python (flake8), to avoid a second parse.
        with_suppressions: also return the suppression comments (for CTX001).
    Returns:
        findings (sorted), or (findings, suppressions) when `with_suppressions`.
    """
    sups: list[Suppression] = []
    if file_ignored(text):
        return ([], sups) if with_suppressions else []
    lang_rules = [r for r in rules_for(language, rules) if r.code not in ("CTX000", "CTX001")]
    if os.environ.get("CTXLINT_NO_PREFILTER"):
        wanted = lang_rules
    else:
        # a rule is wanted at its first token in the text; each token is searched at
        # most once per file (a shared memo), inline: no call per token
        seen: dict[str, bool] = {}
        wanted = []
        for r in lang_rules:
            toks = r.tokens
            if not toks:
                wanted.append(r)
                continue
            for t in toks:
                hit = seen.get(t)
                if hit is None:
                    hit = seen[t] = t in text
                if hit:
                    wanted.append(r)
                    break
    # A `RuleRef` (rules.select_rules) imports its rule module only now, for a
    # file that may trigger it, and only the part for this language.
    wanted = [r.for_language(language) if hasattr(type(r), "for_language") else r for r in wanted]
    if os.environ.get("CTXLINT_PROFILE", "") not in ("", "0"):  # --profile: time rules, facts, files
        from ctxlint import profiling
        if profiling.enabled():
            wanted = [profiling.TimedRule(r) for r in wanted]
            profiling.begin_file()
            try:
                return _lint_wanted(display, text, language, rules, wanted, config, tree, with_suppressions)
            finally:
                profiling.end_file(display, text)
    return _lint_wanted(display, text, language, rules, wanted, config, tree, with_suppressions)


def _lint_wanted(display: str, text: str, language: str, rules: list, wanted: list, config: Config,
                 tree, with_suppressions: bool):
    """`lint_text` past the prefilter: run the `wanted` rules, then suppressions and CTX001."""
    findings: list[Finding] = []
    if not wanted and any(r.code == "CTX000" for r in rules):
        # The prefilter skips analysis, never the syntax check: a file that does
        # not parse is always a CTX000 finding (on real code nearly every file
        # passes the prefilter anyway, so this costs almost nothing).
        findings = _syntax_only(display, text, language, config)
    elif wanted:
        mod = _language_module(language)
        if tree is not None:
            findings = mod.lint(display, text, wanted, config, tree=tree)
        else:
            findings = mod.lint(display, text, wanted, config)
    findings = _per_file_ignores(findings, display, config)
    findings, sups = apply_suppressions(findings, text, language)
    if any(r.code == "CTX001" for r in rules):
        from ctxlint.rules.common.ctx001_unused_noqa import unused_suppressions
        findings.extend(unused_suppressions(display, sups, {r.code for r in rules}, text))
    findings.sort(key=Finding.sort_key)
    return (findings, sups) if with_suppressions else findings


def _syntax_only(display: str, text: str, language: str, config: Config) -> list[Finding]:
    """Parse only, for a file no selected rule wants: [CTX000] or []."""
    if language == "python":
        from ctxlint.languages.python import compiles, parse
        if compiles(display, text):
            return []
        tree, err = parse(display, text)
        if err is None and tree is not None:
            # parsed but not compiled: what the compiler refuses inside a function body
            from ctxlint.semantic.python.facts import PythonFacts
            from ctxlint.semantic.python.lint import refused_in_functions
            err = refused_in_functions(PythonFacts(display, text, tree, config))
    elif language == "go":
        from ctxlint.languages.go import parse_error
        from ctxlint.semantic.go.facts import facts_for
        err = parse_error(facts_for(display, text, config))
    else:
        return _language_module(language).lint(display, text, [], config)
    return [err] if err is not None else []


def _per_file_ignores(findings: list[Finding], display: str, config: Config) -> list[Finding]:
    if not config.per_file_ignores or not findings:
        return findings
    import pathspec
    try:
        rel = Path(display).resolve().relative_to(config.root).as_posix()
    except ValueError:
        rel = Path(display).as_posix()
    ignored: list[str] = []
    for pattern, codes in config.per_file_ignores.items():
        if pathspec.GitIgnoreSpec.from_lines([pattern]).match_file(rel):
            ignored.extend(c.upper() for c in codes)
    if not ignored:
        return findings
    return [f for f in findings if not any(f.code.startswith(c) or c == "ALL" for c in ignored)]


# Worker state (set by _init_worker in each pool process).
_W: dict = {}


#: Extra address space (MiB) a lint worker may map on top of what it had when the
#: guard was set; CTXLINT_MEMORY_LIMIT_MB overrides it (0 disables the guard).
DEFAULT_MEMORY_LIMIT_MB = 4096
_MEMORY_LIMIT: dict = {}


def _vm_size() -> int | None:
    """This process's virtual memory size in bytes (Linux /proc), or None elsewhere."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextlib.contextmanager
def memory_guard():
    """Lower this process's soft RLIMIT_AS to its current size plus the headroom
    while linting, and restore it afterwards (a soft limit may be raised again up
    to the hard one).

    A file whose analysis needs more memory then raises MemoryError inside
    `lint_bytes`, which reports it as a CTX000 "too large to analyse" finding,
    instead of one pathological file swapping the machine to a halt. The headroom
    is DEFAULT_MEMORY_LIMIT_MB, or CTXLINT_MEMORY_LIMIT_MB; no-op where
    `resource` or /proc is missing. The idea is `ulimit -v` on a build worker.
    """
    try:
        mb = int(os.environ.get("CTXLINT_MEMORY_LIMIT_MB", DEFAULT_MEMORY_LIMIT_MB))
    except ValueError:
        mb = DEFAULT_MEMORY_LIMIT_MB
    try:
        import resource
    except ImportError:  # pragma: no cover - non-POSIX
        resource = None
    size = _vm_size()
    if mb <= 0 or resource is None or size is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = size + mb * 2**20
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft <= want:
        yield  # already limited more tightly by the caller (ulimit -v)
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):
        yield
        return
    _MEMORY_LIMIT["bytes"] = mb * 2**20
    try:
        yield
    finally:
        _MEMORY_LIMIT.pop("bytes", None)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _init_worker(config: Config, codes: list[str]) -> None:
    from ctxlint.processes import die_with_parent
    from ctxlint.rules import rule_index
    die_with_parent()  # a `kill -9` of `ctxlint check --jobs N` leaves no worker behind
    gc.disable()  # see _GcPacer
    # A pool worker keeps its memory guard for its whole life.
    guard = memory_guard()
    guard.__enter__()
    _W["guard"] = guard
    rules = rule_index()
    _W["config"] = config
    _W["rules"] = [rules[c] for c in codes]


def lint_file(sf: SourceFile, config: Config, rules: list) -> tuple[list[Finding], list[str], bool]:
    """Read, decode and lint one file. Returns (findings, notices, parsed?). Never raises."""
    try:
        st = sf.path.stat()
        if st.st_size > config.max_file_size:
            return [], [too_big_notice(sf.display, st.st_size, config.max_file_size), SKIPPED_MARKER], False
        raw = read_regular(sf.path, config.max_file_size)
    except FileTooLarge as exc:  # it grew since the stat
        return [], [too_big_notice(sf.display, exc.size, config.max_file_size), SKIPPED_MARKER], False
    except OSError as exc:
        return [], [f"{sf.display}: cannot read: {exc.strerror or exc}", UNREADABLE_MARKER], False
    return lint_bytes(sf, raw, config, rules)


def lint_bytes(sf: SourceFile, raw: bytes, config: Config, rules: list) -> tuple[list[Finding], list[str], bool]:
    """Lint one file given its bytes (the worker-side half of `lint_paths`).

    Args:
        sf: the file (display path and language); raw: its contents.
        rules: the selected rules (filtered to `sf.language` by `lint_text`).
    Returns:
        (findings, notices, parsed): notices are "display: message" lines for
        stderr; a rule crash becomes a notice followed by the marker
        "__internal__" (the run then exits 2). `parsed` is False for an empty,
        binary or undecodable file (its CTX000 finding is returned instead).
        Never raises for bad input.
    """
    from ctxlint.findings import drain_notices
    try:
        if not raw.strip():
            return [], [], False
        text, err = decode(raw, sf.language, sf.display)
        if err is not None:
            return [err], [], False
        drain_notices()
        index = sys.modules.get("ctxlint.semantic.python.project_index")
        if index is not None:
            index.take_consulted()
        found = lint_text(sf.display, text, sf.language, rules, config)
        from ctxlint.findings import UNCHECKED_MARKER
        notices = [n if n.startswith(UNCHECKED_MARKER) else f"{sf.display}: {n}" for n in drain_notices()]
        index = sys.modules.get("ctxlint.semantic.python.project_index")
        depends = index.take_consulted() if index is not None else ()
        if depends:  # findings depend on other files: cached with their stamps (`Cache.put`)
            # a path with a newline cannot travel in the marker: an item no stamp matches
            items = sorted(d if "\n" not in d else "?unstampable\0\0" for d in depends)
            notices.append(DEPENDS_MARKER + "\n".join(items))
        return found, notices, True
    except MemoryError:
        # The worker's address-space limit (`memory_guard`) stopped a pathological
        # file (a 20 MB one-line literal costs `ast` ~10 GB): one finding, no crash.
        text = raw = None
        drain_notices()
        gc.collect()
        limit = _MEMORY_LIMIT.get("bytes")
        what = f"the {limit // 2**20} MiB memory limit of a lint worker" if limit else "memory"
        return ([Finding("CTX000", "parse-error", sf.display, 1, 1, 1, 1,
                         f"file too large to analyse: it needs more than {what}; not linted")],
                [f"{sf.display}: too large to analyse within {what} (CTXLINT_MEMORY_LIMIT_MB raises it)"], True)
    except Exception as exc:  # a rule bug must not lose the rest of the run
        import traceback
        tb = traceback.format_exc(limit=-3).strip().splitlines()
        return [], [f"{sf.display}: internal error ({type(exc).__name__}: {exc}); {tb[-3] if len(tb) >= 3 else ''}".strip(), "__internal__"], True


class _GcPacer:
    """Cyclic GC paused while linting, with a full collection every `every` files.

    `ast.parse` allocates about a million nodes per 1,000 lines of code; each
    allocation burst triggers generation scans that find nothing (AST nodes and
    the facts' maps hold no reference cycles). Pausing the collector cuts ~20% of
    the CPU time (measured on transformers' 2,912 files); the periodic collect
    keeps memory bounded should a rule create cycles. The idea is the one
    behind `gc.freeze()` in CPython's docs and mypy's GC tuning.
    """

    def __init__(self, every: int = 200):
        self.every, self.n = every, 0

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()
        return self

    def tick(self) -> None:
        self.n += 1
        if self.n % self.every == 0:
            gc.collect()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()


_WORKER_PACER = _GcPacer()


def _pool_task(item: tuple[SourceFile, bytes | None]):
    _WORKER_PACER.tick()
    sf, raw = item
    if raw is None:
        return lint_file(sf, _W["config"], _W["rules"])
    return lint_bytes(sf, raw, _W["config"], _W["rules"])


# ------------------------------------------------------------------ cache
#: The largest cache file read (bytes); a larger one is ignored (and rewritten).
CACHE_MAX_BYTES = 512 * 2**20


class FileTooLarge(OSError):
    """`read_regular`: the file holds more than the limit; `size` is what was seen."""

    def __init__(self, size: int):
        super().__init__(f"{size} bytes is over the limit")
        self.size = size


def read_regular(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them.

    Opened with O_NONBLOCK (a FIFO does not block the open) and checked with
    `fstat` on the open descriptor (no race with a rename): a FIFO, a device
    (a symlink to /dev/zero), a socket or a directory is refused, and a file
    that grows past `limit` while it is read is refused too, so nothing a
    path points at can hang the run or make it read without bound.

    Raises:
        FileTooLarge: more than `limit` bytes.
        OSError: cannot open, or not a regular file (errno EINVAL).
    """
    import errno
    import stat as stat_
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat_.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if st.st_size > limit:
            raise FileTooLarge(st.st_size)
        chunks: list[bytes] = []
        n = 0
        while True:
            b = os.read(fd, min(1 << 20, limit + 1 - n) or 1)
            if not b:
                break
            chunks.append(b)
            n += len(b)
            if n > limit:
                raise FileTooLarge(n)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _build_stamp() -> str:
    """Size and mtime of every ctxlint module: changes whenever the analyses do."""
    pkg = Path(__file__).resolve().parent
    h = blake2b(digest_size=8)
    for dirpath, _dirs, names in os.walk(pkg):
        for n in sorted(names):
            if n.endswith(".py"):
                try:
                    st = os.stat(os.path.join(dirpath, n))
                except OSError:
                    continue
                h.update(f"{n}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


class Cache:
    """Content-hash cache: digest of file bytes -> serialized findings.

    One JSON file per (version, build stamp, config digest, selected codes) under
    `<root>/.ctxlint_cache/`. The build stamp hashes the size and mtime of
    ctxlint's own modules, so editing a rule (or upgrading) never serves stale
    findings. Written atomically at the end of a run; any read or
    write problem silently disables the cache for the run.
    """

    def __init__(self, root: Path, config: Config, codes: list[str]):
        import json  # here, not at the top: a --no-cache run never reads or writes JSON
        key = blake2b(f"{__version__}|{_build_stamp()}|{config.digest()}|{','.join(codes)}".encode(),
                       digest_size=10).hexdigest()
        self.dir = root / ".ctxlint_cache"
        self.file = self.dir / f"findings-{key}.json"
        self.data: dict[str, list | dict] = {}
        self.dirty = False
        #: one run's stamps of other files (`project_index.dependency_stamps`' memo)
        self.stamps: dict = {}
        try:
            self.data = json.loads(read_regular(self.file, CACHE_MAX_BYTES).decode("utf-8"))
            if not isinstance(self.data, dict):
                self.data = {}
        except (OSError, ValueError, RecursionError, MemoryError):
            self.data = {}

    @staticmethod
    def digest(raw: bytes, language: str, path: str = "") -> str:
        """Key of a file: its bytes, the language it is linted as (a .py and a
        .j2 with the same bytes have different findings) and its path (`path`, as
        displayed): a rule may decide by where the file is (a Go `_test.go` file is
        test code, `GoFacts.is_test_code`), so the same bytes elsewhere are another entry."""
        h = blake2b(raw, digest_size=16)
        h.update(b"\0" + language.encode() + b"\0" + path.encode("utf-8", "surrogateescape"))
        return h.hexdigest()

    def get(self, digest: str, display: str) -> list[Finding] | None:
        """Cached findings for `digest`, or None.

        An entry that does not match the schema of `Finding.to_cache` (see
        `valid_entry`) is a miss: the file is linted again and the entry
        overwritten, so a corrupted or hand-edited cache never crashes a run nor
        serves findings with a null, NaN or string line. An entry whose findings
        read other files (`{"findings": [...], "depends": {item: stamp}}`) is a
        miss unless every stamp still holds (`project_index.stamps_hold`).
        """
        entry = self.data.get(digest)
        if isinstance(entry, dict):
            from ctxlint.semantic.python.project_index import stamps_hold
            if not stamps_hold(entry.get("depends"), self.stamps):
                return None
            entry = entry.get("findings")
        if entry is None or not valid_entry(entry):
            return None
        try:
            return [Finding.from_cache(d, display) for d in entry]
        except (KeyError, TypeError, ValueError, AttributeError):
            return None

    def put(self, digest: str, findings: list[Finding], depends: "list[str] | None" = None) -> None:
        """Record the findings of the file whose `digest` (see `digest`) this is;
        written by `save`. `depends`: what they read of other files (strings of
        `project_index.note_consulted`), stamped now; nothing is recorded when one
        cannot be stamped."""
        rows = [f.to_cache() for f in findings]
        if depends:
            from ctxlint.semantic.python.project_index import dependency_stamps
            stamps = dependency_stamps(depends, self.stamps)
            if stamps is None:
                return
            self.data[digest] = {"findings": rows, "depends": stamps}
        else:
            self.data[digest] = rows
        self.dirty = True

    def save(self) -> None:
        """Write the cache file atomically if anything was `put`; an OSError
        (read-only tree, full disk) is swallowed: the cache is an optimisation."""
        if not self.dirty:
            return
        import json
        import tempfile
        try:
            self.dir.mkdir(exist_ok=True)
            gi = self.dir / ".gitignore"
            if not gi.exists():
                gi.write_text("*\n")
            for entry in os.scandir(self.dir):  # what a `kill -9` of an earlier save left
                if entry.name.startswith(".tmp-") and entry.name.endswith(TEMP_SUFFIX):
                    remove_if_stale(entry.path)
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=temp_prefix("tmp-"), suffix=TEMP_SUFFIX)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.data, fh, separators=(",", ":"))
            os.replace(tmp, self.file)
        except (OSError, ValueError):
            # The cache path is a directory, the disk is full...: no temp file left behind.
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _valid_fix(fx) -> bool:
    if fx is None:
        return True
    if not isinstance(fx, dict) or not isinstance(fx.get("description"), str):
        return False
    if fx.get("safety", "safe") not in ("safe", "unsafe"):
        return False
    if not isinstance(fx.get("codemod"), (str, type(None))) or not isinstance(fx.get("data") or {}, dict):
        return False
    edits = fx.get("edits", [])
    return isinstance(edits, list) and all(
        isinstance(e, dict) and _is_int(e.get("start")) and _is_int(e.get("end"))
        and 0 <= e["start"] <= e["end"] and isinstance(e.get("text"), str) for e in edits)


def valid_entry(entry) -> bool:
    """Does a cache entry match the schema `Finding.to_cache` writes?

    A list of objects with string `code`, `name` and `message`, positive integer
    (not bool) `line`/`col`/`end_line`/`end_col`, and `fix` null or a `Fix.to_dict`
    object (integer edit offsets, start <= end). `[]` is valid: a clean file.
    """
    if not isinstance(entry, list):
        return False
    for d in entry:
        if not isinstance(d, dict):
            return False
        if not all(isinstance(d.get(k), str) for k in ("code", "name", "message")):
            return False
        if not all(_is_int(d.get(k)) and d[k] >= 0 for k in ("line", "col", "end_line", "end_col")):
            return False
        if not _valid_fix(d.get("fix")):
            return False
    return True


# ------------------------------------------------------------------ lint many
def lint_paths(paths: list[str], config: Config, rules: list, jobs: int | None = None,
               use_cache: bool = True, files: list[SourceFile] | None = None,
               progress=None) -> RunResult:
    """Lint every source file under `paths`.

    Args:
        jobs: worker processes (default: CPU count); small runs stay in-process.
        use_cache: read and write `.ctxlint_cache/`.
        files: pre-discovered files (skips discovery).
        progress: optional callable(advance: int) for a progress display.
    Raises:
        FileNotFoundError: a named path does not exist.
    """
    unreadable: list = []
    if files is None:
        files = discover(paths, config, unreadable=unreadable)
    result = RunResult(files=len(files), notices=[n for _, n in unreadable], unreadable=unreadable)
    codes = [r.code for r in rules]
    profile = os.environ.get("CTXLINT_PROFILE", "") not in ("", "0")
    if profile:  # every file analysed, in this process: see ctxlint.profiling
        use_cache, jobs = False, 1
    cache = Cache(config.root, config, codes) if use_cache else None

    todo: list[tuple[SourceFile, bytes | None, str | None]] = []
    for sf in files:
        if cache is not None:
            try:
                st = sf.path.stat()
                if st.st_size > config.max_file_size:
                    result.notices.append(too_big_notice(sf.display, st.st_size, config.max_file_size))
                    result.skipped.append((sf.display, result.notices[-1]))
                    continue
                raw = read_regular(sf.path, config.max_file_size)
            except FileTooLarge as exc:  # it grew since the stat
                result.notices.append(too_big_notice(sf.display, exc.size, config.max_file_size))
                result.skipped.append((sf.display, result.notices[-1]))
                continue
            except OSError as exc:
                result.notices.append(f"{sf.display}: cannot read: {exc.strerror or exc}")
                result.unreadable.append((sf.display, result.notices[-1]))
                continue
            dg = Cache.digest(raw, sf.language, sf.display)
            hit = cache.get(dg, sf.display)
            if hit is not None:
                result.findings.extend(hit)
                result.cached += 1
                result.from_cache.add(sf.display)
                if progress:
                    progress(1)
                continue
            todo.append((sf, raw, dg))
        else:
            todo.append((sf, None, None))

    def consume(item, out):
        (sf, _, dg), (findings, notices, parsed) = item, out
        internal = "__internal__" in notices
        depends = [n for n in notices if n.startswith(DEPENDS_MARKER)]
        if SKIPPED_MARKER in notices:
            result.skipped.append((sf.display, notices[0]))
        if UNREADABLE_MARKER in notices:
            result.unreadable.append((sf.display, notices[0]))
        notices = [n for n in notices if n not in ("__internal__", SKIPPED_MARKER, UNREADABLE_MARKER)
                   and n not in depends]
        notices, unchecked = split_unchecked(sf.display, notices)
        result.unchecked.extend(unchecked)
        result.findings.extend(findings)
        result.notices.extend(notices)
        result.parsed += int(parsed)
        result.internal_errors += int(internal)
        if cache is not None and dg is not None and not internal and not notices:
            cache.put(dg, findings, [d for n in depends for d in n[len(DEPENDS_MARKER):].split("\n") if d])
        if progress:
            progress(1)

    def work_local(item):
        sf, raw, _ = item
        return lint_bytes(sf, raw, config, rules) if raw is not None else lint_file(sf, config, rules)

    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(todo) < 48:
        with _GcPacer() as pacer, memory_guard():
            for item in todo:
                consume(item, work_local(item))
                pacer.tick()
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        ctx = multiprocessing.get_context(method)
        for r in rules:  # a run this big needs (nearly) every rule: import them once, before forking
            if hasattr(type(r), "for_language"):
                _ = r.rule
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                                 initargs=(config, codes)) as pool:
            chunk = max(1, min(64, len(todo) // (jobs * 8) or 1))
            for item, out in zip(todo, pool.map(_pool_task, [(t[0], t[1]) for t in todo], chunksize=chunk)):
                consume(item, out)
    if cache is not None:
        cache.save()
    _project_pass(paths, files, config, rules, result)
    result.findings.sort(key=Finding.sort_key)
    if profile:
        from ctxlint import profiling
        profiling.report()
    return result


def _project_pass(paths: list[str], files: list[SourceFile], config: Config, rules: list, result: RunResult) -> None:
    """Cross-file findings, after the per-file pass; never cached (they depend on several files).

    Templates: `ctxlint.project.project_findings` resolves loader directories
    in the run's Python files, lints the template files under them that discovery did
    not list, re-parses templates whose environment sets other delimiters (their
    per-file findings are replaced), and links render calls to templates (CTX304).
    Runs when a rule for Jinja is selected, or when a template got a CTX000 (a parse
    error under the default delimiters may vanish under its environment's own: nbconvert's
    LaTeX templates use `((*`/`*))`), so `--select` of Python rules alone reports no
    parse error that the full run would not.
    """
    if not any("jinja" in r.language.split("+") for r in rules) and not any(
            f.code == "CTX000" and language_of(f.path) == "jinja" for f in result.findings):
        return
    from ctxlint.project import EngineHooks, project_findings
    try:
        proj = project_findings(paths, files, config, rules_for("jinja", rules),
                                EngineHooks(decode, _per_file_ignores, TEMPLATE_DIR_SUFFIXES))
    except RecursionError:  # pathological nesting in a template or module: bad input, not a bug
        result.notices.append("template project pass: skipped, a template or module nests too deeply to analyse")
        return
    except Exception as exc:  # a bug here must not lose the per-file findings
        result.notices.append(f"template project pass: internal error ({type(exc).__name__}: {exc})")
        result.internal_errors += 1
        return
    if proj.replace:
        result.findings = [f for f in result.findings if f.path not in proj.replace]
    result.findings.extend(proj.findings)
    result.notices.extend(proj.notices)
    result.files += proj.files


def filter_confidence(findings: list, min_confidence: str = "high") -> tuple[list, int]:
    """Split a run's findings by tier: (the findings reported at `min_confidence`, the
    number held back). "high" keeps manifest findings (and CTX000/CTX001, which are always
    high); "low" keeps every finding. The tier model is Infer Pulse's manifest/latent."""
    from ctxlint.findings import confidence_rank
    limit = confidence_rank(min_confidence)
    kept = [f for f in findings if confidence_rank(f.confidence) <= limit]
    return kept, len(findings) - len(kept)
