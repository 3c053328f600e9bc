# expect: none
"""A JIT generator (flashinfer style) renders the .jinja kernels that ship in its package
data directory, named by literals: a directory built in joins and bound to a local, an
f-string over a literal list, a file name picked per branch, several files per def."""
import jinja2

from . import env as jit_env


def gen_attention(flash: bool, fp8: bool):
    template_dir = jit_env.CSRC_DIR / "fmha_v2" / "templates"
    if flash:
        with open(template_dir / "fa_kernel.jinja", "r") as f:
            template = jinja2.Template(f.read())
    else:
        with open(template_dir / "kernel.jinja", "r") as f:
            template = jinja2.Template(f.read())
    if fp8:
        kernel_inst = "prefill_fp8_kernel_inst.jinja"
    else:
        kernel_inst = "prefill_kernel_inst.jinja"
    with open(jit_env.CSRC_DIR / kernel_inst) as f:
        inst = jinja2.Template(f.read())
    sources = []
    for prefix in ["gemm_groupwise", "group_gemm_fp8_groupwise"]:
        with open(jit_env.CSRC_DIR / f"{prefix}_kernel_inst.jinja") as f:
            sources.append(jinja2.Template(f.read()).render(dtype="fp8"))
    prefix = "group_gemm_mxfp4"
    with open(jit_env.CSRC_DIR / f"{prefix}_kernel_inst.jinja") as f:
        sources.append(jinja2.Template(f.read()).render(dtype="fp4"))
    return template.render(), inst.render(), sources
