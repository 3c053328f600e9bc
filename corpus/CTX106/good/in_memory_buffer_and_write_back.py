# expect: none
"""Saving what the caller wrote only when its block succeeds; an in-memory buffer
needs no close on the error path."""
from contextlib import contextmanager
from copy import deepcopy
from io import BytesIO, StringIO


class MemoryArtifact:
    def __init__(self) -> None:
        self.contents: dict[str, bytes | str] = {}
        self.records: dict[str, dict] = {}

    @contextmanager
    def new_file(self, path: str, binary: bool = False):
        if binary:
            f = BytesIO()
        else:
            f = StringIO()
        yield f
        self.contents[path] = f.getvalue()
        f.close()

    @contextmanager
    def edit(self, key: str):
        record = deepcopy(self.records.get(key) or {})
        yield record
        self.records[key] = record
