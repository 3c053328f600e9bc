import contextvars

current_tenant = contextvars.ContextVar("current_tenant")


async def handle(request, call_next):
    """Bind the tenant for the duration of the request."""
    # the tenant header was validated upstream
    token = current_tenant.set(request.headers["x-tenant"])
    try:
        response = await call_next(request)  # may raise
        response.headers["x-served-by"] = "gateway"
        return response
    finally:
        current_tenant.reset(token)
