"""Adoption on legacy code: baselines and `--add-noqa`.

`--write-baseline FILE` records today's findings; `--baseline FILE` then reports
only findings that are not in it. A finding is identified by a fingerprint of
its code, its path (relative to the baseline file's directory, so the baseline
works from any working directory) and the normalised text of the flagged line
(whitespace collapsed), not its line number: inserting or moving code above a
recorded finding, or re-indenting it, does not make it "new". Identical flagged
lines in one file are matched by count (two recorded, three found: one is new).
The model is ruff's and detekt's baselines and GitHub code scanning's
`primaryLocationLineHash` partial fingerprint.

`--add-noqa` writes the language's suppression comment on each finding's line:
Python `# noqa: CTX501` (merged into an existing `# noqa: …` list), Go
`//nolint:ctxlint` (merged into an existing `//nolint:a,b`), Jinja
`{# ctxlint: ignore CTX302 +#}` (merged into an existing one): no space before
it, and the closer (`+#}`, `#}` or `-#}`) chosen so that the template renders
exactly as before under every `trim_blocks`/`lstrip_blocks` setting (checked on
jinja2's token stream; a line with no neutral form is declined with a notice). Lines where a
comment cannot go without changing the program — the line ends inside a
multi-line string, after a backslash continuation, inside a Go raw string or
block comment, or inside a multi-line Jinja tag or `{% raw %}` block — are left
alone; their findings stay reported. Files are decoded like the engine does
(PEP 263 coding cookies included) and rewritten with `ctxlint.fixers.write_atomic`
and `encode_like`, keeping encoding, BOM, line endings, mode and symlinks.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import tokenize
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ctxlint import __version__
from ctxlint.findings import Finding, printable
from ctxlint.fixers import OutsideTree, encode_like, write_atomic

BASELINE_VERSION = 1
_NEWLINE = re.compile(r"\r\n|\r|\n")


# ------------------------------------------------------------- fingerprints
def normalise_line(text: str) -> str:
    """A flagged line's text with all runs of whitespace collapsed and the ends stripped."""
    return " ".join(text.split())


def fingerprint(finding: Finding, lines: list[str] | None, path_key: str | None = None) -> str:
    """The stable identity of a finding: hash of code + path + normalised flagged line.

    Args:
        finding: the finding.
        lines: the file's LF-split lines (None when unreadable: the message stands in).
        path_key: the path to hash (default: the finding's path, POSIX form).
    Returns:
        20 hex digits.
    """
    if lines is not None and 0 < finding.line <= len(lines):
        anchor = normalise_line(lines[finding.line - 1])
    else:
        anchor = "message:" + finding.message
    key = path_key if path_key is not None else Path(finding.path).as_posix()
    raw = "\0".join((finding.code, key, anchor))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _split_lines(text: str) -> list[str]:
    return _NEWLINE.split(text)


def _read_text(path: str) -> tuple[bytes, str, str] | None:
    """(bytes, language, LF-normalised text) of a file as the engine decodes it
    (UTF-8 with or without BOM, or a Python file's PEP 263 coding cookie); None
    when it cannot be read or decoded."""
    from ctxlint import engine
    # Files without a known suffix are reported only from configured
    # template-dirs, which hold Jinja templates.
    language = engine.language_of(Path(path)) or "jinja"
    try:
        raw = Path(path).read_bytes()
    except OSError:
        return None
    text, err = engine.decode(raw, language, path)
    if err is not None or text is None:
        return None
    return raw, language, text


def _read_lines(path: str, cache: dict[str, list[str] | None]) -> list[str] | None:
    if path not in cache:
        got = _read_text(path)
        cache[path] = None if got is None else _split_lines(got[2])
    return cache[path]


def _path_key(path: str, base: Path) -> str:
    """`path` relative to `base` (POSIX), or its absolute POSIX form when outside it."""
    p = Path(path).resolve()
    try:
        return p.relative_to(base).as_posix()
    except ValueError:
        return p.as_posix()


def _entries(findings: Iterable[Finding], base: Path) -> list[dict]:
    cache: dict[str, list[str] | None] = {}
    out = []
    for f in findings:
        key = _path_key(f.path, base)
        out.append({
            "code": f.code,
            "path": printable(key),
            "fingerprint": fingerprint(f, _read_lines(f.path, cache), key),
            "line": f.line,
            "message": printable(f.message),
        })
    out.sort(key=lambda e: (e["path"], e["line"], e["code"], e["fingerprint"]))
    return out


