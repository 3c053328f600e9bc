# expect: none
"""Reduced from arize-phoenix's agents/capabilities/tools/internal/bash.py: a plain-text
CLI usage template; `<text>`, `<A,B>` and `<path>` are argv placeholders, not HTML tags."""
from jinja2 import Template

HELP_TEXT = Template(
    """\
Usage: tool-gql schema [--search <text>]... [--names <A,B>]... [--out <path>]

{% if not mutations_enabled -%}
Permissions: queries only.
{% endif %}
Size: at most {{ max_kib }} KiB.
"""
)


def help_text(mutations_enabled: bool, max_kib: int) -> str:
    return HELP_TEXT.render(mutations_enabled=mutations_enabled, max_kib=max_kib)
