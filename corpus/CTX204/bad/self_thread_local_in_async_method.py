# expect: 13 CTX204
# expect: 14 CTX204
"""Async tokenizer service caching the current adapter on a thread-local attribute."""
import threading


class TokenizerService:
    def __init__(self, tokenizers: dict):
        self.tokenizers = tokenizers
        self._local = threading.local()

    async def encode(self, adapter: str, text: str) -> list[int]:
        self._local.adapter = adapter
        tok = self.tokenizers[self._local.adapter]
        return tok.encode(text)

    def encode_sync(self, adapter: str, text: str) -> list[int]:
        self._local.adapter = adapter
        return self.tokenizers[adapter].encode(text)
