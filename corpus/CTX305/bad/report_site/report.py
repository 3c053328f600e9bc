# expect: 9 CTX305
"""Evaluation report: model answers and judge rationales rendered into an HTML page."""
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

TEMPLATES = Path(__file__).parent / "templates"

_ENV = Environment(loader=FileSystemLoader(TEMPLATES))


def write_report(results: list[dict], out: Path) -> None:
    page = _ENV.get_template("eval_report.html").render(results=results)
    out.write_text(page, encoding="utf-8")
