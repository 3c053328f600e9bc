# expect: 7 CTX304
"""The helper adds its globals to the template, but `missing` is neither a global nor passed."""
import jinja2

HELPERS = {"fmt": str}

SRC = "{{ fmt(x) }} {{ missing }}"


def create_template(src):
    t = jinja2.Template(src)
    t.globals.update(HELPERS)
    return t


tpl = create_template(SRC)


def render(x):
    return tpl.render(x=x)
