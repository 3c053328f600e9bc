# expect: none
"""The kernel template's name is the caller's argument (flashinfer's JIT kernels): the file
lies in the package's source directory and is read whole, a template of the deployment."""
import jinja2

from . import env as jit_env


def render_kernel(name: str, **params):
    with open(jit_env.CSRC_DIR / f"{name}.jinja") as f:
        template = jinja2.Template(f.read())
    return template.render(**params)
