# expect: none
# A test fake in a fixture module (it imports pytest): its dicts live for one
# test (PythonFacts.is_test_code), however many sessions the test feeds it.
import pytest


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


@pytest.fixture
def sessions() -> FakeSessionManager:
    return SESSIONS
