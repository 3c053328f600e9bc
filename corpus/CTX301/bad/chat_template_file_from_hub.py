# expect: 15 CTX301
# expect: 20 CTX301
"""A chat template file fetched from a model repository on the hub: whoever owns that
repository writes the template, and a plain Template runs it on the serving host."""
from pathlib import Path

from huggingface_hub import hf_hub_download, snapshot_download
from jinja2 import Template


def load_chat_template(repo_id: str, revision: str = "main") -> Template:
    path = hf_hub_download(repo_id, "chat_template.jinja", revision=revision)
    with open(path) as f:
        text = f.read()
    return Template(text)


def load_from_snapshot(repo_id: str) -> Template:
    local_dir = snapshot_download(repo_id)
    return Template((Path(local_dir) / "chat_template.jinja").read_text())
