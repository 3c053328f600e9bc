# expect: none
"""A memoized tokenizer loader depends only on its arguments; the request handler
reads flask.g and passes what it needs."""
from functools import lru_cache

from flask import g


@lru_cache(maxsize=16)
def load_vocab(model: str, revision: str) -> dict:
    return {"model": model, "revision": revision}


def handle(model: str) -> dict:
    vocab = load_vocab(model, "main")
    return {"org": g.org_id, "vocab_size": len(vocab)}
