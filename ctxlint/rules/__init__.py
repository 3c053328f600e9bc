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
        first = parts[0]
        self.code = first.code
        self.name = first.name
        self.language = "+".join(sorted(self.parts))
        self.summary = " / ".join(f"{_LANG_LABEL.get(p.language, p.language)}: {p.summary}" for p in parts)
        self.tokens = () if any(not p.tokens for p in parts) else tuple(
            dict.fromkeys(t for p in parts for t in p.tokens))
        safeties = {p.fix_safety for p in parts} - {None}
        self.fix_safety = None if not safeties else ("unsafe" if "unsafe" in safeties else "safe")
        self.default = any(p.default for p in parts)
        self.doc = _merge_docs(parts)

    def check(self, facts):
        part = self.parts.get(facts_language(facts) or "")
        return part.check(facts) if part is not None else ()

    def __repr__(self) -> str:
        return f"<{self.code} {self.name} ({self.language})>"


_LANG_LABEL = {"python": "Python", "go": "Go", "jinja": "Jinja"}


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
    return all_rules().get(code.upper())


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
    rules = all_rules()
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
