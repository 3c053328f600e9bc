# expect: none
"""The path is the caller's argument: whose file that is, and who may write it, is decided
by the code that calls `render_user_template`, where a path taken from a request would be
reported (see bad/review23_upper_local.py). A template file read whole is the
deployment's template, as a `FileSystemLoader`'s is."""
from pathlib import Path

from jinja2 import Template

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


def render_user_template(template_path: str, **values) -> str:
    with Path(template_path).open() as fh:
        template = Template(fh.read())
    return template.render(**values)
