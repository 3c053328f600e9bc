# expect: 17 CTX301
"""Annotated `Environment`, and the class builds a plain one itself when none is
given: that value is known, and it compiles text from the request."""
from typing import Optional

import jinja2
from jinja2 import Environment


class Previewer:
    def __init__(self, env: Optional[Environment] = None) -> None:
        if env is None:
            env = jinja2.Environment()
        self.env = env

    def preview(self, body: dict) -> str:
        return self.env.from_string(body["template"]).render(**body.get("vars", {}))
