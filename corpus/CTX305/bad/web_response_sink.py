# expect: 12 CTX305
# expect: 13 CTX305
"""Answers rendered by plain environments and served as web pages: a FastAPI
HTMLResponse and a Markup-wrapped fragment (no .html name anywhere)."""
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

app = FastAPI()
TEMPLATE_DIR = "/srv/answers"
_env = Environment(loader=FileSystemLoader(TEMPLATE_DIR))
_fragments = Environment()


@app.get("/answer/{qid}")
def answer(qid: str, text: str):
    body = _env.get_template("answer.tmpl").render(answer=text)
    return HTMLResponse(content=body)


def answer_fragment(text: str) -> Markup:
    return Markup(_fragments.from_string("{{ text }}").render(text=text))
