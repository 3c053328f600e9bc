# expect: none
"""Kind: the loaded template's own globals get every variable it reads, through a dict
bound once in the same function (elyra's pipeline properties: `template.globals.update(
template_vars)` before an argument-less `render()`); nothing renders as undefined."""
import json
from pathlib import Path

from jinja2 import Environment, FileSystemLoader


def pipeline_properties(custom: set[str], generic: set[str]) -> dict:
    both = custom & generic
    template_vars = {
        "owned_custom_properties": sorted(both ^ custom),
        "owned_generic_properties": sorted(generic ^ both),
        "owned_properties": sorted(both),
    }
    env = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"))
    template = env.get_template("properties.jinja2")
    template.globals.update(template_vars)
    return json.loads(template.render())
