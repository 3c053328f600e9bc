# expect: 13 CTX103
"""Celery-style task body that binds the user for audit logging."""
import contextvars

audit_user = contextvars.ContextVar("audit_user")


def audit(event: str) -> None:
    print(f"[{audit_user.get('?')}] {event}")


def summarize_document(user_id: str, doc: str, llm) -> str:
    token = audit_user.set(user_id)
    audit("summarize start")
    summary = llm.invoke(f"Summarize:\n{doc}")
    audit("summarize done")
    return summary
