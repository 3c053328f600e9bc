# expect: none
"""Kind: the tokens live on a stack that a second ContextVar holds (kagglehub's PackageScope):
`__enter__` creates the stack on first use and appends the token; `__exit__` pops it and resets."""
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
        token = PackageScope._tokens.get().pop()
        PackageScope._current.reset(token)

    @staticmethod
    def get() -> Optional["PackageScope"]:
        return PackageScope._current.get()
