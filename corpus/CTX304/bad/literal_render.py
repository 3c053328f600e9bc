# expect: 9 CTX304
"""A literal template rendered in the same file without one of its variables."""
from jinja2 import Template

_CLASSIFY = Template(
    "Classify the ticket into one of: {{ labels | join(', ') }}.\n"
    "{% for ex in examples %}Example: {{ ex.text }} -> {{ ex.label }}\n{% endfor %}"
    "Ticket: {{ ticket }}\n"
    "Answer with the label only, in {{ language }}."
)


def classify_prompt(ticket: str, labels: list[str], examples: list[dict]) -> str:
    return _CLASSIFY.render(ticket=ticket, labels=labels, examples=examples)
