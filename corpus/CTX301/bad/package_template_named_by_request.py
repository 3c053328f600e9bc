# expect: 22 CTX301
# expect: 22 CTX305
# expect: 27 CTX301
# expect: 27 CTX305
"""A preview endpoint reads a 'package' template whose name the request chooses:
`../` walks out of the package directory, and the text is compiled unsandboxed."""
import importlib.resources

import jinja2
from flask import Flask, request

app = Flask(__name__)


def read_bundled(name: str) -> str:
    return importlib.resources.files("gateway").joinpath(f"resources/{name}").read_text()


@app.get("/preview")
def preview():
    source = read_bundled(request.args["template"])
    return jinja2.Template(source).render()


@app.get("/preview-inline")
def preview_inline():
    return jinja2.Template(importlib.resources.files("gateway").joinpath(request.args["t"]).read_text()).render()
