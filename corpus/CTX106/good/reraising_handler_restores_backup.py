# expect: none
"""On error the handler restores the backup (with `cleanup=True`) and re-raises; the
cleanup after the `try` is the success path's (zenml's database backup engine)."""
import logging
from contextlib import contextmanager

log = logging.getLogger(__name__)


class BackupEngine:
    def __init__(self, store):
        self.store = store

    def backup_database(self) -> None:
        self.store.dump()

    def restore_database(self, cleanup: bool = False) -> None:
        self.store.load(cleanup=cleanup)

    def cleanup_database_backup(self) -> None:
        self.store.delete_dump()

    @contextmanager
    def backup(self):
        self.backup_database()
        try:
            yield
        except Exception:
            self.restore_database(cleanup=True)
            raise
        self.cleanup_database_backup()