# ----------------------------------------------------------------- baseline
def write(path: str, findings: list[Finding]) -> None:
    """Record `findings` in the baseline file `path` (JSON, written atomically).

    Raises:
        OSError: the file cannot be written.
    """
    target = Path(path)
    base = target.resolve().parent
    doc = {
        "tool": "ctxlint",
        "version": BASELINE_VERSION,
        "ctxlint": __version__,
        "findings": _entries(findings, base),
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
                 keep_read_only=False)


def load(path: str) -> Counter:
    """The recorded fingerprints of a baseline file, with their counts.

    Raises:
        OSError: unreadable file. ValueError: not a ctxlint baseline (bad JSON or shape).
    """
    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(doc, dict) or doc.get("tool") != "ctxlint" or not isinstance(doc.get("findings"), list):
        raise ValueError("not a ctxlint baseline file (expected {\"tool\": \"ctxlint\", \"findings\": [...]})")
    if doc.get("version") != BASELINE_VERSION:
        raise ValueError(f"unsupported baseline version {doc.get('version')!r} (expected {BASELINE_VERSION})")
    counts: Counter = Counter()
    for e in doc["findings"]:
        if not isinstance(e, dict) or not isinstance(e.get("fingerprint"), str):
            raise ValueError("baseline entry without a fingerprint")
        counts[e["fingerprint"]] += 1
    return counts


def filter_new(path: str, findings: list[Finding]) -> list[Finding]:
    """The findings not recorded in the baseline file `path`, in their original order.

    Raises:
        OSError, ValueError: as `load`.
    """
    remaining = load(path)
    base = Path(path).resolve().parent
    cache: dict[str, list[str] | None] = {}
    out = []
    for f in findings:
        fp = fingerprint(f, _read_lines(f.path, cache), _path_key(f.path, base))
        if remaining[fp] > 0:
            remaining[fp] -= 1
        else:
            out.append(f)
    return out


# ------------------------------------------------------------------ add-noqa
_PY_NOQA_CODES = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*)", re.IGNORECASE)
_PY_NOQA_BARE = re.compile(r"#\s*noqa(?!:)\b", re.IGNORECASE)
_GO_NOLINT = re.compile(r"//\s*nolint(?::(?P<linters>[\w,-]+))?", re.IGNORECASE)
_JINJA_IGNORE = re.compile(r"\{#[-+]?\s*ctxlint:\s*ignore\s+(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*)\s*[-+]?#\}", re.IGNORECASE)


def _python_unsafe_lines(text: str) -> set[int]:
    """1-based lines whose end is inside a string token or that end in a backslash continuation."""
    bad: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
                bad.update(range(tok.start[0], tok.end[0]))
            elif tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1) and tok.end[0] > tok.start[0]:
                bad.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return set(range(1, text.count("\n") + 2))  # cannot tell: touch nothing
    for i, line in enumerate(text.split("\n"), 1):
        if line.rstrip().endswith("\\"):
            bad.add(i)
    return bad


def _go_unsafe_lines(text: str) -> set[int]:
    """1-based lines whose end is inside a raw string literal or a block comment."""
    bad: set[int] = set()
    i, n, line = 0, len(text), 1
    state = None  # None | "raw" | "block"
    while i < n:
        c = text[i]
        if c == "\n":
            if state is not None:
                bad.add(line)
            line += 1
            i += 1
            continue
        if state == "raw":
            if c == "`":
                state = None
        elif state == "block":
            if text.startswith("*/", i):
                state, i = None, i + 1
        elif c == "`":
            state = "raw"
        elif text.startswith("/*", i):
            state, i = "block", i + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j
        i += 1
    return bad


def _jinja_unsafe_lines(text: str) -> set[int]:
    """1-based lines whose end is inside a Jinja tag/expression/comment or a raw block."""
    try:
        from jinja2 import Environment
        tokens = list(Environment().lex(text))
    except Exception:  # TemplateSyntaxError and friends: touch nothing
        return set(range(1, text.count("\n") + 2))
    bad: set[int] = set()
    open_line = None
    for lineno, kind, _value in tokens:
        if kind.endswith("_begin"):
            open_line = lineno
        elif kind.endswith("_end") and open_line is not None:
            bad.update(range(open_line, lineno))
            open_line = None
    return bad


