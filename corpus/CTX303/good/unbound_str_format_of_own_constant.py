# expect: none
import string
from pathlib import Path

PROMPT_DIR = Path("/etc/llm-gateway/prompts")  # writable by the prompt-ops team


class _PlainFieldFormatter(string.Formatter):
    """Only bare field names: {a.b} and {a[0]} are rejected."""

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise ValueError(f"attribute/index access not allowed in prompt field {field_name!r}")
        return super().get_field(field_name, args, kwargs)


_FORMATTER = _PlainFieldFormatter()


class PromptLibrary:
    def __init__(self, root: Path = PROMPT_DIR) -> None:
        self.root = root

    def load(self, name: str) -> str:
        return (self.root / f"{name}.txt").read_text(encoding="utf-8")

    def render(self, name: str, **fields) -> str:
        text = self.load(name)
        return _FORMATTER.format(text, **fields)


def grounding_prompt(library: PromptLibrary, request, passages: list[str]) -> str:
    return library.render("grounding", question=request.question, passages="\n".join(passages))
