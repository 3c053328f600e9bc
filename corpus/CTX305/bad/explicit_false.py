# expect: 6 CTX305
"""Chat history export page with autoescape switched off."""
from jinja2 import Environment, PackageLoader

_loader = PackageLoader("chat_export", "templates")
env = Environment(loader=_loader, autoescape=False)


def export_history(conversation: dict) -> str:
    return env.get_template("history.html").render(**conversation)
