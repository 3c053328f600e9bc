# expect: none
"""Near miss of strawberry's IDE page: the page is read from a path the deployment's
environment names, not from the package."""
import os
import pathlib


def get_ide_html(ide: str | None = "graphiql") -> str:
    path = pathlib.Path(os.environ["GRAPHVIEW_IDE_PAGE"])
    return path.read_text(encoding="utf-8")
