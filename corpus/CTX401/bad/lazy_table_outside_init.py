# expect: 22 CTX401
"""Made lazily on the first upload, the table is the object's for its whole life:
the `_opened` test means no later call starts it over."""
import uuid


class UploadManager:
    def __init__(self, store):
        self.store = store
        self._opened = False

    def begin(self, blob: bytes) -> str:
        if not self._opened:
            self._pending = {}
            self._opened = True
        return self._stage(blob)

    def _stage(self, blob: bytes) -> str:
        upload_id = uuid.uuid4().hex
        self.store.put(upload_id, blob)
        # every upload leaves its size here; nothing pops it when the upload completes
        self._pending[upload_id] = len(blob)
        return upload_id

    def size_of(self, upload_id: str):
        return self._pending.get(upload_id)
