# expect: none
"""The template file's name is the caller's argument (or a loop over the author's own
names): the whole text of a file of the deployment's template directory, the same text
a `FileSystemLoader` would load. No request, environment or hub download chooses it, so
nothing outside the program writes the template."""
from pathlib import Path

from jinja2 import Template

TEMPLATE_DIR = Path("/srv/app/templates")


def warm():
    for prefix in ["gemm", "group_gemm"]:
        yield prefix


def render(prefix, context):
    for p in [prefix]:
        pass
    with open(TEMPLATE_DIR / f"{prefix}_kernel.jinja") as f:
        return Template(f.read()).render(**context)


def render2(prefix, context):
    names = [prefix for prefix in ("gemm", "group_gemm")]
    with open(TEMPLATE_DIR / f"{prefix}_kernel.jinja") as f:
        return Template(f.read()).render(**context)
