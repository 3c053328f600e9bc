# expect: 19 CTX501
"""The method refuses a foreign thread id, but the cache is module level: every
store instance (one per thread) writes into it, so the speaker alone still mixes
threads."""

_SUMMARY_CACHE: dict[str, str] = {}


class SharedTranscriptStore:
    def __init__(self, backend, settings):
        self.backend = backend
        self.settings = settings

    def load_summary(self, thread_id: str, speaker: str):
        if thread_id != self.settings.thread_id:
            return None
        text = self.backend.fetch(thread_id=thread_id, speaker=speaker)
        key = ("summary", speaker)
        _SUMMARY_CACHE[key] = text
        return text
