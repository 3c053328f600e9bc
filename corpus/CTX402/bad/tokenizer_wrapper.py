# expect: 12 CTX402
"""One wrapper per loaded model; the lru_cache pins every wrapper (and its tokenizer)."""
from functools import lru_cache


class ChatTokenizer:
    def __init__(self, tokenizer, chat_template: str):
        self.tokenizer = tokenizer
        self.chat_template = chat_template
        self.bos = tokenizer.bos_token

    @lru_cache(maxsize=4096)
    def encode_prefix(self, system_prompt: str) -> tuple:
        text = self.bos + self.chat_template.replace("{system}", system_prompt)
        return tuple(self.tokenizer.encode(text))


def load_chat_tokenizer(load_tokenizer, model_dir: str, template: str) -> ChatTokenizer:
    # called for every model the evaluation loop loads
    return ChatTokenizer(load_tokenizer(model_dir), template)
