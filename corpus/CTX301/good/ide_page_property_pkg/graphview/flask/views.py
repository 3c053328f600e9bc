# expect: none
from flask import Request, render_template_string
from flask.views import View

from graphview.http.sync_view import SyncView


class GraphView(SyncView[Request], View):
    def render_ide(self, request: Request):
        return render_template_string(self.ide_html)
