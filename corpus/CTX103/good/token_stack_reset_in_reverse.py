# expect: none
"""Bind several scope ids at once and unwind them in reverse order."""
from contextvars import ContextVar

tenant_id = ContextVar("tenant_id", default=None)
session_id = ContextVar("session_id", default=None)
lora_name = ContextVar("lora_name", default=None)


def run_turn(turn: dict, engine):
    tokens = []
    try:
        tokens.append((tenant_id, tenant_id.set(turn["tenant"])))
        tokens.append((session_id, session_id.set(turn["session"])))
        if turn.get("lora"):
            tokens.append((lora_name, lora_name.set(turn["lora"])))
        return engine.step(turn["messages"])
    finally:
        for var, token in reversed(tokens):
            var.reset(token)
