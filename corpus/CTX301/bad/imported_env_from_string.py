# expect: 12 CTX301
"""The receiver is a module-level jinja2 Environment (the file also imports another
module's names): the request's text is compiled unsandboxed."""
from json import loads

from jinja2 import Environment

ENV = Environment()


def render_user_template(body: str) -> str:
    return ENV.from_string(loads(body)["template"]).render(user=None)
