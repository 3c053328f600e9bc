# expect: 12 CTX301
from pathlib import Path

from jinja2 import Template

TEMPLATE_DIR = Path("/srv/app/templates")


def render(request, context):
    NAME = request.args["t"]
    with open(TEMPLATE_DIR / f"{NAME}.jinja") as f:
        return Template(f.read()).render(**context)
