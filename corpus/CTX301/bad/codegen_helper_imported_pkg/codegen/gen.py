# expect: 11 CTX301
"""The same helper, but another module of the package imports it and hands it a
request's text: this module's constant callers say nothing about that one."""
import jinja2

HEADER = "// generated for {{ arch }}\n"
KERNEL = "{% for k in kernels %}void {{ k }}();\n{% endfor %}"


def create_template(template_str):
    return jinja2.Template(template_str)


header_template = create_template(HEADER)
kernel_template = create_template(KERNEL)


def emit(arch, kernels):
    return header_template.render(arch=arch) + kernel_template.render(kernels=kernels)
