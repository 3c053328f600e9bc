# expect: none
"""Handlers and request classes registered in class attributes: callables and classes, not requests."""
import collections.abc
from typing import Type

from starlette.requests import Request
from starlette.responses import Response


class ErrorPages:
    handler: "collections.abc.Callable[[Request, Exception], Response] | None" = None
    request_class: Type[Request] = Request

    @classmethod
    def use(cls, handler: "collections.abc.Callable[[Request, Exception], Response]") -> None:
        cls.handler = handler

    @classmethod
    def use_request_class(cls, request_class: type[Request]) -> None:
        cls.request_class = request_class


_on_request: list = []


def on_request(callback: collections.abc.Callable[[Request], None]) -> None:
    _on_request.append(callback)
