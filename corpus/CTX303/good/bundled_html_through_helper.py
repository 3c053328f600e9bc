# expect: none
"""A web UI formats its footer from an HTML file of its own source tree, read through
a small helper by a relative path that runs down into this package's directory
(`good/html/footer.html` next to this module). The author wrote that file; it is not
text from outside the program, whatever the working directory holds."""


def load_raw(path):
    with open(path, "r", encoding="utf-8") as fh:
        data = fh.read()
    return str(data)


def build_footer(versions: str) -> str:
    footer = load_raw("good/html/footer.html")
    return footer.format(versions=versions, docs="https://example.invalid/docs")


def build_banner(user) -> str:
    with open("CTX303/good/html/banner.html", encoding="utf-8") as fh:
        banner = fh.read()
    return banner.format(user=user)
