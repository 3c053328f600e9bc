# expect: 16 CTX301
# expect: 20 CTX301
# Near misses of the docstring exemption: a tool description taken from the
# request (its `doc` field is user text, whatever it is called), and a docstring
# concatenated with text read from a model repository.
import json

from jinja2 import Environment, Template

_env = Environment()


def render_tool(request: dict, prog: str) -> str:
    tool = request["tool"]
    doc = tool["doc"]
    return _env.from_string(doc).render(prog=prog)


def render_card(fn, card_path: str) -> str:
    return Template(fn.__doc__ + json.load(open(card_path))["card"]).render()
