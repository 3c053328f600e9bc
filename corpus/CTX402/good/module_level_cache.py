# expect: none
from functools import lru_cache


@lru_cache(maxsize=128)
def tokenizer_for(model_name: str):
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(model_name)


class Encoder:
    def __init__(self, model_name: str):
        self.model_name = model_name

    def encode(self, text: str) -> list:
        return tokenizer_for(self.model_name).encode(text)
