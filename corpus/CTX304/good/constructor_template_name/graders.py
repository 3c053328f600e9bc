# expect: none
"""Each grader loads its template by the name its constructor is given, and passes
every variable the templates read; a grader built from a name only known at run time
is not linked to any file."""
from pathlib import Path

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

_ENV = ImmutableSandboxedEnvironment(loader=FileSystemLoader(Path(__file__).parent / "prompts"))


class Grader:
    def __init__(self, template_file: str, threshold: float = 0.5):
        self.threshold = threshold
        self._template = _ENV.get_template(template_file)

    def prompt(self, question: str, answer: str, context: str = "") -> str:
        return self._template.render(
            question=question, answer=answer, retrieved_context=context, threshold=self.threshold
        )


class Rubric:
    def __init__(self, template_file: str):
        self._template = _ENV.get_template(template_file)

    def prompt(self, answer: str) -> str:
        return self._template.render(answer=answer)


FAITHFULNESS = Grader("faithfulness.j2")
RELEVANCE = Grader(template_file="relevance.j2", threshold=0.7)


def rubric_for(name: str) -> Rubric:
    return Rubric(f"{name}.j2")
