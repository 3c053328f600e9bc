# expect: none
"""A transcript store bound to one conversation thread: every method first refuses
a thread id other than its own, so its summary cache only ever holds that thread's
entries and needs no thread id in the key (read in `refresh` too, which has no guard
of its own but only ever finds entries the guarded methods stored)."""


class ThreadTranscriptStore:
    def __init__(self, backend, settings):
        self.backend = backend
        self.settings = settings
        self._summary_cache: dict[str, str] = {}

    def load_summary(self, thread_id: str, speaker: str):
        if thread_id != self.settings.thread_id:
            return None
        text = self.backend.fetch(thread_id=thread_id, speaker=speaker)
        self._summary_cache[speaker] = text
        return text

    def save_summary(self, thread_id: str, speaker: str, text: str) -> None:
        if thread_id != self.settings.thread_id:
            raise ValueError(f"store is bound to {self.settings.thread_id}, not {thread_id}")
        self.backend.store(thread_id=thread_id, speaker=speaker, text=text)
        self._summary_cache[speaker] = self.backend.fetch(thread_id=thread_id, speaker=speaker)

    def refresh(self, thread_id: str, speaker: str) -> str:
        if speaker not in self._summary_cache:
            self.load_summary(thread_id, speaker)
        return self._summary_cache.get(speaker, "")
