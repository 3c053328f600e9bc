# expect: 25 CTX505
"""disnake/nextcord `ViewStore`: views are stored under three-part keys, and `remove_view`
pops two-part keys, which never match (a 2-tuple never equals a 3-tuple). The entry is
reclaimed only when a later `add_view` sweeps finished views: the message says so."""

class ViewStore:
    def __init__(self):
        self._views = {}

    def __verify_integrity(self):
        to_remove = []
        for k, (view, _) in self._views.items():
            if view.is_finished():
                to_remove.append(k)
        for k in to_remove:
            del self._views[k]

    def add_view(self, view, message_id=None):
        self.__verify_integrity()
        for item in view.children:
            self._views[item.type.value, message_id, item.custom_id] = (view, item)

    def remove_view(self, view):
        for item in view.children:
            self._views.pop((item.type.value, item.custom_id), None)
