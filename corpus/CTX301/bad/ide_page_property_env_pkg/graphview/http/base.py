# expect: none
from typing import Generic, TypeVar

from graphview.http.ides import get_ide_html

Request = TypeVar("Request")


class BaseView(Generic[Request]):
    ide: str | None = "graphiql"

    @property
    def ide_html(self) -> str:
        return get_ide_html(ide=self.ide)
