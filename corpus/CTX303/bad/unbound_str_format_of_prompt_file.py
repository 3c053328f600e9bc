# expect: 16 CTX303 a prompt file from the shared prompt directory is the format string of the unbound str.format(text, ...) spelling
from pathlib import Path

PROMPT_DIR = Path("/etc/llm-gateway/prompts")  # writable by the prompt-ops team


class PromptLibrary:
    def __init__(self, root: Path = PROMPT_DIR) -> None:
        self.root = root

    def load(self, name: str) -> str:
        return (self.root / f"{name}.txt").read_text(encoding="utf-8")

    def render(self, name: str, **fields) -> str:
        text = self.load(name)
        return str.format(text, **fields)


def grounding_prompt(library: PromptLibrary, request, passages: list[str]) -> str:
    return library.render("grounding", request=request, passages="\n".join(passages))
