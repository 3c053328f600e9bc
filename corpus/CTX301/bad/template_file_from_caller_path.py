# expect: 13 CTX301
# The path comes from the caller (an upload, a request field, a user's config), so
# whoever controls that file runs code in the unsandboxed template.
from pathlib import Path

from jinja2 import Template

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


def render_user_template(template_path: str, **values) -> str:
    with Path(template_path).open() as fh:
        template = Template(fh.read())
    return template.render(**values)
