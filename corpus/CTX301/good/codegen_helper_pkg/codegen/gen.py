# expect: none
"""A code generator: the helper compiles its parameter, and the only calls (all in this
module, and no other module names the helper) pass the module's own template text."""
import jinja2

HEADER = "// generated for {{ arch }}\n"
KERNEL = "{% for k in kernels %}void {{ k }}();\n{% endfor %}"


def create_template(template_str):
    return jinja2.Template(template_str)


header_template = create_template(HEADER)
kernel_template = create_template(KERNEL)


def emit(arch, kernels):
    return header_template.render(arch=arch) + kernel_template.render(kernels=kernels)
