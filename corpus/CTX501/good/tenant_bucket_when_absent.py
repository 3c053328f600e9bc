# expect: none
"""The tenant id is folded into the key on every path where there is one; without a
tenant the digest alone is the shared bucket (an early leave, and a conditional
expression)."""
import hashlib
from dataclasses import dataclass
from typing import Optional


@dataclass
class PromptKey:
    text: str
    tenant_id: Optional[str] = None


def prompt_cache_key(prompt: str, tenant_id: Optional[str]) -> str:
    digest = hashlib.sha256(prompt.encode()).hexdigest()
    if not tenant_id:
        return digest
    return f"{tenant_id}:{digest}"


def prompt_key_for(prompt: str, tenant_id: Optional[str]) -> PromptKey:
    return PromptKey(prompt) if tenant_id is None else PromptKey(prompt, tenant_id=tenant_id)
