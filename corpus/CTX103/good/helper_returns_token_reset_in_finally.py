# expect: none
"""The same helper returns the token; the callback resets it in `finally`."""
from contextvars import ContextVar

_lang: ContextVar[str] = ContextVar("lang", default="en")


def bind_locale(headers):
    code = (headers or {}).get("accept-language", "en")[:2]
    token = _lang.set(code)
    return token


def on_message(channel, method, properties, body, render=None):
    token = bind_locale(properties.headers)
    try:
        render(body, lang=_lang.get())
    finally:
        _lang.reset(token)
    channel.basic_ack(delivery_tag=method.delivery_tag)
