from flask import Flask, render_template_string, request

app = Flask(__name__)


@app.post("/playground/preview")
def preview():
    body = request.get_json()
    return render_template_string(body["template"], **body.get("sample", {}))
