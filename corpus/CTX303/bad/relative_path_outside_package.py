# expect: 15 CTX303
# expect: 20 CTX303
"""A relative path that does not lead into this module's own directory tree names a
file of whoever runs the service (`config/...` under the working directory), so its
text comes from outside the program and its fields can walk the request."""


def load_raw(path):
    with open(path, "r", encoding="utf-8") as fh:
        return fh.read()


def greeting(request) -> str:
    template = load_raw("config/greeting.txt")
    return template.format(request=request)


def footer(request) -> str:
    text = load_raw("/etc/webui/footer.html") + load_raw("config/footer.html")
    return text.format(request=request)
