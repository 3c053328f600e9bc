# expect: 13 CTX301
"""A prompt-playground endpoint that previews a user-edited template."""
from flask import Flask, request, render_template_string

app = Flask(__name__)


@app.post("/playground/preview")
def preview():
    body = request.get_json()
    template_text = body["template"]
    sample = body.get("sample", {})
    return render_template_string(template_text, **sample)
