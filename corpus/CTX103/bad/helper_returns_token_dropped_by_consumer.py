# expect: 17 CTX103
"""A pika consumer callback binds the message's locale through a helper that returns
the token; the callback drops it, so the blocking connection's thread renders the next
message (possibly another tenant's) in this message's language."""
from contextvars import ContextVar

_lang: ContextVar[str] = ContextVar("lang", default="en")


def bind_locale(headers):
    code = (headers or {}).get("accept-language", "en")[:2]
    token = _lang.set(code)
    return token


def on_message(channel, method, properties, body, render=None):
    bind_locale(properties.headers)
    render(body, lang=_lang.get())
    channel.basic_ack(delivery_tag=method.delivery_tag)
