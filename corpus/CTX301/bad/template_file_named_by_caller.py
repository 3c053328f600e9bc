# expect: 11 CTX301
"""Near miss of the package-directory templates: the file name's f-string part is the
caller's argument, so the path can walk anywhere (`../../uploads/evil`)."""
import jinja2

from . import env as jit_env


def render_kernel(name: str, **params):
    with open(jit_env.CSRC_DIR / f"{name}.jinja") as f:
        template = jinja2.Template(f.read())
    return template.render(**params)
