# expect: 16 CTX502 an lru_cache'd function reads the user ContextVar through a module-level alias: the first user's persona is served to everyone
import contextvars
from functools import lru_cache

_current_user: contextvars.ContextVar[str] = contextvars.ContextVar("current_user", default="anonymous")
USER = _current_user

_PROFILES = {
    "alice": {"tone": "formal", "language": "en"},
    "bruno": {"tone": "casual", "language": "pt"},
}


@lru_cache(maxsize=128)
def persona_prompt(model: str) -> str:
    profile = _PROFILES.get(USER.get(), {"tone": "neutral", "language": "en"})
    return f"You are {model}. Reply in {profile['language']} with a {profile['tone']} tone."


def build_messages(model: str, text: str) -> list[dict]:
    return [{"role": "system", "content": persona_prompt(model)}, {"role": "user", "content": text}]
