# expect: 28 CTX501
"""Rendered system prompts are cached per persona. The render includes the
session's memory summary, so the cache entry belongs to one conversation; the key
forgets `conv.session_id`, which the dataclass carries."""
from dataclasses import dataclass, field
from typing import List

from cachetools import TTLCache


@dataclass
class Conversation:
    session_id: str
    persona: str
    memory: List[str] = field(default_factory=list)


_PROMPT_CACHE: TTLCache = TTLCache(maxsize=512, ttl=300)


def render(persona: str, memory: List[str]) -> str:
    summary = "; ".join(memory[-5:])
    return f"You are {persona}. Remember: {summary}"


def system_prompt(conv: Conversation) -> str:
    key = conv.persona
    prompt = _PROMPT_CACHE.get(key)
    if prompt is None:
        prompt = render(conv.persona, conv.memory)
        _PROMPT_CACHE[key] = prompt
    return prompt
