# expect: none
"""Validates a template's syntax at configuration time: the text is compiled and the
result dropped, so `TemplateSyntaxError` reaches the caller and no template expression
ever runs (compiling executes none of them; only rendering does)."""
from jinja2 import Environment


def validate_template(template_content: str) -> None:
    env = Environment()
    env.from_string(template_content)
