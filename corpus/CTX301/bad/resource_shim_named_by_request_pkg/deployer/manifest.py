# expect: 19 CTX301
"""The same shim, but the resource name comes from the request: `../` walks out of the
package, so the text is no longer the package's own."""
import jinja2
from flask import request

from deployer.utils.compat import pkg_resources


def _read_asset(name: str) -> str:
    with pkg_resources.path("deployer", name) as path:
        with path.open(encoding="utf-8") as handle:
            return handle.read()


def render_manifest(config) -> str:
    env = jinja2.Environment(autoescape=False, undefined=jinja2.StrictUndefined)
    asset = request.args["asset"]
    return env.from_string(_read_asset(asset)).render(config=config)
