# expect: none
"""Model-supplied chat templates compiled in an immutable sandbox (the transformers approach)."""
import json
from pathlib import Path

from jinja2.sandbox import ImmutableSandboxedEnvironment

_ENV = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)


def apply_chat_template(model_dir: str, messages: list[dict]) -> str:
    cfg = json.loads((Path(model_dir) / "tokenizer_config.json").read_text())
    compiled = _ENV.from_string(cfg["chat_template"])
    return compiled.render(messages=messages, add_generation_prompt=True)


class SandboxedNode:
    def __init__(self, spec: dict):
        self.spec = spec
        self.env = ImmutableSandboxedEnvironment()

    def run(self, values: dict) -> str:
        return self.env.from_string(self.spec["prompt"]).render(**values)
