# expect: none
"""A per-user token store: the token is kept in memory for later requests and then
persisted. The entry is data stored for the user (it is meant to outlive the call and
is removed only on logout), not a registration of this call's work, so a cancelled
database write leaves exactly what was intended. Reduced from agno
agno/models/xai/oauth.py (_asave / logout)."""


class TokenStore:
    def __init__(self, db) -> None:
        self.db = db
        self._memory_rows: dict[str, dict] = {}

    async def save(self, token_data: dict, user_id: str = "") -> None:
        self._memory_rows[user_id] = token_data
        if self.db is None:
            return
        await self.db.upsert_auth_token({"user_id": user_id, "token": token_data})

    def logout(self, user_id: str = "") -> None:
        self._memory_rows.pop(user_id, None)
