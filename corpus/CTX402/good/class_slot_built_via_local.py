# expect: none
"""A tokenizer service held by a holder class's slot, built on first use."""
from functools import lru_cache


class TokenizerService:
    def __init__(self, vocab):
        self.vocab = vocab

    @lru_cache(maxsize=8192)
    def encode(self, word: str) -> tuple:
        return tuple(self.vocab.get(ch, 0) for ch in word)


class Services:
    _tokenizer = None



def shared_tokenizer(vocab_loader) -> TokenizerService:
    if not Services._tokenizer:
        service = TokenizerService(vocab_loader())
        service.encode("warmup")
        Services._tokenizer = service
    return Services._tokenizer


def handle(request, vocab_loader):
    return shared_tokenizer(vocab_loader).encode(request.word)
