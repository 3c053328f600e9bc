# expect: 13 CTX301
# Reported in review of stop 22's exemptions: the None class slot is filled from a request by code outside the class.
# (A real bug the first version of the exemption silenced.)
from typing import Optional

from jinja2 import Environment


class Prompt:
    template: Optional[str] = None

    def render(self, **kw) -> str:
        return Environment().from_string(self.template).render(**kw)


def preview(request) -> str:
    p = Prompt()
    p.template = request.json["template"]     # an instance store, but not through `self`
    return p.render(name="x")
