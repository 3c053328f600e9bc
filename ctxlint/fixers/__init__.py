"""The fix engine: apply the fixes rules attach to findings, safely (`ctxlint check --fix`).

A finding's `Fix` is data (the Fixit model): either byte-range `Edit`s the rule
computed (Go, Jinja) or the name of a libcst codemod in
`ctxlint.fixers.python_codemods` plus its parameters (Python). This module turns
those into new file text and writes it:

* Each fix is reduced to a list of text edits on the decoded, LF-normalised text
  the rules saw (a codemod's output is diffed line-wise against its input).
  Fixes whose edits do not overlap are applied together; the rest wait for the
  next round, in which the rewritten text is linted again in memory with the same
  rules and the fixes still offered are applied — at most `MAX_ROUNDS` rounds,
  as ruff does.
* A rewrite must re-parse (Python `ast.parse`, Go tree-sitter without ERROR
  nodes, Jinja `jinja2.Environment.parse`) when the original did, or the round's
  result is dropped and a notice says so.
* Writes go through `write_atomic` (shared with `--add-noqa`): a temporary file
  in the same directory, fsynced, then `os.replace` onto the symlink's target
  (never one outside the checked tree), keeping the file's mode; `encode_like`
  keeps its encoding (UTF-8, BOM, PEP 263 cookie) and each line's newline
  style; a file whose bytes changed since it was linted is refused.

libcst is imported only when a Python codemod runs, so `ctxlint check` without
`--fix` never pays for it.
"""

from __future__ import annotations

import ast
import bisect
import codecs
import difflib
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ctxlint.findings import SAFE, Edit, Finding

#: At most this many lint-and-fix rounds per file (ruff uses 100; each round
#: re-lints the file; a function, or fixes whose edits touch, take one per round).
MAX_ROUNDS = 20


@dataclass
class FixOutcome:
    """What `run_fixes` did.

    remaining: the findings left after fixing (re-linted for rewritten files,
        with their new line numbers), sorted.
    fixed: number of fixes applied.
    diff: unified diff of every rewrite (empty when nothing changed).
    notices: one-line messages for stderr (fixes skipped and why).
    changed: display paths of the files rewritten (or that would be, with --diff).
    """

    remaining: list[Finding] = field(default_factory=list)
    fixed: int = 0
    diff: str = ""
    notices: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


class FixNotApplicable(Exception):
    """A codemod cannot rewrite this code safely (the message says why)."""


def wanted(finding: Finding, unsafe: bool) -> bool:
    """Is `finding`'s fix applied at this safety level?"""
    return finding.fix is not None and (finding.fix.safety == SAFE or unsafe) and (
        bool(finding.fix.edits) or bool(finding.fix.codemod))


# ------------------------------------------------------------- parse checks
def parses(text: str, language: str) -> bool:
    """Does `text` parse as `language` ("python" | "go" | "jinja")? Never raises."""
    try:
        if language == "python":
            ast.parse(text)
            return True
        if language == "go":
            return not _go_tree(text).root_node.has_error
        if language == "jinja":
            import jinja2
            jinja2.Environment().parse(text)
            return True
    except ImportError:  # no parser installed: nothing to check against
        return True
    except Exception:  # SyntaxError, jinja2.TemplateSyntaxError, RecursionError, ...
        return False
    return True


def _go_tree(text: str):
    try:
        from ctxlint.languages import go as golang
        parse = getattr(golang, "parse_tree", None)
        if parse is not None:
            return parse(text)
    except ImportError:
        pass
    import tree_sitter
    import tree_sitter_go
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_go.language()))
    return parser.parse(text.encode("utf-8"))


