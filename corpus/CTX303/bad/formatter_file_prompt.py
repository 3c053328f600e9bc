# expect: 13 CTX303
"""A string.Formatter used on a prompt read from a path the caller chooses."""
import string
from pathlib import Path

_FMT = string.Formatter()


def prompt_from_file(path: str, **values) -> str:
    # the prompt file is written by whoever deploys the service; its fields can
    # walk into every value passed ({request.__class__.__init__.__globals__})
    text: str = Path(path).read_text()
    return _FMT.format(text, **values)
