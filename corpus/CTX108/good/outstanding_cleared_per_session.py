# expect: none
"""A bridge that serves one upstream session after another from a worker thread's
loop; when a session ends, `_end_session` clears the map of outstanding call ids. A
cancellation while a call is relayed leaves its id only until the session ends.
`.clear()` variant of pipecat's per-connection reset (GeminiLiveLLMService._disconnect)."""
import asyncio
import threading


class SessionBridgeServer:
    def __init__(self, accept) -> None:
        self.accept = accept
        self._outstanding: dict[str, float] = {}
        self._closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._closed:
            session = self.accept()
            try:
                asyncio.run(session.run(self))
            finally:
                self._end_session()

    def _end_session(self) -> None:
        self._outstanding.clear()

    async def relay(self, call_id: str, upstream, budget: float) -> None:
        self._outstanding[call_id] = budget
        await upstream.send(call_id)
