"""Rule registry.

A rule is a subclass of `Rule` living in its own module, as in ruff
(`rules/<linter>/rules/<rule_name>.rs`) or a go/analysis analyzer package:
`rules/python/ctx103_contextvar_not_reset.py`, `rules/go/ctx101_lost_cancel.py`,
`rules/jinja/ctx302_template_dunder_access.py`. Adding a rule = one module in the
language's package (the class registers itself through `__init_subclass__`; the
registry imports every module of `RULE_PACKAGES`) and a corpus folder
`corpus/<CODE>/` with bad and good examples. Analyses that two rules share live in
`ctxlint.semantic`, never in a rule module.

The registry is machine-readable: `ctxlint rules --output-format json` prints it.

Lazy loading (ruff's generated rule table, in Python): `_manifest.py` is a
generated table of every rule part (code, language, module, name, tokens,
default, fix safety, summary), so the engine selects and prefilters rules
without importing them. `select_rules` and `rule_index` return `RuleRef`s built
from it; a `RuleRef` imports its rule module only when something reads more than
the manifest holds (`check`, `doc`, a fix hook), and `RuleRef.for_language`
imports only the part for one language. A `ctxlint check` of one file therefore
imports the rule modules (and their semantic analyses) that file can trigger,
not all of them. `all_rules()` still imports every module of `RULE_PACKAGES`.
The classes stay the one source of truth: the manifest is derived from them by
`python -m ctxlint.rules --write-manifest` (after adding a rule or changing a
rule's code, name, language, summary, tokens, default or fix safety;
tests/test_rule_manifest.py fails, naming that command, until it is run), and
records each rule module's size and hash, so that at run time a module changed
since (or a new one) is imported and described by its class instead: a stale
manifest costs start-up time, never a rule.

One code, one rule per language (CTX206 context-not-propagated has a Go half in
`rules/go/ctx206_context_not_propagated_go.py` and a Python half in
`rules/python/ctx206_context_not_propagated.py`): each half is an ordinary `Rule`
subclass with the same `code` and `name` and its own `language`. The registry keeps
every half under `(code, language)` (`_PARTS`); when a code has more than one half,
`all_rules()` returns a single `LanguageDispatch` for it (language "go+python",
docs merged heading by heading, prefilter tokens united) whose `check` runs the
half of the file's language. So `ctxlint rules`, `explain`, select/ignore and the
engine still see one entry per code. The same code registered twice for one
language still raises.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, ClassVar, Iterable

if TYPE_CHECKING:
    from ctxlint.findings import Finding

#: Packages whose every module is a rule module.
RULE_PACKAGES: tuple[str, ...] = (
    "ctxlint.rules.common",
    "ctxlint.rules.python",
    "ctxlint.rules.go",
    "ctxlint.rules.jinja",
)

_REGISTRY: dict[str, "Rule"] = {}
#: (code, language) -> the rule implementing that code for that language.
_PARTS: dict[tuple[str, str], "Rule"] = {}


class Rule:
    """Base class of every rule (the ruff/Fixit model: code + name + doc + check).

    Class attributes a rule sets:
        code: "CTX501" (stable).
        name: kebab-case name ("cache-key-missing-scope").
        language: "python", "go" or "jinja" ("any" for CTX000/CTX001).
        summary: one line for `ctxlint rules`.
        doc: markdown with the headings What it does / Why is this bad / Example /
            Use instead / Fix safety / Source. `ctxlint explain` appends the
            corpus examples.
        tokens: prefilter literals; the rule is run on a file only when one of them
            occurs in its text. Empty means "always run".
        fix_safety: None (no fix), "safe" or "unsafe".
        default: False for rules that run only when selected explicitly (CTX001).
        manifest: how a finding's confidence is decided when the rule does not pass one:
            "shown" (the code shows the harm by itself: high) or "reached" (the harm
            needs repetition: high only when an entry point reaches the code,
            `semantic.python.evidence`; else low, latent).
        reported_when: one paragraph for `explain`'s "Reported by default when": the
            evidence that makes a finding manifest.

    `check(facts)` yields `Finding`s for one file; it never parses and never prints.
    `facts` is the language's per-file facts object (`semantic.python.facts.PythonFacts`,
    `semantic.go.facts.GoFacts`, `semantic.jinja.templates.JinjaFacts`).
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    language: ClassVar[str] = "python"
    summary: ClassVar[str] = ""
    doc: ClassVar[str] = ""
    tokens: ClassVar[tuple[str, ...]] = ()
    fix_safety: ClassVar[str | None] = None
    default: ClassVar[bool] = True
    manifest: ClassVar[str] = "shown"
    reported_when: ClassVar[str] = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.code:
            key = (cls.code, cls.language)
            if key in _PARTS and type(_PARTS[key]) is not cls:
                raise RuntimeError(f"duplicate rule code {cls.code} for language {cls.language}")
            _PARTS[key] = cls()
            parts = [r for (c, _), r in sorted(_PARTS.items()) if c == cls.code]
            _REGISTRY[cls.code] = parts[0] if len(parts) == 1 else LanguageDispatch(parts)

    def check(self, facts) -> Iterable["Finding"]:  # pragma: no cover - interface
        raise NotImplementedError

    def wants(self, text: str) -> bool:
        """Cheap literal prefilter: may this rule fire on a file with this text?"""
        return not self.tokens or any(t in text for t in self.tokens)

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


