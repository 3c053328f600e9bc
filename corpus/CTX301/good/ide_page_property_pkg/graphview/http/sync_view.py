# expect: none
from .base import BaseView, Request


class SyncView(BaseView[Request]):
    def run(self, request):
        if request.method == "GET" and request.accept_html:
            return self.render_ide(request)
        return self.execute(request)
