from functools import cache


class Tokenizer:
    vocab_file = "vocab.json"

    def __init__(self):
        self.encode = cache(self.encode)

    def encode(self, text):
        return [ord(c) for c in text]
