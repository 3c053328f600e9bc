"""Configuration: `[tool.ctxlint]` in pyproject.toml, or a `ctxlint.toml` file.

The nearest pyproject.toml (with a `[tool.ctxlint]` table) or ctxlint.toml above
the first checked path is used unless `--config FILE` names one. Keys are
kebab-case as in ruff; an unknown key or a value of the wrong shape raises
`ConfigError` with a one-line message naming it (the CLI turns that into exit 2).
"""

from __future__ import annotations

from pathlib import Path

# tomllib, json and hashlib are imported where they are used: `ctxlint check`
# of one file must not pay for a TOML parser when no config file exists, nor for
# OpenSSL's hashlib (blake2b is a built-in module).

#: Scope ids: names whose presence in a cache key scopes it to one tenant,
#: request, user, session, adapter/LoRA, cache salt or multimodal input.
DEFAULT_SCOPE_IDS: tuple[str, ...] = (
    "tenant_id", "tenant", "org_id", "organization_id", "account_id", "workspace_id",
    "project_id", "customer_id", "namespace",
    "request_id", "req_id", "rid", "seq_id", "sequence_id",
    "user_id", "user", "uid",
    "session_id", "conversation_id", "thread_id",
    "adapter_id", "adapter_name", "lora_id", "lora_int_id", "lora_name", "lora_path",
    "lora_request", "adapter_digest", "weights_digest", "lora_hash",
    "cache_salt", "salt", "tenant_salt",
    "mm_hash", "mm_hashes", "image_hash", "image_digest", "image_digests", "mm_digest",
    "multimodal_hash",
)

DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "node_modules",
    "__pycache__", "build", "dist", ".ctxlint_cache", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "site-packages",
)

DEFAULT_MAX_FILE_SIZE = 2 * 1024 * 1024  # bytes


class ConfigError(Exception):
    """A configuration problem, worded as one line for the user."""


class Record:
    """Base of the plain data classes on the start-up path (`Config`,
    `engine.SourceFile`, `engine.RunResult`, `report.ReportContext`): `__repr__`
    and `__eq__` over the names in `_fields`, as a dataclass has them.

    Not `@dataclass`: generating a dataclass's methods costs ~1 ms of a one-file
    `ctxlint check` per class (measured with callgrind: 11.6M instructions for
    these four), and without any dataclass on the path `import dataclasses`
    (which imports `inspect`) would go too.
    """

    _fields: tuple[str, ...] = ()
    __hash__ = None  # mutable, compared by value: unhashable, as a dataclass

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self._fields)})"

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self._fields)


class Config(Record):
    """Resolved settings for one run.

    Attributes:
        select / ignore: code prefixes ("CTX5", "CTX501"); empty select = all
            default-on rules.
        exclude / extend_exclude: gitignore-style patterns.
        per_file_ignores: pattern -> list of code prefixes.
        scope_ids: identifier names that scope a cache key (see DEFAULT_SCOPE_IDS).
        template_dirs: extra directories holding Jinja templates.
        max_file_size: bytes; larger files are skipped with a notice.
        root: directory the config file was found in (patterns are relative to it).
        source: the config file, or None.
        min_confidence: "high" (default: manifest findings only) or "low" (latent
            findings too); not part of `digest`, since the cache keeps both tiers.

    Every argument is optional (None: an empty list or table, the default scope
    ids, the current directory as root).
    """

    _fields = ("select", "ignore", "extend_select", "exclude", "extend_exclude", "per_file_ignores",
               "scope_ids", "template_dirs", "max_file_size", "respect_gitignore", "root", "source", "min_confidence")

    def __init__(self, select: list[str] | None = None, ignore: list[str] | None = None,
                 extend_select: list[str] | None = None, exclude: list[str] | None = None,
                 extend_exclude: list[str] | None = None, per_file_ignores: dict[str, list[str]] | None = None,
                 scope_ids: list[str] | None = None, template_dirs: list[str] | None = None,
                 max_file_size: int = DEFAULT_MAX_FILE_SIZE, respect_gitignore: bool = True,
                 root: Path | None = None, source: Path | None = None, min_confidence: str = "high"):
        self.select = [] if select is None else select
        self.ignore = [] if ignore is None else ignore
        self.extend_select = [] if extend_select is None else extend_select
        self.exclude = [] if exclude is None else exclude
        self.extend_exclude = [] if extend_exclude is None else extend_exclude
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.scope_ids = list(DEFAULT_SCOPE_IDS) if scope_ids is None else scope_ids
        self.template_dirs = [] if template_dirs is None else template_dirs
        self.max_file_size = max_file_size
        self.respect_gitignore = respect_gitignore
        self.root = Path.cwd() if root is None else root
        self.source = source
        self.min_confidence = min_confidence

    def digest(self) -> str:
        """A stable hash of everything that changes what a file's findings are."""
        payload = {
            "select": self.select, "ignore": self.ignore, "extend_select": self.extend_select,
            "scope_ids": sorted(self.scope_ids), "template_dirs": self.template_dirs,
            "per_file_ignores": self.per_file_ignores,
        }
        import json
        return blake2b(json.dumps(payload, sort_keys=True).encode(), digest_size=8).hexdigest()


def blake2b(data: bytes = b"", digest_size: int = 16):
    """A `hashlib.blake2b(data, digest_size=...)` hash object (config digests, the
    engine's cache keys), from the built-in `_blake2` module where it exists:
    `import hashlib` also loads OpenSSL (~4 ms of every start), which blake2b does not need."""
    try:
        from _blake2 import blake2b as impl
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b as impl
    return impl(data, digest_size=digest_size)


#: Keys whose values are rule codes or prefixes (and each `per-file-ignores` list): a
#: string is read as the CLI reads `--select CTX1,CTX501` (comma-separated).
_CODE_KEYS = ("select", "ignore", "extend-select")


