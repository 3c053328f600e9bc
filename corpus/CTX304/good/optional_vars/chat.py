# expect: none
from pathlib import Path

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

_ENV = ImmutableSandboxedEnvironment(loader=FileSystemLoader(Path(__file__).parent / "templates"))


def render_chat(messages: list[dict]) -> str:
    return _ENV.get_template("chat.j2").render(messages=messages)
