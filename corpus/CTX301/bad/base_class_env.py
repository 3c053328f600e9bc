# expect: 20 CTX301
# expect: 30 CTX301
"""A plain Environment built in a base class and used by a subclass, and a Flask
application's own (plain) environment compiling text from a request."""
from flask import Flask, request
from jinja2 import Environment


class Renderer:
    def __init__(self) -> None:
        self.sandbox = Environment(trim_blocks=True)  # plain, whatever it is called


class ToolPromptRenderer(Renderer):
    def __init__(self, tools: list) -> None:
        super().__init__()
        self.tools = tools

    def render(self, source: str) -> str:
        return self.sandbox.from_string(source).render(tools=self.tools)


app = Flask(__name__)


@app.post("/preview")
def preview():
    body = request.get_json()
    # Flask's app environment is a plain jinja2 Environment
    return app.jinja_env.from_string(body["template"]).render()
