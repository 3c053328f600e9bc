# expect: none
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, Template, select_autoescape
from jinja2.sandbox import SandboxedEnvironment

env = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"), autoescape=select_autoescape(["html"]))
preview_env = SandboxedEnvironment(loader=FileSystemLoader(Path(__file__).parent / "templates"))
BADGE = Template("<span class='badge'>{{ label }}</span>", autoescape=True)


def page(answer: str) -> str:
    return env.get_template("answer.html").render(answer=answer) + BADGE.render(label="beta")
