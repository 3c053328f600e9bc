# expect: 10 CTX301
"""The receiver is jinja2's own Environment (imported under another name): the
request's text is compiled unsandboxed."""
from jinja2 import Environment as Env

ENV = Env()


def render_user_template(body: dict) -> str:
    return ENV.from_string(body["template"]).render(user=body.get("user"))
