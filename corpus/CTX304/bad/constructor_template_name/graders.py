# expect: none
"""Each grader loads its template once, by the name its constructor is given."""
from pathlib import Path

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

_ENV = ImmutableSandboxedEnvironment(loader=FileSystemLoader(Path(__file__).parent / "prompts"))


class Grader:
    def __init__(self, template_file: str, threshold: float = 0.5):
        self.threshold = threshold
        self._template = _ENV.get_template(template_file)

    def prompt(self, question: str, answer: str) -> str:
        return self._template.render(question=question, answer=answer, threshold=self.threshold)


FAITHFULNESS = Grader("faithfulness.j2")
RELEVANCE = Grader(template_file="relevance.j2", threshold=0.7)
