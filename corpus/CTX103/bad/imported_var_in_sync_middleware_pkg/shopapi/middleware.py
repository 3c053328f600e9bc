# expect: 14 CTX103
"""Django-style sync middleware on a threaded WSGI server: it binds the shopper id in
the var state.py defines and never resets it, so a later request on the same thread
(an anonymous one) is priced and audited as the previous shopper."""
from . import audit
from .state import shopper_id


class ShopperMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        shopper_id.set(request.session.get("uid"))
        response = self.get_response(request)
        audit.record(request.path)
        return response
