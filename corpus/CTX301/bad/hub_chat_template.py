# expect: 22 CTX301
"""A serving shim that renders the chat template shipped in a downloaded
tokenizer_config.json with a plain jinja2 Environment."""
import json
from pathlib import Path

import jinja2

_ENV = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)


def load_tokenizer_config(model_dir: str) -> dict:
    return json.loads((Path(model_dir) / "tokenizer_config.json").read_text())


def apply_chat_template(model_dir: str, messages: list[dict], add_generation_prompt: bool = True) -> str:
    cfg = load_tokenizer_config(model_dir)
    template = cfg.get("chat_template")
    if template is None:
        raise ValueError(f"{model_dir} has no chat template")
    # the model repo's author wrote this text
    compiled = _ENV.from_string(template)
    return compiled.render(messages=messages, add_generation_prompt=add_generation_prompt,
                           bos_token=cfg.get("bos_token", ""), eos_token=cfg.get("eos_token", ""))
