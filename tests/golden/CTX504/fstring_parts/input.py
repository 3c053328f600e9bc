def session_key(tenant, user_id):
    return f"{tenant}:{user_id}"
