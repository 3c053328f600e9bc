from flask import Flask, request
from jinja2.sandbox import ImmutableSandboxedEnvironment

app = Flask(__name__)


@app.post("/playground/preview")
def preview():
    body = request.get_json()
    return ImmutableSandboxedEnvironment().from_string(body["template"]).render(**body.get("sample", {}))
