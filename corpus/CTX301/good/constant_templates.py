# expect: none
"""Templates written by the developers: module and class constants are literals."""
import textwrap

from jinja2 import Environment, Template

SYSTEM = textwrap.dedent("""\
    You are a support assistant for {{ product }}.
    Answer in {{ language }}.
""")

_ENV = Environment(trim_blocks=True)


class Summariser:
    TEMPLATE = "Summarise the following {{ kind }} in {{ words }} words:\n{{ text }}"

    def prompt(self, kind: str, words: int, text: str) -> str:
        return Template(self.TEMPLATE).render(kind=kind, words=words, text=text)


def system_prompt(product: str, language: str = "English") -> str:
    return _ENV.from_string(SYSTEM).render(product=product, language=language)


def short_prompt(question: str, strict: bool) -> str:
    src = "Answer briefly: {{ q }}" if strict else "Answer: {{ q }}"
    return Template(src).render(q=question)
