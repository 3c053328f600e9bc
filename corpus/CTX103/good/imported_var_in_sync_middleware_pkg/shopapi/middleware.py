# expect: none
"""The same middleware keeps the token and resets the var in `finally`."""
from . import audit
from .state import shopper_id


class ShopperMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = shopper_id.set(request.session.get("uid"))
        try:
            response = self.get_response(request)
            audit.record(request.path)
            return response
        finally:
            shopper_id.reset(token)
