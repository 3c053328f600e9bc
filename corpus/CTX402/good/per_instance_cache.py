# expect: none
class ChatTokenizer:
    def __init__(self, tokenizer, chat_template: str):
        self.tokenizer = tokenizer
        self.chat_template = chat_template
        self._prefix_cache: dict[str, tuple] = {}  # dies with the wrapper

    def encode_prefix(self, system_prompt: str) -> tuple:
        hit = self._prefix_cache.get(system_prompt)
        if hit is None:
            text = self.chat_template.replace("{system}", system_prompt)
            hit = self._prefix_cache[system_prompt] = tuple(self.tokenizer.encode(text))
        return hit