# ------------------------------------------------------------- edits
def edits_between(old: str, new: str) -> list[Edit]:
    """Line-wise edits that turn `old` into `new` (offsets into `old`)."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    starts = [0]
    for ln in a:
        starts.append(starts[-1] + len(ln))
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            out.append(Edit(starts[i1], starts[i2], "".join(b[j1:j2])))
    return out


def _conflict(a: Edit, b: Edit, line_of=None) -> bool:
    """Do two edits (of different fixes) overlap, touch or come within a line of
    each other? Near counts: two fixes that each insert a block at neighbouring
    lines (two `__init__`s, a blank line apart) must see each other's result, so
    the second waits a round. `line_of(offset)` maps offsets to line numbers."""
    if a == b:
        return False
    if a.start <= b.end and b.start <= a.end:
        return True
    if line_of is None:
        return False
    return line_of(a.start) <= line_of(b.end) + 1 and line_of(b.start) <= line_of(a.end) + 1


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (offsets into `text`); identical duplicates count once."""
    out, pos = [], 0
    for e in sorted(set(edits), key=lambda e: (e.start, e.end)):
        if e.start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def _fix_edits(text: str, language: str, finding: Finding, codemod_ctx) -> list[Edit]:
    """The edits of one finding's fix on `text`. Raises FixNotApplicable."""
    fix = finding.fix
    if fix.edits:
        for e in fix.edits:
            if not (0 <= e.start <= e.end <= len(text)):
                raise FixNotApplicable("edit out of range")
        return list(fix.edits)
    if language != "python":
        raise FixNotApplicable(f"no codemod for {language}")
    from ctxlint.fixers import python_codemods
    data = dict(fix.data)
    # The finding's end disambiguates anchors that start at the same place
    # (`Template(s).render()`); libcst columns are 0-based, findings' 1-based.
    data.setdefault("_end", (finding.end_line, finding.end_col - 1))
    new = python_codemods.apply(codemod_ctx(), fix.codemod, data)
    return edits_between(text, new)


def _regions(text: str, language: str) -> list[tuple[int, int]]:
    """(first line, last line) of every function in `text` (Python: any def,
    innermost wins; Go: top-level func and method declarations)."""
    out: list[tuple[int, int]] = []
    try:
        if language == "python":
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.append((node.lineno, node.end_lineno or node.lineno))
        elif language == "go":
            for child in _go_tree(text).root_node.children:
                if child.type in ("function_declaration", "method_declaration"):
                    out.append((child.start_point[0] + 1, child.end_point[0] + 1))
    except Exception:  # unparsable text: no isolation, the parse check guards the result
        return []
    return out


def _region_of(regions: list[tuple[int, int]], line: int) -> tuple[int, int] | None:
    inside = [r for r in regions if r[0] <= line <= r[1]]
    return min(inside, key=lambda r: r[1] - r[0]) if inside else None


def _attempt_key(f: Finding, text: str) -> tuple:
    lines = text.splitlines()
    line = lines[f.line - 1].strip() if 0 < f.line <= len(lines) else ""
    return (f.code, f.message, line)


def fix_round(path: str, text: str, language: str, findings: list[Finding], unsafe: bool,
              notices: list[str], skip: set | None = None) -> tuple[str, int, list[tuple]]:
    """Apply every non-conflicting fix of `findings` to `text` once.

    Returns (new text, fixes applied, attempt keys of the findings tried). A fix
    whose codemod refuses, or whose result does not parse, is skipped with a notice.
    """
    todo = [f for f in findings if wanted(f, unsafe) and (skip is None or _attempt_key(f, text) not in skip)]
    if not todo:
        return text, 0, []
    ctx_cache: dict = {}

    def codemod_ctx():
        if "ctx" not in ctx_cache:
            from ctxlint.fixers.python_codemods import ModuleContext
            ctx_cache["ctx"] = ModuleContext(text)
        return ctx_cache["ctx"]

    chosen: list[Edit] = []
    applied = 0
    tried = []
    was_parsable = parses(text, language)
    regions = _regions(text, language)
    used_regions: set = set()
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    for f in sorted(todo, key=lambda f: (f.line, f.col)):
        # Fixes that bind new names (token, task, cancel) choose them on this
        # round's text: two in one function could pick the same name, so each
        # function takes at most one fix per round (ruff's fix isolation).
        region = _region_of(regions, f.line)
        if region is not None and region in used_regions:
            continue
        try:
            edits = _fix_edits(text, language, f, codemod_ctx)
        except FixNotApplicable as exc:
            tried.append(_attempt_key(f, text))
            notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: {exc}")
            continue
        except Exception as exc:  # a codemod bug must never lose the user's file or the run
            tried.append(_attempt_key(f, text))
            notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: internal error "
                           f"({type(exc).__name__}: {exc})")
            continue
        if not edits:
            tried.append(_attempt_key(f, text))
            continue
        if any(_conflict(e, c, line_of) for e in edits for c in chosen):
            continue  # overlaps a fix chosen this round: next round
        if was_parsable:
            alone = apply_edits(text, edits)
            if not parses(alone, language):
                tried.append(_attempt_key(f, text))
                notices.append(f"{path}:{f.line}:{f.col}: {f.code} fix not applied: the result does not parse")
                continue
        tried.append(_attempt_key(f, text))
        chosen.extend(edits)
        applied += 1
        if region is not None:
            used_regions.add(region)
    if not chosen:
        return text, 0, tried
    new = apply_edits(text, chosen)
    if was_parsable and not parses(new, language):
        notices.append(f"{path}: fixes not applied: together they do not parse")
        return text, 0, tried
    return new, applied, tried