#: Per-file facts classes by language, as (module, class): `facts_language` tests
#: `isinstance` only against modules already imported (a facts object's class is).
_FACTS_CLASSES: dict[str, tuple[str, str]] = {
    "python": ("ctxlint.semantic.python.facts", "PythonFacts"),
    "go": ("ctxlint.semantic.go.facts", "GoFacts"),
    "jinja": ("ctxlint.semantic.jinja.templates", "JinjaFacts"),
}


def facts_language(facts) -> str | None:
    """The language ("python", "go", "jinja") of a per-file facts object, else None."""
    import sys
    for lang, (mod, cls) in _FACTS_CLASSES.items():
        m = sys.modules.get(mod)
        if m is not None and isinstance(facts, getattr(m, cls, ())):
            return lang
    return getattr(facts, "language", None)


class LanguageDispatch(Rule):
    """One code implemented by one `Rule` per language (CTX206: Go and Python).

    Args:
        parts: the per-language rules (same code and name, distinct `language`).
    Raises:
        RuntimeError: the parts disagree on the name (a code has one name).

    `check(facts)` runs the part whose language is the file's (`facts_language`);
    `language` is the parts' languages joined by "+" (what `engine.rules_for`
    reads); `doc` has each heading once, with each part's section under it,
    labelled by language; `tokens` are the union (a part's own check stays
    cheap where its language's shared facts are absent).
    """

    def __init__(self, parts: list[Rule]):
        names = {p.name for p in parts}
        if len(names) != 1:
            raise RuntimeError(f"rule {parts[0].code} has different names per language: {sorted(names)}")
        self.parts = {p.language: p for p in parts}
        for attr, value in _combined(parts).items():
            setattr(self, attr, value)
        self.doc = _merge_docs(parts)

    def check(self, facts):
        part = self.parts.get(facts_language(facts) or "")
        return part.check(facts) if part is not None else ()

    def __repr__(self) -> str:
        return f"<{self.code} {self.name} ({self.language})>"


_LANG_LABEL = {"python": "Python", "go": "Go", "jinja": "Jinja"}


def _combined(parts: list) -> dict:
    """What a code implemented by several per-language `parts` shows as one rule.

    `parts`: objects with a rule's attributes (`Rule` instances, or manifest rows),
    sorted by language. Returns code, name, language ("go+python"), summary (each
    part's, labelled by language), tokens (the union; () when a part has none, i.e.
    always runs), fix_safety (the least safe), default (on when a part is). One
    part: its own values.
    """
    first = parts[0]
    if len(parts) == 1:
        return {"code": first.code, "name": first.name, "language": first.language, "summary": first.summary,
                "tokens": tuple(first.tokens), "fix_safety": first.fix_safety, "default": first.default}
    safeties = {p.fix_safety for p in parts} - {None}
    return {
        "code": first.code,
        "name": first.name,
        "language": "+".join(sorted(p.language for p in parts)),
        "summary": " / ".join(f"{_LANG_LABEL.get(p.language, p.language)}: {p.summary}" for p in parts),
        "tokens": () if any(not p.tokens for p in parts) else tuple(dict.fromkeys(t for p in parts for t in p.tokens)),
        "fix_safety": None if not safeties else ("unsafe" if "unsafe" in safeties else "safe"),
        "default": any(p.default for p in parts),
    }


