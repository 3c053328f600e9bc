# expect: none
"""jupyter-server's web application settings: the environment options start from
`autoescape=True` and are splatted into the environment, with the operator's own
options layered on top (their choice, not a default left off)."""
import os

from jinja2 import Environment, FileSystemLoader


def login_page(template_path: list[str], next_url: str, message: str,
               jinja_env_options: dict | None = None) -> str:
    jenv_opt = {"autoescape": True}
    jenv_opt.update(jinja_env_options if jinja_env_options else {})
    env = Environment(loader=FileSystemLoader([os.path.expanduser(p) for p in template_path]),
                      extensions=["jinja2.ext.i18n"], **jenv_opt)
    return env.get_template("login.html").render(next=next_url, message=message)
