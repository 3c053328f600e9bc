from jinja2 import (
    Environment,
    FileSystemLoader,
)

env = Environment(
    loader=FileSystemLoader("templates/html"),
    trim_blocks=True,  # keep the HTML tidy
)