def fix_source(path: str, text: str, language: str, findings: list[Finding], rules: list, config,
               unsafe: bool) -> tuple[str, int, list[Finding], list[str]]:
    """Apply fixes in rounds (re-linting in memory between rounds) until nothing changes.

    Args:
        path: display path (used for re-linting and notices).
        text: the decoded, LF-normalised source the findings were computed on.
        findings: that source's findings (for this file only).
        rules: the selected rules, to re-lint with.
    Returns:
        (new text, fixes applied, the findings of the new text, notices).
    """
    from ctxlint import engine
    notices: list[str] = []
    current, fixed, current_findings = text, 0, findings
    tried: set = set()
    for _ in range(MAX_ROUNDS):
        new, n, keys = fix_round(path, current, language, current_findings, unsafe, notices, skip=tried)
        if new == current:
            break
        # Later rounds skip a finding already tried (the same code, message and
        # line text): a fix that does not make its finding go away is not looped.
        tried.update(keys)
        current, fixed = new, fixed + n
        try:
            current_findings = engine.lint_text(path, current, language, rules, config)
        except Exception as exc:  # a rule crash on the rewritten text: stop here, keep the text
            notices.append(f"{path}: re-lint after fixing failed ({type(exc).__name__}: {exc})")
            current_findings = []
            break
    return current, fixed, current_findings, notices


def fix_text(path: str, text: str, language: str, findings: list[Finding], unsafe: bool,
             rules: list | None = None, config=None) -> str:
    """Fixed text of one in-memory source (no disk I/O): the LSP code actions use it.

    Args:
        path: display path of the buffer; text: its decoded text (LF newlines).
        language: "python" | "go" | "jinja".
        findings: the findings to fix (others in the file are left alone in the
            first round; later rounds fix what the re-lint still offers).
        unsafe: also apply unsafe fixes.
        rules, config: for the re-lint between rounds (default: every default
            rule, the default configuration).
    Returns the new text (`text` itself when nothing applies). Never raises on bad input.
    """
    if rules is None:
        from ctxlint.rules import select_rules
        rules = select_rules([], [])
    if config is None:
        from ctxlint.config import Config
        config = Config()
    norm = text.replace("\r\n", "\n").replace("\r", "\n")
    new, _, _, _ = fix_source(path, norm, language, findings, rules, config, unsafe)
    if new == norm:
        return text
    return _restore_newlines(new, text)


# ------------------------------------------------------------- disk
_LINE_END = re.compile(r"\r\n|\r|\n")


def _newline_of(text: str) -> str:
    """The most common line ending of `text` ("\n" when it has none)."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    best = max((crlf, "\r\n"), (lf, "\n"), (cr, "\r"))
    return best[1] if best[0] else "\n"


def _split_ends(text: str) -> tuple[list[str], list[str]]:
    """`text` as (line bodies, line endings); len(endings) == len(bodies) - 1."""
    return _LINE_END.split(text), _LINE_END.findall(text)


def restore_newlines(new: str, original: str) -> str:
    """`new` (LF-normalised text derived from `original`) with `original`'s line endings.

    A file with one newline style (LF, CRLF or CR) gets it everywhere. A file
    with mixed endings keeps each unchanged line's own ending: lines are matched
    with `difflib` on their text, and lines a fix inserted or replaced take the
    ending of the original line they replace (or of the line before them).
    """
    if "\r" not in original:
        return new
    crlf = original.count("\r\n")
    cr = original.count("\r") - crlf
    lf = original.count("\n") - crlf
    if sum(1 for n in (crlf, cr, lf) if n) <= 1:
        nl = _newline_of(original)
        return new if nl == "\n" else new.replace("\n", nl)
    old_bodies, old_ends = _split_ends(original)
    new_bodies = new.split("\n")
    default = _newline_of(original)

    def end_at(i: int) -> str:
        return old_ends[i] if 0 <= i < len(old_ends) else default

    ends: list[str] = [default] * (len(new_bodies) - 1)
    matcher = difflib.SequenceMatcher(None, old_bodies, new_bodies, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        for k, j in enumerate(range(j1, min(j2, len(ends)))):
            if op == "equal" or (op == "replace" and i1 + k < i2):
                ends[j] = end_at(i1 + k)
            elif op == "replace":
                ends[j] = end_at(i2 - 1)
            else:  # inserted lines: the ending of the line before them
                ends[j] = end_at(i1 - 1 if i1 > 0 else i1)
    out = []
    for body, end in zip(new_bodies, ends):
        out.append(body)
        out.append(end)
    out.append(new_bodies[-1])
    return "".join(out)


_restore_newlines = restore_newlines


def _encoding_of(raw: bytes, language: str) -> str:
    """The codec `engine.decode` used for `raw`: UTF-8 (with BOM: "utf-8-sig"),
    else for Python the PEP 263 coding cookie's, else "utf-8"."""
    if raw.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    try:
        raw.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        if language == "python":
            import io
            import tokenize
            try:
                return tokenize.detect_encoding(io.BytesIO(raw).readline)[0]
            except (SyntaxError, LookupError):
                pass
    return "utf-8"


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) for r in roots)


