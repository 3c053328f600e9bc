# expect: none
"""Template text read from a file shipped in the package (as trusted as a literal),
and string.Template (no code in it) for operator-provided text."""
import string
from importlib import resources
from pathlib import Path

from jinja2 import Template

_HERE = Path(__file__).parent
_RAG = Template((_HERE / "prompts" / "rag.j2").read_text(encoding="utf-8"))
_TOOLS = Template(resources.files(__package__ or "promptkit").joinpath("tools.j2").read_text())


def rag_prompt(question: str, passages: list[str]) -> str:
    return _RAG.render(question=question, passages=passages)


def operator_banner(operator_text: str, host: str) -> str:
    return string.Template(operator_text).safe_substitute(host=host)
