# expect: none
# Docstrings rendered as templates: the text is the program's own (a UI library
# fills each event listener's doc with the component's name; a CLI renders its
# commands' help). `__doc__`, `inspect.getdoc`, dedented or stripped.
import inspect
import textwrap

from jinja2 import Environment, Template


class EventListener:
    def __init__(self, name, listener):
        self.name = name
        self.listener = listener

    def set_doc(self, component: str) -> None:
        if self.listener.__doc__:
            self.listener.__doc__ = Template(self.listener.__doc__).render(component=component)


_env = Environment()


def command_help(fn, prog: str) -> str:
    return _env.from_string(inspect.getdoc(fn) or "").render(prog=prog)


def class_help(cls, prog: str) -> str:
    return Template(textwrap.dedent(cls.__doc__).strip()).render(prog=prog)
