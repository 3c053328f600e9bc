# expect: none
"""Kind: setter APIs that are class or static methods of a namespace class. Each binds
the request's identifiers (several ContextVars, each once, from its parameters) and
returns nothing; the server calls them at the start of every request handler, and the
caller owns the scope - the same shape as a module-level setter."""
from contextvars import ContextVar
from typing import Optional


class CallContext:
    _call_id: ContextVar[Optional[str]] = ContextVar("call_id")
    _thread_id: ContextVar[Optional[str]] = ContextVar("thread_id")
    _flag_name: ContextVar[Optional[str]] = ContextVar("flag_name", default=None)
    _flag_bucket: ContextVar[Optional[str]] = ContextVar("flag_bucket", default=None)

    @classmethod
    def bind_call(cls, call_id: str, thread_id: Optional[str] = None):
        """Bind the call's identifiers."""
        cls._call_id.set(call_id)
        cls._thread_id.set(thread_id)

    @staticmethod
    def bind_flag(name: Optional[str], bucket: Optional[str]) -> None:
        if name is None:
            bucket = None
        CallContext._flag_name.set(name)
        CallContext._flag_bucket.set(bucket)

    @classmethod
    def call_id(cls) -> Optional[str]:
        try:
            return cls._call_id.get()
        except LookupError:
            return None
