# expect: none
"""A plain Template rendering a prompt (text, not HTML) keeps autoescape off by default."""
from jinja2 import Environment, Template

SUMMARY = Template("Summarise for {{ audience }}:\n{{ text }}")
_env = Environment(trim_blocks=True)


def summary(audience: str, text: str) -> str:
    return SUMMARY.render(audience=audience, text=text)


def tool_call(name: str, args: dict) -> str:
    return _env.from_string("{{ name }}({{ args | tojson }})").render(name=name, args=args)
