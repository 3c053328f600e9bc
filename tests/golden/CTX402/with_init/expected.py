import functools


class SettingsView(BaseView):
    def __init__(self, read_state, state_root: str):
        """A view of one block's settings."""
        super().__init__()
        self.get_setting = functools.lru_cache(maxsize=256)(self.get_setting)
        self._read_state = read_state
        self._state_root = state_root

    # settings never change within a block
    def get_setting(self, key: str, default=None):
        value = self._read_state(self._state_root, key)
        return default if value is None else value
