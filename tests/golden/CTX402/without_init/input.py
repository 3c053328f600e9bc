from functools import cache


class Tokenizer:
    vocab_file = "vocab.json"

    @cache
    def encode(self, text):
        return [ord(c) for c in text]
