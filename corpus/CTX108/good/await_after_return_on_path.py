# expect: none
"""The insertion's branch ends in `return`: the later await (on the other path) never
runs after it. Reduced from agno agno/tools/xai_auth.py (the device-login poll that
re-stashes the pending row and returns)."""


class DeviceLogin:
    def __init__(self, client):
        self.client = client
        self._pending: dict[str, dict] = {}

    async def poll(self, user_id: str, pending: dict, still_waiting: bool) -> str:
        if still_waiting:
            self._pending[user_id] = pending
            return "not approved yet"
        await self.client.finish_login(user_id, pending)
        return "signed in"

    def clear_pending(self, user_id: str) -> None:
        self._pending.pop(user_id, None)
