# expect: none
"""distilabel's tasks: each task's prompt template is a `.jinja2` file shipped inside
the package, found with `importlib.resources` and read with `open()`."""
import importlib.resources as importlib_resources

from jinja2 import Template


class ClairTask:
    def load(self) -> None:
        _path = str(importlib_resources.files("distilabel") / "steps" / "tasks" / "templates" / "clair.jinja2")
        with open(_path, "r") as f:
            self._template = Template(f.read())

    def load_inline(self) -> None:
        _path = str(importlib_resources.files("distilabel") / "steps" / "tasks" / "templates" / "urial.jinja2")
        self._template = Template(open(_path).read())

    def format_input(self, task: str, student_solution: str) -> str:
        return self._template.render(task=task, student_solution=student_solution)
