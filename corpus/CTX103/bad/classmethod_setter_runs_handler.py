# expect: 17 CTX103  expect: 18 CTX103
"""Next to good/class_namespace_setters.py: this class method binds the identifiers and
then runs the handler itself, in the same Context, on a pooled worker thread - it is not
a setter whose caller owns the scope, and the values stay bound for the next request."""
from contextvars import ContextVar
from typing import Optional


class CallContext:
    _call_id: ContextVar[Optional[str]] = ContextVar("call_id")
    _thread_id: ContextVar[Optional[str]] = ContextVar("thread_id")

    @classmethod
    def dispatch(cls, request, handler):
        """Bind the call's identifiers and run it."""
        call_id = request.headers.get("x-call-id")
        cls._call_id.set(call_id)
        cls._thread_id.set(request.thread)
        handler(request)
