# expect: 18 CTX301
# expect: 18 CTX305
"""URL-chosen template file: `/render/..%2F..%2Fuploads%2Fevil` reads an uploaded file as a template."""
from pathlib import Path

from flask import Flask
from jinja2 import Template

app = Flask(__name__)
TEMPLATE_DIR = Path(__file__).parent / "prompts"


@app.route("/render/<path:kind>")
def render(kind):
    if kind == "latest":
        kind = "v3"
    with open(TEMPLATE_DIR / f"{kind}.jinja") as f:
        return Template(f.read()).render()
