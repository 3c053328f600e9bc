# expect: none
# A test fake under a `tests` package: its dicts live for one test
# (PythonFacts.is_test_code), however many sessions the test feeds it.


class FakeSessionManager:
    def __init__(self) -> None:
        self.sessions: dict[str, list[str]] = {}
        self.locks: dict[str, object] = {}

    def add(self, session_id: str, message: str) -> None:
        self.sessions.setdefault(session_id, []).append(message)
        self.locks[session_id] = object()


SESSIONS = FakeSessionManager()


def record(session_id: str, message: str) -> None:
    SESSIONS.add(session_id, message)
