# expect: none
"""Code-generation templates: the helper that builds each template adds the module's
helper table to the template's own globals, so every name the template reads that the
render call does not pass is a global (gptqmodel's machete generator)."""
import jinja2

TEMPLATE_GLOBALS = {
    "type_sig": lambda t: f"{t.a}x{t.b}",
    "schedule_tag": lambda s: s.upper(),
}

DISPATCH = """{% for c in configs %}{{ type_sig(c) }} -> {{ schedule_tag(c.schedule) }}
{% endfor %}"""


def create_template(template_str):
    template = jinja2.Template(template_str)
    template.globals.update(TEMPLATE_GLOBALS)
    return template


dispatch_template = create_template(DISPATCH)


def render_dispatch(configs):
    return dispatch_template.render(configs=configs)
