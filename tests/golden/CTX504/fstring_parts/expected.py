def session_key(tenant, user_id):
    return f"tenant={tenant}:user={user_id}"
