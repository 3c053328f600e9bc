# expect: none
# The template is a file the project ships: its path is built only from module
# constants (and an imported settings constant), so nobody outside writes it.
import os
from pathlib import Path

from jinja2 import Template

_ROOT = Path(__file__).resolve().parent
TEMPLATES_DIR = _ROOT / "templates"
README_TEMPLATE_NAME = "README.md.jinja"
CONFIG_DIR = "/etc/modelserver"


def generate_readme(spec) -> str:
    template_path = TEMPLATES_DIR / README_TEMPLATE_NAME
    with template_path.open() as fh:
        template = Template(fh.read())
    return template.render(config=spec.config)


def load_banner() -> str:
    with open(os.path.join(CONFIG_DIR, "banner.j2")) as fh:
        return Template(fh.read()).render()
