import functools


class SettingsView(BaseView):
    def __init__(self, read_state, state_root: str):
        """A view of one block's settings."""
        super().__init__()
        self._read_state = read_state
        self._state_root = state_root

    # settings never change within a block
    @functools.lru_cache(maxsize=256)
    def get_setting(self, key: str, default=None):
        value = self._read_state(self._state_root, key)
        return default if value is None else value