def _add_python(line: str, codes: list[str]) -> str | None:
    if _PY_NOQA_BARE.search(line) and not _PY_NOQA_CODES.search(line):
        return None  # a bare noqa comment already suppresses every code
    m = _PY_NOQA_CODES.search(line)
    if m:
        have = [c.upper() for c in re.split(r"[,\s]+", m.group("codes").strip()) if c]
        new = [c for c in codes if c not in have]
        if not new:
            return None
        merged = ", ".join([*have, *new])
        return line[: m.start("codes")] + merged + line[m.end("codes"):]
    body = line.rstrip()
    return f"{body}  # noqa: {', '.join(codes)}" + line[len(body):] if body else None


def _add_go(line: str, codes: list[str]) -> str | None:
    m = _GO_NOLINT.search(line)
    if m:
        linters = m.group("linters")
        if not linters or "ctxlint" in linters.lower().split(","):
            return None
        return line[: m.end("linters")] + ",ctxlint" + line[m.end("linters"):]
    body = line.rstrip()
    return f"{body} //nolint:ctxlint" + line[len(body):] if body else None


def _add_jinja(line: str, codes: list[str]) -> str | None:
    m = _JINJA_IGNORE.search(line)
    if m:
        have = [c.upper() for c in re.split(r"[,\s]+", m.group("codes").strip()) if c]
        new = [c for c in codes if c not in have]
        if not new:
            return None
        return line[: m.start("codes")] + ", ".join([*have, *new]) + line[m.end("codes"):]
    body = line.rstrip()
    return body + _jinja_comment(codes, _jinja_forms(body)[0]) + line[len(body):] if body else None


def _jinja_forms(body: str) -> list[str]:
    """Comment closers to try on a line ending with `body`, most likely neutral first.

    A comment's `#}` takes part in whitespace control: under `trim_blocks` it eats
    the newline after it, `+#}` never does, `-#}` eats all whitespace after it. So
    a line whose last tag already strips what follows (`-%}`, `-}}`, `-#}`) gets
    `-#}`; a line ending with a block tag (whose newline `trim_blocks` eats) gets
    `#}`; any other line `+#}` (the newline stays under every setting). No space
    goes before the comment: it would be rendered."""
    if re.search(r"-(%\}|\}\}|#\})$", body):
        return ["-#}", "#}", "+#}"]
    if re.search(r"(%\}|#\})$", body):
        return ["#}", "+#}", "-#}"]
    return ["+#}", "#}", "-#}"]


def _jinja_comment(codes: list[str], closer: str) -> str:
    return f"{{# ctxlint: ignore {' '.join(codes)} {closer}"


def jinja_same_output(before: str, after: str) -> bool:
    """Do two templates render the same for every context and every
    `trim_blocks`/`lstrip_blocks` setting? Compared on jinja2's token stream
    (the parser's input, after whitespace control; comments dropped), which
    decides the output. False when either does not lex."""
    try:
        from jinja2 import Environment
    except ImportError:
        return False
    for trim in (False, True):
        for lstrip in (False, True):
            env = Environment(trim_blocks=trim, lstrip_blocks=lstrip)
            try:
                a = _output_tokens(env, before)
                b = _output_tokens(env, after)
            except Exception:  # TemplateSyntaxError and friends
                return False
            if a != b:
                return False
    return True


def _output_tokens(env, text: str) -> list[tuple]:
    """The token stream as it matters for output: a delimiter's text (`%}` plus the
    newline `trim_blocks` swallowed) renders nothing, so only its type counts, and
    adjacent text (split where a comment was) is one piece."""
    out: list[tuple] = []
    for t in env.lexer.tokenize(text):
        if t.type == "data":
            if out and out[-1][0] == "data":
                out[-1] = ("data", out[-1][1] + t.value)
            elif t.value:
                out.append(("data", t.value))
        else:
            out.append((t.type,) if t.type.endswith(("_begin", "_end")) else (t.type, t.value))
    return out


def _neutral_jinja_line(lines: list[str], ln: int, codes: list[str]) -> str | None:
    """The line `ln` (1-based) of a template with a suppression comment whose form
    leaves the rendered output unchanged under every environment setting, or None
    when no form does (or a comment already covers the codes)."""
    line = lines[ln - 1]
    m = _JINJA_IGNORE.search(line)
    if m:
        return _add_jinja(line, codes)  # extending an existing comment changes no whitespace
    body = line.rstrip()
    if not body:
        return None
    before = "\n".join(lines)
    for closer in _jinja_forms(body):
        new = body + _jinja_comment(codes, closer) + line[len(body):]
        if jinja_same_output(before, "\n".join([*lines[:ln - 1], new, *lines[ln:]])):
            return new
    return None


