# expect: 16 CTX103
"""Kind: the token goes on a stack a ContextVar holds, but `__exit__` only pops it and never
resets: the scope set in `__enter__` stays current after the `with` block."""
import contextvars
from typing import Optional


class PackageScope:
    _current = contextvars.ContextVar["Optional[PackageScope]"]("package_scope", default=None)
    _tokens = contextvars.ContextVar("package_scope_tokens", default=None)

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        token = PackageScope._current.set(self)
        if PackageScope._tokens.get() is None:
            PackageScope._tokens.set([])
        PackageScope._tokens.get().append(token)
        return self

    def __exit__(self, exc_type, exc, tb):
        PackageScope._tokens.get().pop()  # drops the token: the scope stays current

    @staticmethod
    def get() -> Optional["PackageScope"]:
        return PackageScope._current.get()
