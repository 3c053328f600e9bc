# expect: none
"""Literal jinja2 templates in code that only read public fields."""
from jinja2 import Environment, Template
from langchain_core.prompts import PromptTemplate

_ENV = Environment(trim_blocks=True)

ANSWER = _ENV.from_string("Answer {{ question }} using:\n{% for p in passages %}- {{ p.text }}\n{% endfor %}")
TITLE = Template("{{ doc.title | title }} by {{ doc.author_name }}")
QA = PromptTemplate(template="Q: {{ q }}\nA:", input_variables=["q"], template_format="jinja2")
