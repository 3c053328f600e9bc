# expect: none
import contextvars
from functools import lru_cache

_current_user: contextvars.ContextVar[str] = contextvars.ContextVar("current_user", default="anonymous")
USER = _current_user

_PROFILES = {
    "alice": {"tone": "formal", "language": "en"},
    "bruno": {"tone": "casual", "language": "pt"},
}


@lru_cache(maxsize=128)
def persona_prompt(user_id: str, model: str) -> str:
    profile = _PROFILES.get(user_id, {"tone": "neutral", "language": "en"})
    return f"You are {model}. Reply in {profile['language']} with a {profile['tone']} tone."


def build_messages(model: str, text: str) -> list[dict]:
    return [{"role": "system", "content": persona_prompt(USER.get(), model)}, {"role": "user", "content": text}]
