# expect: none
from pathlib import Path

from jinja2 import FileSystemLoader
from jinja2.sandbox import ImmutableSandboxedEnvironment

PROMPTS = Path(__file__).parent / "prompts"
_ENV = ImmutableSandboxedEnvironment(loader=FileSystemLoader(PROMPTS))
_ENV.globals["product"] = "Acme Assist"


def guard_prompt(messages: list[dict], policy: str) -> str:
    return _ENV.get_template("guard.j2").render(messages=messages, policy=policy, add_generation_prompt=True)
