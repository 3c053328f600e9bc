# expect: none
import os

from jinja2 import Environment, FileSystemLoader

_TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
_ENV = Environment(loader=FileSystemLoader(_TEMPLATE_DIR), trim_blocks=True)


def summary_prompt(document: str, max_words: int) -> str:
    template = _ENV.get_template("summary.j2")
    return template.render(document=document, max_words=max_words)
