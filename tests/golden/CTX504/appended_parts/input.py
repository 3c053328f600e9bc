def scope_key(tenant, user):
    scope_parts = []
    if tenant is not None:
        scope_parts.append(tenant.id)
    if user is not None:
        scope_parts.append(user.id)
    return hash(tuple(scope_parts))
