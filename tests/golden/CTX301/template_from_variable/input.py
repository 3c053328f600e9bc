from dataclasses import dataclass

from jinja2 import Template


@dataclass
class Node:
    system_message: str

    def render(self, inputs):
        return Template(self.system_message, trim_blocks=True).render(**inputs)
