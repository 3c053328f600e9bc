# expect: none
"""The manifest template is a file shipped in the package, read through a version shim
of importlib.resources: the developers' text, not a caller's."""
import jinja2

from deployer.utils.compat import pkg_resources


def _read_asset(name: str) -> str:
    with pkg_resources.path("deployer", name) as path:
        with path.open(encoding="utf-8") as handle:
            return handle.read()


def render_manifest(config) -> str:
    env = jinja2.Environment(autoescape=False, undefined=jinja2.StrictUndefined)
    return env.from_string(_read_asset("manifest.jinja")).render(config=config)
