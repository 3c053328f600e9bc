# expect: none
# Each entry holds only a weak reference to the per-request holder: the holder's
# state dies with its last user, so the registry keeps nothing of the request alive.
import weakref


class ClientRegistry:
    def __init__(self):
        self._cache = {}

    def holder_for(self, request_id: str, factory):
        ref = self._cache.get(request_id)
        holder = ref() if ref is not None else None
        if holder is None:
            holder = factory(request_id)
            self._cache[request_id] = weakref.ref(holder)
        return holder
