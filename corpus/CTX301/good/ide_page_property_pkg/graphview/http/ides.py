# expect: none
"""The IDE pages ship inside the package (strawberry's `get_graphql_ide_html`)."""
import pathlib


def get_ide_html(ide: str | None = "graphiql") -> str:
    here = pathlib.Path(__file__).parents[1]
    if ide == "pathfinder":
        path = here / "static/pathfinder.html"
    else:
        path = here / "static/graphiql.html"
    return path.read_text(encoding="utf-8")
