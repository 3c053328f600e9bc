# expect: 14 CTX301
"""`name` is the caller's; only its fallback is a literal joined to the constant dir."""
from pathlib import Path

from jinja2 import Template

TEMPLATE_DIR = Path("/srv/app/templates")


def render(name, context):
    if not name:
        name = "default.jinja"
    with open(TEMPLATE_DIR / name) as f:
        return Template(f.read()).render(**context)
