# expect: none
"""The author's own format strings: a literal with attribute fields in __repr__, a
constant table looked up by key, and a repr built from the class's own fields."""

LABELS = {"short": "{name}", "long": "{name} ({kind})"}


class Route:
    def __init__(self, handler, method: str) -> None:
        self.handler = handler
        self.method = method

    def __repr__(self) -> str:
        return "<Route {method} -> {handler.__qualname__} in {handler.__module__}>".format(
            method=self.method, handler=self.handler)

    def label(self, style: str) -> str:
        return LABELS[style].format(name=self.handler.__name__, kind=self.method)


DEBUG_BANNER = "request {req.request_id} from {req.__class__.__name__}"


def banner(req) -> str:
    return DEBUG_BANNER.format(req=req)
