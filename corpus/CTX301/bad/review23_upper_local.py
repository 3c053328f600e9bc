# expect: 15 CTX301
"""An UPPER_CASE local is not a module constant: here it holds the request's choice, so
the template file is whatever `?t=` names."""
from pathlib import Path

from flask import request
from jinja2 import Template

TEMPLATE_DIR = Path("/srv/app/templates")


def render(context):
    NAME = request.args["t"]
    with open(TEMPLATE_DIR / f"{NAME}.jinja") as f:
        return Template(f.read()).render(**context)