class OutsideTree(OSError):
    """A write was refused: the path is a symlink whose target lies outside the checked tree."""


def write_target(path: str | os.PathLike, roots: Iterable[Path] | None = None) -> Path:
    """The real file a write to `path` lands on: symlinks resolved.

    Args:
        path: the file as the user named it (may be, or pass through, symlinks).
        roots: resolved directories of the checked tree; a symlinked `path`
            whose target is outside all of them is refused. None: no check.
    Raises:
        OutsideTree: symlink target outside `roots`.
        OSError, RuntimeError: the path cannot be resolved (RuntimeError: a symlink loop).
    """
    p = Path(path)
    real = p.resolve()
    if roots is not None and str(real) != os.path.abspath(p) and not _inside(real, list(roots)):
        raise OutsideTree(f"it is a symlink to {real}, outside the checked tree")
    return real


def _default_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: str | os.PathLike, data: bytes, roots: Iterable[Path] | None = None,
                 expect: bytes | None = None) -> Path:
    """Replace the file at `path` with `data`, atomically; the writer shared by
    `--fix` and `--add-noqa`/`--write-baseline`.

    A symlink is written through: its target is replaced and the link stays a
    link (a target outside `roots` is refused). The data goes to a temporary
    file in the target's directory, is fsynced, gets the old file's permission
    bits (a new file: 0o666 less the umask) and is renamed over the target with
    `os.replace`; the directory is fsynced where the platform allows. A file
    with several hard links gets a new inode: its other names (possibly outside
    the tree) keep the old contents, as with ruff and black. Owner and group are
    not copied (a file owned by another user is rewritten as the current one).

    Args:
        path: the file to write (it need not exist).
        data: the complete new contents (already encoded).
        roots: see `write_target`.
        expect: the bytes the file must still hold; a file changed since is
            refused (raises `FileChangedError`).
    Returns the real path written.
    Raises:
        OutsideTree, FileChangedError, OSError.
    """
    target = write_target(path, roots)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = _default_mode()
    if expect is not None and target.read_bytes() != expect:
        raise FileChangedError("it changed on disk while fixing")
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".ctxlint-tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dfd = os.open(target.parent, os.O_RDONLY)
    except OSError:
        return target
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
    return target


class FileChangedError(OSError):
    """A write was refused: the file's bytes differ from those that were linted."""


def _unified(display: str, old: str, new: str) -> str:
    """A unified diff of `old` -> `new` with git-style headers: `a/<path>` and
    `b/<path>`, an absolute path's leading slash dropped (`a/tmp/x.py`, as
    `git diff --no-index` writes it), so `patch -p1` applies it from `/`."""
    name = display.replace(os.sep, "/").lstrip("/")
    diff = "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"a/{name}", tofile=f"b/{name}"))
    if diff and not diff.endswith("\n"):
        diff += "\n\\ No newline at end of file\n"
    return diff


def encode_like(new: str, raw: bytes, language: str) -> bytes:
    """`new` (LF text derived from `raw` as `engine.decode` gave it) in the
    encoding (UTF-8, its BOM, or a PEP 263 coding cookie's), and the line
    endings (per line when mixed, see `restore_newlines`) of the original bytes `raw`.

    Raises:
        UnicodeEncodeError: `new` has a character the file's encoding cannot hold.
    """
    enc = _encoding_of(raw, language)
    original = raw.decode(enc, errors="surrogateescape")
    return restore_newlines(new, original).encode(enc, errors="surrogateescape")


_encode_like = encode_like


