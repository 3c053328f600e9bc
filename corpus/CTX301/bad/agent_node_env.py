# expect: 22 CTX301
"""Workflow node whose prompt is written by whoever edits the workflow graph."""
from jinja2 import Environment, StrictUndefined


class PromptNode:
    def __init__(self, spec: dict):
        self.spec = spec
        self.env = Environment(undefined=StrictUndefined, trim_blocks=True)

    def inputs(self) -> list[str]:
        return list(self.spec.get("inputs", []))

    def run(self, values: dict) -> str:
        missing = [k for k in self.inputs() if k not in values]
        if missing:
            raise KeyError(missing)
        return self._compile().render(**values)

    def _compile(self):
        source = self.spec["prompt"]
        return self.env.from_string(source)
