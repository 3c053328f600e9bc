from dataclasses import dataclass

from jinja2.sandbox import ImmutableSandboxedEnvironment


@dataclass
class Node:
    system_message: str

    def render(self, inputs):
        return ImmutableSandboxedEnvironment(trim_blocks=True).from_string(self.system_message).render(**inputs)
