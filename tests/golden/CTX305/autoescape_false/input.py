import jinja2
from jinja2 import Environment, FileSystemLoader

env = Environment(
    loader=FileSystemLoader("templates/html"),
    autoescape=False,
)


def page(rows):
    return env.get_template("report.html").render(rows=rows)
