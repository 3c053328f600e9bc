# expect: none
"""pydantic-ai's drain barrier: the whole f-string token is stored in the set and sent out
in the event; the subscriber signals back exactly `event.drain_token`, which arrives as the
parameter of `_on_drained`. That the parameter's name resembles the counter attribute
says nothing about its value."""


class EventStream:
    def __init__(self, stream, run_id: str):
        self._stream = stream
        self._run_id = run_id
        self._pending_drains: set[str] = set()
        self._next_drain_token = 0

    def _on_drained(self, drain_token: str) -> None:
        self._pending_drains.discard(drain_token)

    def _publish_result(self, topic: str, result) -> None:
        drain_token = f"{self._run_id}:{self._next_drain_token}"
        self._next_drain_token += 1
        self._stream.publish(topic, {"result": result, "drain_token": drain_token})
        self._pending_drains.add(drain_token)