_ADDERS = {"python": (_add_python, _python_unsafe_lines), "go": (_add_go, _go_unsafe_lines),
           "jinja": (_add_jinja, _jinja_unsafe_lines)}


def _add_noqa_lines(text: str, language: str, codes_by_line: dict[int, list[str]],
                    declined: list[int] | None = None) -> tuple[str, set[int]]:
    add, unsafe = _ADDERS[language]
    lines = text.split("\n")
    skip = unsafe(text)
    changed: set[int] = set()
    for ln, codes in sorted(codes_by_line.items()):
        if ln in skip or not 0 < ln <= len(lines):
            continue
        if language == "jinja":
            # Never change what the template renders: pick the neutral comment form.
            new = _neutral_jinja_line(lines, ln, sorted(dict.fromkeys(codes)))
            if new is None and declined is not None and lines[ln - 1].strip() \
                    and not _JINJA_IGNORE.search(lines[ln - 1]):
                declined.append(ln)
        else:
            new = add(lines[ln - 1], sorted(dict.fromkeys(codes)))
        if new is not None and new != lines[ln - 1]:
            lines[ln - 1] = new
            changed.add(ln)
    return "\n".join(lines), changed


def add_noqa_text(text: str, language: str, codes_by_line: dict[int, list[str]]) -> tuple[str, int]:
    """Insert suppression comments into LF-normalised `text`.

    Args:
        language: "python" | "go" | "jinja".
        codes_by_line: 1-based line -> codes to suppress there.
    Returns:
        (new text, number of lines that gained or extended a comment).
    Raises:
        KeyError: an unknown language.
    """
    new, changed = _add_noqa_lines(text, language, codes_by_line)
    return new, len(changed)


@dataclass
class NoqaOutcome:
    """What `add_noqa` did.

    added: lines that gained or extended a suppression comment.
    skipped: the findings left unsuppressed (no comment can go on their line,
        CTX000/CTX001, or their file could not be read, decoded or written), in input order.
    notices: one-line reasons for files that were left alone.
    """

    added: int = 0
    skipped: list[Finding] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)


def add_noqa(findings: list[Finding], roots: Iterable[str] | None = None) -> NoqaOutcome:
    """Add suppression comments for `findings` to their files.

    CTX000 (a file that does not parse) and CTX001 (a stale suppression) are not
    suppressed. Files are decoded as the engine decodes them (`engine.decode`:
    UTF-8, BOM, PEP 263 coding cookie) and written back in the same encoding,
    BOM and line endings through `ctxlint.fixers.write_atomic` (atomic, mode
    kept, a symlink written through to its target).

    Args:
        findings: the findings to suppress (any files, any order).
        roots: the checked paths; a symlinked file is edited only when its
            target lies under one of them (default: the current directory).
    Returns a `NoqaOutcome`; never raises for a file it cannot edit (its
    findings are `skipped` and a notice says why).
    """
    root_paths = [Path(r).resolve() for r in (roots or ())]
    root_paths = [r if r.is_dir() else r.parent for r in root_paths] or [Path.cwd().resolve()]
    out = NoqaOutcome()
    by_file: dict[str, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    done: set[tuple[str, int]] = set()
    for f in findings:
        if f.code not in ("CTX000", "CTX001"):
            by_file[f.path][f.line].append(f.code)
    for path, codes_by_line in by_file.items():
        got = _read_text(path)
        if got is None:
            out.notices.append(f"{path}: no suppression comments added: cannot read or decode it")
            continue
        raw, language, text = got
        declined: list[int] = []
        new, changed = _add_noqa_lines(text, language, codes_by_line, declined)
        for ln in declined:
            out.notices.append(f"{path}:{ln}: no suppression comment added: every comment form would change "
                               "the rendered template")
        if not changed:
            continue
        try:
            write_atomic(path, encode_like(new, raw, language), root_paths, expect=raw)
        except OutsideTree as exc:
            out.notices.append(f"{path}: no suppression comments added: {exc}")
            continue
        except (OSError, RuntimeError, UnicodeEncodeError, LookupError) as exc:
            out.notices.append(f"{path}: no suppression comments added: cannot write it ({exc})")
            continue
        out.added += len(changed)
        done.update((path, ln) for ln in changed)
    out.skipped = [f for f in findings if (f.path, f.line) not in done]
    return out
