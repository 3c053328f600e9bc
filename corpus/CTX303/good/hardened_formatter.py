# expect: none
"""Operator-provided templates formatted by a Formatter that only resolves plain names."""
import string


class PlainNameFormatter(string.Formatter):
    def get_field(self, field_name, args, kwargs):
        if not field_name.isidentifier():
            raise ValueError(f"only plain names are allowed in prompt templates: {field_name!r}")
        return super().get_field(field_name, args, kwargs)


_FORMATTER = PlainNameFormatter()


def render_operator_prompt(template: str, values: dict) -> str:
    return _FORMATTER.vformat(template, (), values)


def render_again(template: str, **values) -> str:
    return PlainNameFormatter().format(template, **values)
