# expect: none
# A prompt base class declares its template as a class attribute with a `None`
# default; each subclass fills the slot with its own constant text, and nothing
# stores into it through an instance. The template is the developers' text.
from typing import Optional

from jinja2 import Environment


class BasePrompt:
    template: Optional[str] = None

    def __init__(self, **props) -> None:
        self.props = props
        if self.template:
            self.prompt = Environment().from_string(self.template)

    def render(self) -> str:
        return self.prompt.render(**self.props)


class SummaryPrompt(BasePrompt):
    template = "Summarise the following for {{ audience }}:\n{{ text }}"


class TitlePrompt(BasePrompt):
    template: Optional[str] = "Write a title for: {{ text }}"
