"""Command-line interface: argument parsing only; the engine does the work.

Subcommands: check (default), rules, explain, lsp, sandbox, template-probe.
Exit codes (DESIGN.md): 0 no findings, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ctxlint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's default exits 2 too; keep it one line
        self.print_usage(sys.stderr)
        sys.stderr.write(f"ctxlint: error: {message}\n")
        sys.exit(EXIT_ERROR)


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in value.split(",") if c.strip()]


COMMANDS = ("check", "rules", "explain", "lsp", "sandbox", "template-probe")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser. With `command` (one of COMMANDS, the first argument)
    only that subcommand is built: argparse costs ~0.2 ms per subparser and ~0.1 ms
    per option, and a one-file `ctxlint check` should not pay for the others;
    without it (`ctxlint --help`) every subcommand is listed."""
    p = _Parser(prog="ctxlint", description="Find request-context and cache-lifecycle leaks in LLM-serving code.")
    p.add_argument("--version", action="version", version=f"ctxlint {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    def wanted(name: str) -> bool:
        return command is None or command == name

    if wanted("check"):
        _check_options(sub.add_parser("check", help="lint files and directories"))
    if wanted("rules"):
        r = sub.add_parser("rules", help="list the rules")
        r.add_argument("--output-format", choices=("text", "json"), default="text")
    if wanted("explain"):
        e = sub.add_parser("explain", help="print a rule's documentation with its examples")
        e.add_argument("code", help="a rule code (CTX504) or name (cache-key-parts-untagged)")
        e.add_argument("--full", action="store_true",
                       help="print every exemption whole and two corpus examples of each kind")
    if wanted("lsp"):
        sub.add_parser("lsp", help="run the language server on stdio")
    if wanted("sandbox"):
        s = sub.add_parser("sandbox", help="drive a KV-cache manager under multi-tenant load and check its invariants")
        s.add_argument("target", help="path/to/module.py:factory")
        s.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--json", action="store_true", help="print the report as JSON")
        s.add_argument("--timeout", type=float, default=120.0, help="wall-clock limit for the child, seconds")
    if wanted("template-probe"):
        t = sub.add_parser("template-probe", help="render a template in jinja2's sandbox and report SecurityErrors")
        t.add_argument("file")
        t.add_argument("--json", action="store_true")
    return p


def _check_options(c: argparse.ArgumentParser) -> None:
    """The options of `ctxlint check`."""
    c.add_argument("paths", nargs="*", default=["."],
                   help="files or directories (default: .); `-` reads standard input")
    # Repeated options accumulate (`--select CTX1 --select CTX5` selects both), as ruff's do.
    c.add_argument("--select", type=_codes, action="extend", default=None,
                   help="codes or prefixes to enable, comma-separated (CTX5,CTX103); repeatable")
    c.add_argument("--extend-select", type=_codes, action="extend", default=None,
                   help="codes to enable on top of the selection; repeatable")
    c.add_argument("--ignore", type=_codes, action="extend", default=None, help="codes or prefixes to disable; repeatable")
    c.add_argument("--output-format", choices=("text", "json", "sarif", "github"), default="text")
    c.add_argument("--config", help="config file (pyproject.toml or ctxlint.toml)")
    c.add_argument("--exclude", action="append", default=[], help="gitignore-style pattern to exclude (repeatable)")
    c.add_argument("--jobs", "-j", type=int, default=None, help="worker processes (default: CPU count)")
    c.add_argument("--no-cache", action="store_true", help="do not read or write .ctxlint_cache/")
    c.add_argument("--statistics", action="store_true", help="print only the number of findings per code")
    c.add_argument("--show-settings", action="store_true",
                   help="print the resolved settings (config file, selection, rules) and exit")
    c.add_argument("--show-files", action="store_true", help="print the files that would be checked and exit")
    c.add_argument("--min-confidence", choices=("high", "low"), default=None,
                   help="high (default): manifest findings only; low: latent findings too "
                        "(config key min-confidence)")
    c.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    c.add_argument("--quiet", "-q", action="store_true", help="print findings only, no summary or notices")
    c.add_argument("--profile", action="store_true",
                   help="print the time per rule, semantic fact and file to stderr (no cache, one process)")
    fx = c.add_argument_group("fixes")
    fx.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    fx.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change behaviour")
    fx.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    fx.add_argument("--fix-only", action="store_true",
                    help="apply fixes; report what was fixed, never the leftovers (exit 0 unless an error)")
    ad = c.add_argument_group("adoption")
    ad.add_argument("--write-baseline", metavar="FILE", help="record today's findings in FILE")
    ad.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    ad.add_argument("--add-noqa", action="store_true", help="add suppression comments for today's findings")
    c.add_argument("--stdin-filename", help="lint standard input, reported under this path")


def _err(msg: str) -> int:
    sys.stderr.write(f"ctxlint: error: {msg}\n")
    return EXIT_ERROR


def _bad_path(paths: list[str]) -> str | None:
    """One line for the first named path that cannot be linted (a user error, exit 2), or None.

    A path that does not exist, a dangling link and a symbolic-link loop
    (`ln -s b a; ln -s a b`) are told apart: each is worded as what the user
    gave, not as an internal error of ctxlint.
    """
    import errno
    for raw in paths:
        try:
            os.stat(raw)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"{raw}: symbolic link loop (too many levels of symbolic links)"
            if os.path.islink(raw):
                return f"{raw}: symbolic link to a path that does not exist"
            if exc.errno == errno.ENOENT:
                return f"path does not exist: {raw}"
            return f"{raw}: {exc.strerror or exc}"
        except ValueError as exc:  # an embedded NUL byte
            return f"{raw!r}: not a valid path ({exc})"
    return None


def _working_directory(paths: list[str]) -> str | None:
    """Make sure there is a working directory (a branch switch may have removed it).

    When it is gone and every path is absolute, move to the paths' deepest common
    directory (as if run from there) and return a note saying so; when a path is
    relative there is nothing it could mean: an error message. None when the
    working directory exists."""
    try:
        os.getcwd()
        return None
    except FileNotFoundError:
        pass
    if not paths or not all(os.path.isabs(p) for p in paths):
        return "error: the working directory no longer exists; give absolute paths or change directory"
    common = os.path.commonpath([p if os.path.isdir(p) else os.path.dirname(p) for p in paths])
    while not os.path.isdir(common) and common != os.path.dirname(common):
        common = os.path.dirname(common)
    os.chdir(common)
    return f"note: the working directory no longer exists; running from {common}"


def run_check(args) -> int:
    """`ctxlint check`: config -> rules -> engine -> (fixers) -> reporter -> exit code."""
    from ctxlint import engine
    from ctxlint.config import ConfigError, check_codes, load_config
    from ctxlint.findings import terminal_safe
    from ctxlint.report import ReportContext, render
    from ctxlint.rules import rule_index, select_rules

    note = _working_directory(args.paths)
    if note and note.startswith("error:"):
        return _err(note[len("error: "):])
    if note:
        sys.stderr.write(f"ctxlint: {note}\n")
    if getattr(args, "profile", False):
        os.environ["CTXLINT_PROFILE"] = "1"
    if "-" in args.paths:  # as ruff: `-` is standard input (named by --stdin-filename, if given)
        if len(args.paths) > 1:
            return _err("`-` (standard input) cannot be combined with other paths")
        args.stdin_filename = args.stdin_filename or "-"
    if not args.stdin_filename:
        bad = _bad_path(args.paths)
        if bad:
            return _err(bad)
    start = args.stdin_filename if args.stdin_filename and args.stdin_filename != "-" else (
        args.paths[0] if args.paths and args.paths != ["-"] else ".")
    try:
        config = load_config(args.config, start)
    except ConfigError as exc:
        return _err(str(exc))
    if args.min_confidence is not None:
        config.min_confidence = args.min_confidence
    if args.select is not None:
        config.select = args.select
    if args.ignore is not None:
        config.ignore = [*config.ignore, *args.ignore]
    if args.extend_select is not None:
        config.extend_select = [*config.extend_select, *args.extend_select]
    try:
        check_codes(config, rule_index())
        rules = select_rules(config.select, config.ignore, config.extend_select)
    except (ValueError, ConfigError) as exc:
        return _err(str(exc))
    if args.jobs is not None and args.jobs < 1:
        return _err("--jobs must be at least 1")
    if args.stdin_filename and args.add_noqa:
        # The findings are of stdin's text, not of the file on disk: never edit it.
        return _err("--add-noqa edits files on disk; it cannot be used with --stdin-filename")
    if args.show_settings:
        return _show_settings(config, rules)
    if args.show_files:
        try:
            shown = engine.discover(args.paths, config, args.exclude) if not args.stdin_filename else []
        except FileNotFoundError as exc:
            return _err(f"path does not exist: {exc.args[0]}")
        for sf in shown:
            sys.stdout.write(f"{sf.display}  ({sf.language})\n")
        return EXIT_CLEAN

    if args.stdin_filename:
        data = sys.stdin.buffer.read()
        sf = engine.SourceFile(args.stdin_filename, Path(args.stdin_filename),
                               engine.language_of(args.stdin_filename) or "python")
        findings, notices, _ = engine.lint_bytes(sf, data, config, rules)
        notices = [n for n in notices if n != "__internal__" and not n.startswith(engine.DEPENDS_MARKER)]
        notices, unchecked = engine.split_unchecked(sf.display, notices)
        result = engine.RunResult(findings=findings, notices=notices, files=1, unchecked=unchecked)
    else:
        unreadable: list = []  # directories that cannot be listed
        try:
            files = engine.discover(args.paths, config, args.exclude, unreadable=unreadable)
        except FileNotFoundError as exc:
            return _err(f"path does not exist: {exc.args[0]}")
        if not files and not args.quiet:
            sys.stderr.write("ctxlint: warning: no Python, Go or template files to check under "
                             f"{' '.join(args.paths)} (excluded, ignored or of another type)\n")
        progress = _progress(len(files), args)
        try:
            result = engine.lint_paths(args.paths, config, rules, jobs=args.jobs,
                                       use_cache=not args.no_cache, files=files,
                                       progress=progress.advance if progress else None)
        finally:
            if progress:
                progress.close()
        result.notices[:0] = [n for _, n in unreadable]
        result.unreadable[:0] = unreadable

    # The tier filter comes before fixes, baselines and noqa: each acts on what is reported.
    result.findings, hidden = engine.filter_confidence(result.findings, config.min_confidence)
    findings = result.findings
    fixed = 0
    if args.fix or args.diff or args.fix_only:
        from ctxlint.fixers import fix_bytes, run_fixes
        if args.stdin_filename:  # as ruff: the fixed source (or the diff) goes to stdout
            new, diff, notices = fix_bytes(sf.display, data, sf.language, findings, rules, config, args.unsafe_fixes)
            sys.stdout.write(diff) if args.diff else sys.stdout.buffer.write(new)
            for n in notices:
                sys.stderr.write(f"ctxlint: {n}\n")
            return EXIT_FINDINGS if args.diff and diff else EXIT_CLEAN
        outcome = run_fixes(result, config, rules, unsafe=args.unsafe_fixes, write=not args.diff,
                            roots=args.paths)
        if args.diff:
            sys.stdout.write(outcome.diff)
            for n in outcome.notices:
                sys.stderr.write(n + "\n")
            if not args.quiet:  # as ruff: what applying the diff would fix, on stderr
                k = outcome.fixed
                sys.stderr.write(f"Would fix {k} finding{'s' if k != 1 else ''}.\n" if k
                                 else "No findings would be fixed.\n")
            return EXIT_FINDINGS if outcome.diff else EXIT_CLEAN
        findings, fixed = outcome.remaining, outcome.fixed
        result.notices.extend(outcome.notices)

    baseline_hidden = 0
    if args.write_baseline or args.baseline or args.add_noqa:
        from ctxlint import baseline
        if args.write_baseline:
            baseline.write(args.write_baseline, findings)
            sys.stderr.write(f"Wrote {len(findings)} finding{'s' if len(findings) != 1 else ''} "
                             f"to baseline {args.write_baseline}.\n")
            return EXIT_CLEAN
        if args.baseline:
            try:
                kept = baseline.filter_new(args.baseline, findings)
            except (OSError, ValueError) as exc:
                return _err(f"cannot read baseline {args.baseline}: {exc}")
            baseline_hidden, findings = len(findings) - len(kept), kept
        if args.add_noqa:
            noqa = baseline.add_noqa(findings, roots=args.paths)
            added = noqa.added
            sys.stderr.write(f"Added {added} suppression comment{'s' if added != 1 else ''}.\n")
            result.notices.extend(noqa.notices)
            findings = noqa.skipped
            if findings:
                n = len(findings)
                sys.stderr.write(f"Skipped {n} finding{'s' if n != 1 else ''}: no suppression comment "
                                 f"could be added (listed below).\n")

    every = args.output_format in ("sarif", "github")
    if any(f.fix is not None and (every or f.fix.data.get("confirm")) for f in findings):
        # SARIF and GitHub output carry each fix's description (and SARIF its edits): the
        # codemods run here, so they say what `--fix` writes and a fix they would decline
        # is dropped. Elsewhere only a fix whose rule leaves the decision to its codemod
        # (`data["confirm"]`: CTX501's key uses) is run: a plain check imports no libcst.
        from ctxlint.fixers import confirm_fixes
        texts = None
        if args.stdin_filename:
            stdin_text, _ = engine.decode(data, sf.language, sf.display)
            texts = {sf.display: (stdin_text, sf.language)} if stdin_text is not None else None
        if every:
            findings = confirm_fixes(findings, texts=texts, config=config)
        else:
            mine = [k for k, f in enumerate(findings) if f.fix is not None and f.fix.data.get("confirm")]
            checked = confirm_fixes([findings[k] for k in mine], texts=texts, config=config)
            findings = list(findings)
            for k, f in zip(mine, checked):
                findings[k] = f
    ctx = ReportContext(rules=rule_index(), files=result.files, statistics=args.statistics, fixed=fixed,
                        quiet=args.quiet, skipped=result.skipped, hidden_low=hidden,
                        unchecked=result.unchecked,
                        baseline_hidden=baseline_hidden, fix_only=args.fix_only and args.output_format == "text",
                        color=args.output_format == "text" and _use_color())
    ctx.unreadable = result.unreadable
    ctx.applied_fixes = ("unsafe" if args.unsafe_fixes else "safe") if args.fix or args.fix_only else ""
    out = render(args.output_format, findings, ctx)
    if out:
        sys.stdout.write(out + "\n")
    if not args.quiet:
        for n in result.notices:
            sys.stderr.write(f"ctxlint: {terminal_safe(n)}\n")
    if result.internal_errors:
        return EXIT_ERROR
    if args.exit_zero or (args.fix_only and not result.unreadable):  # as ruff: --fix-only never fails on leftovers
        return EXIT_CLEAN
    # A path that could not be read is a notice and a summary line, not a finding: the
    # exit code keeps its contract (DESIGN.md: 1 means findings).
    return EXIT_FINDINGS if findings else EXIT_CLEAN


def _use_color() -> bool:
    """Colour and code frames on a terminal, as ruff: stdout is a TTY, `NO_COLOR`
    (no-color.org) is unset and `TERM` is not "dumb"."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _show_settings(config, rules) -> int:
    """`check --show-settings`: the resolved configuration, one `key = value` line per
    setting (where it came from first), then the rules that would run."""
    src = config.source or "(none: defaults)"
    print(f"config file = {src}")
    print(f"root = {config.root}")
    for name in config._fields:
        if name in ("root", "source"):
            continue
        print(f"{name.replace('_', '-')} = {getattr(config, name)!r}")
    print(f"rules = {', '.join(sorted({r.code for r in rules}))}")
    return EXIT_CLEAN


def _progress(total: int, args):
    """A rich progress bar on stderr for big runs when stderr is a TTY; else None."""
    if total < 200 or not sys.stderr.isatty() or args.quiet:
        return None
    from rich.progress import Progress

    class _Bar:
        def __init__(self):
            self.p = Progress(transient=True, console=__import__("rich.console", fromlist=["Console"]).Console(stderr=True))
            self.p.start()
            self.task = self.p.add_task("linting", total=total)

        def advance(self, n: int = 1):
            self.p.advance(self.task, n)

        def close(self):
            self.p.stop()
    return _Bar()


def run_rules(args) -> int:
    """`ctxlint rules`: the registry as a table (or JSON)."""
    import json

    from ctxlint.rules import all_rules
    rules = all_rules()
    if args.output_format == "json":
        print(json.dumps([{"code": r.code, "name": r.name, "language": r.language,
                           "fixable": r.fix_safety is not None, "fix_safety": r.fix_safety,
                           "default": r.default, "summary": r.summary} for r in rules.values()], indent=2))
        return EXIT_CLEAN
    print(f"{'code':<7} {'name':<40} {'lang':<12} {'fix':<7} {'default':<8} summary")
    for r in rules.values():
        fix = r.fix_safety or "-"
        print(f"{r.code:<7} {r.name:<40} {r.language:<12} {fix:<7} {'on' if r.default else 'off':<8} {r.summary}")
    if any(not r.default for r in rules.values()):
        print("\nRules marked off run only when selected by their full code (--select or --extend-select).")
    return EXIT_CLEAN


def run_explain(args) -> int:
    """`ctxlint explain CODE|NAME`: the rule's doc followed by its corpus examples; an
    unknown code or name gets the closest ones as a did-you-mean."""
    from ctxlint.rules import get_rule, rule_index
    index = rule_index()
    wanted = args.code.strip()
    rule = get_rule(wanted)
    if rule is None:  # a rule name (`cache-key-parts-untagged`), as ruff's `ruff rule` takes
        by_name = {ref.name.lower(): code for code, ref in index.items()}
        code = by_name.get(wanted.lower().replace("_", "-"))
        rule = get_rule(code) if code else None
    if rule is None:
        import difflib
        names = [*index, *(ref.name for ref in index.values())]
        close = difflib.get_close_matches(wanted.upper() if wanted[:3].upper() == "CTX" else wanted.lower(),
                                          [n if n[:3] == "CTX" else n.lower() for n in names], n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else \
            " (`ctxlint rules` lists every code and name)"
        return _err(f"unknown rule '{args.code}'{hint}")
    print(f"# {rule.code} {rule.name}\n")
    print(f"{rule.summary}\n")
    print(f"Language: {rule.language}.  Fix: {rule.fix_safety or 'none'}.  "
          f"{'On by default.' if rule.default else 'Off by default.'}\n")
    full = getattr(args, "full", False)
    doc, shortened = (rule.doc, 0) if full else concise_doc(rule.doc)
    print(doc.rstrip())
    print(f"\n## Reported by default when\n{reported_when(rule)}")
    for kind, title in (("bad", "Flagged (from the corpus)"), ("good", "Not flagged (from the corpus)")):
        examples = corpus_examples(rule.code, kind)
        if examples:
            print(f"\n## {title}")
            for name, text in examples[:2 if full else 1]:
                print(f"\n### {name}\n```\n{text.rstrip()}\n```")
    if not full:
        more = f"{shortened} exemption paragraphs were cut to their lead clause; " if shortened else ""
        print(f"\n({more}`ctxlint explain {rule.code} --full` prints the whole documentation.)")
    return EXIT_CLEAN


def reported_when(rule) -> str:
    """The evidence that makes `rule`'s findings manifest (shown by default), for `explain`:
    its `reported_when` text (each language's, for a code with several parts), else what
    its `manifest` policy means."""
    parts = list(getattr(rule, "parts", {}).values()) or [rule]
    out = []
    for p in parts:
        text = getattr(p, "reported_when", "") or (
            "an entry point (route, handler, task, thread, gRPC method, consumer) reaches the code; "
            "otherwise the finding is latent (`--min-confidence low`)."
            if getattr(p, "manifest", "shown") == "reached" else
            "always: the code shows the defect by itself.")
        label = {"python": "Python", "go": "Go", "jinja": "Jinja"}.get(p.language, "")
        out.append(f"**{label}.** {text}" if len(parts) > 1 else text)
    return "\n\n".join(out)


def _first_clause(text: str, max_words: int) -> str:
    """The lead of an exemption paragraph ("Not flagged: ...") up to its first colon,
    semicolon or sentence end after the lead, without parentheticals, at most
    `max_words` words; "…" marks a cut."""
    import re
    lead = re.match(r"[^:]{0,40}:\s*", text)
    head, rest = (text[:lead.end()], text[lead.end():]) if lead else ("", text)
    out, depth, tick = [], 0, False
    for i, ch in enumerate(rest):
        if ch == "`":
            tick = not tick
        if not tick and ch == "(":
            depth += 1
        if depth == 0:
            if not tick and (ch in ":;" or (ch in ".!?" and rest[i + 1:i + 2] in (" ", ""))):
                break
            out.append(ch)
        if not tick and ch == ")" and depth:
            depth -= 1
    clause = " ".join("".join(out).split()).replace(" ,", ",").replace(" .", ".").replace(" ;", ";")
    words = clause.split()
    clause = " ".join(words[:max_words])
    full = (head + clause).rstrip(" ,")
    return full + ("." if full + "." == text else "…") if full != text else text


#: How an exemption paragraph of a rule's "What it does" begins.
_EXEMPTION_LEADS = ("Not flagged", "Nor ", "Not reported", "Not checked", "Also not", "Accepted", "Silent",
                    "Stays silent", "Not a finding")


def concise_doc(doc: str, max_words: int = 30) -> tuple[str, int]:
    """The doc with each exemption paragraph of "## What it does" (one that begins
    "Not flagged", "Nor", "Not reported", ...) cut to its lead clause (`_first_clause`).

    Args:
        doc: a rule's Markdown doc (`Rule.doc`).
        max_words: the most words kept of one paragraph; a longer lead clause ends in "…".
    Returns:
        (the shortened doc, how many paragraphs were shortened). Every other section
        and paragraph is kept as it is. The exemptions are where a rule's docs grow
        (each kind a blind review found harmless adds one); ruff's `ruff rule` pages
        keep to what, why, example and fix, which is what a first reader needs.
    """
    import re
    parts = re.split(r"(?m)^(?=## )", doc)
    out, cut = [], 0
    for part in parts:
        if not part.startswith("## What it does"):
            out.append(part)
            continue
        paras = part.split("\n\n")
        kept = [paras[0]]
        for para in paras[1:]:
            if para.lstrip().startswith(_EXEMPTION_LEADS):
                flat = " ".join(para.split())
                short = _first_clause(flat, max_words)
                if short != flat:
                    cut += 1
                kept.append(short)
            else:
                kept.append(para)
        out.append("\n\n".join(kept))
    return "".join(out), cut


def corpus_examples(code: str, kind: str) -> list[tuple[str, str]]:
    """(file name, text) of corpus/<code>/<kind>/* — from the source tree or the installed copy."""
    from pathlib import Path
    roots = [Path(__file__).resolve().parent.parent / "corpus", Path(__file__).resolve().parent / "_corpus"]
    for root in roots:
        d = root / code / kind
        if d.is_dir():
            import re
            header = re.compile(r"^\s*(#|//|\{#)\s*(expect|sandbox):.*$\n?", re.MULTILINE)
            return [(f.name, header.sub("", f.read_text(encoding="utf-8", errors="replace")))
                    for f in sorted(d.iterdir()) if f.is_file()]
    return []


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `ctxlint` console script. Returns the exit code.

    Called without `argv` (the console script, `python -m ctxlint`), a finished
    `check` ends the process itself (`_fast_exit`); called with a list (tests, an
    embedding program), it returns.
    """
    entry = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in (*COMMANDS, "-h", "--help", "--version"):
        argv.insert(0, "check")
    if not argv:
        # as ruff: a bare `ctxlint` says how to use it (`ctxlint check` lints `.`)
        build_parser().print_help(sys.stderr)
        return EXIT_ERROR
    args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
    code = _dispatch(args)
    try:
        sys.stdout.flush()  # a closed pipe surfaces here for output still buffered
    except BrokenPipeError:
        return _stdout_closed()
    except (ValueError, OSError):  # stdout already closed (the language server closes it)
        pass
    if entry and args.command == "check":
        _fast_exit(code)
    return code


def _fast_exit(code: int) -> None:
    """End the process with `code` now, skipping the interpreter's teardown.

    Tearing down every module, AST and fact object costs a one-file `ctxlint
    check` 10-15 ms of its ~100 ms; nothing is left to do at that point (the cache
    is written, the process pool is shut down, no atexit hook of ctxlint's
    exists), so stdout and stderr are flushed and the process exits. mypy does the
    same (`mypy.util.hard_exit`, its default `--fast-exit`).
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            code = _stdout_closed() if stream is sys.stdout else code
        except (ValueError, OSError):
            pass
    os._exit(code)


def _stdout_closed() -> int:
    """Exit status when the reader of stdout went away (`ctxlint rules | head`): 0, quietly.

    As `head` closing early is normal in a pipeline, neither exit 2 nor death by
    SIGPIPE (141, which fails `set -o pipefail`) is right. stdout is pointed at
    /dev/null so that the interpreter's final flush does not raise again (the
    recipe of the Python docs, "Note on SIGPIPE").
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_CLEAN


def _dispatch(args) -> int:
    """Run the chosen subcommand; internal errors become one line on stderr and exit 2."""
    try:
        if args.command == "check":
            return run_check(args)
        if args.command == "rules":
            return run_rules(args)
        if args.command == "explain":
            return run_explain(args)
        if args.command == "lsp":
            from ctxlint.lsp import main as lsp_main
            return lsp_main()
        if args.command == "sandbox":
            from ctxlint.sandbox.runner import main as sandbox_main
            return sandbox_main(args)
        if args.command == "template-probe":
            from ctxlint.template_probe import probe_main
            return probe_main(args)
    except KeyboardInterrupt:
        sys.stderr.write("ctxlint: interrupted\n")
        return EXIT_ERROR
    except BrokenPipeError:
        return _stdout_closed()
    except Exception as exc:  # exit 1 means findings: an internal error must be 2
        import traceback
        where = traceback.extract_tb(exc.__traceback__)[-1]
        sys.stderr.write(f"ctxlint: internal error: {type(exc).__name__}: {exc} "
                         f"(at {Path(where.filename).name}:{where.lineno}); please report it\n")
        if os.environ.get("CTXLINT_DEBUG"):
            traceback.print_exc()
        return EXIT_ERROR
    return EXIT_ERROR
