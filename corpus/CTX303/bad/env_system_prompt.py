# expect: 17 CTX303
"""The system prompt comes from the deployment's environment and is formatted with
the request object in scope."""
import os
from dataclasses import dataclass


@dataclass
class ChatRequest:
    user_id: str
    display_name: str
    api_key: str


def system_prompt(req: ChatRequest) -> str:
    template = os.environ.get("SYSTEM_PROMPT", "You are helping {name}.")
    return template.format(name=req.display_name, request=req)