def _merge_docs(parts: list[Rule]) -> str:
    """Merge the parts' docs: each `## ` heading once, each part's text under it as
    a `**Go.**` / `**Python.**` paragraph, headings in the first part's order."""
    import re
    order: list[str] = []
    sections: dict[str, list[tuple[str, str]]] = {}
    for p in parts:
        for m in re.finditer(r"^## (.+?)\n(.*?)(?=^## |\Z)", p.doc, re.S | re.M):
            head, body = m.group(1).strip(), m.group(2).strip()
            if head not in sections:
                order.append(head)
                sections[head] = []
            sections[head].append((_LANG_LABEL.get(p.language, p.language), body))
    out = []
    for head in order:
        out.append(f"## {head}")
        for label, body in sections[head]:
            out.append(f"**{label}.**\n\n{body}\n" if len(sections[head]) > 1 else f"{body}\n")
    return "\n".join(out) + "\n"


def run_checks(facts, rules: Iterable["Rule"]) -> list["Finding"]:
    """Run each rule's `check` over one file's shared facts (any language).

    A rule that exceeds the recursion limit on pathologically deep code is skipped
    for this file with a notice (`ctxlint.findings.note`, shown on stderr; the file
    is not cached), never silently; any other exception propagates to the engine,
    which reports it as an internal error (exit 2).
    """
    from ctxlint.findings import note
    out: list = []
    for rule in rules:
        try:
            out.extend(rule.check(facts))
        except RecursionError:
            note(f"{rule.code} skipped: the code is nested too deeply to analyse")
    return out


_loaded = False


def all_rules() -> dict[str, Rule]:
    """Import every rule module once and return code -> rule instance, sorted by code."""
    global _loaded
    if not _loaded:
        import pkgutil
        mods: list[str] = []
        for pkg in RULE_PACKAGES:
            p = importlib.import_module(pkg)
            mods.extend(f"{pkg}.{m.name}" for m in pkgutil.iter_modules(p.__path__) if not m.name.startswith("_"))
        for mod in mods:
            try:
                importlib.import_module(mod)
            except ModuleNotFoundError as exc:
                if exc.name != mod:
                    raise
        _loaded = True
    return dict(sorted(_REGISTRY.items()))


def get_rule(code: str) -> Rule | None:
    """The rule registered under `code` (any case), imported (its module only); None if unknown."""
    ref = rule_index().get(code.upper())
    if ref is not None:
        return ref.rule
    return all_rules().get(code.upper())  # not in the manifest: a rule added since it was generated


# ------------------------------------------------------------------ lazy loading
#: The command that regenerates `ctxlint/rules/_manifest.py` from the rule classes.
REGENERATE = "python -m ctxlint.rules --write-manifest"
MANIFEST_FIELDS = ("code", "language", "module", "name", "tokens", "default", "fix_safety", "summary")


class ManifestRow:
    """One rule part as `_manifest.RULES` records it (see MANIFEST_FIELDS): what
    selection and the prefilter need, plus the module that defines the class."""

    __slots__ = MANIFEST_FIELDS

    def __init__(self, *values):
        for k, v in zip(MANIFEST_FIELDS, values, strict=True):
            setattr(self, k, v)


