# expect: none
"""A per-stream partial-word buffer: a helper reads the stream's buffer, extends it and
stores it back; the receive loop pops it when the stream terminates and the whole
buffer is cleared on reconnect. Updating existing stream state is not a registration
of this call. Reduced from pipecat-ai pipecat/services/soniox/tts.py
(_to_word_times / _receive_messages)."""


class StreamingTTS:
    def __init__(self, sink) -> None:
        self.sink = sink
        self._partials: dict[str, tuple[str, float]] = {}

    def _words(self, stream_id: str, chars: list[str], starts: list[float]) -> list:
        word, start = self._partials.get(stream_id, ("", 0.0))
        out = []
        for ch, t in zip(chars, starts):
            if ch == " ":
                if word:
                    out.append((word, start))
                word = ""
            else:
                if not word:
                    start = t
                word += ch
        self._partials[stream_id] = (word, start)
        return out

    async def on_message(self, stream_id: str, msg: dict) -> None:
        if msg.get("terminated"):
            self._partials.pop(stream_id, None)
            return
        words = self._words(stream_id, msg["chars"], msg["starts"])
        if words:
            await self.sink.add_word_timestamps(words, stream_id)

    def reconnect(self) -> None:
        self._partials.clear()
