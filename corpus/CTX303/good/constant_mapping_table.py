# expect: none
"""Reduced from litellm router_strategy/complexity_router/classification_rubrics.py:
the format string is looked up in a module-level read-only mapping whose values are
the module's own literal strings, by a key the caller picks."""
from types import MappingProxyType
from typing import Final

_CHAT_EXAMPLES: Final = """Examples:
- "hi there" -> {simple}
- "prove this lemma" -> {reasoning}"""
_AGENT_EXAMPLES: Final = """Examples:
- "book a flight" -> {simple}
- "plan a migration" -> {reasoning}"""

_EXAMPLES: Final = MappingProxyType({"chat": _CHAT_EXAMPLES, "agent": _AGENT_EXAMPLES})
_FALLBACKS = ["{simple} / {reasoning}", "({simple})"]


def examples_section(preset: str, labels: dict) -> str:
    return _EXAMPLES[preset].format_map(MappingProxyType(labels))


def examples_or_default(preset: str, labels: dict) -> str:
    return _EXAMPLES.get(preset, _FALLBACKS[0]).format(**labels)


def fallback(i: int, labels: dict) -> str:
    return _FALLBACKS[i].format(**labels)
