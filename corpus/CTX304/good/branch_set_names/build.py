# expect: none
# Every variable the templates read without a render argument is bound by the
# template itself on every path before the read: a `{% set %}` in each branch of an
# if/else (nested inside another if), an if/elif/else of block sets read inside a
# loop, and a default set on the branch taken while the variable is missing.
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "templates"))


def dockerfile(base_image: str, skip_init: bool, extra_deps: str) -> str:
    return _ENV.get_template("image.j2").render(base_image=base_image, skip_init=skip_init, extra_deps=extra_deps)


def grader_prompt(mode: str, answers: list[str], rubric: str) -> str:
    return _ENV.get_template("grader.j2").render(mode=mode, answers=answers, rubric=rubric)
