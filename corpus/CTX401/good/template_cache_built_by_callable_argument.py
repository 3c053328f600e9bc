# expect: none
"""A template compile cache (bottle's `template()`): the class that compiles the text
comes in as a keyword argument and the local holding it is called `adapter`, but it
builds one compiled template per template the application names, not per request or
LoRA adapter."""
TEMPLATES: dict = {}
TEMPLATE_PATH = ["./views/"]


class SimpleTemplate:
    def __init__(self, source=None, name=None, lookup=None, **settings):
        self.source, self.name, self.lookup = source, name, lookup

    def render(self, **kw):
        return (self.source or "").format(**kw)


def template(tpl: str, **kwargs):
    adapter = kwargs.pop("template_adapter", SimpleTemplate)
    lookup = kwargs.pop("template_lookup", TEMPLATE_PATH)
    tplid = (id(lookup), tpl)
    if tplid not in TEMPLATES:
        TEMPLATES[tplid] = adapter(source=tpl, lookup=lookup)
    return TEMPLATES[tplid].render(**kwargs)
