# expect: 15 CTX303
# expect: 20 CTX303
"""A debug banner whose literal format string walks into an object's internals, and a
string.Formatter used on a prompt read from disk."""
import string
from pathlib import Path

DEBUG_BANNER = "request {req.request_id} from {req.__class__.__module__} ({req.__dict__})"

_FMT = string.Formatter()


def banner(req) -> str:
    # prints every attribute of the request object, API keys included
    return DEBUG_BANNER.format(req=req)


def prompt_from_file(path: str, **values) -> str:
    text: str = Path(path).read_text()
    return _FMT.format(text, **values)
