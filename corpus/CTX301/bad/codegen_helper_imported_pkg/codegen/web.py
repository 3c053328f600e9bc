# expect: none
from flask import request

from .gen import create_template


def preview():
    return create_template(request.form["template"]).render()
