"""Jinja2 templates: parsing only.

`parse_template` parses template text with jinja2's own parser (`Environment.parse`),
with the delimiters and extensions of the environment that renders it when a call
site says so. A `TemplateSyntaxError` comes back as (line, message), never raised.

What a parsed template holds (variables, optional names, positions) is in
`ctxlint.semantic.jinja.templates` (`JinjaFacts`, and `lint`, the per-file entry the
engine calls); what Python code does with templates (environments, compile and
render sites) is in `ctxlint.semantic.jinja.call_sites`; the cross-file pass is
`ctxlint.project`; `ctxlint template-probe` is `ctxlint.template_probe`.

jinja2 is imported lazily (inside functions), so linting Python or Go code that
has no template never imports it.
"""

from __future__ import annotations

import re

SUFFIXES = (".j2", ".jinja", ".jinja2")
DELIMITER_KEYS = (
    "block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
    "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
)
#: Extensions enabled while parsing, so templates written for the common ones
#: (HF chat templates use loopcontrols; page templates use i18n/do) parse.
PARSE_EXTENSIONS = ("jinja2.ext.loopcontrols", "jinja2.ext.do", "jinja2.ext.i18n")
_ENV_CACHE: dict[tuple, object] = {}


_GENERATION: list = []


def known_extensions() -> list:
    """The extensions every parse (and `template-probe`'s render) loads: PARSE_EXTENSIONS
    and `{% generation %}…{% endgeneration %}`, the assistant-mask tag of Hugging Face chat
    templates (transformers' `apply_chat_template(return_assistant_tokens_mask=True)`),
    whose body renders as plain template code."""
    if not _GENERATION:
        import jinja2
        from jinja2.ext import Extension

        class GenerationTag(Extension):
            """`{% generation %}…{% endgeneration %}`: a plain body."""

            tags = {"generation"}

            def parse(self, parser):
                lineno = next(parser.stream).lineno
                body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
                return jinja2.nodes.Scope(body, lineno=lineno)

        _GENERATION.append(GenerationTag)
    return [*PARSE_EXTENSIONS, *_GENERATION]


def _make_env(options: tuple, custom_tags: tuple = ()):
    """Build the parsing Environment; `custom_tags` are (tag, is_block) pairs of tags from
    extensions ctxlint cannot load (pdoc's `defaultmacro`), parsed generically."""
    import jinja2
    from jinja2.ext import Extension

    exts: list = known_extensions()
    if custom_tags:
        blocks = {t for t, is_block in custom_tags if is_block}

        class UnknownTags(Extension):
            """Tags of an extension that is not loaded: arguments skipped, body (if any) kept."""

            tags = {t for t, _ in custom_tags}

            def parse(self, parser):
                tok = next(parser.stream)
                while parser.stream.current.type not in ("block_end", "eof"):  # eof: a tag never closed
                    next(parser.stream)
                if tok.value in blocks:
                    body = parser.parse_statements((f"name:end{tok.value}",), drop_needle=True)
                    return jinja2.nodes.Scope(body, lineno=tok.lineno)
                return jinja2.nodes.Output([], lineno=tok.lineno)

        exts.append(UnknownTags)
    try:
        return jinja2.Environment(extensions=exts, **dict(options))
    except Exception:  # bad delimiter settings from a call site: fall back to defaults
        return jinja2.Environment(extensions=exts)


def parse_template(text: str, options: tuple = ()):
    """Parse template text. Returns (jinja2.nodes.Template, None) or (None, (line, message)).

    Never raises: jinja2's TemplateSyntaxError (and anything odd the lexer raises on
    bad input) becomes the error tuple.
    """
    tree, err, _ = parse_template_tags(text, options)
    return tree, err


def parse_template_tags(text: str, options: tuple = ()):
    """`parse_template`, plus the tags of extensions ctxlint does not load that the parse
    had to take generically (arguments skipped, body kept): (tree, error, tags), so the
    caller can say so (a notice naming them) rather than stay silent."""
    import jinja2
    tags: tuple = ()
    for _ in range(8):
        key = (options, tags)
        env = _ENV_CACHE.get(key) or _ENV_CACHE.setdefault(key, _make_env(options, tags))
        try:
            return env.parse(text), None, tuple(t for t, _ in tags)
        except jinja2.TemplateSyntaxError as exc:
            m = _UNKNOWN_TAG.search(exc.message or "")
            if m and m.group(1) not in {t for t, _ in tags} and not m.group(1).startswith("end"):
                tag = m.group(1)
                # a tag from an extension that is not loaded here: parse it generically
                is_block = re.search(r"\bend" + re.escape(tag) + r"\b", text) is not None
                tags = (*tags, (tag, is_block))
                continue
            return None, (exc.lineno or 1, exc.message or str(exc)), ()
        except (RecursionError, MemoryError, ValueError, TypeError) as exc:
            return None, (1, f"{type(exc).__name__}: {exc}"), ()
    return None, (1, "too many unknown tags"), ()


_UNKNOWN_TAG = re.compile(r"unknown tag '(\w+)'")
