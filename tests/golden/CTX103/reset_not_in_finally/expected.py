import contextvars

_active_request = contextvars.ContextVar("active_request", default=None)


class BindRequestMiddleware:
    def __call__(self, request):
        token = _active_request.set(request)
        try:
            response = self.get_response(request)  # may raise
        finally:
            _active_request.reset(token)
        log_response(response)
        return response
