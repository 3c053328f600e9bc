# expect: none
"""Site configs render a template shipped in the package, one file per config type."""
import importlib.resources
from pathlib import Path
from typing import Literal

import jinja2
from pydantic import BaseModel

HERE = Path(__file__).parent
_UNIT_FILES = {"web": "web.service.j2", "worker": "worker.service.j2"}


def read_bundled(name: str) -> str:
    return importlib.resources.files("gateway").joinpath(f"resources/nginx/{name}").read_text()


class SiteConfig(BaseModel):
    type: str
    domain: str

    def render(self) -> str:
        source = read_bundled(f"{self.type}.jinja2")
        return jinja2.Template(source).render(**self.model_dump())


class ServiceConfig(SiteConfig):
    type: Literal["service"] = "service"


def _unit_text(kind: str) -> str:
    return (HERE / "units" / _UNIT_FILES[kind]).read_text()


def render_unit(kind: Literal["web", "worker"], **values) -> str:
    return jinja2.Template(_unit_text(kind)).render(**values)
