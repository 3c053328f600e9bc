# expect: none
"""Prompts are text for the model: no HTML escaping wanted."""
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

_PROMPT_ENV = Environment(loader=FileSystemLoader(Path(__file__).parent / "prompts"), autoescape=False)
_code_env = Environment(autoescape=False, keep_trailing_newline=True)


def planner_prompt(goal: str, tools: list[str]) -> str:
    return _PROMPT_ENV.get_template("planner.j2").render(goal=goal, tools=tools)


def stub_module(name: str) -> str:
    return _code_env.from_string("def {{ name }}():\n    raise NotImplementedError\n").render(name=name)
