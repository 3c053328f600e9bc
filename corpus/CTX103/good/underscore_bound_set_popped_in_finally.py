# expect: none
"""Kind: the token is bound to `_` (nothing reads it) and the `finally` pops this call's entry
and sets the popped copy back (daytona-sdk's nested-timeout stack): the set is undone on every path."""
import asyncio
import contextvars
import time

_timeout_stack: contextvars.ContextVar[list] = contextvars.ContextVar("timeout_stack", default=[])


def with_timeout(func, timeout: float):
    async def wrapper(*args, **kwargs):
        stack = _timeout_stack.get().copy()
        info = {"func": func.__name__, "timeout": timeout, "start": time.time()}
        _ = stack.append(info)
        _ = _timeout_stack.set(stack)
        try:
            return await asyncio.wait_for(func(*args, **kwargs), timeout=timeout)
        finally:
            stack = _timeout_stack.get().copy()
            if stack and stack[-1] == info:
                _ = stack.pop()
                _ = _timeout_stack.set(stack)

    return wrapper
