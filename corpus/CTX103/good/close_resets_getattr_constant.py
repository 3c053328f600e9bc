# expect: none
"""A sync context manager resets its tokens on exit by attribute name: a literal name
handed straight to `getattr`, and a local holding the name."""
import contextvars

request_user = contextvars.ContextVar("request_user", default=None)
request_locale = contextvars.ContextVar("request_locale", default="en")


class RequestBinding:
    def __init__(self, user, locale):
        self.user = user
        self.locale = locale

    def __enter__(self):
        self._user_tok = request_user.set(self.user)
        self._locale_tok = request_locale.set(self.locale)
        return self

    def __exit__(self, *exc):
        request_user.reset(getattr(self, "_user_tok"))
        name = "_locale_tok"
        tok = getattr(self, name, None)
        if tok is not None:
            request_locale.reset(tok)