def fix_bytes(display: str, raw: bytes, language: str, findings: list[Finding], rules: list, config,
              unsafe: bool) -> tuple[bytes, str, list[str]]:
    """Fix one in-memory file given as bytes (`--stdin-filename` with `--fix`/`--diff`).

    Returns (new bytes — `raw` itself when nothing applies —, unified diff, notices).
    """
    from ctxlint import engine
    text, err = engine.decode(raw, language, display)
    if err is not None or text is None:
        return raw, "", []
    new, _, _, notices = fix_source(display, text, language, findings, rules, config, unsafe)
    if new == text:
        return raw, "", notices
    return _encode_like(new, raw, language), _unified(display, text, new), notices


def _key(f: Finding) -> tuple:
    return (f.code, f.line, f.col)


def run_fixes(result, config, rules: list, unsafe: bool, write: bool,
              roots: Iterable[str] | None = None) -> FixOutcome:
    """Fix the findings of a lint run on disk (or only diff them).

    Args:
        result: the engine's `RunResult` (its findings, per display path).
        config: the run's `Config`; rules: the selected rules (re-lint between rounds).
        unsafe: also apply fixes whose `safety` is "unsafe" (`--unsafe-fixes`).
        write: rewrite the files; False computes the diff only (`--diff`).
        roots: the checked paths; a symlinked file is fixed only when its target
            lies under one of them (default: the config root and the cwd).
    Returns a `FixOutcome`. Never raises for a file it cannot fix: the notice says why.
    """
    from ctxlint import engine
    out = FixOutcome()
    root_paths = [Path(r).resolve() for r in (roots or ())]
    root_paths = [r if r.is_dir() else r.parent for r in root_paths] or [Path(config.root).resolve(), Path.cwd().resolve()]
    by_path: dict[str, list[Finding]] = {}
    for f in result.findings:
        by_path.setdefault(f.path, []).append(f)
    diffs: list[str] = []
    for display, findings in by_path.items():
        if not any(wanted(f, unsafe) for f in findings):
            out.remaining.extend(findings)
            continue
        new_findings, n, note, diff = _fix_file(display, findings, config, rules, unsafe, write, root_paths, engine)
        out.remaining.extend(new_findings)
        out.fixed += n
        out.notices.extend(note)
        if diff:
            diffs.append(diff)
            out.changed.append(display)
    out.remaining.sort(key=Finding.sort_key)
    out.diff = "".join(diffs)
    return out


def _fix_file(display, findings, config, rules, unsafe, write, roots, engine):
    """Fix one file; returns (findings left, fixes applied, notices, diff text)."""
    path = Path(display)
    notices: list[str] = []
    try:
        real = write_target(path, roots)
        raw = real.read_bytes()
    except OutsideTree as exc:
        return findings, 0, [f"{display}: not fixed: {exc}"], ""
    except RuntimeError as exc:  # a symlink loop
        return findings, 0, [f"{display}: not fixed: cannot resolve path ({exc})"], ""
    except OSError as exc:
        return findings, 0, [f"{display}: not fixed: cannot read ({exc.strerror or exc})"], ""
    try:
        language = engine.discover([str(path)], config)[0].language
    except Exception:
        language = engine.language_of(path) or "python"
    text, err = engine.decode(raw, language, display)
    if err is not None or text is None:
        return findings, 0, [], ""
    # The findings must be those of these bytes: a file edited since it was
    # linted (or a stale cache entry) is refused rather than mis-edited.
    try:
        fresh = engine.lint_text(display, text, language, rules, config)
    except Exception as exc:  # a rule crash: report it, leave the file alone
        return findings, 0, [f"{display}: not fixed: linting it again failed ({type(exc).__name__}: {exc})"], ""
    if sorted(map(_key, fresh)) != sorted(map(_key, findings)):
        return findings, 0, [f"{display}: not fixed: it changed on disk since it was checked"], ""
    new, fixed, remaining, notices = fix_source(display, text, language, fresh, rules, config, unsafe)
    if new == text:
        return findings, 0, notices, ""
    diff = _unified(display, text, new)
    if not write:
        return findings, fixed, notices, diff
    try:
        data = _encode_like(new, raw, language)
    except (UnicodeEncodeError, LookupError) as exc:
        return findings, 0, [*notices, f"{display}: not fixed: cannot encode the result ({exc})"], ""
    try:
        write_atomic(path, data, roots, expect=raw)
    except (OutsideTree, FileChangedError) as exc:
        return findings, 0, [*notices, f"{display}: not fixed: {exc}"], ""
    except OSError as exc:
        return findings, 0, [*notices, f"{display}: not fixed: cannot write ({exc.strerror or exc})"], ""
    return remaining, fixed, notices, diff
