# expect: none
"""Sandboxed environments kept on instance attributes, whatever they are called:
assigned in __init__, in a base class, or in a setup method."""
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEnvironment


class PromptStore:
    def __init__(self, fetch) -> None:
        self._fetch = fetch
        self.jinja_env = ImmutableSandboxedEnvironment(autoescape=False)

    def render(self, prompt_id: str, **variables) -> str:
        return self.jinja_env.from_string(self._fetch(prompt_id)).render(**variables)


class ChatTemplates(PromptStore):
    def apply(self, template: str, messages: list) -> str:
        return self.jinja_env.from_string(template).render(messages=messages)


class Workflow:
    def setup(self) -> None:
        self.jinja_environment = SandboxedEnvironment()

    def node(self, text: str, **values) -> str:
        return self.jinja_environment.from_string(text).render(**values)
