# expect: 19 CTX301
# expect: 25 CTX301
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