def _str_list(key: str, value: object) -> list[str]:
    """A TOML list of strings; a lone string is a one-element list (a comma-separated
    list for rule-code keys). Raises ConfigError for any other type."""
    if isinstance(value, str):
        if key.split(".")[-1] in _CODE_KEYS or "per-file-ignores" in key:
            return [v.strip() for v in value.split(",") if v.strip()]
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"config key '{key}' must be a list of strings")
    return list(value)


KNOWN_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "template-dirs",
              "scope-ids", "extend-scope-ids", "per-file-ignores", "max-file-size", "respect-gitignore",
              "min-confidence")


def _apply(cfg: Config, table: dict, source: str) -> None:
    for key, value in table.items():
        k = key.replace("_", "-")
        if k in ("select", "ignore", "extend-select", "exclude", "extend-exclude", "template-dirs"):
            setattr(cfg, k.replace("-", "_"), _str_list(key, value))
        elif k == "scope-ids":
            cfg.scope_ids = _str_list(key, value)
        elif k == "extend-scope-ids":
            cfg.scope_ids = cfg.scope_ids + _str_list(key, value)
        elif k == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"config key '{key}' must be a table of pattern = [codes]")
            cfg.per_file_ignores = {p: _str_list(f"{key}.{p}", v) for p, v in value.items()}
        elif k == "max-file-size":
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"config key '{key}' must be a positive integer (bytes)")
            cfg.max_file_size = value
        elif k == "min-confidence":
            if value not in ("high", "low"):
                raise ConfigError(f"config key '{key}' must be \"high\" or \"low\"")
            cfg.min_confidence = value
        elif k == "respect-gitignore":
            if not isinstance(value, bool):
                raise ConfigError(f"config key '{key}' must be true or false")
            cfg.respect_gitignore = value
        else:
            import difflib
            close = difflib.get_close_matches(k, KNOWN_KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"unknown config key '{key}' in {source}{hint}")


def _parse_toml(path: Path, text: str) -> dict:
    """Parse TOML text read from `path`. Raises ConfigError (one line) when it is invalid."""
    import tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _find_config(start: Path) -> tuple[Path | None, dict | None]:
    """(nearest config file at or above `start`, its parsed TOML: None for a ctxlint.toml
    not read yet) or (None, None). See `find_config_file`."""
    start = start.resolve()
    if start.is_file() or not start.exists():
        start = start.parent
    for d in (start, *start.parents):
        c = d / "ctxlint.toml"
        if c.is_file():
            return c, None
        p = d / "pyproject.toml"
        if p.is_file():
            try:
                text = p.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise ConfigError(f"{p}: invalid TOML: {exc}") from None
            except OSError:
                continue
            # It may hold our settings: silently falling back to defaults would
            # run the wrong rules, so an invalid one is an error (ruff does the same).
            data = _parse_toml(p, text)
            tool = data.get("tool", {})
            if isinstance(tool, dict) and "ctxlint" in tool:
                return p, data
    return None, None


def find_config_file(start: Path) -> Path | None:
    """Return the nearest ctxlint.toml, or pyproject.toml with [tool.ctxlint], at or above `start`.

    Raises:
        ConfigError: a pyproject.toml on the way is not valid TOML.
    """
    return _find_config(start)[0]


def load_config(explicit: str | None = None, first_path: str | None = None) -> Config:
    """Load settings from `explicit` (a file path) or the nearest config above `first_path`.

    Raises:
        ConfigError: the file is missing, is not valid TOML, or has an unknown key
            or a value of the wrong type.
    """
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigError(f"config file not found: {explicit}")
        data = None
    else:
        path, data = _find_config(Path(first_path or "."))
    cfg = Config()
    if path is None:
        return cfg
    if data is None:  # parsed once: `_find_config` hands over what it read
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        data = _parse_toml(path, text)
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: 'tool' must be a table")
    if path.name == "pyproject.toml":
        table = tool.get("ctxlint", {})
    else:
        table = tool.get("ctxlint", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.ctxlint] must be a table")
    _apply(cfg, table, str(path))
    cfg.root = path.parent.resolve()
    cfg.source = path
    return cfg


def apply_overrides(cfg: Config, overrides: dict) -> None:
    """Apply settings from the LSP client or CLI in the same key space as the file.

    Raises:
        ConfigError: unknown key or wrong value shape.
    """
    _apply(cfg, overrides, "settings")


def check_codes(cfg: Config, known: list[str] | tuple[str, ...] | dict) -> None:
    """Reject rule codes that match no rule, in every key that holds codes.

    `select`, `ignore`, `extend-select` and each `per-file-ignores` pattern's list
    are checked the same way (a typo such as "CTX5O1", with the letter O, would
    otherwise silently ignore nothing). A code is known when it is "ALL" or a
    prefix of a registered code ("CTX5" selects CTX501...).

    Args:
        cfg: the resolved configuration (CLI options already applied).
        known: the registered rule codes (or a dict keyed by them).
    Raises:
        ConfigError: one line naming the first unknown code and where it is,
            with the closest registered code when there is one.
    """
    codes = sorted(known)
    groups = [("select", cfg.select), ("ignore", cfg.ignore), ("extend-select", cfg.extend_select)]
    groups += [(f"per-file-ignores \"{pat}\"", v) for pat, v in cfg.per_file_ignores.items()]
    for where, values in groups:
        for code in values:
            c = code.strip().upper()
            if c == "ALL" or (c and any(k.startswith(c) for k in codes)):
                continue
            import difflib
            close = difflib.get_close_matches(c, codes, n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"unknown rule code or prefix '{code}' in {where}{hint}")
