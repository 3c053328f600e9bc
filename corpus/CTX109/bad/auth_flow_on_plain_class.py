# expect: 13 CTX109
"""Near miss: a generator method named like an auth flow on a class that is no httpx.Auth."""
from contextvars import ContextVar

current_user: ContextVar[str] = ContextVar("current_user", default="")


class EventFeed:
    def __init__(self, source):
        self.source = source

    def auth_flow(self, user: str):
        token = current_user.set(user)
        try:
            for event in self.source.events():
                yield event
        finally:
            current_user.reset(token)
