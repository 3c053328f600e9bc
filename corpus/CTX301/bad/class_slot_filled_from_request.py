# expect: 17 CTX301
# Near miss of the class-slot exemption: the slot is declared with a `None` default,
# but the constructor stores the caller's text into it through the instance, so the
# template can be anyone's.
from typing import Optional

from jinja2 import Environment


class UserPrompt:
    template: Optional[str] = None

    def __init__(self, template: str, **props) -> None:
        self.template = template
        self.props = props
        if self.template:
            self.prompt = Environment().from_string(self.template)


def preview(request) -> str:
    return UserPrompt(request.json["template"]).prompt.render()
