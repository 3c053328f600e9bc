# expect: 21 CTX501
"""The mismatch check only logs and carries on: a call for another thread still
reaches the cache, and its summary is stored under the speaker alone, where the
bound thread's next lookup finds it."""
import logging

log = logging.getLogger(__name__)


class LooseTranscriptStore:
    def __init__(self, backend, settings):
        self.backend = backend
        self.settings = settings
        self._summary_cache: dict[str, str] = {}

    def load_summary(self, thread_id: str, speaker: str):
        if thread_id != self.settings.thread_id:
            log.warning("thread %s is not %s", thread_id, self.settings.thread_id)
        text = self.backend.fetch(thread_id=thread_id, speaker=speaker)
        key = ("summary", speaker)
        self._summary_cache[key] = text
        return text
