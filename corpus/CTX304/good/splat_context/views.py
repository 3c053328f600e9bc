# expect: none
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

env = Environment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")))


def email_prompt(user, context: dict) -> str:
    return env.get_template("email.j2").render(user=user, **context)


def email_prompt_dict(values: dict) -> str:
    return env.get_template("email.j2").render(values)
