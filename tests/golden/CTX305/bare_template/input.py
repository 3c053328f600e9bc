from pathlib import Path

from jinja2 import Template

REPORT_PAGE = "<html><body>{{ body }}</body></html>"

def write_report(body, out_path):
    page = Template(REPORT_PAGE)
    Path(out_path).write_text(page.render(body=body))
