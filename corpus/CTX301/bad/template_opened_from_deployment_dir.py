# expect: 16 CTX301
"""Near miss of distilabel's packaged templates: the prompt file comes from a directory
the deployment's environment names, so whoever can write there decides the template."""
import os

from jinja2 import Template


class ClairTask:
    def __init__(self, name: str = "clair") -> None:
        self.name = name

    def load(self) -> None:
        _path = os.path.join(os.environ["PROMPT_TEMPLATE_DIR"], f"{self.name}.jinja2")
        with open(_path, "r") as f:
            self._template = Template(f.read())

    def format_input(self, task: str, student_solution: str) -> str:
        return self._template.render(task=task, student_solution=student_solution)
