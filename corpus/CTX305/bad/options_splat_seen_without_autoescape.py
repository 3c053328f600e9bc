# expect: 12 CTX305
"""Near miss of jupyter-server's settings: the options splatted into the environment
are the author's own dict, seen whole, and it never turns autoescape on, so the login
page writes `message` (echoed from the query string) unescaped."""
import os

from jinja2 import Environment, FileSystemLoader


def login_page(template_path: list[str], next_url: str, message: str) -> str:
    jenv_opt = {"trim_blocks": True, "lstrip_blocks": True}
    env = Environment(loader=FileSystemLoader([os.path.expanduser(p) for p in template_path]),
                      extensions=["jinja2.ext.i18n"], **jenv_opt)
    return env.get_template("login.html").render(next=next_url, message=message)
