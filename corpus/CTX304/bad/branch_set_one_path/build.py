# expect: none
# Near misses of a template binding its own variables: the binding is missing on one
# path (an if without else, an if/elif without else, a set inside a loop that does
# not leave it, a read before the set), so that read comes from the render call,
# which never passes it.
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"))


def dockerfile(base_image: str, python_version: str) -> str:
    return _ENV.get_template("image.j2").render(base_image=base_image, python_version=python_version)


def grader_prompt(mode: str, answers: list[str]) -> str:
    return _ENV.get_template("grader.j2").render(mode=mode, answers=answers)
