# expect: none
"""Chat messages rendered by a plain Environment with autoescape off: the output is
prompt text sent to a model, never HTML (nothing shows it is served as a page)."""
from jinja2 import Environment, StrictUndefined

_inline_env = Environment(trim_blocks=True, undefined=StrictUndefined, autoescape=False)
page_env = Environment(autoescape=False)  # named like a page, renders a prompt


QUESTION = "Context:\n{% for d in docs %}- {{ d.text }}\n{% endfor %}Question: {{ question }}"


def render_message(**variables) -> dict:
    return {"role": "user", "content": _inline_env.from_string(QUESTION).render(**variables)}


def system_prompt(persona: str) -> str:
    return page_env.from_string("You are {{ persona }}. Answer briefly.").render(persona=persona)
