# expect: 17 CTX301
# Reported in review of stop 22's exemptions: the None class slot is filled by setattr from the caller's fields.
# (A real bug the first version of the exemption silenced.)
from typing import Optional

from jinja2 import Environment


class Prompt:
    template: Optional[str] = None

    def __init__(self, **fields) -> None:
        for k, v in fields.items():
            setattr(self, k, v)          # template=... from the caller lands here

    def render(self, **kw) -> str:
        return Environment().from_string(self.template).render(**kw)


def preview(request) -> str:
    return Prompt(**request.json).render()
