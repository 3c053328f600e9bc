# fix: same
# fix case (safe_format): the author's own literal with attribute fields is never rewritten
class Route:
    def __init__(self, handler) -> None:
        self.handler = handler

    def __repr__(self) -> str:
        return "<Route {h.__name__}>".format(h=self.handler)


def behaviour():
    def index():
        return 1
    return repr(Route(index))
