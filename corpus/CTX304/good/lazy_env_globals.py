# expect: none
# The environment is built lazily behind a wrapper class that registers a global
# helper; the render call reaches it through the wrapper, so `to_html` is defined.
import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

PAGE = """
<h3>Question</h3>
{{ to_html(messages) | safe }}
<p>Answer: {{ answer }}</p>
"""


class TemplateEnv:
    _instance = None

    def __init__(self):
        self._env = None

    @classmethod
    def get(cls):
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    @property
    def env(self):
        if self._env is None:
            self._env = ImmutableSandboxedEnvironment(loader=jinja2.BaseLoader(), autoescape=True)
            self._env.globals["to_html"] = self.to_html
        return self._env

    def from_string(self, text):
        return self.env.from_string(text)

    @staticmethod
    def to_html(messages):
        return "".join(f"<p>{m}</p>" for m in messages)


class Report:
    def __init__(self):
        self.templates = TemplateEnv.get()

    def render(self, messages, answer):
        return self.templates.from_string(PAGE).render(messages=messages, answer=answer)
