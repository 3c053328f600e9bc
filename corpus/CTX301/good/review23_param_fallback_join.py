# expect: none
"""`name` is the caller's argument, joined to the deployment's template directory: the
whole text of that file is a template of the deployment, as a loader's would be."""
from pathlib import Path

from jinja2 import Template

TEMPLATE_DIR = Path("/srv/app/templates")


def render(name, context):
    if not name:
        name = "default.jinja"
    with open(TEMPLATE_DIR / name) as f:
        return Template(f.read()).render(**context)
