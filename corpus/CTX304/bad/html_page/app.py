# expect: none
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

env = Environment(
    loader=FileSystemLoader(Path(__file__).resolve().parent / "templates"),
    autoescape=select_autoescape(),
)


def transcript_page(conversation_id: str, turns: list[dict]) -> str:
    return env.get_template("transcript.html").render(turns=turns, conversation_id=conversation_id)
