# expect: none
# The dashboard renders one Jinja page from a directory it shares with the Tornado
# handlers' own templates (`{% end %}` blocks): those are not Jinja templates.
import os

from jinja2 import Environment, FileSystemLoader, select_autoescape

env = Environment(
    loader=FileSystemLoader(os.path.join(os.path.dirname(__file__), "templates")),
    autoescape=select_autoescape(),
)


def dashboard_page(title: str, panels: list[str]) -> str:
    return env.get_template("dashboard.html").render(title=title, panels=panels)
