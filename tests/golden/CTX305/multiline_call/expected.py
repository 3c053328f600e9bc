from jinja2 import (
    Environment,
    FileSystemLoader,
    select_autoescape,
)

env = Environment(
    loader=FileSystemLoader("templates/html"),
    trim_blocks=True,  # keep the HTML tidy
    autoescape=select_autoescape(),
)