def _import_rule_module(module: str) -> None:
    """Import one rule module (it registers its class); a module that no longer exists is skipped."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise


class RuleRef:
    """A registered rule known from the manifest; its module is imported on first use.

    Args:
        rows: the `ManifestRow`s of one code (one per language part), sorted by language.

    Attributes read without importing anything: code, name, language, summary,
    tokens, fix_safety, default (combined over the parts as `LanguageDispatch`
    combines them, so they equal the imported rule's). Any other attribute
    (`doc`, `check`, `parts`, a fix hook) is the imported rule's (`rule`).
    `for_language(lang)` imports only the part that checks files of `lang`.

    Raises (on import): RuntimeError when the manifest names a code that no
    rule module defines any more (regenerate it: REGENERATE).
    """

    __slots__ = ("_rule", "code", "default", "fix_safety", "language", "name", "rows", "summary", "tokens")

    def __init__(self, rows: list[ManifestRow]):
        self.rows = tuple(rows)
        self._rule = None
        for attr, value in _combined(list(self.rows)).items():
            setattr(self, attr, value)

    @property
    def rule(self) -> Rule:
        """The imported rule (a `LanguageDispatch` when the code has several parts)."""
        r = self._rule
        if r is None:
            for row in self.rows:
                _import_rule_module(row.module)
            r = _REGISTRY.get(self.code) or all_rules().get(self.code)
            if r is None:
                raise RuntimeError(f"rule {self.code} is listed in ctxlint/rules/_manifest.py but no rule module "
                                   f"defines it; regenerate the manifest: {REGENERATE}")
            self._rule = r
        return r

    def for_language(self, language: str) -> Rule:
        """The rule to run on a file of `language`: the one part for it, imported
        alone (CTX206 on a Python file imports the Python half only); else `rule`."""
        if len(self.rows) > 1:
            rows = [r for r in self.rows if r.language in (language, "any") or language in r.language.split("+")]
            if len(rows) == 1:
                key = (self.code, rows[0].language)
                if key not in _PARTS:
                    _import_rule_module(rows[0].module)
                part = _PARTS.get(key)
                if part is not None:
                    return part
        return self.rule

    def wants(self, text: str) -> bool:
        """Cheap literal prefilter (as `Rule.wants`), without importing the rule."""
        return not self.tokens or any(t in text for t in self.tokens)

    def __getattr__(self, attr: str):
        if attr.startswith("__") or attr in RuleRef.__slots__:
            raise AttributeError(attr)
        return getattr(self.rule, attr)

    def __reduce__(self):
        return (_rule_ref, (self.code,))

    def __repr__(self) -> str:
        return f"<{self.code} {self.name}>"


def _rule_ref(code: str) -> RuleRef:
    """Unpickle a `RuleRef` (a process-pool worker gets the one of its own index)."""
    return rule_index()[code]


_INDEX: dict[str, RuleRef] = {}


def rule_index() -> dict[str, RuleRef]:
    """code -> `RuleRef` for every registered rule, sorted by code, from the manifest.

    Imports no rule module while the manifest is current. The manifest is checked
    against the sources first (`_current_rows`): a rule module edited, added or
    removed since it was generated is imported and described by its class, so a
    stale manifest costs time, never a rule. Selection (`select_rules`), code
    validation, the text reporter and the engine's prefilter need nothing more;
    each `RuleRef` imports its rule when a file needs it.
    """
    if not _INDEX:
        by_code: dict[str, list[ManifestRow]] = {}
        for values in _current_rows():
            row = ManifestRow(*values)
            by_code.setdefault(row.code, []).append(row)
        # Filled in one step: a thread of the language server never sees half an index.
        _INDEX.update({code: RuleRef(sorted(by_code[code], key=lambda r: r.language)) for code in sorted(by_code)})
    return dict(_INDEX)


def _row(r: Rule) -> tuple:
    """The manifest row (MANIFEST_FIELDS) of one imported rule part."""
    return (r.code, r.language, type(r).__module__, r.name, tuple(r.tokens), bool(r.default), r.fix_safety,
            r.summary)


def manifest_rows() -> list[tuple]:
    """The manifest as the rule classes define it: one tuple (MANIFEST_FIELDS) per
    (code, language) part, sorted. Imports every rule module (`all_rules`)."""
    all_rules()
    return [_row(r) for _, r in sorted(_PARTS.items())]


#: Packages whose modules a rule's tokens may come from (`semantic.python.keys.KEY_TOKENS`,
#: the Go cancel tokens): a change there may change a rule's prefilter.
TOKEN_SOURCE_PACKAGES: tuple[str, ...] = ("ctxlint.semantic.python", "ctxlint.semantic.go", "ctxlint.semantic.jinja")


def _module_file(module: str) -> str:
    """The source path of a module `ctxlint.<a>.<b>...` of this package."""
    import os
    root = os.path.dirname(os.path.dirname(__file__))
    return os.path.join(root, *module.split(".")[1:]) + ".py"


def _package_modules(packages) -> set[str]:
    """`pkg.<name>` for every source `*.py` (not `_*`) of each package in `packages`."""
    import os
    found: set[str] = set()
    for pkg in packages:
        try:
            names = os.listdir(os.path.dirname(_module_file(pkg + ".x")))
        except OSError:
            continue
        found.update(f"{pkg}.{n[:-3]}" for n in names if n.endswith(".py") and not n.startswith("_"))
    return found


def _fingerprint(data: bytes) -> str:
    from ctxlint.config import blake2b
    return blake2b(data, digest_size=8).hexdigest()


def _source_modules() -> set[str] | None:
    """The rule modules present as sources (`RULE_PACKAGES`' *.py files not named
    `_*`), or None where the package has no sources to compare (bytecode only)."""
    return _package_modules(RULE_PACKAGES) or None


#: Files modified within this long after the manifest count as written with it.
_SAME_WRITE_NS = 10 * 10**9


def _stale_modules(sources: dict[str, tuple[int, str]], manifest_file: str | None) -> set[str]:
    """Modules (rule modules, and the semantic modules tokens may come from) the
    manifest does not describe as they are now.

    `sources` (the manifest's SOURCES): module -> (size, fingerprint of its
    source). A module is stale when it is new, gone, of another size, or modified
    later than the manifest (by more than `_SAME_WRITE_NS`: a checkout or an
    unpacked archive writes every file within seconds, in any order) and of other
    content. Only such files are read and hashed: a current tree costs one stat
    per rule module, ~0.3 ms.
    """
    import os
    present = _source_modules()
    if present is None or manifest_file is None:
        return set()
    try:
        written = os.stat(manifest_file).st_mtime_ns
    except OSError:
        return set()
    present = present | _package_modules(TOKEN_SOURCE_PACKAGES)
    stale = {m for m in present if m not in sources}
    for mod, (size, digest) in sources.items():
        path = _module_file(mod)
        try:
            st = os.stat(path)
        except OSError:
            stale.add(mod)
            continue
        if st.st_size != size:
            stale.add(mod)
        elif st.st_mtime_ns > written + _SAME_WRITE_NS:
            try:
                with open(path, "rb") as fh:
                    if _fingerprint(fh.read()) != digest:
                        stale.add(mod)
            except OSError:
                stale.add(mod)
    return stale


def _current_rows() -> list[tuple]:
    """The manifest's rows, with those of stale rule modules (`_stale_modules`)
    replaced by what their classes say; every class when there is no manifest."""
    try:
        from ctxlint.rules import _manifest
    except ImportError:
        return manifest_rows()
    rows = list(_manifest.RULES)
    stale = _stale_modules(getattr(_manifest, "SOURCES", {}), getattr(_manifest, "__file__", None))
    if not stale:
        return rows
    if any(m.startswith(TOKEN_SOURCE_PACKAGES) for m in stale):
        # a semantic module changed: any rule's tokens may come from it
        stale = {r[2] for r in rows} | (_source_modules() or set())
    for mod in sorted(stale):
        _import_rule_module(mod)
    rows = [r for r in rows if r[2] not in stale]
    rows += [_row(r) for r in _PARTS.values() if type(r).__module__ in stale]
    return sorted(rows, key=lambda r: (r[0], r[1]))


def manifest_sources(rows: list[tuple]) -> dict[str, tuple[int, str]]:
    """module -> (size, fingerprint) of the source of each rule module in `rows` and of
    every module of `TOKEN_SOURCE_PACKAGES` (where some rules' tokens are defined)."""
    out = {}
    for mod in sorted({r[2] for r in rows} | _package_modules(TOKEN_SOURCE_PACKAGES)):
        with open(_module_file(mod), "rb") as fh:
            data = fh.read()
        out[mod] = (len(data), _fingerprint(data))
    return out


def render_manifest(rows: list[tuple] | None = None) -> str:
    """The text of `ctxlint/rules/_manifest.py` for `rows` (default: `manifest_rows()`)."""
    rows = manifest_rows() if rows is None else rows
    out = [
        '"""The rule manifest: what selection and the prefilter need to know of every rule',
        "part, so that the engine imports only the rule modules a file can trigger.",
        "",
        f"GENERATED from the rule classes by `{REGENERATE}`;",
        "do not edit by hand. tests/test_rule_manifest.py fails when it is out of date;",
        "at run time a rule module whose source differs from SOURCES is imported and",
        "described by its class instead (`ctxlint.rules.rule_index`).",
        '"""',
        "",
        "# fmt: off",
        f"#: One row per (code, language): {', '.join(MANIFEST_FIELDS)}.",
        "RULES = (",
    ]
    for row in rows:
        head = ", ".join(repr(v) for v in row[:4])
        tail = ", ".join(repr(v) for v in row[5:7])
        out.append(f"    ({head},")
        out.append(f"     {row[4]!r},")
        out.append(f"     {tail},")
        out.append(f"     {row[7]!r}),")
    out.append(")")
    out.append("")
    out.append("#: module -> (size in bytes, blake2b-64 of the source) when this file was generated.")
    out.append("SOURCES = {")
    for mod, (size, digest) in manifest_sources(rows).items():
        out.append(f"    {mod!r}: ({size}, {digest!r}),")
    out.append("}")
    return "\n".join(out) + "\n"


def manifest_main(argv: list[str] | None = None) -> int:
    """`python -m ctxlint.rules [--write-manifest | --check-manifest]`.

    --write-manifest rewrites ctxlint/rules/_manifest.py from the rule classes;
    --check-manifest (the default) exits 1, saying what differs, when it is out of date.
    """
    import argparse
    from pathlib import Path
    ap = argparse.ArgumentParser(prog="python -m ctxlint.rules", description=manifest_main.__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--write-manifest", action="store_true", help="regenerate ctxlint/rules/_manifest.py")
    g.add_argument("--check-manifest", action="store_true", help="exit 1 when the manifest is out of date")
    args = ap.parse_args(argv)
    path = Path(__file__).with_name("_manifest.py")
    want = render_manifest()
    try:
        have = path.read_text(encoding="utf-8")
    except OSError:
        have = ""
    if args.write_manifest:
        if have != want:
            path.write_text(want, encoding="utf-8")
            print(f"wrote {path}")
        else:
            print(f"{path} is up to date")
        return 0
    if have != want:
        print(f"{path} is out of date; run: {REGENERATE}")
        return 1
    return 0


def select_rules(select: list[str], ignore: list[str], extend_select: list[str] = ()) -> list[Rule]:
    """Resolve select/ignore code prefixes to the rules that run.

    An empty `select` means every default-on rule. CTX000 (parse-error) is always
    on unless ignored explicitly, as ruff reports syntax errors whatever is
    selected. Prefix matching follows ruff:
    "CTX5" selects CTX501..CTX505; "ALL" selects everything. The longest matching
    prefix wins between select and ignore.

    Raises:
        ValueError: a code or prefix that matches no rule (the CLI reports it, exit 2).
    """
    rules = rule_index()
    for code in [*select, *ignore, *extend_select]:
        c = code.upper()
        if c != "ALL" and not any(r.startswith(c) for r in rules):
            raise ValueError(f"unknown rule code or prefix '{code}'")

    def best(code: str, prefixes: Iterable[str]) -> int:
        n = -1
        for p in prefixes:
            p = p.upper()
            if p == "ALL":
                n = max(n, 0)
            elif code.startswith(p):
                n = max(n, len(p))
        return n

    chosen = []
    for code, rule in rules.items():
        if code == "CTX000":
            s = len(code) if not select else max(best(code, [*select, *extend_select]), 0)
        elif select:
            s = best(code, [*select, *extend_select])
        else:
            s = max(0 if rule.default else -1, best(code, extend_select))
        # Off-by-default rules (CTX001) run only when named by their full code.
        if not rule.default and s != len(code):
            continue
        if s < 0:
            continue
        i = best(code, ignore)
        if i >= 0 and i >= s:
            continue
        chosen.append(rule)
    return chosen
