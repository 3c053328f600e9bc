from pathlib import Path

from jinja2 import Template, select_autoescape

REPORT_PAGE = "<html><body>{{ body }}</body></html>"

def write_report(body, out_path):
    page = Template(REPORT_PAGE, autoescape=select_autoescape())
    Path(out_path).write_text(page.render(body=body))
