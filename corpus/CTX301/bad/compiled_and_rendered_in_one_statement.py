# expect: 10 CTX301
"""Near miss of a syntax check: the compiled template is rendered in the same
statement (its output printed), so the caller's text runs as template code."""
from jinja2 import Environment


def preview_template(template_content: str, sample: dict) -> None:
    env = Environment()
    # the result is not dropped: it is rendered right away
    print(env.from_string(template_content).render(**sample))
